package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
	"github.com/rootline-dev/rootline/internal/synth"
)

const il0070Report = `---
id: IL-0070
title: Hub restart during a large node scale-up
org: 2i2c
date: 2023-02-01
tags: [kubernetes, observability]
symptoms: [pod_evicted, pod_pending]
root_cause: capacity_exhaustion
causes: [capacity_exhaustion, shared_node_pool, shared_prometheus]
components: [{kind: NodePool, name: core}, {kind: Prometheus, name: support-prometheus-server}]
ticket: freshdesk-414
---
Prometheus load grows with the number of nodes.
`

var symptomKinds = []string{analysis.PodEvicted, analysis.PodPending}

func TestImportReport(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := context.Background()
		r, err := incident.ParseReport("IL-0070.md", []byte(il0070Report), symptomKinds, analysis.CauseKinds)
		if err != nil {
			t.Fatal(err)
		}
		created, err := st.ImportReport(ctx, r)
		if err != nil || !created {
			t.Fatalf("import: created %v, %v", created, err)
		}
		got, err := st.Report(ctx, "IL-0070")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(r, got); diff != "" {
			t.Errorf("report (-imported +stored):\n%s", diff)
		}
		before := storetest.RowCounts(t, b.Target)
		created, err = st.ImportReport(ctx, r)
		after := storetest.RowCounts(t, b.Target)
		if err != nil || created {
			t.Errorf("re-import: created %v, %v", created, err)
		}
		if diff := cmp.Diff(before, after); diff != "" {
			t.Errorf("re-import changed rows (-before +after):\n%s", diff)
		}
		// An edited report replaces its signature.
		r.Causes, r.RootCause, r.Components = []string{"shared_prometheus"}, "shared_prometheus", nil
		if _, err := st.ImportReport(ctx, r); err != nil {
			t.Fatal(err)
		}
		got, _ = st.Report(ctx, "IL-0070")
		if len(got.Causes) != 1 || got.RootCause != "shared_prometheus" || len(got.Components) != 0 {
			t.Errorf("after the edit: %+v", got)
		}
	})
}

// TestImportReports: the batched import stores what one-by-one imports store (rows, reports,
// signatures, search), updates incidents that exist, takes a repeated id as an update, and
// stores nothing when it fails part way.
func TestImportReports(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := context.Background()
		var reports []incident.Report
		for i := range 1100 { // three batches
			reports = append(reports, synth.Report(11, i))
		}
		edited := incident.Signature{RootCause: "preemption", Causes: []string{"preemption"}, Components: []incident.Component{{Kind: "Scheduler"}}}
		reports[5].Edited = &edited
		again := synth.Report(11, 7)
		again.Title = "Seventh, retitled"
		reports = append(reports, again) // the same id twice: the second updates the first

		oneAt := mustTarget(t, storetest.Fresh(t, b))
		one, err := store.Open(ctx, oneAt, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer one.Close()
		if err := one.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := one.ImportReport(ctx, reports[3]); err != nil { // exists before the batch
			t.Fatal(err)
		}
		for _, r := range reports {
			if _, err := one.ImportReport(ctx, r); err != nil {
				t.Fatal(err)
			}
		}

		if _, err := st.ImportReport(ctx, reports[3]); err != nil {
			t.Fatal(err)
		}
		var done []int
		created, err := st.ImportReports(ctx, reports, func(n int) { done = append(done, n) })
		if err != nil {
			t.Fatal(err)
		}
		if created[3] || !created[4] || created[len(created)-1] || !cmp.Equal(done, []int{500, 1000, 1101}) {
			t.Errorf("created[3] %v, created[4] %v, created[last] %v, progress %v", created[3], created[4], created[len(created)-1], done)
		}
		a := storetest.RowCounts(t, b.Target)
		o := storetest.RowCounts(t, oneAt)
		if diff := cmp.Diff(o, a); diff != "" {
			t.Errorf("rows: one by one (-) vs batched (+):\n%s", diff)
		}
		for _, id := range []string{"GEN-0000003", "GEN-0000005", "GEN-0000007", "GEN-0001099"} {
			want, err := one.Report(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			got, err := st.Report(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s (-one by one +batched):\n%s", id, diff)
			}
			ws, _ := one.Signatures(ctx, id)
			gs, _ := st.Signatures(ctx, id)
			if diff := cmp.Diff(ws, gs); diff != "" {
				t.Errorf("%s signatures (-one by one +batched):\n%s", id, diff)
			}
		}
		for _, s := range []*store.Store{one, st} {
			list, err := s.Incidents(ctx, store.IncidentFilter{Query: "retitled seventh"})
			if err != nil || len(list) != 1 || list[0].ID != "GEN-0000007" {
				t.Errorf("search after import: %v, %v", list, err)
			}
			list, err = s.Incidents(ctx, store.IncidentFilter{Cause: "preemption", Component: "Scheduler", Limit: 1000})
			if err != nil || !containsID(list, "GEN-0000005") {
				t.Errorf("GEN-0000005 not found by the person's signature: %v", err)
			}
		}

		// A failure part way (here the context ends after the first batch) stores nothing.
		before := storetest.RowCounts(t, b.Target)
		more := make([]incident.Report, 1200)
		for i := range more {
			more[i] = synth.Report(12, 5000+i)
		}
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		if _, err := st.ImportReports(cctx, more, func(int) { cancel() }); err == nil {
			t.Fatal("an import whose context ended did not fail")
		}
		after := storetest.RowCounts(t, b.Target)
		if diff := cmp.Diff(before, after); diff != "" {
			t.Errorf("a failed import left rows (-before +after):\n%s", diff)
		}
	})
}

func mustTarget(t testing.TB, database string) store.Target {
	t.Helper()
	tg, err := store.ParseTarget(database)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

func containsID(list []*incident.Incident, id string) bool {
	for _, in := range list {
		if in.ID == id {
			return true
		}
	}
	return false
}

// TestSignatureConcurrently: uploads to one incident at once each refresh its analysis
// signature; none fails (PostgreSQL once answered the second with a duplicate key, both
// having deleted the old rows before either inserted) and the last one written stands whole.
func TestSignatureConcurrently(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := context.Background()
		if err := st.CreateIncident(ctx, &incident.Incident{ID: "busy", Title: "busy"}); err != nil {
			t.Fatal(err)
		}
		sig := incident.Signature{RootCause: "capacity_exhaustion", Causes: []string{"capacity_exhaustion", "shared_prometheus"},
			Symptoms: []string{analysis.PodEvicted}, Components: []incident.Component{{Kind: "NodePool", Name: "core"}}}
		errs := make(chan error, 64)
		for range 8 {
			go func() {
				for range 8 {
					errs <- st.SetAnalysisSignature(ctx, "busy", sig)
				}
			}()
		}
		for range 64 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		got, err := st.Signatures(ctx, "busy")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(sig.Causes, got.Effective.Causes); diff != "" || got.Effective.RootCause != sig.RootCause || got.Origin != "analysis" {
			t.Errorf("the signature after concurrent writes: %+v", got)
		}
	})
}

// TestMergeAnalysisSignature: an upload's own signature is added to the incident's analysis
// signature (the facets related-incident search reads follow), its evidence moves the
// incident's date only earlier, and an incident that does not exist is ErrNotFound with
// nothing written.
func TestMergeAnalysisSignature(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := context.Background()
		at := func(s string) *time.Time { return timeAt(t, s) }
		if err := st.CreateIncident(ctx, &incident.Incident{ID: "grown", Title: "grown"}); err != nil {
			t.Fatal(err)
		}
		pool := incident.Component{Kind: incident.NodePool, Name: "core"}
		first := incident.Signature{Symptoms: []string{analysis.PodEvicted}, RootCause: "capacity_exhaustion",
			Causes: []string{"capacity_exhaustion"}, Components: []incident.Component{pool}}
		if err := st.MergeAnalysisSignature(ctx, "grown", first, at("2024-05-06T07:08:09Z")); err != nil {
			t.Fatal(err)
		}
		prom := incident.Component{Kind: "StatefulSet", Name: "prometheus"}
		second := incident.Signature{Symptoms: []string{analysis.OOMKilled, analysis.PodEvicted}, RootCause: "memory_limit_too_low",
			Causes: []string{"memory_limit_too_low"}, Components: []incident.Component{prom}}
		if err := st.MergeAnalysisSignature(ctx, "grown", second, at("2024-05-07T00:00:00Z")); err != nil {
			t.Fatal(err)
		}
		got, err := st.Signatures(ctx, "grown")
		if err != nil {
			t.Fatal(err)
		}
		want := first.Merge(second)
		if got.Origin != incident.OriginAnalysis || !got.Effective.Equal(want) {
			t.Errorf("after two merges the signature is %+v from %q, want %+v", got.Effective, got.Origin, want)
		}
		day := func() string {
			t.Helper()
			list, err := st.Incidents(ctx, store.IncidentFilter{})
			if err != nil {
				t.Fatal(err)
			}
			for _, in := range list {
				if in.ID == "grown" {
					return in.Date + " " + in.RootCause
				}
			}
			t.Fatal("the incident is not listed")
			return ""
		}
		if d := day(); d != "2024-05-06 capacity_exhaustion" {
			t.Errorf("after a later upload the incident is listed as %q", d)
		}
		// The merged component's facet is what related-incident search finds it by.
		cands, err := st.RelatedCandidates(ctx, incident.Candidate{ID: "other", Signature: incident.Signature{RootCause: "memory_limit_too_low",
			Causes: []string{"memory_limit_too_low"}, Components: []incident.Component{prom}}}, store.RelatedLimits{Shared: 10})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, c := range cands {
			found = found || c.ID == "grown"
		}
		if !found {
			t.Errorf("an incident sharing the merged component is not a candidate: %+v", cands)
		}
		if err := st.MergeAnalysisSignature(ctx, "grown", incident.Signature{}, at("2024-01-02T00:00:00Z")); err != nil {
			t.Fatal(err)
		}
		if d := day(); d != "2024-01-02 capacity_exhaustion" {
			t.Errorf("after an earlier upload the incident is listed as %q", d)
		}
		before := storetest.RowCounts(t, b.Target)
		if err := st.MergeAnalysisSignature(ctx, "gone", first, at("2024-01-01T00:00:00Z")); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a merge into an incident that does not exist: %v, want ErrNotFound", err)
		}
		if diff := cmp.Diff(before, storetest.RowCounts(t, b.Target)); diff != "" {
			t.Errorf("a merge into an incident that does not exist wrote rows (-before +after):\n%s", diff)
		}
	})
}

// timeAt is the time an RFC 3339 text gives, or the test's end.
func timeAt(t *testing.T, s string) *time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return &v
}
