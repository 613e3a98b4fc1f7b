package server_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/access"
	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/server"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// startServer is newServer that also returns the server, for tests that reach into it.
func startServer(t *testing.T, st *store.Store, cfg config.Config) (*server.Server, string) {
	t.Helper()
	log := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelError}))
	srv := server.New(cfg, server.StoreDeps(st, log))
	closeServer(t, srv, st)
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return srv, ts.URL
}

const onePod = `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p%d", "namespace": "x"}}`

// TestUploadWaitsForTheBudget: an upload that finds the memory budget taken waits in the spool,
// and when no room comes within --upload-wait it is answered 503 with Retry-After, having
// stored nothing; once the budget is free the same upload is stored. Same for a collector's
// batch.
func TestUploadWaitsForTheBudget(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		cfg := testConfig()
		cfg.UploadWait = 100 * time.Millisecond
		srv, base := startServer(t, st, cfg)
		createIncident(t, base, `{"id": "b", "title": "budget"}`)
		before := rowCounts(t, st, bk.Target)
		release, err := srv.HoldBudget(t.Context(), cfg.MemoryBudget)
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{"/api/v1/incidents/b/snapshots?name=p.json", "/api/v1/events?cluster=c"} {
			resp, err := http.Post(base+path, "application/json", strings.NewReader(fmt.Sprintf(onePod, 1)))
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" || !strings.Contains(string(body), "nothing was stored") {
				t.Errorf("%s with the budget taken: %d Retry-After %q %s, want 503 with Retry-After", path, resp.StatusCode, resp.Header.Get("Retry-After"), body)
			}
		}
		assertCounts(t, st, bk.Target, before)
		release()
		if status, out := call(t, "POST", base+"/api/v1/incidents/b/snapshots?name=p.json", "application/json", strings.NewReader(fmt.Sprintf(onePod, 1))); status != 201 {
			t.Errorf("with the budget free: %d %s", status, out)
		}
		if status, out := call(t, "POST", base+"/api/v1/events?cluster=c", "application/json", strings.NewReader(fmt.Sprintf(onePod, 2))); status != 200 {
			t.Errorf("a batch with the budget free: %d %s", status, out)
		}
	})
}

// TestMetricsMethodsBounded: made-up HTTP methods do not add series to /metrics (they are
// counted as "other"); before, each 4 KB method added its own.
func TestMetricsMethodsBounded(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		base := newServer(t, st, testConfig())
		scrape := func() int {
			_, b := call(t, "GET", base+"/metrics", "", nil)
			return len(b)
		}
		call(t, "BREW", base+"/api/v1/incidents", "", nil) // the "other" series exists
		call(t, "GET", base+"/metrics", "", nil)
		before := scrape()
		for i := range 300 {
			method := strings.Repeat("X", 4096) + strconv.Itoa(i)
			call(t, method, base+"/api/v1/incidents", "", nil)
		}
		if grown := scrape() - before; grown > 2048 {
			t.Errorf("300 made-up methods grew the scrape by %d bytes", grown)
		}
		_, b := call(t, "GET", base+"/metrics", "", nil)
		if !strings.Contains(string(b), `method="other"`) {
			t.Error(`no method="other" series`)
		}
	})
}

// TestHead: HEAD answers as GET does, without a body, on pages and the API; on a route
// without GET it is 405, and with authentication on it needs the read scope like GET.
func TestHead(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		cfg := testConfig()
		cfg.Auth, cfg.APIToken = "on", "0123456789abcdef-token"
		base := newServer(t, st, cfg)
		read, _, err := st.CreateToken(t.Context(), "reader", access.Read)
		if err != nil {
			t.Fatal(err)
		}
		auth := []string{"Authorization", "Bearer " + read}
		admin := []string{"Authorization", "Bearer " + cfg.APIToken}
		createIncidentAs(t, base, `{"id": "h", "title": "head"}`, admin)
		for _, tc := range []struct {
			path   string
			header []string
			status int
		}{
			{"/healthz", nil, 200},
			{"/api/v1/incidents", auth, 200},
			{"/api/v1/incidents/h", auth, 200},
			{"/incidents/h", auth, 200},
			{"/api/v1/incidents/h/timeline", auth, 200},
			{"/api/v1/incidents/nope", auth, 404},
			{"/api/v1/incidents", nil, 401},
			{"/api/v1/events", auth, 405},
		} {
			status, body := call(t, "HEAD", base+tc.path, "", nil, tc.header...)
			if status != tc.status || len(body) != 0 {
				t.Errorf("HEAD %s: %d with %d bytes, want %d and no body", tc.path, status, len(body), tc.status)
			}
		}
	})
}

func createIncidentAs(t *testing.T, base, body string, header []string) {
	t.Helper()
	if status, out := call(t, "POST", base+"/api/v1/incidents", "application/json", strings.NewReader(body), header...); status != 201 {
		t.Fatalf("create incident: %d %s", status, out)
	}
}

// rawRequest opens a connection, sends head (a request line and headers) and then body one
// byte at a time, every gap, until the server answers or the body ends (or 40 s pass: status
// 0). It returns the status and how long the answer took.
func rawRequest(t *testing.T, base, head string, body []byte, gap time.Duration) (int, time.Duration) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	answered := make(chan int, 1)
	go func() {
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			answered <- 0
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	for _, c := range body {
		if time.Since(start) > 40*time.Second {
			return 0, time.Since(start) // still reading: the test fails
		}
		select {
		case status := <-answered:
			return status, time.Since(start)
		case <-time.After(gap):
		}
		if _, err := conn.Write([]byte{c}); err != nil {
			break
		}
	}
	select {
	case status := <-answered:
		return status, time.Since(start)
	case <-time.After(30 * time.Second):
		t.Fatal("no answer 30 s after the body ended")
	}
	return 0, 0
}

// TestSlowBody: a client that trickles its body is refused without a token at once, not once
// its body ends; with authentication off, a body that stays silent or comes too slowly is cut
// with 408.
func TestSlowBody(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		body := bytes.Repeat([]byte("x"), 100000)
		head := func(path string) string {
			return "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
		}

		t.Run("unauthenticated", func(t *testing.T) {
			cfg := testConfig()
			cfg.Auth, cfg.APIToken = "on", "0123456789abcdef-token"
			base := newServer(t, st, cfg)
			status, took := rawRequest(t, base, head("/api/v1/incidents/x/snapshots"), body, 200*time.Millisecond)
			if status != 401 || took > 10*time.Second {
				t.Errorf("%d after %s, want 401 at once", status, took)
			}
		})
		t.Run("trickle", func(t *testing.T) {
			cfg := testConfig()
			cfg.BodyIdle, cfg.BodyRate = time.Second, 1024
			base := newServer(t, st, cfg)
			createIncident(t, base, `{"id": "s", "title": "slow"}`)
			status, took := rawRequest(t, base, head("/api/v1/incidents/s/snapshots"), body, 100*time.Millisecond)
			if status != 408 || took > 20*time.Second {
				t.Errorf("%d after %s, want 408 within seconds", status, took)
			}
		})
		t.Run("silent", func(t *testing.T) {
			cfg := testConfig()
			cfg.BodyIdle, cfg.BodyRate = time.Second, 0
			base := newServer(t, st, cfg)
			status, took := rawRequest(t, base, head("/api/v1/events?cluster=c"), body[:2], 10*time.Second)
			if status != 408 || took > 9*time.Second {
				t.Errorf("%d after %s, want 408 once a second of silence passed", status, took)
			}
		})
	})
}

// TestEventsRateLimit: a collector's token has its own budget of batches, refused beyond it
// with 429 and Retry-After; another token is not held back.
func TestEventsRateLimit(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		cfg := testConfig()
		cfg.Auth, cfg.APIToken = "on", "0123456789abcdef-token"
		cfg.EventsRate, cfg.EventsBurst = 1, 3
		base := newServer(t, st, cfg)
		a, _, _ := st.CreateToken(t.Context(), "collector-a", access.Write)
		b, _, _ := st.CreateToken(t.Context(), "collector-b", access.Write)
		send := func(token string, i int) (int, http.Header) {
			req, _ := http.NewRequest("POST", base+"/api/v1/events?cluster=c", strings.NewReader(fmt.Sprintf(onePod, i)))
			req.Header.Set("Authorization", "Bearer "+token)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body) // the status and headers are what is checked
			resp.Body.Close()
			return resp.StatusCode, resp.Header
		}
		for i := range 3 {
			if status, _ := send(a, i); status != 200 {
				t.Fatalf("batch %d within the burst: %d", i, status)
			}
		}
		if status, h := send(a, 3); status != 429 || h.Get("Retry-After") == "" {
			t.Errorf("a batch beyond the burst: %d Retry-After %q, want 429 with it", status, h.Get("Retry-After"))
		}
		if status, _ := send(b, 4); status != 200 {
			t.Errorf("another collector: %d", status)
		}
	})
}

// TestSpoolCleanedAtStart: a server that starts removes the spool folders of servers that are
// gone (kill -9 leaves them), and keeps those of servers still running; uploads go to its own.
func TestSpoolCleanedAtStart(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		root := t.TempDir()
		dead := filepath.Join(root, "server-999999999-12345") // no such process
		stray := filepath.Join(root, "server-junk")
		live := filepath.Join(root, "server-1-"+startTimeOf(t, 1)) // init runs
		for _, d := range []string{dead, stray, live} {
			if err := os.MkdirAll(filepath.Join(d, "upload-123"), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(d, "upload-123", "part-1"), make([]byte, 1<<20), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		cfg := testConfig()
		cfg.SpoolDir = root
		srv, base := startServer(t, st, cfg)
		for _, d := range []string{dead, stray} {
			if _, err := os.Stat(d); !os.IsNotExist(err) {
				t.Errorf("%s is still there (%v)", d, err)
			}
		}
		if _, err := os.Stat(live); err != nil {
			t.Errorf("the spool of a running server was removed: %v", err)
		}
		if dir := srv.SpoolDir(); filepath.Dir(dir) != root {
			t.Errorf("spooling into %s, not under %s", dir, root)
		}
		createIncident(t, base, `{"id": "sp", "title": "spool"}`)
		if status, out := call(t, "POST", base+"/api/v1/incidents/sp/snapshots?name=p.json", "application/json", strings.NewReader(fmt.Sprintf(onePod, 1))); status != 201 {
			t.Fatalf("upload: %d %s", status, out)
		}
		if left, _ := os.ReadDir(srv.SpoolDir()); len(left) != 0 {
			t.Errorf("an upload left %d entries in the spool", len(left))
		}
	})
}

// startTimeOf reads a process's start time as the spool names it, or skips the case when
// there is no /proc (outside Linux).
func startTimeOf(t *testing.T, pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatalf("no /proc: %v", err)
	}
	s := string(b)
	return strings.Fields(s[strings.LastIndexByte(s, ')')+1:])[19]
}
