package store_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/synth"
	"github.com/rootline-dev/rootline/internal/testenv"
)

// A generated library on PostgreSQL, built once per process for the library benchmarks.
var (
	benchLibraryOnce sync.Once
	benchLibrary     *store.Store
	benchLibraryErr  error
)

// benchIncidents is the size of the benchmarks' library: ROOTLINE_BENCH_INCIDENTS, else 100,000.
func benchIncidents() int {
	if n, err := strconv.Atoi(os.Getenv("ROOTLINE_BENCH_INCIDENTS")); err == nil && n > 0 {
		return n
	}
	return 100_000
}

// libraryTarget is the incident the lookups start from: the first generated one whose root
// cause is capacity_exhaustion and that involves a node pool and a Prometheus, as IL-0070 does.
// (The generated node pools have no role and no cluster, so they are shared with none: the
// incidents sharing only a component are those with a Prometheus.)
var libraryTarget incident.Report

func isLibraryTarget(r incident.Report) bool {
	kinds := map[string]bool{}
	for _, c := range r.Components {
		kinds[c.Kind] = true
	}
	return r.RootCause == "capacity_exhaustion" && kinds["NodePool"] && kinds["Prometheus"]
}

// buildLibrary imports n generated reports into st with ImportReports, adds a note holding a
// word no report has, and refreshes the planner's statistics.
func buildLibrary(ctx context.Context, st *store.Store, n int, log func(string, ...any)) error {
	reports := make([]incident.Report, n)
	for i := range reports {
		reports[i] = synth.Report(1, i)
		if libraryTarget.ID == "" && isLibraryTarget(reports[i]) {
			libraryTarget = reports[i]
		}
	}
	start := time.Now()
	if _, err := st.ImportReports(ctx, reports, nil); err != nil {
		return err
	}
	log("imported %d generated reports in %v (%.0f reports/s)", n, time.Since(start).Round(time.Millisecond), float64(n)/time.Since(start).Seconds())
	note := &incident.Note{IncidentID: reports[n/2].ID, At: time.Now(), Kind: incident.Observation, Body: "Seen first by the night shift on a quasar dashboard."}
	if err := st.CreateNote(ctx, note); err != nil {
		return err
	}
	if st.Dialect() == store.Postgres {
		// What autovacuum does soon after a large import: statistics for the planner, and the
		// visibility map that lets index-only scans skip the table.
		return st.DB().WithContext(ctx).Exec("VACUUM ANALYZE").Error
	}
	return st.DB().WithContext(ctx).Exec("ANALYZE").Error
}

// libraryOnPostgres returns the benchmarks' library: in the test database, built by this
// process, or in ROOTLINE_BENCH_DATABASE (a PostgreSQL URL), built there on first use and kept,
// so that repeated runs skip the import.
func libraryOnPostgres(b *testing.B) *store.Store {
	b.Helper()
	benchLibraryOnce.Do(func() {
		ctx := context.Background()
		url := os.Getenv("ROOTLINE_BENCH_DATABASE")
		if url == "" {
			if err := pg.Available(); err != nil {
				benchLibraryErr = err
				return
			}
			url = pg.URL
		}
		st, err := store.Open(ctx, mustTarget(b, url), nil)
		if err == nil {
			err = st.Migrate(ctx)
		}
		if err != nil {
			benchLibraryErr = err
			return
		}
		benchLibrary = st
		n := benchIncidents()
		var have int64
		if err := st.DB().Table("incidents").Where("id LIKE 'GEN-%'").Count(&have).Error; err != nil {
			benchLibraryErr = err
			return
		}
		if int(have) == n {
			for i := range n { // the same target as a build would pick
				if r := synth.Report(1, i); isLibraryTarget(r) {
					libraryTarget = r
					break
				}
			}
			b.Logf("using the %d generated incidents already in %s", n, url)
			return
		}
		if have > 0 {
			benchLibraryErr = fmt.Errorf("%s holds %d generated incidents, not %d: use an empty database", url, have, n)
			return
		}
		benchLibraryErr = buildLibrary(ctx, st, n, b.Logf)
	})
	if benchLibraryErr != nil {
		testenv.Missing(b, "PostgreSQL library: %v", benchLibraryErr)
	}
	return benchLibrary
}

// BenchmarkLibraryRelated is one related-incident lookup in the generated library on
// PostgreSQL: the indexed queries of RelatedCandidates, then incident.Related's ranking; the
// best 50 of each relation, and every incident of the same root cause with the best 50 of the
// others, as the related page and API ask.
//
//	go test ./internal/store -run '^$' -bench Library -benchtime 50x
func BenchmarkLibraryRelated(b *testing.B) {
	st := libraryOnPostgres(b)
	ctx := context.Background()
	sig := incident.SignatureOf(libraryTarget)
	target := incident.Candidate{ID: libraryTarget.ID, Signature: sig}
	for _, c := range []struct {
		name   string
		limits store.RelatedLimits
	}{
		{"top-50", store.RelatedLimits{SameRoot: 50, Shared: 50}},
		{"all-same-root", store.RelatedLimits{SameRoot: 0, Shared: 50}}, // what the related page and API ask
	} {
		b.Run(c.name, func(b *testing.B) {
			if c.name == "top-50" {
				plan, err := st.ExplainRelated(ctx, target, c.limits)
				if err != nil {
					b.Fatal(err)
				}
				writePlan(b, "related", fmt.Sprintf("related lookup for %s (%+v)\n%s", libraryTarget.ID, sig, plan))
			}
			var n int
			for b.Loop() {
				cands, err := st.RelatedCandidates(ctx, target, c.limits)
				if err != nil {
					b.Fatal(err)
				}
				n = len(incident.Related(target, cands))
			}
			b.ReportMetric(float64(n), "related")
		})
	}
}

// BenchmarkLibrarySearch is a library search on PostgreSQL: ranked full-text search for a
// rare word (one note holds it), a word of middling frequency, and two common words, and a
// listing filtered by cause, component and date.
func BenchmarkLibrarySearch(b *testing.B) {
	st := libraryOnPostgres(b)
	ctx := context.Background()
	for _, c := range []struct {
		name string
		f    store.IncidentFilter
	}{
		{"rare-word", store.IncidentFilter{Query: "quasar"}},
		{"middling-word", store.IncidentFilter{Query: "term300"}},
		{"common-words", store.IncidentFilter{Query: "prometheus scrape"}},
		{"filters", store.IncidentFilter{Cause: "capacity_exhaustion", Component: "Prometheus", From: "2023-01-01", To: "2023-12-31"}},
	} {
		name, f := c.name, c.f
		b.Run(name, func(b *testing.B) {
			plan, err := st.ExplainIncidents(ctx, f)
			if err != nil {
				b.Fatal(err)
			}
			writePlan(b, "search-"+name, plan)
			var n int
			for b.Loop() {
				list, err := st.Incidents(ctx, f)
				if err != nil {
					b.Fatal(err)
				}
				n = len(list)
			}
			b.ReportMetric(float64(n), "found")
		})
	}
}

// writePlan keeps a query plan in $ROOTLINE_BENCH_PLANS/<name>.txt when that is set (go test
// cuts a benchmark's log to a few lines).
func writePlan(b *testing.B, name, plan string) {
	dir := os.Getenv("ROOTLINE_BENCH_PLANS")
	if dir == "" {
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name+".txt"), []byte(plan), 0o644); err != nil {
		b.Error(err)
	}
}

// BenchmarkLibraryRelatedBareQuery is the related lookup's yardstick: the database reading the
// ids of the incidents that share the target's root cause and of those that share its
// component kinds, nothing else (no scoring, no signatures, no ranking).
func BenchmarkLibraryRelatedBareQuery(b *testing.B) {
	st := libraryOnPostgres(b)
	ctx := context.Background()
	var kinds []string // the kinds it compares: node pools of no role on no cluster are none
	for _, k := range incident.ComponentKeys(libraryTarget.Components, "") {
		if !strings.HasPrefix(k, "NodePool") {
			kinds = append(kinds, k)
		}
	}
	var n int
	for b.Loop() {
		var root, comps []string
		if err := st.DB().WithContext(ctx).Raw(`SELECT incident_id FROM incident_facets WHERE facet = 'root' AND value = ? AND incident_id <> ?`,
			libraryTarget.RootCause, libraryTarget.ID).Scan(&root).Error; err != nil {
			b.Fatal(err)
		}
		if err := st.DB().WithContext(ctx).Raw(`SELECT incident_id FROM incident_facets WHERE facet = 'component' AND value IN ? AND incident_id <> ?`,
			kinds, libraryTarget.ID).Scan(&comps).Error; err != nil {
			b.Fatal(err)
		}
		n = len(root) + len(comps)
	}
	b.ReportMetric(float64(n), "rows")
}
