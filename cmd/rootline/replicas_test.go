package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// startServerProcess runs `rootline serve` as a process of its own (the test binary, see
// TestMain) on a free port, and returns its URL once it is ready.
func startServerProcess(t *testing.T, database string) string {
	t.Helper()
	return startServer(t, database, "").url
}

// serverProcess is a `rootline serve` process.
type serverProcess struct {
	url  string
	cmd  *exec.Cmd
	logs *syncBuffer
	done chan error // the process's end
}

// stop interrupts the server and waits for it to end.
func (p *serverProcess) stop(t *testing.T) {
	t.Helper()
	_ = p.cmd.Process.Signal(os.Interrupt)
	select {
	case err := <-p.done:
		t.Logf("the server stopped: %v", err) // interrupted: its exit status says so
	case <-time.After(15 * time.Second):
		t.Fatal("the server did not stop")
	}
}

// startServer runs `rootline serve` on addr (a free port when empty) and waits until it is
// ready. It is stopped (SIGINT, then SIGKILL) at the end of the test unless it ended before.
func startServer(t *testing.T, database, addr string) *serverProcess {
	t.Helper()
	return startServerEnv(t, database, addr)
}

// startServerEnv is startServer with environment variables (NAME=value) added to the process's.
// An address whose port is 0 (or an empty one, 127.0.0.1:0) gets a free port; the port is free
// when it is picked but may be taken before the server binds it (by another test's server), so
// the server's own "listening" line is waited for before it is asked whether it is ready (an
// answer from whatever else took the port is never taken for its), and a server that could not
// bind a port picked here is started again on another, up to five times.
func startServerEnv(t *testing.T, database, addr string, env ...string) *serverProcess {
	t.Helper()
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	for attempt := 1; ; attempt++ {
		at := addr
		if port == "0" {
			at = net.JoinHostPort(host, freePort(t))
		}
		p, inUse := tryServer(t, database, at, env)
		if p != nil {
			return p
		}
		if !inUse || port != "0" || attempt == 5 {
			t.Fatalf("server %s did not start", at)
		}
	}
}

// freePort is a port no one listens on, as the system picks one.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	ln.Close()
	return port
}

// tryServer starts a server on addr and waits until it is ready; it returns nil, reporting
// whether it could not bind addr because something else had, when it ended first.
func tryServer(t *testing.T, database, addr string, env []string) (p *serverProcess, inUse bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "serve", "--addr", addr, "--database", database, "--log-level", "info")
	cmd.Env = append(append(os.Environ(), "ROOTLINE_TEST_RUN_MAIN=1"), env...)
	logs := new(syncBuffer)
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait(); close(done) }()
	stopped := false
	t.Cleanup(func() {
		if stopped {
			return
		}
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case err := <-done:
			t.Logf("server %s stopped: %v", addr, err)
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
		}
		if t.Failed() {
			t.Logf("server %s:\n%s", addr, logs.String())
		}
	})
	url := "http://" + addr
	if h, port, _ := net.SplitHostPort(addr); h == "0.0.0.0" || h == "::" {
		url = "http://" + net.JoinHostPort("127.0.0.1", port)
	}
	for range 600 {
		select {
		case err := <-done:
			stopped = true
			inUse = strings.Contains(logs.String(), "address already in use")
			if !inUse {
				t.Logf("server %s ended before it was ready: %v\n%s", addr, err, logs.String())
			}
			return nil, inUse
		default:
		}
		if strings.Contains(logs.String(), "msg=listening") {
			if resp, err := http.Get(url + "/readyz"); err == nil {
				resp.Body.Close()
				if resp.StatusCode == 200 {
					return &serverProcess{url: url, cmd: cmd, logs: logs, done: done}, false
				}
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("server %s never became ready:\n%s", addr, logs.String())
	return nil, false
}

// syncBuffer is a bytes.Buffer a process writes its output to while tests read it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestTwoServers is issue 7's test of replicas: two `rootline serve` processes on one
// PostgreSQL (starting together, so their migrations race too). 16 concurrent uploads of the
// same snapshot, spread over both, store exactly one snapshot; 16 concurrent uploads of
// different snapshots are all stored, each with its own objects and nothing of the others';
// both servers then read the same incident.
func TestTwoServers(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, _ *store.Store, b storetest.Backend) {
		if b.Name != "postgres" {
			t.Skip("replicas share a PostgreSQL")
		}
		database := storetest.Fresh(t, b)
		var urls [2]string
		var wg sync.WaitGroup
		for i := range urls {
			wg.Go(func() { urls[i] = startServerProcess(t, database) })
		}
		wg.Wait()
		post := func(url, path, body string) (int, map[string]any) {
			resp, err := http.Post(url+path, "application/json", strings.NewReader(body))
			if err != nil {
				t.Error(err)
				return 0, nil
			}
			defer resp.Body.Close()
			raw, _ := io.ReadAll(resp.Body)
			var out map[string]any
			_ = json.Unmarshal(raw, &out)
			return resp.StatusCode, out
		}
		if status, out := post(urls[0], "/api/v1/incidents", `{"id": "r", "title": "replicas", "cluster": "leap"}`); status != 201 {
			t.Fatalf("create: %d %v", status, out)
		}
		pod := func(name string) string {
			return fmt.Sprintf(`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": %q, "namespace": "prod", "uid": %q},
				"spec": {"nodeName": "core-1"}, "status": {"phase": "Failed", "reason": "Evicted"}}`, name, "uid-"+name)
		}
		type result struct {
			status   int
			snapshot string
			pods     float64
		}
		upload := func(bodies func(i int) string) []result {
			out := make([]result, 16)
			var wg sync.WaitGroup
			for i := range out {
				wg.Go(func() {
					status, body := post(urls[i%2], "/api/v1/incidents/r/snapshots?name=pod.json", bodies(i))
					out[i] = result{status: status}
					if body != nil {
						out[i].snapshot, _ = body["snapshot"].(string)
						if objs, ok := body["objects"].(map[string]any); ok {
							out[i].pods, _ = objs["Pod"].(float64)
						}
					}
				})
			}
			wg.Wait()
			return out
		}

		same := upload(func(int) string { return pod("hub") })
		created := 0
		for _, r := range same {
			if r.status == 201 {
				created++
			}
			if (r.status != 201 && r.status != 200) || r.snapshot != same[0].snapshot || r.pods != 1 {
				t.Errorf("same snapshot: %+v, want 200 or 201 with snapshot %s and 1 pod", r, same[0].snapshot)
			}
		}
		if created != 1 {
			t.Errorf("16 uploads of the same snapshot created %d snapshots, want 1", created)
		}

		different := upload(func(i int) string { return pod(fmt.Sprintf("worker-%02d", i)) })
		seen := map[string]bool{}
		for i, r := range different {
			if r.status != 201 || r.pods != 1 || seen[r.snapshot] {
				t.Errorf("upload %d of a different snapshot: %+v", i, r)
			}
			seen[r.snapshot] = true
		}

		// Both replicas read the same incident: 17 snapshots, 17 pods, each pod once.
		counts := rowCounts(t, database)
		if counts["snapshots"] != 17 || counts["pods"] != 17 || counts["incident_snapshots"] != 17 {
			t.Errorf("rows: snapshots %d, pods %d, links %d; want 17 of each", counts["snapshots"], counts["pods"], counts["incident_snapshots"])
		}
		for _, url := range urls {
			resp, err := http.Get(url + "/api/v1/incidents/r/analysis")
			if err != nil {
				t.Fatal(err)
			}
			var rep struct {
				Inputs struct{ Pods int }
			}
			_ = json.NewDecoder(resp.Body).Decode(&rep)
			resp.Body.Close()
			if rep.Inputs.Pods != 17 {
				t.Errorf("%s: the analysis reads %d pods, want 17", url, rep.Inputs.Pods)
			}
		}
	})
}
