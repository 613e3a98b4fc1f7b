package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/incident"
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

// libraryState is what a library is: every incident as a report (fields, text, kept extra
// fields, the report's signature and a person's), its signatures by origin, and its relations.
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
	list, err := st.Incidents(ctx, store.IncidentFilter{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	out := libraryState{}
	for _, in := range list {
		var e = out[in.ID]
		if e.Report, err = st.Report(ctx, in.ID); err != nil {
			t.Fatal(err)
		}
		if e.Signatures, err = st.Signatures(ctx, in.ID); err != nil {
			t.Fatal(err)
		}
		cands, err := st.RelatedCandidates(ctx, in.ID, e.Signatures.Effective, 50)
		if err != nil {
			t.Fatal(err)
		}
		e.Related = incident.Related(in.ID, e.Signatures.Effective, cands)
		out[in.ID] = e
	}
	return out
}

// TestExampleLibraryRoundTrip is issue 5's acceptance: the example library imported, a
// signature set by a person, the library exported, and the export imported into an empty
// database give the same incidents, signatures (with their origins) and relations, on both
// databases. IL-0070's relatives sharing its root cause come first, with the shared
// components in words.
func TestExampleLibraryRoundTrip(t *testing.T) {
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
		st.Close()
		before := readLibrary(t, first)
		if len(before) < 12 {
			t.Fatalf("the example library has %d incidents, want at least 12", len(before))
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
			"IL-0003: same root cause · shared Node pool, Prometheus",
			"IL-0005: same root cause · shared Node pool, Prometheus",
			"IL-0001: same root cause · shared Node pool",
			"IL-0011: shared Node pool, Prometheus",
		} {
			if !strings.Contains(joined, want) {
				t.Errorf("IL-0070's related list lacks %q:\n%s", want, joined)
			}
		}
		if !strings.HasPrefix(joined, "IL-0003: ") && !strings.HasPrefix(joined, "IL-0005: ") {
			t.Errorf("IL-0070's closest relatives should share the root cause, the node pool and Prometheus:\n%s", joined)
		}
		if strings.Contains(joined, "IL-0016") {
			t.Errorf("IL-0016 (preemption, no shared component) is not related to IL-0070:\n%s", joined)
		}
		if _, err := os.Stat(filepath.Join(out, "IL-0070.md")); err != nil {
			t.Error(err)
		}
	})
}
