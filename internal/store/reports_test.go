package store_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
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
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
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
		before, _ := st.RowCounts(ctx)
		created, err = st.ImportReport(ctx, r)
		after, _ := st.RowCounts(ctx)
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
