package store_test

import (
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestSnapshotHolder: the incident holding a snapshot is the one it was attached to first,
// whatever incidents it was attached to after, and still after its objects expired; a digest
// never stored has none.
func TestSnapshotHolder(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := t.Context()
		ins := fixtures(t, "pods-list.json", "events.jsonl")
		m := metaFor("inc-b", "leap", ins)
		_, err := st.SnapshotHolder(ctx, m.Digest)
		wantErr(t, "SnapshotHolder of a digest never stored", err, store.ErrNotFound)

		createIncident(t, st, "inc-b", "leap")
		createIncident(t, st, "inc-a", "leap")
		storeSnapshot(t, st, m, ins)
		time.Sleep(2 * time.Millisecond) // attached after, on any clock resolution
		if _, err := st.AttachSnapshot(ctx, m.Digest, "inc-a"); err != nil {
			t.Fatal(err)
		}
		if got, err := st.SnapshotHolder(ctx, m.Digest); err != nil || got != "inc-b" {
			t.Errorf("SnapshotHolder = %q, %v; want inc-b, the incident it was stored for", got, err)
		}

		if _, err := st.Expire(ctx, time.Now().Add(time.Hour), time.Minute); err != nil {
			t.Fatal(err)
		}
		if _, err := st.AttachSnapshot(ctx, m.Digest, "inc-b"); err == nil {
			t.Fatal("the snapshot's objects did not expire")
		}
		if got, err := st.SnapshotHolder(ctx, m.Digest); err != nil || got != "inc-b" {
			t.Errorf("SnapshotHolder after expiry = %q, %v; want inc-b", got, err)
		}

	})
}
