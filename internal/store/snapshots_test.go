package store_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/ingest"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

func TestSnapshotStoreAndAttach(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := t.Context()
		createIncident(t, st, "inc-1", "leap")
		createIncident(t, st, "inc-2", "")
		ins := fixtures(t, "pods-list.json", "nodes.yaml", "events.jsonl")
		m := metaFor("inc-1", "leap", ins)

		before := time.Now()
		snap, skipped := storeSnapshot(t, st, m, ins)
		want := &store.Snapshot{ID: m.Digest, Cluster: "leap", Bytes: m.Bytes, Files: m.Files,
			Objects: map[string]int{"Pod": 2, "Node": 2, "Event": 3}, Skipped: skipped, CreatedAt: snap.CreatedAt}
		if diff := cmp.Diff(want, snap); diff != "" {
			t.Errorf("Commit (-want +got):\n%s", diff)
		}
		if snap.CreatedAt.Before(before.Add(-time.Second)) || snap.CreatedAt.After(time.Now()) || snap.CreatedAt.Location() != time.UTC {
			t.Errorf("CreatedAt = %v, want now in UTC", snap.CreatedAt)
		}
		// The Secret in pods-list.json is the one object skipped.
		wantSkipped := []ingest.Skipped{{File: "pods-list.json", Line: 64, Kind: "Secret", Namespace: "prod", Name: "hub",
			Reason: "Secret objects are never stored"}}
		if diff := cmp.Diff(wantSkipped, snap.Skipped); diff != "" {
			t.Errorf("Skipped (-want +got):\n%s", diff)
		}

		stored := map[string]int64{"snapshots": 1, "incident_snapshots": 1, "pods": 2, "pod_containers": 2, "nodes": 2,
			"objects": 0, "events": 3, "snapshot_events": 3, "clusters": 1}
		tables := append([]string{"clusters"}, snapshotTables...)
		if diff := cmp.Diff(stored, counts(t, b.Target, tables...)); diff != "" {
			t.Fatalf("rows after Commit (-want +got):\n%s", diff)
		}

		// The same bytes again are known: for this incident and for another.
		for _, id := range []string{"inc-1", "inc-2"} {
			_, err := st.BeginSnapshot(ctx, metaFor(id, "", ins))
			wantErr(t, "BeginSnapshot of a stored digest for "+id, err, store.ErrExists)
		}
		if diff := cmp.Diff(stored, counts(t, b.Target, tables...)); diff != "" {
			t.Errorf("rows after BeginSnapshot of a stored digest (-want +got):\n%s", diff)
		}

		// Attaching to its own incident again is harmless and returns what Commit returned.
		got, err := st.AttachSnapshot(ctx, m.Digest, "inc-1")
		if err != nil {
			t.Fatalf("AttachSnapshot: %v", err)
		}
		if diff := cmp.Diff(snap, got); diff != "" {
			t.Errorf("AttachSnapshot to inc-1 (-Commit +Attach):\n%s", diff)
		}
		if diff := cmp.Diff(stored, counts(t, b.Target, tables...)); diff != "" {
			t.Errorf("rows after re-attaching (-want +got):\n%s", diff)
		}

		// Attaching to a second incident links it, once, and copies nothing.
		stored["incident_snapshots"]++
		for range 2 {
			got, err := st.AttachSnapshot(ctx, m.Digest, "inc-2")
			if err != nil {
				t.Fatalf("AttachSnapshot: %v", err)
			}
			if diff := cmp.Diff(snap, got); diff != "" {
				t.Errorf("AttachSnapshot to inc-2 (-Commit +Attach):\n%s", diff)
			}
			if diff := cmp.Diff(stored, counts(t, b.Target, tables...)); diff != "" {
				t.Errorf("rows after attaching to inc-2 (-want +got):\n%s", diff)
			}
		}

		// Unknown incidents and digests.
		_, err = st.AttachSnapshot(ctx, m.Digest, "inc-404")
		wantErr(t, "AttachSnapshot to an unknown incident", err, store.ErrNotFound)
		_, err = st.AttachSnapshot(ctx, digest([]input{{name: "other", data: []byte("x")}}), "inc-1")
		wantErr(t, "AttachSnapshot of an unknown digest", err, store.ErrNotFound)
		other := fixtures(t, "multi.yaml")
		_, err = st.BeginSnapshot(ctx, metaFor("inc-404", "new-cluster", other))
		wantErr(t, "BeginSnapshot for an unknown incident", err, store.ErrNotFound)
		if diff := cmp.Diff(stored, counts(t, b.Target, tables...)); diff != "" {
			t.Errorf("rows after the failures (-want +got):\n%s", diff)
		}
	})
}

func TestSnapshotCluster(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name            string
		incidentCluster string
		metaCluster     string
		want            string
	}{
		{"named by the upload", "leap", "other", "other"},
		{"the incident's", "leap", "", "leap"},
		{"default", "", "", store.DefaultCluster},
	}
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		for i, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				id := fmt.Sprintf("inc-%d", i)
				createIncident(t, st, id, tt.incidentCluster)
				// An empty snapshot: no objects, nothing skipped.
				in := []input{{name: "empty.json", data: []byte(id)}}
				w, err := st.BeginSnapshot(t.Context(), metaFor(id, tt.metaCluster, in))
				if err != nil {
					t.Fatal(err)
				}
				defer w.Rollback()
				snap, err := w.Commit(t.Context(), nil)
				if err != nil {
					t.Fatal(err)
				}
				got := struct {
					Cluster string
					Skipped []ingest.Skipped
					Objects map[string]int
				}{snap.Cluster, snap.Skipped, snap.Objects}
				want := got
				want.Cluster, want.Skipped, want.Objects = tt.want, []ingest.Skipped{}, map[string]int{}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("Commit (-want +got):\n%s", diff)
				}
				attached, err := st.AttachSnapshot(t.Context(), snap.ID, id)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(snap, attached); diff != "" {
					t.Errorf("AttachSnapshot (-Commit +Attach):\n%s", diff)
				}
			})
		}
	})
}

// TestSnapshotRollback abandons writers in several states; nothing of them may stay.
func TestSnapshotRollback(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// fill adds objects, possibly failing on purpose, and finishes the writer its way.
		fill func(t *testing.T, ctx context.Context, w *store.SnapshotWriter, objs []*cluster.Object)
	}{
		{"after adds", func(t *testing.T, ctx context.Context, w *store.SnapshotWriter, objs []*cluster.Object) {
			addAll(t, ctx, w, objs)
			w.Rollback()
		}},
		{"after rows were written", func(t *testing.T, ctx context.Context, w *store.SnapshotWriter, objs []*cluster.Object) {
			addAll(t, ctx, w, objs)
			addAll(t, ctx, w, generated(450)) // more than a batch, so rows reach the database
			w.Rollback()
		}},
		{"after a failed add", func(t *testing.T, ctx context.Context, w *store.SnapshotWriter, objs []*cluster.Object) {
			addAll(t, ctx, w, objs)
			if err := w.Add(ctx, objs[0]); err == nil {
				t.Error("Add of a duplicate succeeded")
			}
			w.Rollback()
		}},
		{"commit cancelled", func(t *testing.T, _ context.Context, w *store.SnapshotWriter, objs []*cluster.Object) {
			ctx, cancel := context.WithCancel(t.Context())
			addAll(t, ctx, w, objs)
			cancel()
			if _, err := w.Commit(ctx, nil); err == nil {
				t.Error("Commit with a cancelled context succeeded")
			}
		}},
	}
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ins := fixtures(t, "pods-list.json", "nodes.yaml", "events.jsonl", "multi.yaml")
		objs, _ := decode(t, ins)
		for i, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				ctx := t.Context()
				id := fmt.Sprintf("inc-%d", i)
				createIncident(t, st, id, "leap")
				m := metaFor(id, "", ins)
				w, err := st.BeginSnapshot(ctx, m)
				if err != nil {
					t.Fatal(err)
				}
				tt.fill(t, ctx, w, objs)
				w.Rollback() // harmless a second time
				if _, err := w.Commit(ctx, nil); err == nil {
					t.Error("Commit after Rollback succeeded")
				}
				empty := map[string]int64{}
				for _, tb := range snapshotTables {
					empty[tb] = 0
				}
				if diff := cmp.Diff(empty, counts(t, b.Target, snapshotTables...)); diff != "" {
					t.Errorf("rows after rollback (-want +got):\n%s", diff)
				}
				// The digest is free again; store it for real, then clear the way for the next case.
				snap, _ := storeSnapshot(t, st, m, ins)
				if diff := cmp.Diff(map[string]int{"Pod": 2, "Node": 2, "Event": 3, "Deployment": 1, "ConfigMap": 2}, snap.Objects); diff != "" {
					t.Errorf("Objects after storing again (-want +got):\n%s", diff)
				}
				clearSnapshots(t, st)
			})
		}
	})
}

func TestSnapshotDuplicates(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := t.Context()
		createIncident(t, st, "inc-1", "leap")
		ins := fixtures(t, "pods-list.json", "nodes.yaml", "multi.yaml")
		objs, skipped := decode(t, ins)
		w, err := st.BeginSnapshot(ctx, metaFor("inc-1", "", ins))
		if err != nil {
			t.Fatal(err)
		}
		defer w.Rollback()
		addAll(t, ctx, w, objs)
		for _, o := range objs {
			err := w.Add(ctx, o)
			wantErr(t, "Add again of "+o.Ref(), err, store.ErrDuplicate)
		}
		// The same name in another namespace is another pod.
		pod := *objs[0].Pod
		pod.Namespace = "staging"
		moved := *objs[0]
		moved.Namespace, moved.Pod = "staging", &pod
		if err := w.Add(ctx, &moved); err != nil {
			t.Errorf("Add of %s: %v", moved.Ref(), err)
		}
		snap, err := w.Commit(ctx, skipped)
		if err != nil {
			t.Fatalf("Commit after duplicates: %v", err)
		}
		if diff := cmp.Diff(map[string]int{"Pod": 3, "Node": 2, "Deployment": 1, "ConfigMap": 2}, snap.Objects); diff != "" {
			t.Errorf("Objects (-want +got):\n%s", diff)
		}
		want := map[string]int64{"snapshots": 1, "incident_snapshots": 1, "pods": 3, "pod_containers": 3, "nodes": 2,
			"objects": 3, "events": 0, "snapshot_events": 0}
		if diff := cmp.Diff(want, counts(t, b.Target, snapshotTables...)); diff != "" {
			t.Errorf("rows (-want +got):\n%s", diff)
		}
	})
}

// TestSnapshotBatches stores more objects than one INSERT takes.
func TestSnapshotBatches(t *testing.T) {
	t.Parallel()
	const n = 1000
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := t.Context()
		createIncident(t, st, "inc-1", "leap")
		w, err := st.BeginSnapshot(ctx, metaFor("inc-1", "", []input{{name: "gen.json", data: []byte("gen")}}))
		if err != nil {
			t.Fatal(err)
		}
		defer w.Rollback()
		addAll(t, ctx, w, generated(n))
		snap, err := w.Commit(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(map[string]int{"Pod": n, "Event": n}, snap.Objects); diff != "" {
			t.Errorf("Objects (-want +got):\n%s", diff)
		}
		want := map[string]int64{"snapshots": 1, "incident_snapshots": 1, "pods": n, "pod_containers": 2 * n, "nodes": 0,
			"objects": 0, "events": n, "snapshot_events": n}
		if diff := cmp.Diff(want, counts(t, b.Target, snapshotTables...)); diff != "" {
			t.Errorf("rows (-want +got):\n%s", diff)
		}
	})
}

// TestNoSecretsStored stores every fixture, then reads every value of every column back:
// none holds a secret of the fixtures, and the raw objects hold the redaction marker instead.
func TestNoSecretsStored(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		createIncident(t, st, "inc-1", "leap")
		ins := fixtures(t, "pods-list.json", "nodes.yaml", "events.jsonl", "multi.yaml", "podlist-api.json")
		storeSnapshot(t, st, metaFor("inc-1", "", ins), ins)
		redacted := map[string]bool{}
		values := 0
		err := storetest.EachValue(t, b.Target, func(table, column string, value []byte) error {
			values++
			if bytes.Contains(value, []byte("s3cr3t")) {
				t.Errorf("%s.%s holds a secret: %.200s", table, column, value)
			}
			if bytes.Contains(value, []byte(ingest.Redacted)) {
				redacted[table+"."+column] = true
			}
			return nil
		})
		if err != nil {
			t.Fatalf("EachValue: %v", err)
		}
		if values == 0 {
			t.Fatal("EachValue saw no values")
		}
		// The marker is only inside compressed raw JSON: finding it proves EachValue looked there.
		want := map[string]bool{"pods.raw": true, "objects.raw": true}
		if diff := cmp.Diff(want, redacted); diff != "" {
			t.Errorf("columns with %q (-want +got):\n%s", ingest.Redacted, diff)
		}
	})
}

func addAll(t *testing.T, ctx context.Context, w *store.SnapshotWriter, objs []*cluster.Object) {
	t.Helper()
	for _, o := range objs {
		if err := w.Add(ctx, o); err != nil {
			t.Fatalf("Add %s: %v", o.Ref(), err)
		}
	}
}

// generated returns n pods of two containers each and n events about them.
func generated(n int) []*cluster.Object {
	at := metav1.NewTime(time.Date(2023, 2, 1, 17, 0, 0, 0, time.UTC))
	var out []*cluster.Object
	for i := range n {
		name := fmt.Sprintf("gen-%04d", i)
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "gen", UID: types.UID("pod-" + name)},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "busybox"}, {Name: "sidecar", Image: "envoy"}},
				NodeName: "node-1"},
			Status: corev1.PodStatus{Phase: corev1.PodRunning},
		}
		ev := &corev1.Event{
			ObjectMeta:     metav1.ObjectMeta{Name: name + ".1", Namespace: "gen", UID: types.UID("event-" + name)},
			InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "gen", Name: name},
			Reason:         "Started", Message: "Started container app", Type: "Normal",
			Count: 1, FirstTimestamp: at, LastTimestamp: at,
		}
		src := cluster.Source{File: "gen.json", Line: int32(i + 1)}
		out = append(out,
			&cluster.Object{APIVersion: "v1", Kind: cluster.KindPod, Namespace: "gen", Name: name, UID: string(pod.UID), Source: src, Pod: cluster.PodOf(pod)},
			&cluster.Object{APIVersion: "v1", Kind: cluster.KindEvent, Namespace: "gen", Name: ev.Name, UID: string(ev.UID), Source: src, Event: cluster.EventOf(ev)})
	}
	return out
}
