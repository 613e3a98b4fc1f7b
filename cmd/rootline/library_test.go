package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/server"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

var pg *storetest.Postgres

// TestMain runs the tests; with ROOTLINE_TEST_RUN_MAIN=1 the test binary is `rootline` itself,
// so that tests can start real server processes (TestTwoServers).
func TestMain(m *testing.M) {
	if os.Getenv("ROOTLINE_TEST_RUN_MAIN") == "1" {
		os.Exit(run(os.Args[1:]))
	}
	storetest.Main(m, &pg)
}

// libraryState is what a library is: every incident as a report (fields, date, time window,
// cluster, tags, text, kept extra fields such as its source, the report's signature and a
// person's, notes), its signatures by origin, and its relations.
type libraryState map[string]struct {
	Report     incident.Report
	Signatures incident.Signatures
	Related    []incident.Relation
}

func readLibrary(t *testing.T, database string) libraryState {
	t.Helper()
	ctx := context.Background()
	st, err := openStore(ctx, database)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ids, err := st.IncidentIDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := libraryState{}
	for _, id := range ids {
		var e = out[id]
		if e.Report, err = st.Report(ctx, id); err != nil {
			t.Fatal(err)
		}
		if e.Signatures, err = st.Signatures(ctx, id); err != nil {
			t.Fatal(err)
		}
		target := incident.Candidate{ID: id, Title: e.Report.Title, Cluster: e.Report.Cluster, Signature: e.Signatures.Effective}
		cands, err := st.RelatedCandidates(ctx, target, store.RelatedLimits{Shared: 50})
		if err != nil {
			t.Fatal(err)
		}
		e.Related = incident.Related(target, cands)
		out[id] = e
	}
	return out
}

// exportServer serves the API over a database, for the export's bytes.
func exportServer(t *testing.T, database string) string {
	t.Helper()
	st := testStore(t, database)
	cfg, err := config.Default(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cfg.Auth = "off"
	ts := httptest.NewServer(server.New(cfg, server.StoreDeps(st, slog.New(slog.DiscardHandler))).Handler())
	t.Cleanup(ts.Close)
	return ts.URL
}

// TestExampleLibraryRoundTrip is the library's round trip (issues 5 and 14), on both
// databases: the example library imported, given notes, a time window, a cluster and a
// person's signature; exported; and imported into an empty database gives the same incidents
// (title, date, window, cluster, org, source, tags, root cause, causes, components, text,
// notes), signatures (with their origins) and relations. Importing the export again changes
// nothing. The API's export and `rootline export --incident` give the same bytes as the
// folder's files. IL-0070's relatives sharing its root cause come first, and node pools are
// shared only by role (the examples name no cluster).
func TestExampleLibraryRoundTrip(t *testing.T) {
	t.Parallel()
	examples := filepath.Join("..", "..", "examples", "incidents")
	storetest.Each(t, pg, func(t *testing.T, _ *store.Store, b storetest.Backend) {
		first, second := storetest.Fresh(t, b), storetest.Fresh(t, b)
		out := filepath.Join(t.TempDir(), "export")
		if got := run([]string{"import", "--database", first, examples}); got != exitOK {
			t.Fatalf("import examples: exit %d", got)
		}
		ctx := context.Background()
		st, err := openStore(ctx, first)
		if err != nil {
			t.Fatal(err)
		}
		edited := incident.Signature{Symptoms: []string{"oom_killed"}, RootCause: "memory_limit_too_low",
			Causes: []string{"memory_limit_too_low"}, Components: []incident.Component{{Kind: "DNS", Name: "coredns"}, {Kind: "Autoscaler"}}}
		if err := st.SetPersonSignature(ctx, "IL-0014", &edited); err != nil {
			t.Fatal(err)
		}
		for _, n := range []incident.Note{
			{IncidentID: "IL-0070", At: time.Date(2023, 2, 1, 17, 20, 0, 0, time.UTC), Author: "yuvi", Kind: incident.Hypothesis,
				Causes: []string{"capacity_exhaustion"}, Body: "Evicted under **memory pressure**?\n\n---\n\nor starved of CPU: `10m` requested"},
			{IncidentID: "IL-0070", At: time.Date(2023, 2, 1, 17, 45, 0, 123000, time.UTC), Kind: incident.Action, Body: "Raised the hub's CPU request to 500m."},
			{IncidentID: "IL-0001", At: time.Date(2017, 10, 17, 16, 0, 0, 0, time.UTC), Author: "a: person", Body: "  Deleted the Pending pods: no effect  "},
		} {
			if err := n.Validate(time.Now(), analysis.CauseKinds); err != nil {
				t.Fatal(err)
			}
			if err := st.CreateNote(ctx, &n); err != nil {
				t.Fatal(err)
			}
		}
		il70, err := st.Incident(ctx, "IL-0070")
		if err != nil {
			t.Fatal(err)
		}
		start, end := time.Date(2023, 2, 1, 16, 59, 0, 0, time.UTC), time.Date(2023, 2, 1, 17, 40, 0, 0, time.UTC)
		il70.Cluster, il70.StartedAt, il70.EndedAt = "leap", &start, &end
		if err := st.UpdateIncident(ctx, il70); err != nil {
			t.Fatal(err)
		}
		st.Close()
		before := readLibrary(t, first)
		if len(before) != 21 {
			t.Fatalf("the example library has %d incidents, want 21", len(before))
		}
		r := before["IL-0070"].Report
		if source, _ := r.ExtraString("source"); source == "" || len(r.Notes) != 2 || r.Cluster != "leap" || r.StartedAt == nil || r.Body == "" || r.Org != "2i2c" {
			t.Fatalf("IL-0070 before the export lacks what the round trip is to keep: %+v", r)
		}

		for _, args := range [][]string{
			{"export", "--database", first, "--out", out},
			{"import", "--database", second, out},
		} {
			if got := run(args); got != exitOK {
				t.Fatalf("%v: exit %d", args, got)
			}
		}
		after := readLibrary(t, second)
		if diff := cmp.Diff(before, after); diff != "" {
			t.Errorf("the library changed in the round trip (-before +after):\n%s", diff)
		}
		if s := after["IL-0014"].Signatures; s.Origin != incident.OriginPerson || !cmp.Equal(s.Effective, edited) {
			t.Errorf("IL-0014's signature after the round trip: %+v, want the person's %+v", s, edited)
		}
		// Importing the export again finds every note it holds already.
		rows := func(database string) map[string]int64 {
			n := rowCounts(t, database)
			return n
		}
		counts := rows(second)
		if got := run([]string{"import", "--database", second, out}); got != exitOK {
			t.Fatalf("import again: exit %d", got)
		}
		if diff := cmp.Diff(counts, rows(second)); diff != "" {
			t.Errorf("importing the export again changed rows (-before +after):\n%s", diff)
		}

		// One export: the API's bytes, the folder's file and `rootline export --incident`'s
		// standard output are the same, for every incident, before and after the round trip.
		for _, database := range []string{first, second} {
			base := exportServer(t, database)
			for id := range before {
				file, err := os.ReadFile(filepath.Join(out, id+".md"))
				if err != nil {
					t.Fatal(err)
				}
				resp, err := http.Get(base + "/api/v1/incidents/" + id + "/export?format=md")
				if err != nil {
					t.Fatal(err)
				}
				api, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				var cli bytes.Buffer
				if err := exportReports(ctx, database, id, "", &cli); err != nil {
					t.Fatal(err)
				}
				if string(api) != string(file) || cli.String() != string(file) {
					t.Errorf("%s: the exports differ:\n--- file\n%s\n--- API (%d)\n%s\n--- CLI\n%s", id, file, resp.StatusCode, api, cli.String())
				}
			}
		}

		rel := after["IL-0070"].Related
		var reasons []string
		sameRootDone := false
		for _, r := range rel {
			reasons = append(reasons, r.ID+": "+r.Reason())
			switch r.Relation {
			case incident.SameRootCause:
				if sameRootDone {
					t.Errorf("%s shares the root cause but is ranked after an incident that shares only a component", r.ID)
				}
				if after[r.ID].Signatures.Effective.RootCause != "capacity_exhaustion" {
					t.Errorf("%s: same root cause, but its root is %q", r.ID, after[r.ID].Signatures.Effective.RootCause)
				}
			case incident.SharedComponent:
				sameRootDone = true
			}
		}
		joined := strings.Join(reasons, "\n")
		for _, want := range []string{
			"IL-0003: same root cause · shared Node pool (same role: core), Prometheus",
			"IL-0005: same root cause · shared Node pool (same role: core), Prometheus",
			"IL-0004: same root cause · shared Node pool (same role: core)",
			"IL-0001: same root cause\n", // a user pool is not the core pool
			"IL-0011: shared Node pool (same role: core), Prometheus",
		} {
			if !strings.Contains(joined+"\n", want) {
				t.Errorf("IL-0070's related list lacks %q:\n%s", want, joined)
			}
		}
		for id, e := range after {
			if id != "IL-0070" && e.Signatures.Effective.RootCause == "capacity_exhaustion" && !strings.Contains(joined, id+": same root cause") {
				t.Errorf("%s shares IL-0070's root cause but is not in its related list:\n%s", id, joined)
			}
		}
		if !strings.HasPrefix(joined, "IL-0003: ") && !strings.HasPrefix(joined, "IL-0005: ") {
			t.Errorf("IL-0070's closest relatives should share the root cause, the node pool and Prometheus:\n%s", joined)
		}
		for _, not := range []string{"IL-0016", "IL-0009", "IL-0013"} { // a pool of another role or of none, and nothing else
			if strings.Contains(joined, not) {
				t.Errorf("%s is not related to IL-0070:\n%s", not, joined)
			}
		}
	})
}
