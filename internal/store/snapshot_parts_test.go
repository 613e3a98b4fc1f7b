package store_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestSnapshotParts: a part of a snapshot (a file of an upload that may yet be skipped) that is
// dropped leaves nothing: no rows, however many batches it wrote, nothing counted, and its
// objects may come again; a part kept is stored as the rest. Parts do not nest.
func TestSnapshotParts(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := t.Context()
		createIncident(t, st, "parts", "leap")
		objs := generated(6000) // 6,000 pods and events: more than one batch on either database
		kept, dropped, again := objs[:200], objs[200:], objs[200:400]

		w, err := st.BeginSnapshot(ctx, store.SnapshotMeta{Digest: "parts-1", Incident: "parts"})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Rollback()
		if err := w.Mark(ctx); err != nil {
			t.Fatal(err)
		}
		if err := w.Mark(ctx); err == nil {
			t.Error("a second Mark with a part open: no error")
		}
		for _, o := range kept {
			if err := w.Add(ctx, o); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Keep(ctx); err != nil {
			t.Fatal(err)
		}
		if err := w.Mark(ctx); err != nil {
			t.Fatal(err)
		}
		for _, o := range dropped {
			if err := w.Add(ctx, o); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Drop(ctx); err != nil {
			t.Fatal(err)
		}
		if err := w.Drop(ctx); err == nil {
			t.Error("Drop without a part: no error")
		}
		// What the dropped part held comes again, outside any part: it is not a duplicate.
		for _, o := range again {
			if err := w.Add(ctx, o); err != nil {
				t.Fatalf("Add %s after its part was dropped: %v", o.Ref(), err)
			}
		}
		snap, err := w.Commit(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(map[string]int{"Pod": 200, "Event": 200}, snap.Objects); diff != "" {
			t.Errorf("objects (-want +got):\n%s", diff)
		}
		want := map[string]int64{"snapshots": 1, "incident_snapshots": 1, "pods": 200, "pod_containers": 400, "nodes": 0,
			"objects": 0, "events": 200, "snapshot_events": 200}
		if diff := cmp.Diff(want, counts(t, b.Target, snapshotTables...)); diff != "" {
			t.Errorf("rows (-want +got):\n%s", diff)
		}
	})
}
