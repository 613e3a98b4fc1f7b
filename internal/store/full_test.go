package store_test

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/rootline-dev/rootline/internal/store"
)

// codedError stands for the SQLite driver's error, which carries its result code.
type codedError struct {
	code int
	msg  string
}

func (e codedError) Error() string { return e.msg }
func (e codedError) Code() int     { return e.code }

func TestIsFull(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{store.ErrNotFound, false},
		{&pgconn.PgError{Code: "53100", Message: `could not extend file "base/1/2": No space left on device`}, true},
		{fmt.Errorf("store: store pods: copy 10 rows into pods: %w", &pgconn.PgError{Code: "53100"}), true},
		{&pgconn.PgError{Code: "53200"}, false}, // out of memory
		{&pgconn.PgError{Code: "53300"}, false}, // too many connections
		{&pgconn.PgError{Code: "P0001", Message: "database or disk is full"}, false},
		{fmt.Errorf("store: commit snapshot: %w", codedError{13, "(13)"}), true},
		{codedError{1811, "constraint failed: refused (1811)"}, false},
		{errors.New("store: store containers: database or disk is full (13)"), true},
		{fmt.Errorf("spool: %w", &os.PathError{Op: "write", Path: "/tmp/part-1", Err: syscall.ENOSPC}), true},
		{fmt.Errorf("spool: %w", &os.PathError{Op: "write", Path: "/tmp/part-1", Err: syscall.EDQUOT}), true},
		{fmt.Errorf("spool: %w", &os.PathError{Op: "write", Path: "/tmp/part-1", Err: syscall.EIO}), false},
	} {
		if got := store.IsFull(tt.err); got != tt.want {
			t.Errorf("IsFull(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

// TestSnapshotDatabaseFull stores a snapshot in a SQLite file that cannot grow enough (its
// max_page_count just above its size, which needs no root, unlike a full file system: see
// TestUploadDiskFull in internal/server): the driver's real error is recognised by IsFull,
// nothing of the snapshot stays, and it is stored whole where there is room.
func TestSnapshotDatabaseFull(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	tg, err := store.ParseTarget(filepath.Join(t.TempDir(), "rootline.db"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, tg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	createIncident(t, st, "full", "tight")

	db, err := sql.Open("sqlite", tg.DSN)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var pages int
	if err := db.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	capped := tg // every connection of this store may add 16 pages, no more
	capped.DSN += "&" + url.Values{"_pragma": {fmt.Sprintf("max_page_count(%d)", pages+16)}}.Encode()
	cst, err := store.Open(ctx, capped, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cst.Close()

	before := counts(t, tg, snapshotTables...)
	m := store.SnapshotMeta{Digest: "full-1", Incident: "full"}
	objs := generated(1000)
	w, err := cst.BeginSnapshot(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		if err = w.Add(ctx, o); err != nil {
			break
		}
	}
	if err == nil {
		_, err = w.Commit(ctx, nil)
	}
	w.Rollback()
	if !store.IsFull(err) {
		t.Fatalf("storing past max_page_count: %v, want an error IsFull recognises", err)
	}
	if diff := cmp.Diff(before, counts(t, tg, snapshotTables...)); diff != "" {
		t.Errorf("rows after the failed snapshot (-before +after):\n%s", diff)
	}
	snap := storeObjects(t, st, m, objs, nil)
	if snap.Objects["Pod"] != 1000 {
		t.Errorf("stored where there is room: %v, want 1000 pods", snap.Objects)
	}
}
