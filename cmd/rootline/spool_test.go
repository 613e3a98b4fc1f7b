package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestKilledServerSpool: a server killed with -9 in the middle of an upload leaves its spool
// behind (it cannot clean up); the next server to start on that spool folder removes it.
func TestKilledServerSpool(t *testing.T) {
	storetest.Each(t, pg, func(t *testing.T, _ *store.Store, b storetest.Backend) {
		spool := t.TempDir()
		t.Setenv("ROOTLINE_SPOOL_DIR", spool)
		db := b.Target.DSN
		if b.Name == "sqlite" {
			db = b.Target.Display // the DSN is the driver's file: URL; serve takes the path
		}
		a := startServer(t, db, "")
		conn, err := net.Dial("tcp", strings.TrimPrefix(a.url, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "POST /api/v1/incidents/k/snapshots?create=true&name=pods.json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", 10<<20)
		chunk := []byte(`{"apiVersion": "v1", "kind": "List", "items": [` + strings.Repeat(" ", 1<<20))
		if _, err := conn.Write(chunk); err != nil {
			t.Fatal(err)
		}
		var parts []string
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			parts, _ = filepath.Glob(filepath.Join(spool, "server-*", "upload-*", "part-*"))
			if len(parts) > 0 {
				if fi, err := os.Stat(parts[0]); err == nil && fi.Size() > 0 {
					break
				}
			}
		}
		if len(parts) != 1 {
			t.Fatalf("the upload in flight is not in the spool: %v", parts)
		}
		if err := a.cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		t.Logf("the killed server: %v", <-a.done)
		left, _ := filepath.Glob(filepath.Join(spool, "server-*"))
		if _, err := os.Stat(parts[0]); err != nil || len(left) != 1 {
			t.Fatalf("after kill -9 the spool holds %v (%v): the test no longer kills in the middle of an upload", left, err)
		}
		startServer(t, db, "")
		if _, err := os.Stat(left[0]); !os.IsNotExist(err) {
			t.Errorf("the killed server's spool %s is still there after a new server started (%v)", left[0], err)
		}
		now, _ := filepath.Glob(filepath.Join(spool, "server-*"))
		if len(now) != 1 || now[0] == left[0] {
			t.Errorf("spool folders after the restart: %v, want only the new server's", now)
		}
	})
}
