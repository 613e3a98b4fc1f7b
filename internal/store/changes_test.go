package store_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestSinceQueriesUseIndexes: what changed since a load is found by index, never by reading a
// table whole, on both databases: the point of recording generations.
func TestSinceQueriesUseIndexes(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		// A day of what a collector sends, a state and an event a minute, in a batch an hour,
		// and a snapshot of the cluster an hour, so that the planners choose by what the
		// tables hold.
		ctx := t.Context()
		t0 := time.Date(2023, 2, 1, 0, 0, 0, 0, time.UTC)
		if err := st.CreateIncident(ctx, &incident.Incident{ID: "snaps", Title: "Snapshots", Cluster: "leap"}); err != nil {
			t.Fatal(err)
		}
		var batch []*cluster.Object
		for i := range 24 * 60 {
			at := t0.Add(time.Duration(i) * time.Minute)
			batch = append(batch, podNamed(collectedPod(fmt.Sprint(i), "Running", "", at), fmt.Sprintf("p-%d", i%100)),
				eventNamed(collectedEvent(1, at, at), fmt.Sprintf("ev-%d", i)))
			if len(batch) == 120 { // an hour a batch, and a snapshot of the cluster: 48 generations
				if _, err := st.StoreCollected(ctx, "leap", batch, time.Now()); err != nil {
					t.Fatal(err)
				}
				batch = nil
				files := storetest.SnapshotFiles(at, fmt.Sprintf("snap-%d", i))
				objs, skipped := storetest.Decode(t, files)
				storetest.StoreObjects(t, st, storetest.Meta("snaps", "leap", files), objs, skipped)
			}
		}
		if b.Name == "postgres" {
			if err := st.DB().Exec("ANALYZE").Error; err != nil {
				t.Fatal(err)
			}
		}
		// A load made at the 23rd hour's generation, made again an hour later.
		plans, err := st.SinceQueryPlans(ctx, "leap", 46, t0.Add(23*time.Hour), t0.Add(24*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if len(plans) != 7 {
			t.Errorf("%d plans, want 7", len(plans))
		}
		// The column each must find its rows by, in the index's condition.
		keys := map[string]string{"changed events": "changed_gen", "events of new snapshots": "changed_gen", "events seen since": "last_at",
			"changed states": "changed_gen", "states observed since": "observed_at", "mark changed events": "changed_gen", "mark changed states": "changed_gen"}
		for name, plan := range plans {
			full, indexed := strings.Contains(plan, "Seq Scan"), false // PostgreSQL
			for _, line := range strings.Split(plan, "\n") {
				line = strings.TrimSpace(line)
				full = full || strings.HasPrefix(line, "SCAN ") // SQLite
				indexed = indexed || ((strings.HasPrefix(line, "Index Cond:") || strings.Contains(line, " USING ")) && strings.Contains(line, keys[name]))
			}
			if full || !indexed {
				t.Errorf("%s does not find its rows by an index on %s:\n%s", name, keys[name], plan)
			}
		}
	})
}

// eventNamed names a collected event (collectedEvent) uid.
func eventNamed(o *cluster.Object, uid string) *cluster.Object { return storetest.EventNamed(o, uid) }

// podNamed names a collected pod (collectedPod) name, of uid "uid-" and its name.
func podNamed(o *cluster.Object, name string) *cluster.Object { return storetest.PodNamed(o, name) }
