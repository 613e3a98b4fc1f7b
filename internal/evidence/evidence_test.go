package evidence

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestIncidentEvidence: a load that starts from the one before holds what a load from nothing
// holds, after every kind of change to what an incident is made of, and decodes again only what
// changed: a batch outside the incident's window changes nothing; an event within it, a new
// sighting of an event a snapshot carried, a new pod state, another snapshot, a snapshot that
// expired and the same files stored again are each seen.
func TestIncidentEvidence(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := t.Context()
		t0 := time.Date(2023, 2, 1, 17, 0, 0, 0, time.UTC)
		m, ins := windowIncident(t, st, t0, "hub", "db")
		collect := func(objs ...*cluster.Object) {
			t.Helper()
			if _, err := st.StoreCollected(ctx, "leap", objs, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		event := func(uid string, count int32, first, last time.Time) *cluster.Object {
			return storetest.EventNamed(storetest.CollectedEvent(count, first, last), uid)
		}
		collect(storetest.CollectedPod("10", "Running", "", t0), event("ev-x", 1, t0.Add(5*time.Minute), t0.Add(5*time.Minute)))

		prev, err := Load(ctx, st, "w", nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(prev.Objects) != 8 { // 2 pods, a node, 3 events, and collected: the pod and ev-x
			t.Errorf("first load: %d objects, want 8:\n%s", len(prev.Objects), render(prev))
		}
		steps := []struct {
			name   string
			change func()
			same   bool   // nothing the analysis is made of changed
			kept   int    // objects taken from the load before, at least
			shows  string // what the objects show now
		}{
			{"nothing", func() {}, true, 8, "ev-x"},
			{"an event outside the window", func() { collect(event("ev-out", 1, t0.Add(3*time.Hour), t0.Add(3*time.Hour))) }, true, 8, ""},
			{"an event within the window", func() { collect(event("ev-y", 1, t0.Add(10*time.Minute), t0.Add(10*time.Minute))) }, false, 8, "ev-y"},
			{"a new sighting of an event the snapshot carried", func() {
				o := event("ev-b", 4, t0.Add(time.Minute), t0.Add(20*time.Minute))
				o.Event.Message = "back-off ev-b, again"
				collect(o)
			}, false, 8, "back-off ev-b, again"},
			{"a new state of the collected pod", func() { collect(storetest.CollectedPod("11", "Failed", "Evicted", t0.Add(30*time.Minute))) }, false, 8, `"reason":"Evicted"`},
			{"another snapshot", func() {
				more := storetest.SnapshotFiles(t0.Add(2*time.Minute), "cache")
				storeFiles(t, st, "w", more)
			}, false, 6, "uid-cache"}, // its events are new sightings of ev-a, ev-b and ev-c
			// Everything is older than the age: the snapshots' objects, the events and the states
			// that are not the newest of their object go.
			{"the snapshots expired", func() {
				if _, err := st.Expire(ctx, time.Now().Add(100*24*time.Hour), 90*24*time.Hour); err != nil {
					t.Fatal(err)
				}
			}, false, 0, ""},
			{"the same files stored again", func() {
				objs, skipped := storetest.Decode(t, ins)
				storetest.StoreObjects(t, st, m, objs, skipped)
			}, false, 0, "uid-hub"},
		}
		for _, s := range steps {
			s.change()
			got, err := Load(ctx, st, "w", prev)
			if err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			whole, err := Load(ctx, st, "w", nil)
			if err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			if diff := cmp.Diff(render(whole), render(got)); diff != "" {
				t.Errorf("%s: the load from the one before differs from a load from nothing (-whole +got):\n%s", s.name, diff)
			}
			if got.Same(prev) != s.same {
				t.Errorf("%s: Same = %v, want %v", s.name, got.Same(prev), s.same)
			}
			old := map[*cluster.Object]bool{}
			for _, o := range prev.Objects {
				old[o] = true
			}
			kept := 0
			for _, o := range got.Objects {
				if old[o] {
					kept++
				}
			}
			if kept < s.kept {
				t.Errorf("%s: %d objects taken from the load before, want %d at least", s.name, kept, s.kept)
			}
			if r := render(got); !strings.Contains(r, s.shows) || strings.Contains(r, "ev-out") {
				t.Errorf("%s: the objects lack %q or show ev-out:\n%s", s.name, s.shows, r)
			}
			prev = got
		}
	})
}

// render lists evidence one object a line: what it is, where it came from and its JSON.
func render(ev *Evidence) string {
	var b strings.Builder
	fmt.Fprintf(&b, "files %q\n", ev.Files)
	for _, o := range ev.Objects {
		js, err := o.JSON()
		fmt.Fprintf(&b, "%s %s %s/%s %s %s %s %v\n", o.APIVersion, o.Kind, o.Namespace, o.Name, o.UID, o.Source, js, err)
	}
	for _, c := range ev.States {
		fmt.Fprintf(&b, "state %s %s %s/%s %s\n", c.At.Format(time.RFC3339Nano), c.Kind, c.Namespace, c.Name, c.State)
	}
	return b.String()
}

// pg is the PostgreSQL database of this test process; storetest.Each skips or fails its cases
// when PostgreSQL is unreachable.
var pg *storetest.Postgres

func TestMain(m *testing.M) { storetest.Main(m, &pg) }

// storeFiles decodes files as one upload and stores them as a snapshot of the incident, of
// cluster leap.
func storeFiles(t *testing.T, st *store.Store, incidentID string, files []storetest.File) {
	t.Helper()
	objs, skipped := storetest.Decode(t, files)
	storetest.StoreObjects(t, st, storetest.Meta(incidentID, "leap", files), objs, skipped)
}
