package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/access"
	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/server"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

var pg *storetest.Postgres

func TestMain(m *testing.M) {
	// The benchmarks' SQLite files last as long as the test binary (timelineBench, made once):
	// they go in a temporary folder of its own, removed when it ends.
	tmp, err := os.MkdirTemp("", "rootline-server-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// Others may pass through it: the disk-full tests mount a tmpfs in it for PostgreSQL's user.
	if err := os.Chmod(tmp, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("TMPDIR", tmp)
	storetest.Main(m, &pg, func() { os.RemoveAll(tmp) })
}

// testConfig is the configuration of a server under test: loopback, no authentication.
func testConfig() config.Config {
	c, _ := config.Default(func(string) string { return "" })
	c.Auth = "off"
	return c
}

// newServer starts the server on a store and returns its URL.
func newServer(t *testing.T, st *store.Store, cfg config.Config) string {
	t.Helper()
	base, _ := newServerWith(t, st, cfg, nil)
	return base
}

// newServerWith starts the server on a store, its collaborators changed by with (when not nil),
// and returns its URL and the server.
func newServerWith(t *testing.T, st *store.Store, cfg config.Config, with func(*server.Deps)) (string, *server.Server) {
	t.Helper()
	deps := server.StoreDeps(st, slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn})))
	if with != nil {
		with(&deps)
	}
	srv := server.New(cfg, deps)
	closeServer(t, srv, st)
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return ts.URL, srv
}

// servers are the servers running on each store, which rowCounts settles first.
var servers = struct {
	sync.Mutex
	on map[*store.Store][]*server.Server
}{on: map[*store.Store][]*server.Server{}}

// closeServer waits, when the test ends (after the cleanups registered later, such as the
// test server's), for the work srv's requests left running, which logs to the test. It
// records srv as st's (nil: not to be settled by rowCounts).
func closeServer(t testing.TB, srv *server.Server, st ...*store.Store) {
	for _, st := range st {
		servers.Lock()
		servers.on[st] = append(servers.on[st], srv)
		servers.Unlock()
		t.Cleanup(func() {
			servers.Lock()
			delete(servers.on, st)
			servers.Unlock()
		})
	}
	t.Cleanup(func() {
		if err := srv.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
}

// settled returns once the signature refreshes the uploads so far asked for are done: the
// library's list waits for them.
func settled(t *testing.T, base string) {
	t.Helper()
	if status, out := call(t, "GET", base+"/api/v1/incidents?limit=1", "", nil); status != http.StatusOK {
		t.Fatalf("list incidents: %d %s", status, out)
	}
}

// call sends a request and returns the status and the body.
func call(t *testing.T, method, url, contentType string, body io.Reader, header ...string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

func createIncident(t *testing.T, base, body string) {
	t.Helper()
	if status, b := call(t, "POST", base+"/api/v1/incidents", "application/json", strings.NewReader(body)); status != http.StatusCreated {
		t.Fatalf("create incident: %d %s", status, b)
	}
}

// multipartBody builds a multipart upload of named files.
func multipartBody(t *testing.T, files map[string][]byte, order ...string) (io.Reader, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for _, name := range order {
		part, err := w.CreateFormFile("file", name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := part.Write(files[name]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return &b, w.FormDataContentType()
}

func TestIncidentScenarios(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		base := newServer(t, st, testConfig())
		scenarios := []struct {
			name       string
			method     string
			path       string
			body       string
			wantStatus int
			wantIn     []string
		}{
			{"create", "POST", "/api/v1/incidents", `{"id": "IL-0070", "title": "Hub restart", "cluster": "leap", "tags": ["Kubernetes", "observability"], "started_at": "2023-02-01T16:59:00Z"}`,
				201, []string{`"id":"IL-0070"`, `"cluster":"leap"`, `"tags":["kubernetes","observability"]`, `"started_at":"2023-02-01T16:59:00Z"`}},
			{"create again", "POST", "/api/v1/incidents", `{"id": "IL-0070", "title": "Again"}`, 409, []string{`"error":"incident IL-0070 already exists"`}},
			{"generated id", "POST", "/api/v1/incidents", `{"title": "No id given"}`, 201, []string{`"id":"inc-`}},
			{"no title", "POST", "/api/v1/incidents", `{"id": "x1"}`, 422, []string{"title is required"}},
			{"bad id", "POST", "/api/v1/incidents", `{"id": "../etc", "title": "t"}`, 422, []string{`id \"../etc\"`}},
			{"unknown field", "POST", "/api/v1/incidents", `{"title": "t", "severity": 1}`, 422, []string{`unknown field \"severity\"`}},
			{"not json", "POST", "/api/v1/incidents", `title=t`, 422, []string{"invalid JSON body"}},
			{"ends before start", "POST", "/api/v1/incidents", `{"title": "t", "started_at": "2023-02-01T17:00:00Z", "ended_at": "2023-02-01T16:00:00Z"}`, 422, []string{"ended_at is before started_at"}},
			{"get", "GET", "/api/v1/incidents/IL-0070", "", 200, []string{`"title":"Hub restart"`}},
			{"get missing", "GET", "/api/v1/incidents/IL-9999", "", 404, []string{`"error":"incident IL-9999 not found"`}},
			{"list by tag", "GET", "/api/v1/incidents?tag=kubernetes", "", 200, []string{`"id":"IL-0070"`}},
			{"bad limit", "GET", "/api/v1/incidents?limit=0", "", 400, []string{"limit must be"}},
			{"upload to missing incident", "POST", "/api/v1/incidents/IL-9999/snapshots", `{"kind": "Pod"}`, 404, []string{"incident IL-9999 not found"}},
			{"unknown route", "GET", "/api/v1/nothing", "", 404, []string{`"error"`}},
			{"wrong method", "DELETE", "/api/v1/incidents", "", 405, []string{"method not allowed"}},
			{"healthz", "GET", "/healthz", "", 200, []string{`"status":"ok"`}},
			{"readyz", "GET", "/readyz", "", 200, []string{`"status":"ready"`}},
			{"library page", "GET", "/", "", 200, []string{`data-testid="incident-list"`, "IL-0070", "Hub restart", `data-testid="create-form"`}},
			{"stylesheet", "GET", "/static/app.css", "", 200, []string{"--accent"}},
			{"metrics", "GET", "/metrics", "", 200, []string{"rootline_http_requests_total"}},
		}
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) {
				var body io.Reader
				if sc.body != "" {
					body = strings.NewReader(sc.body)
				}
				status, got := call(t, sc.method, base+sc.path, "application/json", body)
				if status != sc.wantStatus {
					t.Fatalf("status = %d, want %d; body %s", status, sc.wantStatus, got)
				}
				for _, w := range sc.wantIn {
					if !strings.Contains(string(got), w) {
						t.Errorf("body does not contain %s:\n%s", w, got)
					}
				}
			})
		}
	})
}

// TestLibraryPageEscapes shows that what people type is escaped in pages.
func TestLibraryPageEscapes(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "x", "title": "<script>alert(1)</script>"}`)
		_, page := call(t, "GET", base+"/", "", nil)
		if strings.Contains(string(page), "<script>alert") {
			t.Fatalf("title not escaped:\n%s", page)
		}
		if !strings.Contains(string(page), "&lt;script&gt;alert(1)&lt;/script&gt;") {
			t.Errorf("escaped title missing:\n%s", page)
		}
	})
}

// TestAuthOn: with authentication on, every request carries a token: the server's own
// (ROOTLINE_API_TOKEN, which may do anything) or one made with `rootline token create`, whose
// scope must allow the request; a revoked or unknown token is refused, and nothing is written
// without a token that may write.
func TestAuthOn(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		ctx := t.Context()
		cfg := testConfig()
		cfg.Auth, cfg.APIToken = "on", "0123456789abcdef-token"
		base := newServer(t, st, cfg)
		secret := map[access.Scope]string{}
		for _, sc := range []access.Scope{access.Read, access.Write, access.Admin} {
			s, _, err := st.CreateToken(ctx, "t-"+string(sc), sc)
			if err != nil {
				t.Fatal(err)
			}
			secret[sc] = s
		}
		revoked, _, err := st.CreateToken(ctx, "gone", access.Write)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.RevokeToken(ctx, "gone"); err != nil {
			t.Fatal(err)
		}
		bearer := func(s string) []string { return []string{"Authorization", "Bearer " + s} }
		tests := []struct {
			name         string
			method, path string
			header       []string
			want         int
			says         string
		}{
			{"no token", "POST", "/api/v1/incidents", nil, 401, "authentication required"},
			{"no token, a read", "GET", "/api/v1/incidents", nil, 401, "authentication required"},
			{"no token, a page: sent to sign in", "GET", "/", nil, 200, `data-testid="login-form"`},
			{"a form without a token", "POST", "/incidents", nil, 401, "authentication required"},
			{"wrong token", "POST", "/api/v1/incidents", bearer("nope"), 401, "unknown token"},
			{"server's token", "POST", "/api/v1/incidents", bearer(cfg.APIToken), 201, ""},
			{"read token reads", "GET", "/api/v1/incidents", bearer(secret[access.Read]), 200, ""},
			{"read token cannot write", "POST", "/api/v1/incidents", bearer(secret[access.Read]), 403, "scope is read"},
			{"read token cannot collect", "POST", "/api/v1/events?cluster=leap", bearer(secret[access.Read]), 403, "scope is read"},
			{"write token writes", "POST", "/api/v1/incidents", bearer(secret[access.Write]), 201, ""},
			{"admin token writes", "POST", "/api/v1/incidents", bearer(secret[access.Admin]), 201, ""},
			{"revoked token", "GET", "/api/v1/incidents", bearer(revoked), 401, "token gone was revoked"},
			{"revoked token, a write", "POST", "/api/v1/incidents", bearer(revoked), 401, "token gone was revoked"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				before := rowCounts(t, st, bk.Target)
				status, b := call(t, tt.method, base+tt.path, "application/json", strings.NewReader(`{"title": "t"}`), tt.header...)
				if status != tt.want || !strings.Contains(string(b), tt.says) {
					t.Errorf("status = %d (%s), want %d saying %q", status, b, tt.want, tt.says)
				}
				if tt.want >= 400 {
					if diff := cmp.Diff(before, rowCounts(t, st, bk.Target)); diff != "" {
						t.Errorf("a refused request changed rows:\n%s", diff)
					}
				}
			})
		}
		if status, _ := call(t, "GET", base+"/healthz", "", nil); status != 200 {
			t.Errorf("healthz needs no token, got %d", status)
		}
	})
}

func decodeSnapshot(t *testing.T, b []byte) (id string, objects map[string]int) {
	t.Helper()
	var resp struct {
		Snapshot string         `json:"snapshot"`
		Objects  map[string]int `json:"objects"`
	}
	if err := json.Unmarshal(b, &resp); err != nil {
		t.Fatalf("answer %s: %v", b, err)
	}
	return resp.Snapshot, resp.Objects
}

// rowCounts counts the rows of every table of the database at tg, once the servers on st have
// made the signature refreshes the uploads so far asked for.
func rowCounts(t *testing.T, st *store.Store, tg store.Target) map[string]int64 {
	servers.Lock()
	running := slices.Clone(servers.on[st])
	servers.Unlock()
	for _, srv := range running { // what the uploads so far changed, their signatures too
		if err := srv.Settle(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	t.Helper()
	return storetest.RowCounts(t, tg)
}

func assertCounts(t *testing.T, st *store.Store, tg store.Target, want map[string]int64) {
	t.Helper()
	if diff := cmp.Diff(want, rowCounts(t, st, tg)); diff != "" {
		t.Errorf("row counts changed (-before +after):\n%s", diff)
	}
}

// TestUploadRateLimit: with auth on, each token has its own budget of uploads; beyond it an
// upload gets 429 with Retry-After, and nothing of it is stored; reads are not counted.
func TestUploadRateLimit(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		ctx := t.Context()
		cfg := testConfig()
		cfg.Auth, cfg.APIToken = "on", "0123456789abcdef-token"
		cfg.UploadRate, cfg.UploadBurst = 1, 2
		base := newServer(t, st, cfg)
		a, _, err := st.CreateToken(ctx, "a", access.Write)
		if err != nil {
			t.Fatal(err)
		}
		b, _, err := st.CreateToken(ctx, "b", access.Write)
		if err != nil {
			t.Fatal(err)
		}
		auth := func(s string) []string { return []string{"Authorization", "Bearer " + s} }
		createIncidentAs := func(token string) {
			if status, out := call(t, "POST", base+"/api/v1/incidents", "application/json", strings.NewReader(`{"id": "r", "title": "rate"}`), auth(token)...); status != 201 {
				t.Fatalf("create: %d %s", status, out)
			}
		}
		createIncidentAs(a)
		upload := func(token string, i int) (int, []byte, string) {
			req, _ := http.NewRequest("POST", base+"/api/v1/incidents/r/snapshots?name=p.json", strings.NewReader(fmt.Sprintf(
				`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p%d", "namespace": "x"}}`, i)))
			req.Header.Set("Authorization", "Bearer "+token)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, body, resp.Header.Get("Retry-After")
		}
		for i := range 2 {
			if status, out, _ := upload(a, i); status != 201 {
				t.Fatalf("upload %d within the burst: %d %s", i, status, out)
			}
		}
		before := rowCounts(t, st, bk.Target)
		status, out, retry := upload(a, 2)
		if status != http.StatusTooManyRequests || retry == "" || !strings.Contains(string(out), "too many uploads from token a") {
			t.Errorf("the third upload: %d %s (Retry-After %q), want 429", status, out, retry)
		}
		assertCounts(t, st, bk.Target, before)
		if status, out, _ := upload(b, 3); status != 201 {
			t.Errorf("another token's upload: %d %s", status, out)
		}
		if status, out := call(t, "GET", base+"/api/v1/incidents/r", "", nil, auth(a)...); status != 200 {
			t.Errorf("a read by the limited token: %d %s", status, out)
		}
	})
}
