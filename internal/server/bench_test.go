package server_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/ingest"
	"github.com/rootline-dev/rootline/internal/server"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/synth"
)

// benchEvents is the size of the incident the timeline benchmarks read: ROOTLINE_BENCH_EVENTS,
// else 100,000 events, about 3 pods for every 100 events (at least 100).
func benchEvents() int {
	if n, err := strconv.Atoi(os.Getenv("ROOTLINE_BENCH_EVENTS")); err == nil && n > 0 {
		return n
	}
	return 100000
}

// benchPostgres reports whether the timeline benchmarks run on PostgreSQL
// (ROOTLINE_BENCH_DB=postgres, the test database on ROOTLINE_TEST_POSTGRES), not SQLite.
func benchPostgres() bool { return os.Getenv("ROOTLINE_BENCH_DB") == "postgres" }

type benchIncident struct {
	st     *store.Store
	driver string // database/sql's, for the bare query
	dsn    string
	url    string
	err    error
}

// The benchmarks' incidents: big, its snapshot's objects; live, the same snapshot and the
// window of its events on the snapshot's cluster, so that what is collected of the cluster in
// that window is part of it.
var benchWindow = [2]time.Time{time.Date(2023, 2, 1, 0, 0, 0, 0, time.UTC), time.Date(2023, 2, 5, 0, 0, 0, 0, time.UTC)}

// timelineBench stores one incident of benchEvents events (and the pods and nodes they are about)
// in a SQLite file (or PostgreSQL: benchPostgres), once per test binary.
var timelineBench = sync.OnceValue(func() *benchIncident {
	b := &benchIncident{}
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	var tg store.Target
	if benchPostgres() {
		if b.err = pg.Available(); b.err != nil {
			return b
		}
		tg, b.driver, b.dsn = store.Target{Dialect: store.Postgres, DSN: pg.URL, Display: "bench"}, "pgx", pg.URL
	} else {
		dir, err := os.MkdirTemp("", "rootline-bench-")
		if err != nil {
			b.err = err
			return b
		}
		path := filepath.Join(dir, "bench.db")
		tg, _ = store.ParseTarget(path)
		b.driver, b.dsn = "sqlite", path // the driver the store registers
	}
	if b.st, b.err = store.Open(ctx, tg, log); b.err != nil {
		return b
	}
	if b.err = b.st.Migrate(ctx); b.err != nil {
		return b
	}
	if b.err = b.st.CreateIncident(ctx, &incident.Incident{ID: "big", Title: fmt.Sprintf("%d events", benchEvents())}); b.err != nil {
		return b
	}
	o := synth.Options{Pods: max(benchEvents()*3/100, 100), Events: benchEvents(), Seed: 1}
	w, err := b.st.BeginSnapshot(ctx, store.SnapshotMeta{Digest: "bench", Incident: "big"})
	if err != nil {
		b.err = err
		return b
	}
	dec := ingest.NewDecoder(ingest.Options{})
	for name, write := range map[string]func(io.Writer, synth.Options) error{"nodes.json": synth.WriteNodeList, "pods.json": synth.WritePodList, "events.json": synth.WriteEventList} {
		var buf bytes.Buffer
		if b.err = write(&buf, o); b.err != nil {
			return b
		}
		if b.err = dec.Decode(ctx, name, &buf, func(o *cluster.Object) error { return w.Add(ctx, o) }); b.err != nil {
			return b
		}
	}
	if _, b.err = w.Commit(ctx, nil); b.err != nil {
		return b
	}
	live := &incident.Incident{ID: "live", Title: "big, live", Cluster: store.DefaultCluster, StartedAt: &benchWindow[0], EndedAt: &benchWindow[1]}
	if b.err = b.st.CreateIncident(ctx, live); b.err != nil {
		return b
	}
	if _, b.err = b.st.AttachSnapshot(ctx, "bench", "live"); b.err != nil {
		return b
	}
	if benchPostgres() {
		// As autovacuum would soon: without statistics of the new rows the planner joins the
		// 100,000 events by nested loops (the bare query took 12 s instead of 0.1 s).
		db, err := sql.Open(b.driver, b.dsn)
		if err != nil {
			b.err = err
			return b
		}
		_, b.err = db.ExecContext(ctx, "ANALYZE")
		db.Close()
		if b.err != nil {
			return b
		}
	}
	srv := server.New(testConfig(), server.StoreDeps(b.st, log))
	b.url = httptest.NewServer(srv.Handler()).URL
	return b
})

// BenchmarkTimelineAPI is one page (500 entries) of the timeline of an incident of 100,000
// events, through the API, once the incident's state is made (the first view after a change
// loads and analyses it: see the first request's time, logged): check the version, filter,
// encode.
func BenchmarkTimelineAPI(b *testing.B) {
	bi := timelineBench()
	if bi.err != nil {
		b.Fatal(bi.err)
	}
	start := time.Now()
	if resp, err := http.Get(bi.url + "/api/v1/incidents/big/timeline?limit=500"); err == nil {
		_, _ = io.Copy(io.Discard, resp.Body) // a warm-up: only its time counts
		resp.Body.Close()
	}
	b.Logf("first request (load, analyse, build the timeline): %v", time.Since(start).Round(time.Millisecond))
	for b.Loop() {
		resp, err := http.Get(bi.url + "/api/v1/incidents/big/timeline?limit=500")
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || n == 0 {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
}

// BenchmarkTimelineAPIAfterChange is the first timeline page after the cluster of what the
// incident is made of changed (before each request, untimed, a collected event for its
// cluster bumps the cluster's generation; the incident has no window, and none of its
// snapshots carries the event): check what it is made of, keep the analysis, filter, encode.
func BenchmarkTimelineAPIAfterChange(b *testing.B) {
	// Seen later each time, in every run of the benchmark (-count), so that each is a change.
	timelineAfter(b, "big", func(int) (string, string) {
		return "/api/v1/events?cluster=" + store.DefaultCluster, fmt.Sprintf(`{"apiVersion": "v1", "kind": "Event",
			"metadata": {"name": "bench", "namespace": "prod", "uid": "bench-1"}, "reason": "Evicted",
			"involvedObject": {"kind": "Pod", "namespace": "prod", "name": "hub"}, "count": 1, "lastTimestamp": %q}`,
			time.Now().UTC().Format(time.RFC3339Nano))
	})
}

// BenchmarkTimelineAPIAfterEvidence is the first timeline page after new evidence of the
// incident: before each request, untimed, the collector sends an event of the incident's
// cluster within its window (a new one each time), so that the timeline changes. Load what
// changed, analyse, build the timeline, filter, encode.
func BenchmarkTimelineAPIAfterEvidence(b *testing.B) {
	seq := time.Now().UnixNano() // a new event in every run of the benchmark (-count)
	timelineAfter(b, "live", func(i int) (string, string) {
		at := benchWindow[0].Add(36*time.Hour + time.Duration(i)*time.Second)
		return "/api/v1/events?cluster=" + store.DefaultCluster, fmt.Sprintf(`{"apiVersion": "v1", "kind": "Event",
			"metadata": {"name": "bench-%[1]d-%[2]d", "namespace": "prod", "uid": "bench-%[1]d-%[2]d"}, "reason": "BackOff", "type": "Warning",
			"message": "Back-off restarting failed container", "involvedObject": {"kind": "Pod", "namespace": "prod", "name": "hub"},
			"count": 1, "firstTimestamp": %[3]q, "lastTimestamp": %[3]q}`, seq, i, at.Format(time.RFC3339))
	})
}

// BenchmarkTimelineAPIAfterNote is the first timeline page after a note was added (untimed):
// the analysis is kept, the notes read again and the timeline built again.
func BenchmarkTimelineAPIAfterNote(b *testing.B) {
	timelineAfter(b, "big", func(int) (string, string) { return "/api/v1/incidents/big/notes", `{"body": "one more note"}` })
}

// timelineAfter times the first page of an incident's timeline after each change, the page
// having been viewed before the first.
func timelineAfter(b *testing.B, id string, change func(i int) (path, body string)) {
	bi := timelineBench()
	if bi.err != nil {
		b.Fatal(bi.err)
	}
	page := bi.url + "/api/v1/incidents/" + id + "/timeline?limit=500"
	if resp, err := http.Get(page); err == nil {
		_, _ = io.Copy(io.Discard, resp.Body) // a warm-up: only its time counts
		resp.Body.Close()
	}
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		path, body := change(i)
		resp, err := http.Post(bi.url+path, "application/json", strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			b.Fatalf("%s: status %d", path, resp.StatusCode)
		}
		b.StartTimer()
		resp, err = http.Get(page)
		if err != nil {
			b.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("timeline: status %d: %s", resp.StatusCode, got)
		}
	}
}

// BenchmarkTimelineBareQuery is the yardstick: the database reading the first 500 events of
// the same incident in time order, nothing else.
func BenchmarkTimelineBareQuery(b *testing.B) {
	bi := timelineBench()
	if bi.err != nil {
		b.Fatal(bi.err)
	}
	db, err := sql.Open(bi.driver, bi.dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	q := `SELECT e.first_at, e.reason, e.message, e.involved_name FROM events e
		JOIN snapshot_events se ON se.event_id = e.id
		JOIN incident_snapshots i ON i.snapshot_id = se.snapshot_id
		WHERE i.incident_id = ? ORDER BY e.first_at LIMIT 500`
	if benchPostgres() {
		q = strings.Replace(q, "?", "$1", 1)
	}
	for b.Loop() {
		rows, err := db.Query(q, "big")
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for rows.Next() {
			var at, reason, msg, name any
			if err := rows.Scan(&at, &reason, &msg, &name); err != nil {
				b.Fatal(err)
			}
			n++
		}
		rows.Close()
		if n != 500 {
			b.Fatalf("%d rows", n)
		}
	}
}
