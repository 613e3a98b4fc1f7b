package evidence

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestIncidentEvidenceSince: in a random run of what collectors and uploads write to a cluster,
// the load of an incident that starts from the load before and reads only what the generations
// say changed (Since) holds, after every write, exactly what a load from nothing holds: for an
// incident with a closed window and one whose window ends now, each with a snapshot of its own.
// New sightings of events, in and out of the window, of events its snapshot carried and of
// events without times; new states of pods and nodes; snapshots of the same cluster for
// another incident. Expiry and a snapshot of its own make the load compare everything again.
func TestIncidentEvidenceSince(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := t.Context()
		t0 := time.Date(2023, 2, 1, 17, 0, 0, 0, time.UTC)
		start, end := t0.Add(-time.Hour), t0.Add(time.Hour)
		for _, in := range []*incident.Incident{
			{ID: "closed", Title: "Closed window", Cluster: "leap", StartedAt: &start, EndedAt: &end},
			{ID: "open", Title: "Open window", Cluster: "leap", StartedAt: &start},
			{ID: "other", Title: "Snapshots only", Cluster: "leap"},
		} {
			if err := st.CreateIncident(ctx, in); err != nil {
				t.Fatal(err)
			}
		}
		for _, id := range []string{"closed", "open"} {
			ins := storetest.SnapshotFiles(t0, "hub-"+id)
			storeFiles(t, st, id, ins)
		}
		rng := rand.New(rand.NewPCG(16, 5))
		at := func() time.Time { return t0.Add(time.Duration(rng.IntN(6*60)-3*60) * time.Minute) } // the window ±2 hours
		uids := []string{"ev-a", "ev-b", "ev-c"}                                                   // those the snapshots carry, and more
		for i := range 12 {
			uids = append(uids, fmt.Sprintf("ev-%d", i))
		}
		event := func() *cluster.Object {
			uid := uids[rng.IntN(len(uids))]
			first := at()
			o := storetest.EventNamed(storetest.CollectedEvent(int32(1+rng.IntN(20)), first, first.Add(time.Duration(rng.IntN(90))*time.Minute)), uid)
			o.Event.Message = fmt.Sprintf("message %d", rng.IntN(1000))
			if rng.IntN(8) == 0 { // no times at all
				o.Event.FirstTimestamp, o.Event.LastTimestamp = 0, 0
			}
			return o
		}
		rv := 100
		state := func() *cluster.Object {
			rv++
			name := fmt.Sprintf("p%d", rng.IntN(4))
			if rng.IntN(4) == 0 {
				n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "core-" + name, UID: types.UID("node-" + name), ResourceVersion: fmt.Sprint(rv)}}
				return &cluster.Object{APIVersion: "v1", Kind: cluster.KindNode, Name: n.Name, UID: string(n.UID), Node: n,
					Source: cluster.Source{ObservedAt: cluster.Observed(at().Truncate(time.Microsecond))}}
			}
			return storetest.PodNamed(storetest.CollectedPod(fmt.Sprint(rv), []string{"Running", "Pending", "Failed"}[rng.IntN(3)], "", at()), name)
		}
		otherSnapshot := func(n int) {
			var evs []string
			for range 3 {
				e := event().Event
				evs = append(evs, fmt.Sprintf(`{"apiVersion": "v1", "kind": "Event", "metadata": {"name": %q, "namespace": "prod", "uid": %[1]q}, `+
					`"involvedObject": {"kind": "Pod", "namespace": "prod", "name": "hub"}, "reason": "BackOff", "type": "Warning", "message": %q, `+
					`"count": %d, "firstTimestamp": %q, "lastTimestamp": %q}`, e.Name, e.Message, e.Count,
					e.FirstTimestamp.Time().Format(time.RFC3339), e.LastTimestamp.Time().Format(time.RFC3339)))
			}
			ins := []storetest.File{{Name: fmt.Sprintf("events-%d.jsonl", n), Data: []byte(strings.Join(evs, "\n"))}}
			storeFiles(t, st, "other", ins)
		}

		prev := map[string]*Evidence{}
		check := func(step string, closedSince, openSince bool) {
			t.Helper()
			for _, id := range []string{"closed", "open"} {
				since := map[string]bool{"closed": closedSince, "open": openSince}[id]
				got, err := Load(ctx, st, id, prev[id])
				if err != nil {
					t.Fatalf("%s, %s: %v", step, id, err)
				}
				whole, err := Load(ctx, st, id, nil)
				if err != nil {
					t.Fatalf("%s, %s: %v", step, id, err)
				}
				if diff := cmp.Diff(render(whole), render(got)); diff != "" {
					t.Fatalf("%s, %s: the load from the one before differs from a load from nothing (-whole +got):\n%s", step, id, diff)
				}
				if prev[id] != nil && got.Incremental() != since {
					t.Errorf("%s, %s: made from what changed since = %v, want %v", step, id, got.Incremental(), since)
				}
				prev[id] = got
			}
		}
		check("first load", false, false)
		for i := range 60 {
			switch k := rng.IntN(10); {
			case k < 7:
				var objs []*cluster.Object
				for range 1 + rng.IntN(4) {
					if rng.IntN(3) == 0 {
						objs = append(objs, state())
					} else {
						objs = append(objs, event())
					}
				}
				if _, err := st.StoreCollected(ctx, "leap", objs, time.Now()); err != nil {
					t.Fatal(err)
				}
				check(fmt.Sprintf("step %d: a collector's batch", i), true, true)
			case k < 9:
				otherSnapshot(i)
				check(fmt.Sprintf("step %d: a snapshot of the cluster for another incident", i), true, true)
			default:
				check(fmt.Sprintf("step %d: nothing", i), true, true)
			}
		}
		// Dated ahead of the clock: outside the open window now, inside it a moment later,
		// with nothing written in between.
		ahead := time.Now().Add(time.Second)
		future := storetest.EventNamed(event(), "ev-ahead")
		future.Event.FirstTimestamp, future.Event.LastTimestamp = cluster.InstantOf(ahead), cluster.InstantOf(ahead)
		futureState := storetest.PodNamed(storetest.CollectedPod("1", "Running", "", ahead), "ahead")
		if _, err := st.StoreCollected(ctx, "leap", []*cluster.Object{future, futureState}, time.Now()); err != nil {
			t.Fatal(err)
		}
		check("an event and a state dated ahead", true, true)
		time.Sleep(time.Until(ahead.Add(100 * time.Millisecond)))
		check("the clock past them", true, true)
		if !strings.Contains(render(prev["open"]), ahead.UTC().Format(time.RFC3339)) {
			t.Errorf("the open window lacks what was dated ahead:\n%s", render(prev["open"]))
		}

		ins := storetest.SnapshotFiles(t0.Add(time.Minute), "cache")
		storeFiles(t, st, "closed", ins)
		check("a snapshot of its own", false, true)
		if _, err := st.Expire(ctx, time.Now().Add(100*24*time.Hour), 90*24*time.Hour); err != nil {
			t.Fatal(err)
		}
		check("expiry", false, false)
	})
}

// TestIncidentEvidenceSinceConcurrent: collectors writing at once while the incident is loaded
// again and again, each load from the one before: the last load, made once they are done,
// holds what a load from nothing holds. (On PostgreSQL the batches commit in any order; the
// generation each takes last, holding its cluster's row, orders them.)
func TestIncidentEvidenceSinceConcurrent(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := t.Context()
		t0 := time.Date(2023, 2, 1, 17, 0, 0, 0, time.UTC)
		windowIncident(t, st, t0, "hub")
		const writers, batches = 4, 25
		var wg sync.WaitGroup
		errs := make(chan error, writers)
		for w := range writers {
			wg.Go(func() {
				for i := range batches {
					at := t0.Add(time.Duration(i-batches/2) * time.Minute)
					e := storetest.EventNamed(storetest.CollectedEvent(int32(i+1), at, at.Add(time.Minute)), fmt.Sprintf("ev-%d", (w*batches+i)%30)) // writers sight the same events
					p := storetest.PodNamed(storetest.CollectedPod(fmt.Sprint(w*1000+i), "Running", "", at), fmt.Sprintf("p-%d", w))
					if _, err := st.StoreCollected(ctx, "leap", []*cluster.Object{e, p}, time.Now()); err != nil {
						errs <- err
						return
					}
				}
			})
		}
		writing := make(chan struct{})
		go func() { wg.Wait(); close(writing) }()
		var prev *Evidence
		loads := 0
	load:
		for {
			got, err := Load(ctx, st, "w", prev)
			if err != nil {
				t.Fatal(err)
			}
			prev, loads = got, loads+1
			select {
			case <-writing:
				break load
			default:
			}
		}
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		got, err := Load(ctx, st, "w", prev)
		if err != nil {
			t.Fatal(err)
		}
		whole, err := Load(ctx, st, "w", nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(render(whole), render(got)); diff != "" {
			t.Errorf("after %d loads during the writes, the load from the one before differs from a load from nothing (-whole +got):\n%s", loads, diff)
		}
		if !got.Incremental() {
			t.Error("the last load compared everything instead of reading what changed")
		}
	})
}

// windowIncident creates incident w of cluster leap, from an hour before t0 to an hour after,
// with a snapshot of the pods named (evidenceInputs); it returns the snapshot's meta and files.
func windowIncident(t *testing.T, st *store.Store, t0 time.Time, pods ...string) (store.SnapshotMeta, []storetest.File) {
	t.Helper()
	start, end := t0.Add(-time.Hour), t0.Add(time.Hour)
	if err := st.CreateIncident(t.Context(), &incident.Incident{ID: "w", Title: "Window", Cluster: "leap", StartedAt: &start, EndedAt: &end}); err != nil {
		t.Fatal(err)
	}
	ins := storetest.SnapshotFiles(t0, pods...)
	m := storetest.Meta("w", "leap", ins)
	storeFiles(t, st, "w", ins)
	return m, ins
}
