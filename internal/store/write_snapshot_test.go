package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/ingest"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// errBusy is what a collision with a concurrent transaction looks like to IsRetryable.
var errBusy = errors.New("database is locked (5) (SQLITE_BUSY)")

// TestWriteSnapshotAgain: a snapshot whose fill collides with a concurrent transaction is
// written again from the start, and stored once; one that keeps colliding is tried three times
// and stores nothing; any other failure is not retried; the same bytes again are ErrExists.
func TestWriteSnapshotAgain(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := t.Context()
		createIncident(t, st, "inc-1", "leap")
		ins := fixtures(t, "pods-list.json", "nodes.yaml", "events.jsonl")
		objs, skipped := decode(t, ins)
		tables := append([]string{"clusters"}, snapshotTables...)
		empty := counts(t, b.Target, tables...)

		fill := func(fail func(call int) error) (store.SnapshotFill, *int) {
			calls := 0
			return func(ctx context.Context, w store.SnapshotSink) ([]ingest.Skipped, error) {
				calls++
				for i, o := range objs {
					if err := w.Add(ctx, o); err != nil {
						return nil, err
					}
					if i == len(objs)/2 {
						if err := fail(calls); err != nil {
							return nil, err // half of it written: the transaction must drop it
						}
					}
				}
				return skipped, nil
			}, &calls
		}

		always, calls := fill(func(int) error { return errBusy })
		if _, err := st.WriteSnapshot(ctx, metaFor("inc-1", "leap", ins), always); !errors.Is(err, errBusy) {
			t.Fatalf("a fill that always collides: err = %v, want it", err)
		}
		if *calls != 3 {
			t.Errorf("a fill that always collides ran %d times, want 3", *calls)
		}
		if diff := cmp.Diff(empty, counts(t, b.Target, tables...)); diff != "" {
			t.Errorf("rows after a snapshot that kept colliding (-before +after):\n%s", diff)
		}

		other := errors.New("the client went away")
		broken, calls := fill(func(int) error { return other })
		if _, err := st.WriteSnapshot(ctx, metaFor("inc-1", "leap", ins), broken); !errors.Is(err, other) {
			t.Fatalf("a fill that fails: err = %v, want it", err)
		}
		if *calls != 1 {
			t.Errorf("a fill that fails for another reason ran %d times, want 1", *calls)
		}

		once, calls := fill(func(call int) error {
			if call == 1 {
				return errBusy
			}
			return nil
		})
		snap, err := st.WriteSnapshot(ctx, metaFor("inc-1", "leap", ins), once)
		if err != nil {
			t.Fatalf("a fill that collides once: %v", err)
		}
		if *calls != 2 {
			t.Errorf("a fill that collides once ran %d times, want 2", *calls)
		}
		if diff := cmp.Diff(map[string]int{"Pod": 2, "Node": 2, "Event": 3}, snap.Objects); diff != "" {
			t.Errorf("objects of the snapshot written again (-want +got):\n%s", diff)
		}
		stored := map[string]int64{"snapshots": 1, "incident_snapshots": 1, "pods": 2, "pod_containers": 2, "nodes": 2,
			"objects": 0, "events": 3, "snapshot_events": 3, "clusters": 1}
		if diff := cmp.Diff(stored, counts(t, b.Target, tables...)); diff != "" {
			t.Errorf("rows after a snapshot written again (-want +got):\n%s", diff)
		}

		again, calls := fill(func(int) error { return nil })
		if _, err := st.WriteSnapshot(ctx, metaFor("inc-1", "leap", ins), again); !errors.Is(err, store.ErrExists) {
			t.Errorf("the same bytes again: err = %v, want ErrExists", err)
		}
		if *calls != 0 {
			t.Errorf("the same bytes again were filled %d times, want 0", *calls)
		}
	})
}
