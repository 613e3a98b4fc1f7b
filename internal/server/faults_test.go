package server_test

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/rootline-dev/rootline/internal/server"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
	"github.com/rootline-dev/rootline/internal/synth"
	"github.com/rootline-dev/rootline/internal/testenv"
)

// Issue 8, point 3: "A full disk or a database error gives a 5xx with a logged cause, never a
// half-written incident." Each test breaks the database for real (a full file system under it,
// a trigger that raises), checks the status, the log line and the row counts, and then proves
// that the same request succeeds once the fault is gone.

// logBuffer keeps what a server logs, so that a test can check that the cause was logged.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// newLoggedServer is newServer with the server's log kept (and shown with the test's output).
func newLoggedServer(t *testing.T, st *store.Store) (string, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	log := slog.New(slog.NewTextHandler(io.MultiWriter(t.Output(), logs), &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv := server.New(testConfig(), server.StoreDeps(st, log))
	closeServer(t, srv, st)
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return ts.URL, logs
}

// assertLogged checks that a failed request was logged at ERROR with its status and a cause
// that says each of says.
func assertLogged(t *testing.T, logs *logBuffer, status int, says ...string) {
	t.Helper()
	want := append([]string{"level=ERROR", `msg="request failed"`, "status=" + strconv.Itoa(status)}, says...)
	for line := range strings.Lines(logs.String()) {
		if !slices.ContainsFunc(want, func(w string) bool { return !strings.Contains(line, w) }) {
			return
		}
	}
	t.Errorf("no ERROR line with status %d and a cause saying %q in the log:\n%s", status, says, logs)
}

// assertServing checks that the server still answers, reads included.
func assertServing(t *testing.T, base, incidentID string) {
	t.Helper()
	for _, path := range []string{"/healthz", "/api/v1/incidents/" + incidentID, "/api/v1/incidents"} {
		if status, b := call(t, "GET", base+path, "", nil); status != http.StatusOK {
			t.Errorf("GET %s after the fault: %d %s", path, status, b)
		}
	}
}

func randomName(prefix string) string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// smallDisk is a database on a file system of its own, small and in memory, that a test can
// fill to the last few pages and free again.
type smallDisk struct {
	st     *store.Store
	target store.Target
	dir    string // the mount point
	cause  string // what the database's error says when the disk is full
}

// mountTmpfs mounts a tmpfs of size bytes, owned by uid:gid, and unmounts it after the test.
// It skips the test where mounting is not possible: that needs Linux and root.
func mountTmpfs(t *testing.T, size int64, uid, gid int) string {
	t.Helper()
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		testenv.Missing(t, "filling a disk needs a tmpfs of its own: run as root on Linux")
	}
	dir, err := os.MkdirTemp("", "rootline-full-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(dir) })
	opts := fmt.Sprintf("size=%d,mode=0700,uid=%d,gid=%d", size, uid, gid)
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", dir).CombinedOutput(); err != nil {
		testenv.Missing(t, "cannot mount a tmpfs to fill (%v: %s)", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			// A file may still be open (a PostgreSQL backend's): detach the mount, which the
			// kernel frees once the file is closed.
			if out2, err := exec.Command("umount", "-l", dir).CombinedOutput(); err != nil {
				t.Errorf("umount %s: %s; %s", dir, out, out2)
			}
		}
	})
	return dir
}

// newSmallDisk makes a migrated database of the backend's kind on a small tmpfs: the SQLite
// file itself, or, on PostgreSQL, a fresh schema whose tables live in a tablespace there.
func newSmallDisk(t *testing.T, b storetest.Backend) *smallDisk {
	t.Helper()
	const size = 32 << 20
	d := &smallDisk{}
	switch b.Target.Dialect {
	case store.SQLite:
		d.dir = mountTmpfs(t, size, 0, 0)
		tg, err := store.ParseTarget(filepath.Join(d.dir, "rootline.db"))
		if err != nil {
			t.Fatal(err)
		}
		d.target, d.cause = tg, "database or disk is full"
	case store.Postgres:
		u, err := user.Lookup("postgres")
		if err != nil {
			testenv.Missing(t, "no postgres user to own a tablespace (%v): PostgreSQL does not run on this machine", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		d.dir = mountTmpfs(t, size, uid, gid)
		space := randomName("rootline_full_")
		if err := storetest.Exec(b.Target, "CREATE TABLESPACE "+space+" LOCATION '"+d.dir+"'"); err != nil {
			testenv.Missing(t, "cannot make a tablespace on the tmpfs (%v): the test needs a PostgreSQL server on this machine, as a superuser", err)
		}
		// Registered before the schema exists, so run after it is dropped: the tablespace must
		// be empty.
		t.Cleanup(func() {
			if err := storetest.Exec(b.Target, "DROP TABLESPACE "+space); err != nil {
				t.Errorf("drop tablespace: %v", err)
			}
		})
		u2, err := url.Parse(storetest.Fresh(t, b))
		if err != nil {
			t.Fatal(err)
		}
		q := u2.Query()
		q.Set("default_tablespace", space) // a run-time parameter of every connection
		u2.RawQuery = q.Encode()
		tg, err := store.ParseTarget(u2.String())
		if err != nil {
			t.Fatal(err)
		}
		d.target, d.cause = tg, "No space left on device (SQLSTATE 53100)"
	}
	st, err := store.Open(t.Context(), d.target, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.Migrate(t.Context()); err != nil {
		t.Fatal(err)
	}
	d.st = st
	return d
}

// fill takes all the space of the file system but keep bytes; free gives it back. SQLite's
// write-ahead log is checkpointed and truncated first, so that a write cannot fit in the room
// an earlier one left there.
func (d *smallDisk) fill(t *testing.T, keep int64) (free func()) {
	t.Helper()
	if d.target.Dialect == store.SQLite {
		if err := storetest.Exec(d.target, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
			t.Fatal(err)
		}
	}
	return fillDisk(t, d.dir, keep)
}

// fillDisk writes a file into dir until its file system is full, then gives keep bytes back.
// free removes the file; so does the end of the test.
func fillDisk(t *testing.T, dir string, keep int64) (free func()) {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	free = func() {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Error(err)
		}
	}
	t.Cleanup(free)
	buf := make([]byte, 1<<20)
	var n int64
	for {
		m, err := f.Write(buf)
		n += int64(m)
		if errors.Is(err, syscall.ENOSPC) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Truncate(max(n-keep, 0)); err != nil {
		t.Fatal(err)
	}
	return free
}

// TestUploadDiskFull fills the disk under the database of an incident that has a snapshot
// already and uploads one that does not fit: 507 with the cause logged, not a row of it stored
// and the earlier snapshot intact, the server still answering; once space is freed, the same
// upload is stored whole. A large upload runs out of space while its rows are written (SQLite
// spills its page cache to the log); a small one, on SQLite, only at its commit.
func TestUploadDiskFull(t *testing.T) {
	t.Parallel()
	uploads := []struct {
		name       string
		o          synth.Options
		keep       int64  // bytes left free
		sqliteSays string // where SQLite usually runs out
	}{
		{"mid-write", synth.Options{Nodes: 20, Pods: 800, Events: 300, Seed: 83}, 256 << 10, "store: store "},
		{"at commit", synth.Options{Nodes: 5, Pods: 150, Events: 60, Seed: 84}, 16 << 10, "store: commit snapshot: "},
	}
	storetest.Each(t, pg, func(t *testing.T, _ *store.Store, b storetest.Backend) {
		d := newSmallDisk(t, b)
		base, logs := newLoggedServer(t, d.st)
		createIncident(t, base, `{"id": "full", "title": "Disk full mid-upload", "cluster": "tight"}`)
		url := base + "/api/v1/incidents/full/snapshots"
		// The evidence already there, which a failed upload must leave as it was (on PostgreSQL
		// it also makes the day's partitions of events, so that the upload is what fails).
		if status, out := call(t, "POST", url+"?name=pod.json", "application/json", strings.NewReader(
			`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "first", "namespace": "x"}}`)); status != http.StatusCreated {
			t.Fatalf("first upload: %d %s", status, out)
		}
		settled(t, base) // its signature refresh is no part of what the next uploads are checked for
		for _, up := range uploads {
			t.Run(up.name, func(t *testing.T) {
				files := kubectlSnapshot(t, up.o)
				before := rowCounts(t, d.st, d.target)
				free := d.fill(t, up.keep)

				body, ct := multipartBody(t, files, "nodes.json", "pods.json", "events.json")
				status, out := call(t, "POST", url, ct, body)
				if status != http.StatusInsufficientStorage || !strings.Contains(string(out), "out of disk space") {
					t.Errorf("upload on a full disk: %d %s, want 507 saying the server is out of disk space", status, out)
				}
				if strings.Contains(string(out), d.dir) || strings.Contains(string(out), "SQLSTATE") {
					t.Errorf("the answer reveals the database's error: %s", out)
				}
				// Where SQLite runs out (writing rows, or at the commit) depends on when it
				// spills its page cache, which a busy machine changes: the cause is checked, and
				// the place only logged.
				assertLogged(t, logs, http.StatusInsufficientStorage, d.cause)
				if b.Target.Dialect == store.SQLite && !strings.Contains(logs.String(), up.sqliteSays) {
					t.Logf("SQLite ran out elsewhere than %q this time", up.sqliteSays)
				}
				assertCounts(t, d.st, d.target, before)
				assertServing(t, base, "full")

				free()
				body, ct = multipartBody(t, files, "nodes.json", "pods.json", "events.json")
				if status, out := call(t, "POST", url, ct, body); status != http.StatusCreated {
					t.Fatalf("the same upload once space is freed: %d %s", status, out)
				}
				settled(t, base)
				after := rowCounts(t, d.st, d.target)
				for table, want := range map[string]int64{"snapshots": 1, "nodes": int64(up.o.Nodes), "pods": int64(up.o.Pods),
					"events": int64(up.o.Events), "snapshot_events": int64(up.o.Events)} {
					if got := after[table] - before[table]; got != want {
						t.Errorf("%s: %d rows stored, want %d", table, got, want)
					}
				}
			})
		}
	})
}

// TestUploadSpoolFull fills the disk that uploads are received on (TMPDIR) before the database
// is touched: 507 with the cause logged, not 400 blaming the client, nothing stored and the
// partial files removed; once space is freed, the same upload is stored.
func TestUploadSpoolFull(t *testing.T) {
	spool := mountTmpfs(t, 4<<20, os.Geteuid(), os.Getegid())
	files := kubectlSnapshot(t, synth.Options{Nodes: 10, Pods: 300, Events: 100, Seed: 85})
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		t.Setenv("TMPDIR", spool) // after the SQLite file is made, in a folder of TMPDIR
		base, logs := newLoggedServer(t, st)
		createIncident(t, base, `{"id": "spool", "title": "Spool full"}`)
		before := rowCounts(t, st, bk.Target)
		free := fillDisk(t, spool, 64<<10)

		body, ct := multipartBody(t, files, "nodes.json", "pods.json", "events.json")
		status, out := call(t, "POST", base+"/api/v1/incidents/spool/snapshots", ct, body)
		if status != http.StatusInsufficientStorage || !strings.Contains(string(out), "out of disk space") || strings.Contains(string(out), spool) {
			t.Errorf("upload with a full spool: %d %s, want 507 saying the server is out of disk space", status, out)
		}
		assertLogged(t, logs, http.StatusInsufficientStorage, "no space left on device")
		assertCounts(t, st, bk.Target, before)
		if left, _ := filepath.Glob(filepath.Join(spool, "rootline-upload-*")); len(left) > 0 {
			t.Errorf("the failed upload left %s", left)
		}
		assertServing(t, base, "spool")

		free()
		body, ct = multipartBody(t, files, "nodes.json", "pods.json", "events.json")
		if status, out := call(t, "POST", base+"/api/v1/incidents/spool/snapshots", ct, body); status != http.StatusCreated {
			t.Fatalf("the same upload once space is freed: %d %s", status, out)
		}
	})
}

// TestUploadDatabaseError makes the database refuse a row late in an upload, after hundreds
// were written in its transaction: 500 with the cause logged, not a row of the upload stored,
// the server still answering; once the fault is gone, the same upload is stored whole.
func TestUploadDatabaseError(t *testing.T) {
	t.Parallel()
	o := synth.Options{Nodes: 10, Pods: 600, Events: 400, Seed: 86}
	faults := []struct {
		table string
		after int
	}{
		// The files are read in name order: events, nodes, then pods. SQLite writes in
		// batches of 100 as it reads; PostgreSQL copies the rows at the end, table by table,
		// the event links last.
		{"pod_containers", 400},
		{"snapshot_events", 390},
	}
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		base, logs := newLoggedServer(t, st)
		createIncident(t, base, `{"id": "fault", "title": "Database error mid-upload", "cluster": "flaky"}`)
		url := base + "/api/v1/incidents/fault/snapshots"
		for i, f := range faults {
			t.Run(f.table, func(t *testing.T) {
				o := o
				o.Seed += int64(i) // a snapshot of its own each time
				files := kubectlSnapshot(t, o)
				before := rowCounts(t, st, bk.Target)
				drop := storetest.Fault(t, bk.Target, f.table, f.after+int(before[f.table]))

				body, ct := multipartBody(t, files, "nodes.json", "pods.json", "events.json")
				status, out := call(t, "POST", url, ct, body)
				if status != http.StatusInternalServerError || string(out) != `{"error":"internal error"}` {
					t.Errorf("upload meeting a database error: %d %s, want 500 internal error", status, out)
				}
				assertLogged(t, logs, http.StatusInternalServerError, "test fault in "+f.table)
				assertCounts(t, st, bk.Target, before)
				assertServing(t, base, "fault")

				drop()
				body, ct = multipartBody(t, files, "nodes.json", "pods.json", "events.json")
				if status, out := call(t, "POST", url, ct, body); status != http.StatusCreated {
					t.Fatalf("the same upload once the fault is gone: %d %s", status, out)
				}
				settled(t, base) // its signature, written after the 201, is not counted as the next fault's
				if after := rowCounts(t, st, bk.Target); after["pods"]-before["pods"] != int64(o.Pods) {
					t.Errorf("%d pods stored, want %d", after["pods"]-before["pods"], o.Pods)
				}
			})
		}
		t.Run("at commit", func(t *testing.T) {
			if bk.Target.Dialect != store.Postgres {
				t.Skip("SQLite has no deferred triggers; TestUploadDiskFull fails a commit on it")
			}
			o := o
			o.Seed += int64(len(faults))
			files := kubectlSnapshot(t, o)
			before := rowCounts(t, st, bk.Target)
			// Raised at COMMIT, once every row is written: the snapshot row is updated with
			// its counts last.
			undo := []string{"DROP TRIGGER IF EXISTS rootline_fault ON snapshots", "DROP FUNCTION IF EXISTS rootline_fault()"}
			if err := storetest.Exec(bk.Target,
				"CREATE FUNCTION rootline_fault() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'test fault at commit'; END $$",
				"CREATE CONSTRAINT TRIGGER rootline_fault AFTER UPDATE ON snapshots DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION rootline_fault()",
			); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = storetest.Exec(bk.Target, undo...) })

			body, ct := multipartBody(t, files, "nodes.json", "pods.json", "events.json")
			if status, out := call(t, "POST", url, ct, body); status != http.StatusInternalServerError {
				t.Errorf("upload failing at commit: %d %s, want 500", status, out)
			}
			assertLogged(t, logs, http.StatusInternalServerError, "test fault at commit")
			assertCounts(t, st, bk.Target, before)
			assertServing(t, base, "fault")
			if err := storetest.Exec(bk.Target, undo...); err != nil {
				t.Fatal(err)
			}
			body, ct = multipartBody(t, files, "nodes.json", "pods.json", "events.json")
			if status, out := call(t, "POST", url, ct, body); status != http.StatusCreated {
				t.Fatalf("the same upload once the fault is gone: %d %s", status, out)
			}
		})
	})
}

// TestWriteDatabaseError makes the database refuse a row of each other request that writes:
// 500 with the cause logged and nothing of the request stored (not the incident whose tags
// failed, nor its new cluster); once the fault is gone, the same request succeeds.
func TestWriteDatabaseError(t *testing.T) {
	t.Parallel()
	reports, ct := multipartBody(t, map[string][]byte{
		"IL-0070.md": []byte(reportIL0070),
		"IL-0071.md": []byte(strings.Replace(reportIL0070, "IL-0070", "IL-0071", 1)),
	}, "IL-0070.md", "IL-0071.md")
	importBody, _ := io.ReadAll(reports)
	scenarios := []struct {
		name, table    string
		path, ct, body string
		want           int
	}{
		{"create incident", "incident_tags", "/api/v1/incidents", "application/json",
			`{"id": "new", "title": "Tags fail", "cluster": "brand-new", "tags": ["a", "b"]}`, http.StatusCreated},
		{"add note", "notes", "/api/v1/incidents/base/notes", "application/json",
			`{"at": "2023-02-01T17:20:00Z", "body": "seen"}`, http.StatusCreated},
		{"import reports", "incident_facets", "/api/v1/incidents/import", ct, string(importBody), http.StatusCreated},
	}
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		base, logs := newLoggedServer(t, st)
		createIncident(t, base, `{"id": "base", "title": "Already there"}`)
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) {
				before := rowCounts(t, st, bk.Target)
				drop := storetest.Fault(t, bk.Target, sc.table, int(before[sc.table]))
				status, out := call(t, "POST", base+sc.path, sc.ct, strings.NewReader(sc.body))
				if status != http.StatusInternalServerError || string(out) != `{"error":"internal error"}` {
					t.Errorf("%s meeting a database error: %d %s, want 500 internal error", sc.name, status, out)
				}
				assertLogged(t, logs, http.StatusInternalServerError, "test fault in "+sc.table)
				assertCounts(t, st, bk.Target, before)
				assertServing(t, base, "base")
				drop()
				if status, out := call(t, "POST", base+sc.path, sc.ct, strings.NewReader(sc.body)); status != sc.want {
					t.Fatalf("the same request once the fault is gone: %d %s, want %d", status, out, sc.want)
				}
			})
		}
	})
}
