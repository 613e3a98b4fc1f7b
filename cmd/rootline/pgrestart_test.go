package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/testenv"
)

// privatePostgres is a PostgreSQL server of the test's own, so that it can be stopped and
// started under Rootline without touching the shared one.
type privatePostgres struct {
	bin, data, log string
	port           int
	run            func(args ...string) ([]byte, error) // as the postgres user
}

// startPrivatePostgres runs initdb and starts a server on a free port; it skips the test
// where PostgreSQL's programs or a postgres user to run them are missing.
func startPrivatePostgres(t *testing.T) *privatePostgres {
	t.Helper()
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	if len(bins) == 0 {
		testenv.Missing(t, "no PostgreSQL programs in /usr/lib/postgresql")
	}
	sort.Strings(bins)
	bin := filepath.Dir(bins[len(bins)-1])
	u, err := user.Lookup("postgres")
	if err != nil || os.Geteuid() != 0 {
		testenv.Missing(t, "runs PostgreSQL as the postgres user, which needs root")
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	dir, err := os.MkdirTemp("", "rootline-pg-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, uid, gid); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	p := &privatePostgres{bin: bin, data: filepath.Join(dir, "data"), log: filepath.Join(dir, "log"), port: port,
		run: func(args ...string) ([]byte, error) {
			return exec.Command("runuser", append([]string{"-u", "postgres", "--"}, args...)...).CombinedOutput()
		}}
	if out, err := p.run(filepath.Join(bin, "initdb"), "-D", p.data, "-A", "trust", "-U", "postgres", "--no-sync"); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		_, _ = p.run(filepath.Join(bin, "pg_ctl"), "-D", p.data, "-m", "immediate", "-w", "stop")
		os.RemoveAll(dir)
	})
	p.start(t)
	return p
}

func (p *privatePostgres) start(t *testing.T) {
	t.Helper()
	opts := fmt.Sprintf("-p %d -c listen_addresses=127.0.0.1 -k %s -c fsync=off", p.port, filepath.Dir(p.data))
	if out, err := p.run(filepath.Join(p.bin, "pg_ctl"), "-D", p.data, "-o", opts, "-l", p.log, "-w", "start"); err != nil {
		log, _ := os.ReadFile(p.log)
		t.Fatalf("pg_ctl start: %v\n%s\n%s", err, out, log)
	}
}

func (p *privatePostgres) stop(t *testing.T) {
	t.Helper()
	if out, err := p.run(filepath.Join(p.bin, "pg_ctl"), "-D", p.data, "-m", "fast", "-w", "stop"); err != nil {
		t.Fatalf("pg_ctl stop: %v\n%s", err, out)
	}
}

func (p *privatePostgres) url() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", p.port)
}

// TestPostgresRestart stops PostgreSQL under a running server: while it is down, requests
// fail at once with a 5xx that says so, and the server says it is not ready; once it is back,
// requests succeed again without restarting Rootline, and nothing was lost.
func TestPostgresRestart(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts its own PostgreSQL")
	}
	pg := startPrivatePostgres(t)
	srv := startServer(t, pg.url(), "")
	if status, out := post(t, srv.url+"/api/v1/incidents", `{"id": "before", "title": "made before the restart"}`); status != http.StatusCreated {
		t.Fatalf("create incident: %d %s", status, out)
	}
	get := func(path string) (int, string) {
		c := &http.Client{Timeout: 20 * time.Second}
		resp, err := c.Get(srv.url + path)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		buf := make([]byte, 300)
		n, _ := resp.Body.Read(buf)
		return resp.StatusCode, string(buf[:n])
	}

	pg.stop(t)
	start := time.Now()
	status, out := get("/api/v1/incidents")
	if status != http.StatusServiceUnavailable || !strings.Contains(out, "database is unavailable") {
		t.Errorf("a read while PostgreSQL is down: %d %s, want 503 saying the database is unavailable", status, out)
	}
	t.Logf("a read while PostgreSQL is down: %d %s", status, out)
	if took := time.Since(start); took > 15*time.Second {
		t.Errorf("a read while PostgreSQL is down took %v", took)
	}
	if status, out := post(t, srv.url+"/api/v1/incidents", `{"id": "during", "title": "made while down"}`); status != http.StatusServiceUnavailable {
		t.Errorf("a write while PostgreSQL is down: %d %s, want 503", status, out)
	}
	if status, out := get("/readyz"); status != http.StatusServiceUnavailable {
		t.Errorf("readyz while PostgreSQL is down: %d %s", status, out)
	}
	if status, _ := get("/healthz"); status != http.StatusOK {
		t.Errorf("healthz (the process lives) while PostgreSQL is down: %d", status)
	}

	pg.start(t)
	deadline := time.Now().Add(30 * time.Second)
	for {
		status, out = get("/api/v1/incidents/before")
		if status == http.StatusOK || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if status != http.StatusOK {
		t.Fatalf("after PostgreSQL came back: %d %s", status, out)
	}
	if status, out := post(t, srv.url+"/api/v1/incidents", `{"id": "after", "title": "made after the restart"}`); status != http.StatusCreated {
		t.Errorf("a write after PostgreSQL came back: %d %s", status, out)
	}
	if status, _ := get("/api/v1/incidents/during"); status != http.StatusNotFound {
		t.Errorf("the incident posted while PostgreSQL was down: %d, want 404", status)
	}
	srv.stop(t)
	if !strings.Contains(srv.logs.String(), "level=ERROR") {
		t.Errorf("the server logged no error while PostgreSQL was down:\n%s", srv.logs.String())
	}
}
