package main

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	_ "github.com/jackc/pgx/v5/stdlib" // the pgx driver, to watch the server's transaction

	"github.com/rootline-dev/rootline/internal/evidence"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
	"github.com/rootline-dev/rootline/internal/synth"
)

// TestKilledMidUpload kills the server with SIGKILL while it stores an upload (once the
// database shows the upload's transaction writing): after a restart on the same database the
// upload is not there, not even in part, and sending it again stores it whole.
func TestKilledMidUpload(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts and kills servers")
	}
	var body bytes.Buffer
	const pods = 8000
	if err := synth.WritePodList(&body, synth.Options{Pods: pods, Seed: 9}); err != nil {
		t.Fatal(err)
	}
	storetest.Each(t, pg, func(t *testing.T, _ *store.Store, b storetest.Backend) {
		// The kill is sent once the upload is seen writing; a fast write may commit before it
		// lands. Then the whole snapshot is there (never a part of it), and the case is tried
		// again on a fresh database, up to three times, until a kill lands mid-write.
		for attempt := 1; ; attempt++ {
			if killedMidUpload(t, b, body.Bytes(), pods) {
				return
			}
			if attempt == 3 {
				t.Fatal("three uploads committed before the kill landed: none was killed mid-write")
			}
		}
	})
}

// killedMidUpload posts body, a pod list of pods pods, to a server on a fresh database of b,
// kills the server once the upload writes, and checks that the database holds all the snapshot
// or none of it. When none (the kill landed mid-write), it checks that the same upload after a
// restart is stored whole, and reports true; when all (the upload committed first), false.
func killedMidUpload(t *testing.T, b storetest.Backend, body []byte, pods int) bool {
	t.Helper()
	database := storetest.Fresh(t, b)
	srv := startServer(t, database, "")
	if status, out := post(t, srv.url+"/api/v1/incidents", `{"id": "k", "title": "killed"}`); status != http.StatusCreated {
		t.Fatalf("create incident: %d %s", status, out)
	}
	upload := func(url string) (int, string) {
		resp, err := http.Post(url+"/api/v1/incidents/k/snapshots?name=pods.json", "application/json", bytes.NewReader(body))
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	answered := make(chan string, 1)
	go func() {
		status, out := upload(srv.url)
		answered <- fmt.Sprintf("%d %.100s", status, out)
	}()
	waitWriting(t, b, database)
	if err := srv.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if got := <-answered; !strings.HasPrefix(got, "0 ") {
		t.Fatalf("the upload was answered before the kill: %s", got)
	}

	st := testStore(t, database)
	counts := rowCounts(t, database)
	st.Close()
	if counts["snapshots"] == 1 && counts["incident_snapshots"] == 1 && counts["pods"] == int64(pods) {
		t.Logf("the upload committed before the kill landed (%d pods stored whole)", pods)
		return false
	}
	for _, table := range []string{"snapshots", "incident_snapshots", "pods", "pod_containers"} {
		if counts[table] != 0 {
			t.Errorf("after SIGKILL: %d rows in %s, want none (or the whole snapshot)", counts[table], table)
		}
	}
	again := startServer(t, database, "")
	if status, out := upload(again.url); status != http.StatusCreated {
		t.Fatalf("the same upload after the restart: %d %s", status, out)
	}
	st = testStore(t, database)
	if n := podsOf(t, st, "k"); n != pods {
		t.Errorf("after the upload again: %d pods, want %d", n, pods)
	}
	return true
}

// waitWriting waits until the database shows an upload being written: on PostgreSQL a
// transaction of the server's that has written pods; on SQLite the write-ahead log growing.
func waitWriting(t *testing.T, b storetest.Backend, database string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	if b.Name == "sqlite" {
		wal := database + "-wal"
		start := fileSize(wal)
		for time.Now().Before(deadline) {
			if fileSize(wal) > start+(1<<20) {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
		t.Fatal("the upload never started writing")
	}
	db, err := sql.Open("pgx", database)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for time.Now().Before(deadline) {
		var n int
		err := db.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND datname = current_database()
			AND backend_xid IS NOT NULL AND query ILIKE '%pod%'`).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the upload never started writing")
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// podsOf counts the pods of an incident's snapshots.
func podsOf(t *testing.T, st *store.Store, id string) int {
	t.Helper()
	_, objs, err := evidence.Objects(t.Context(), st, id)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, o := range objs {
		if o.Pod != nil {
			n++
		}
	}
	return n
}

// TestImportDatabaseError makes the database refuse a row late in `rootline import` (the
// facets, written after the incidents, tags and signatures): exit code 1 with an error that
// names the cause (run prints it on stderr), no report of the import stored, and the same
// import succeeds once the fault is gone.
func TestImportDatabaseError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, id := range []string{"IL-0070", "IL-0071"} {
		report := "---\nid: " + id + "\ntitle: Hub restart\ncauses: [capacity_exhaustion, shared_node_pool]\n---\ntext\n"
		if err := os.WriteFile(filepath.Join(dir, id+".md"), []byte(report), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	storetest.Each(t, pg, func(t *testing.T, _ *store.Store, b storetest.Backend) {
		database := storetest.Fresh(t, b)
		testStore(t, database) // migrates it
		tg, err := store.ParseTarget(database)
		if err != nil {
			t.Fatal(err)
		}
		before := rowCounts(t, database)
		drop := storetest.Fault(t, tg, "incident_facets", 0)
		var out bytes.Buffer
		err = importReports(t.Context(), database, []string{dir}, &out)
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != exitFailure || !strings.Contains(err.Error(), "test fault in incident_facets") {
			t.Errorf("import meeting a database error: %v, want exit %d naming the cause", err, exitFailure)
		}
		after := rowCounts(t, database)
		if diff := cmp.Diff(before, after); diff != "" {
			t.Errorf("rows after the failed import (-before +after):\n%s", diff)
		}
		drop()
		out.Reset()
		if err := importReports(t.Context(), database, []string{dir}, &out); err != nil || !strings.Contains(out.String(), "2 new") {
			t.Fatalf("the same import once the fault is gone: %v %s", err, out.String())
		}
	})
}
