package store_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// searchLibrary is a library whose incidents write the same causes in different ways: in a
// title, a report's text, a note, or only in the signature.
func searchLibrary(t *testing.T, st *store.Store) []incident.Report {
	t.Helper()
	ctx := context.Background()
	reports := []incident.Report{
		{ID: "oom-camel", Title: "Hub OOMKilled twice", Date: "2024-01-05", RootCause: "memory_limit_too_low", Causes: []string{"memory_limit_too_low"}},
		{ID: "oom-words", Title: "Proxy restarts", Date: "2024-01-04", Body: "The proxy was OOM killed at 09:12 and came back.", RootCause: "memory_limit_too_low",
			Causes: []string{"memory_limit_too_low"}},
		{ID: "oom-short", Title: "Notebook servers died", Date: "2024-01-03", Body: "Kernel logs said oom, again.", RootCause: "memory_over_request",
			Causes: []string{"memory_over_request"}},
		{ID: "oom-kernel", Title: "Database fell over", Date: "2024-01-02", Body: "dmesg: Out of memory: Killed process 4242 (postgres).",
			RootCause: "memory_over_request", Causes: []string{"memory_over_request", "node_overcommitted"}},
		{ID: "oom-signature", Title: "Prometheus restarts", Date: "2024-01-01", Symptoms: []string{"oom_killed"}, RootCause: "memory_limit_too_low",
			Causes: []string{"memory_limit_too_low"}, Components: []incident.Component{{Kind: "Prometheus", Name: "prometheus-server"}}},
		{ID: "notready-camel", Title: "Nodes NotReady after the upgrade", Date: "2023-06-01", RootCause: "node_overcommitted", Causes: []string{"node_overcommitted"}},
		{ID: "notready-words", Title: "Kubelet stalls", Date: "2023-05-01", Body: "Three nodes were not ready for 20 minutes.", RootCause: "node_overcommitted",
			Causes: []string{"node_overcommitted", "cpu_starvation"}},
		{ID: "notready-signature", Title: "Zone outage", Date: "2023-04-01", Symptoms: []string{"node_not_ready"}, RootCause: "capacity_exhaustion",
			Causes: []string{"capacity_exhaustion"}},
		{ID: "ready", Title: "Readiness probes failed", Date: "2023-03-01", Body: "The hub was ready again after a minute; readiness probes had failed.",
			RootCause: "capacity_exhaustion", Causes: []string{"capacity_exhaustion"}},
		{ID: "room", Title: "A room of servers", Date: "2023-02-01", Body: "Nothing ran out of anything: zoom calls.", RootCause: "preemption", Causes: []string{"preemption"}},
	}
	if _, err := st.ImportReports(ctx, reports, nil); err != nil {
		t.Fatal(err)
	}
	note := &incident.Note{IncidentID: "ready", At: time.Date(2023, 3, 1, 10, 0, 0, 0, time.UTC), Kind: incident.Observation, Body: "Was it OOM-killed? No."}
	if err := st.CreateNote(ctx, note); err != nil {
		t.Fatal(err)
	}
	return reports
}

func ids(list []*incident.Incident) []string {
	out := make([]string, len(list))
	for i, in := range list {
		out[i] = in.ID
	}
	sort.Strings(out)
	return out
}

// TestSearchConcepts: a query finds the same incidents however the cause is written, in the
// query and in the incidents (a title, a report, a note, the signature); every result says why
// it matched, with the words marked; the totals and the counts per cause agree with what the
// cause chips select. On both databases.
func TestSearchConcepts(t *testing.T) {
	t.Parallel()
	oom := []string{"oom-camel", "oom-kernel", "oom-short", "oom-signature", "oom-words", "ready"}
	notReady := []string{"notready-camel", "notready-signature", "notready-words"}
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := context.Background()
		reports := searchLibrary(t, st)
		// The documents written with new incidents (in batches) and those written again with
		// an update (incident by incident) are alike: the searches run on both.
		searchVariants(t, st, oom, notReady)
		if _, err := st.ImportReports(ctx, reports, nil); err != nil {
			t.Fatal(err)
		}
		searchVariants(t, st, oom, notReady)
		// Why each matched: where, and the words marked.
		matches, err := st.SearchMatches(ctx, oom, "OOM killed")
		if err != nil {
			t.Fatal(err)
		}
		for id, want := range map[string]string{
			"oom-camel":     "title: Hub [OOMKilled] twice",
			"oom-words":     "report: The proxy was [OOM] [killed] at 09:12 and came back.",
			"oom-kernel":    "report: dmesg: [Out] [of] [memory]: Killed process 4242 (postgres).",
			"oom-signature": "signature: [oom] [killed]\nmemory limit too low\nPrometheus prometheus-server",
			"ready":         "note: Was it [OOM]-[killed]? No.",
		} {
			if got := marked(matches[id]); got != strings.ReplaceAll(want, "\n", " ") {
				t.Errorf("%s: %q, want %q", id, got, want)
			}
		}
		matches, _ = st.SearchMatches(ctx, []string{"ready"}, "evicting readiness")
		if got := marked(matches["ready"]); got != "title: [Readiness] probes failed" {
			t.Errorf("stemmed title match: %q", got)
		}

		// Counts agree: the total is every match beyond the limit, and each cause's count is what
		// adding that cause to the search selects.
		for _, f := range []store.IncidentFilter{{}, {Query: "oom"}, {Query: "not ready"}, {Query: "oom", Limit: 2}, {Cause: "memory_limit_too_low"}, {From: "2024-01-01"}} {
			counts, err := st.LibraryCounts(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			all := f
			all.Limit = 1000
			list, err := st.Incidents(ctx, all)
			if err != nil {
				t.Fatal(err)
			}
			if counts.Total != len(list) {
				t.Errorf("%+v: total %d, but %d listed", f, counts.Total, len(list))
			}
			sum := 0
			for _, c := range counts.Causes {
				narrowed := all
				narrowed.Cause = c.Cause
				got, err := st.Incidents(ctx, narrowed)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != c.Incidents {
					t.Errorf("%+v: the chip %s says %d, the search with it finds %d", f, c.Cause, c.Incidents, len(got))
				}
				sum += c.Incidents
			}
			if counts.Total > 0 && sum < counts.Total {
				t.Errorf("%+v: the chips count %d of %d incidents", f, sum, counts.Total)
			}
		}
	})
}

// searchVariants runs the searches of TestSearchConcepts: each way of writing a cause finds the
// same incidents, and each says why it matched.
func searchVariants(t *testing.T, st *store.Store, oom, notReady []string) {
	t.Helper()
	ctx := context.Background()
	for _, tt := range []struct {
		queries []string
		want    []string
	}{
		{[]string{"OOMKilled", "oom", "OOM killed", "oom-killed", "oom_killed", "out of memory", "Oomkilling"}, oom},
		{[]string{"NotReady", "not ready", "not-ready", "node_not_ready", "NOT READY"}, notReady},
		{[]string{"oom hub", "OOMKilled hub", "hub oom killed"}, []string{"oom-camel", "ready"}},
		{[]string{"ready"}, []string{"notready-signature", "notready-words", "ready"}}, // "NotReady" is one word
	} {
		for _, q := range tt.queries {
			list, err := st.Incidents(ctx, store.IncidentFilter{Query: q})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, ids(list)); diff != "" {
				t.Errorf("%q (-want +got):\n%s", q, diff)
			}
			matches, err := st.SearchMatches(ctx, ids(list), q)
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range ids(list) {
				m, ok := matches[id]
				if !ok || !slices.ContainsFunc(m.Parts, func(f store.Fragment) bool { return f.Mark }) {
					t.Errorf("%q: %s matched, but not why: %+v", q, id, m)
				}
			}
		}
	}
}

// marked writes a match as "in: text with [marked] words".
func marked(m store.Match) string {
	var b strings.Builder
	for _, p := range m.Parts {
		if p.Mark {
			fmt.Fprintf(&b, "[%s]", p.Text)
		} else {
			b.WriteString(p.Text)
		}
	}
	return m.In + ": " + b.String()
}

// TestIncidentsByDate: the library lists incidents by the day they happened, newest first: a
// report's date, else when the incident started, else the first time of its evidence, else
// when it was created; each with the root cause of the signature that speaks for it.
func TestIncidentsByDate(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := context.Background()
		at := func(s string) *time.Time { return timeAt(t, s) }
		if _, err := st.ImportReports(ctx, []incident.Report{
			{ID: "r-2019", Title: "old report", Date: "2019-01-07", RootCause: "memory_limit_too_low", Causes: []string{"memory_limit_too_low"}},
			{ID: "r-2023", Title: "report with a window", Date: "2023-02-01", StartedAt: at("2023-02-01T16:59:00Z"), RootCause: "capacity_exhaustion",
				Causes: []string{"capacity_exhaustion"}},
			{ID: "r-none", Title: "report without a date"},
		}, nil); err != nil {
			t.Fatal(err)
		}
		for _, in := range []*incident.Incident{
			{ID: "started-2021", Title: "started", StartedAt: at("2021-03-04T05:06:07Z")},
			{ID: "evidence-2022", Title: "evidence"},
			{ID: "morning-2023", Title: "same day, earlier", StartedAt: at("2023-02-01T08:00:00Z")},
		} {
			if err := st.CreateIncident(ctx, in); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.SetEvidenceTime(ctx, "evidence-2022", at("2022-07-08T09:10:11Z")); err != nil {
			t.Fatal(err)
		}
		if err := st.SetAnalysisSignature(ctx, "evidence-2022", incident.Signature{RootCause: "preemption", Causes: []string{"preemption"}}); err != nil {
			t.Fatal(err)
		}
		list, err := st.Incidents(ctx, store.IncidentFilter{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, in := range list {
			got = append(got, fmt.Sprintf("%s %s %s", in.ID, in.Date, in.RootCause))
		}
		today := time.Now().UTC().Format(time.DateOnly)
		want := []string{
			"r-none " + today + " ", // dated by its creation
			"r-2023 2023-02-01 capacity_exhaustion",
			"morning-2023 2023-02-01 ",
			"evidence-2022 2022-07-08 preemption",
			"started-2021 2021-03-04 ",
			"r-2019 2019-01-07 memory_limit_too_low",
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("the library by date (-want +got):\n%s", diff)
		}
		// A start set later dates an incident without a report's date; a report's date stays.
		in, _ := st.Incident(ctx, "evidence-2022")
		in.StartedAt = at("2020-01-01T00:00:00Z")
		if err := st.UpdateIncident(ctx, in); err != nil {
			t.Fatal(err)
		}
		r, _ := st.Incident(ctx, "r-2019")
		r.StartedAt = at("2024-01-01T00:00:00Z")
		if err := st.UpdateIncident(ctx, r); err != nil {
			t.Fatal(err)
		}
		for id, want := range map[string]string{"evidence-2022": "2020-01-01", "r-2019": "2019-01-07"} {
			if in, _ := st.Incident(ctx, id); in.Date != want {
				t.Errorf("%s dated %s, want %s", id, in.Date, want)
			}
		}
		found, err := st.Incidents(ctx, store.IncidentFilter{From: "2020-01-01", To: "2020-12-31"})
		if err != nil || len(found) != 1 || found[0].ID != "evidence-2022" {
			t.Errorf("dates filter: %v, %v", ids(found), err)
		}
	})
}
