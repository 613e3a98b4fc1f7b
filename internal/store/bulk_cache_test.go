package store_test

import (
	"testing"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestSnapshotCacheSizedFromTheUpload: on SQLite the transaction that stores a snapshot has a
// page cache sized from what the snapshot decodes to (BulkCache: twice the bytes, twice the
// cache), within the limit its caller gives it and never below a floor, and its connection goes
// back to the pool with the cache it had; on PostgreSQL, whose cache is its own server's, no
// memory of this process is counted.
func TestSnapshotCacheSizedFromTheUpload(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := t.Context()
		createIncident(t, st, "big", "leap")
		const mib, gib, plenty = 1 << 20, 1 << 30, 64 << 30
		meta := func(decoded, limit int64) store.SnapshotMeta {
			return store.SnapshotMeta{Digest: "big-upload", Incident: "big", Bytes: decoded / 8, Decoded: decoded, CacheLimit: limit}
		}
		small, big, bigger := st.BulkCache(meta(mib, plenty)), st.BulkCache(meta(gib, plenty)), st.BulkCache(meta(2*gib, plenty))
		if b.Name == "postgres" {
			if small != 0 || big != 0 || bigger != 0 {
				t.Errorf("on PostgreSQL a snapshot's cache counts %d, %d, %d bytes of this process, want none", small, big, bigger)
			}
			w, err := st.BeginSnapshot(ctx, meta(gib, plenty))
			if err != nil {
				t.Fatal(err)
			}
			w.Rollback()
			return
		}
		if small <= 0 || big <= small || bigger != 2*big {
			t.Errorf("the cache of snapshots decoding to 1 MiB, 1 GiB and 2 GiB: %d, %d, %d bytes; want a floor, then in proportion to the bytes", small, big, bigger)
		}
		if got := st.BulkCache(meta(gib, 0)); got != small {
			t.Errorf("with no room given, a 1 GiB snapshot's cache is %d, want the floor %d", got, small)
		}
		if got := st.BulkCache(meta(gib, 100*mib)); got > 100*mib || got < 100*mib-store.SQLitePageMemory {
			t.Errorf("with 100 MiB given, a 1 GiB snapshot's cache is %d, want that much to a page", got)
		}
		if got := st.BulkCache(store.SnapshotMeta{Bytes: gib, CacheLimit: plenty}); got != big {
			t.Errorf("a 1 GiB snapshot of unknown decoded size: cache %d, want %d, sized by its bytes", got, big)
		}

		// One connection, so that the pool hands back the one the snapshot was written on.
		sqlDB, err := st.DB().DB()
		if err != nil {
			t.Fatal(err)
		}
		sqlDB.SetMaxOpenConns(1)
		pooled := func() int64 { return pragma(t, st, "cache_size") }
		before := pooled()
		for _, end := range []string{"rolled back", "committed"} {
			w, err := st.BeginSnapshot(ctx, meta(gib, plenty))
			if err != nil {
				t.Fatal(err)
			}
			pages, err := w.Pragma(ctx, "cache_size")
			if err != nil {
				t.Fatal(err)
			}
			if pages*store.SQLitePageMemory != big {
				t.Errorf("a 1 GiB snapshot is written with a cache of %d pages (%d bytes), want %d bytes", pages, pages*store.SQLitePageMemory, big)
			}
			if end == "committed" {
				if _, err := w.Commit(ctx, nil); err != nil {
					t.Fatal(err)
				}
			}
			w.Rollback()
			if after := pooled(); after != before {
				t.Errorf("after the snapshot %s its connection's cache is %d, want %d as before", end, after, before)
			}
		}
	})
}

// TestSnapshotInPartsJournalsToAFile: on SQLite a snapshot of several files, written a part for
// each (Mark), keeps its statement journal in a temporary file, which SQLite walks in memory from
// its start at the end of every statement within a part; one of a single file keeps it in
// memory. The connection goes back to the pool as it was.
func TestSnapshotInPartsJournalsToAFile(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := t.Context()
		createIncident(t, st, "parts", "leap")
		if b.Name == "postgres" { // no journal of this process: a snapshot in parts is begun alike
			w, err := st.BeginSnapshot(ctx, store.SnapshotMeta{Digest: "parts", Incident: "parts", Files: make([]store.SnapshotFile, 2)})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Rollback()
			if err := w.Mark(ctx); err != nil {
				t.Fatal(err)
			}
			if err := w.Keep(ctx); err != nil {
				t.Fatal(err)
			}
			return
		}
		sqlDB, err := st.DB().DB()
		if err != nil {
			t.Fatal(err)
		}
		sqlDB.SetMaxOpenConns(1) // the pool hands back the connection the snapshot was written on
		pooled := func() int64 { return pragma(t, st, "temp_store") }
		before := pooled()
		const file, memory = 1, 2 // PRAGMA temp_store
		for _, c := range []struct {
			files []store.SnapshotFile
			want  int64
		}{
			{[]store.SnapshotFile{{Name: "all.json"}}, memory},
			{[]store.SnapshotFile{{Name: "pods.json"}, {Name: "events.json"}}, file},
		} {
			w, err := st.BeginSnapshot(ctx, store.SnapshotMeta{Digest: "parts", Incident: "parts", Files: c.files})
			if err != nil {
				t.Fatal(err)
			}
			got, err := w.Pragma(ctx, "temp_store")
			w.Rollback()
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("a snapshot of %d files is written with temp_store %d, want %d (1 a file, 2 memory)", len(c.files), got, c.want)
			}
			if after := pooled(); after != before {
				t.Errorf("after a snapshot of %d files its connection's temp_store is %d, want %d as before", len(c.files), after, before)
			}
		}
	})
}

// pragma reads an SQLite PRAGMA of the connection the pool hands out next.
func pragma(t *testing.T, st *store.Store, name string) (v int64) {
	t.Helper()
	if err := st.DB().WithContext(t.Context()).Raw("PRAGMA " + name).Row().Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}
