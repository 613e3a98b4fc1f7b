package store_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/change"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/evidence"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

func collectedPod(rv, phase, reason string, at time.Time) *cluster.Object {
	return storetest.CollectedPod(rv, phase, reason, at)
}

func collectedEvent(count int32, first, last time.Time) *cluster.Object {
	return storetest.CollectedEvent(count, first, last)
}

// TestStoreCollected: the collector's batches are idempotent (a batch delivered again stores
// nothing twice; an event's count only grows), and an incident defined on the cluster's time
// window sees the pod's last state and the events of the window, without any upload.
func TestStoreCollected(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := context.Background()
		t0 := time.Date(2023, 2, 1, 17, 0, 0, 0, time.UTC)
		batch1 := []*cluster.Object{collectedPod("10", "Running", "", t0), collectedEvent(1, t0.Add(5*time.Minute), t0.Add(5*time.Minute))}
		n, err := st.StoreCollected(ctx, "leap", batch1, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if n != (store.CollectedCounts{Events: 1, States: 1}) {
			t.Errorf("first batch: %+v", n)
		}
		before := storetest.RowCounts(t, b.Target)
		batch1 = []*cluster.Object{collectedPod("10", "Running", "", t0), collectedEvent(1, t0.Add(5*time.Minute), t0.Add(5*time.Minute))}
		if n, err = st.StoreCollected(ctx, "leap", batch1, time.Now()); err != nil || n.Known != 1 || n.States != 0 {
			t.Errorf("the same batch again: %+v, %v", n, err)
		}
		after := storetest.RowCounts(t, b.Target)
		if diff := cmp.Diff(before, after); diff != "" {
			t.Errorf("a batch delivered twice changed rows:\n%s", diff)
		}
		batch2 := []*cluster.Object{collectedPod("11", "Failed", "Evicted", t0.Add(6*time.Minute)), collectedEvent(3, t0.Add(5*time.Minute), t0.Add(7*time.Minute)),
			{Kind: "ConfigMap", Name: "x"}}
		if n, err = st.StoreCollected(ctx, "leap", batch2, time.Now()); err != nil || n != (store.CollectedCounts{Events: 1, States: 1, Ignored: 1}) {
			t.Errorf("second batch: %+v, %v", n, err)
		}
		// A pod state after the window is not the incident's.
		if _, err = st.StoreCollected(ctx, "leap", []*cluster.Object{collectedPod("12", "Running", "", t0.Add(2*time.Hour))}, time.Now()); err != nil {
			t.Fatal(err)
		}

		start, end := t0.Add(4*time.Minute), t0.Add(10*time.Minute)
		in := &incident.Incident{ID: "live", Title: "Hub restart", Cluster: "leap", StartedAt: &start, EndedAt: &end}
		if err := st.CreateIncident(ctx, in); err != nil {
			t.Fatal(err)
		}
		files, objs, err := evidence.Objects(ctx, st, "live")
		if err != nil {
			t.Fatal(err)
		}
		m := cluster.NewModel(files, objs)
		if len(m.Pods) != 1 || m.Pods[0].Pod.Status.Reason != "Evicted" || m.Pods[0].Source.File != store.CollectedFile {
			t.Errorf("pods of the window: %+v", m.Pods)
		}
		if len(m.Events) != 1 || m.Events[0].Event.Count != 3 || !m.Events[0].Event.LastTimestamp.Time().Equal(t0.Add(7*time.Minute)) {
			t.Errorf("events of the window: %+v", m.Events)
		}
		states, err := st.ClusterStates(ctx, "leap", start.Add(-time.Hour), end)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range states {
			got = append(got, s.At.Format("15:04")+" "+s.Kind+" "+s.Namespace+"/"+s.Name+": "+s.State)
		}
		want := []string{"17:00 Pod prod/hub: Running; on core-1", "17:06 Pod prod/hub: Failed (Evicted); on core-1"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("states (-want +got):\n%s", diff)
		}
		// Outside the window: nothing.
		early, earlyEnd := t0.Add(-3*time.Hour), t0.Add(-2*time.Hour)
		if err := st.CreateIncident(ctx, &incident.Incident{ID: "early", Title: "Before", Cluster: "leap", StartedAt: &early, EndedAt: &earlyEnd}); err != nil {
			t.Fatal(err)
		}
		if _, objs, err := evidence.Objects(ctx, st, "early"); err != nil || len(objs) != 0 {
			t.Errorf("an earlier window: %d objects, %v", len(objs), err)
		}
	})
}

// collectedDeployment is a version of Deployment prod/hub running image, as the server takes
// it from the collector (JSON, dated by when it was seen).
func collectedDeployment(t *testing.T, rv, image string, at time.Time) *cluster.Object {
	t.Helper()
	raw, err := json.Marshal(map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "hub", "namespace": "prod", "uid": "deploy-1", "resourceVersion": rv},
		"spec":     map[string]any{"template": map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "hub", "image": image}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	return &cluster.Object{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "prod", Name: "hub", UID: "deploy-1", Raw: raw,
		Source: cluster.Source{ObservedAt: cluster.Observed(at.UTC().Truncate(time.Microsecond))}}
}

// TestCollectedVersions: the versions of a workload the collector sent are an incident's
// Versions from ChangeLookback before its window to its end, with the last one before that;
// they are not state changes of the timeline; what changed between them is found; a load from
// the one before reads the new version and equals a load from nothing, and a load with nothing
// new is the same evidence.
func TestCollectedVersions(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := context.Background()
		t0 := time.Date(2023, 2, 1, 17, 0, 0, 0, time.UTC)
		start, end := t0, t0.Add(time.Hour)
		send := func(objs ...*cluster.Object) {
			t.Helper()
			if _, err := st.StoreCollected(ctx, "leap", objs, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		send(collectedDeployment(t, "1", "hub:1", t0.Add(-48*time.Hour)))
		send(collectedDeployment(t, "2", "hub:2", t0.Add(-30*time.Hour)), collectedPod("10", "Running", "", t0.Add(5*time.Minute)))
		send(collectedDeployment(t, "3", "hub:3", t0.Add(10*time.Minute)))
		send(collectedDeployment(t, "9", "hub:9", t0.Add(2*time.Hour))) // after the window
		if err := st.CreateIncident(ctx, &incident.Incident{ID: "deploy", Title: "Deploy", Cluster: "leap", StartedAt: &start, EndedAt: &end}); err != nil {
			t.Fatal(err)
		}
		images := func(ev *evidence.Evidence) []string {
			var out []string
			for _, c := range change.Over(ev.Versions) {
				out = append(out, c.Before+" → "+c.After+" by "+c.Until.Format("Jan 2 15:04"))
			}
			return out
		}
		first, err := evidence.Load(ctx, st, "deploy", nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"hub:2 → hub:3 by Feb 1 17:10"}, images(first)); diff != "" {
			t.Errorf("changes (-want +got):\n%s", diff)
		}
		if len(first.States) != 1 || first.States[0].Kind != cluster.KindPod {
			t.Errorf("state changes: %+v, want the pod's only", first.States)
		}
		again, err := evidence.Load(ctx, st, "deploy", first)
		if err != nil {
			t.Fatal(err)
		}
		if !again.Same(first) {
			t.Error("a load with nothing new is not the same evidence")
		}
		send(collectedDeployment(t, "4", "hub:4", t0.Add(20*time.Minute)))
		since, err := evidence.Load(ctx, st, "deploy", again)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := evidence.Load(ctx, st, "deploy", nil)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"hub:2 → hub:3 by Feb 1 17:10", "hub:3 → hub:4 by Feb 1 17:20"}
		if diff := cmp.Diff(want, images(since)); diff != "" {
			t.Errorf("changes, loaded from the load before (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(want, images(fresh)); diff != "" {
			t.Errorf("changes, loaded from nothing (-want +got):\n%s", diff)
		}
		if since.Same(again) {
			t.Error("a load with a new version is the same evidence as the one before")
		}
	})
}

// TestCollectedNodeDeleted: a node the collector saw deleted (sent as it was last, with the same
// resourceVersion) is stored as a state of its own, not taken for a batch delivered again; the
// incident's model keeps the node as it was last (it was there), the timeline's state changes
// say it was deleted, and what changed says it went.
func TestCollectedNodeDeleted(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := context.Background()
		t0 := time.Date(2023, 2, 1, 17, 0, 0, 0, time.UTC)
		node := func(at time.Time, deleted bool) *cluster.Object {
			n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "user-9", UID: "node-9", ResourceVersion: "40",
				Labels: map[string]string{"cloud.google.com/gke-nodepool": "user"}}}
			return &cluster.Object{APIVersion: "v1", Kind: cluster.KindNode, Name: "user-9", UID: "node-9", Node: n,
				Source: cluster.Source{ObservedAt: cluster.Observed(at), Deleted: deleted}}
		}
		if _, err := st.StoreCollected(ctx, "leap", []*cluster.Object{node(t0.Add(time.Minute), false)}, time.Now()); err != nil {
			t.Fatal(err)
		}
		n, err := st.StoreCollected(ctx, "leap", []*cluster.Object{node(t0.Add(20*time.Minute), true)}, time.Now())
		if err != nil || n.States != 1 {
			t.Fatalf("the deletion: %+v, %v", n, err)
		}
		if n, err = st.StoreCollected(ctx, "leap", []*cluster.Object{node(t0.Add(20*time.Minute), true)}, time.Now()); err != nil || n.Known != 1 {
			t.Errorf("the deletion delivered again: %+v, %v", n, err)
		}
		start, end := t0, t0.Add(time.Hour)
		if err := st.CreateIncident(ctx, &incident.Incident{ID: "shrunk", Title: "Pool shrunk", Cluster: "leap", StartedAt: &start, EndedAt: &end}); err != nil {
			t.Fatal(err)
		}
		ev, err := evidence.Load(ctx, st, "shrunk", nil)
		if err != nil {
			t.Fatal(err)
		}
		m := cluster.NewModel(ev.Files, ev.Objects)
		if len(m.Nodes) != 1 || m.Nodes[0].Source.Deleted {
			t.Errorf("nodes of the model: %+v", m.Nodes)
		}
		var states []string
		for _, s := range ev.States {
			states = append(states, s.At.Format("15:04")+" "+s.Name+": "+s.State)
		}
		if len(states) != 2 || states[1] != "17:20 user-9: "+store.DeletedState {
			t.Errorf("state changes %q, want the deletion last", states)
		}
		changes := change.Over(ev.Versions)
		if len(changes) != 1 || changes[0].After != change.Absent || changes[0].Before != "present, in pool user" || !changes[0].Until.Equal(t0.Add(20*time.Minute)) {
			t.Errorf("what changed: %+v, want the node gone at 17:20", changes)
		}
	})
}
