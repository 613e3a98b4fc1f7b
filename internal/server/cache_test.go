package server_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/server"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// countingObjects counts how often an incident's objects are loaded.
type countingObjects struct {
	*store.Store
	loads atomic.Int64
}

// IncidentScope is the first question of each load of an incident's evidence.
func (c *countingObjects) IncidentScope(ctx context.Context, id string) (store.Scope, error) {
	c.loads.Add(1)
	return c.Store.IncidentScope(ctx, id)
}

// TestStateCache: an unchanged incident is loaded and analysed once, however many pages and
// API calls read it, concurrent ones included; a new note, a new snapshot, an edit or a batch
// from the collector makes it anew.
func TestStateCache(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		objs := &countingObjects{Store: st}
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		deps := server.StoreDeps(st, log)
		deps.Objects = objs
		srv := server.New(testConfig(), deps)
		ts := httptest.NewServer(srv.Handler())
		defer ts.Close()
		base := ts.URL
		createIncident(t, base, `{"id": "c", "title": "cached", "cluster": "leap", "started_at": "2023-02-01T17:00:00Z"}`)
		read := func() {
			t.Helper()
			for _, path := range []string{"/api/v1/incidents/c/analysis", "/api/v1/incidents/c/timeline", "/incidents/c"} {
				if status, b := call(t, "GET", base+path, "", nil); status != 200 {
					t.Fatalf("%s: %d %s", path, status, b)
				}
			}
		}
		step := func(name string, change func(), want int64) {
			t.Helper()
			if change != nil {
				change()
			}
			read()
			read()
			if got := objs.loads.Load(); got != want {
				t.Errorf("%s: loaded %d times, want %d", name, got, want)
			}
		}
		step("first reads", nil, 1)
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() { call(t, "GET", base+"/api/v1/incidents/c/timeline", "", nil) })
		}
		wg.Wait()
		step("concurrent reads", nil, 1)
		// A note or a new title changes what the pages show, not the analysis: nothing is loaded.
		step("a note", func() {
			call(t, "POST", base+"/api/v1/incidents/c/notes", "application/json", strings.NewReader(`{"body": "looking"}`))
		}, 1)
		if _, b := call(t, "GET", base+"/api/v1/incidents/c/timeline", "", nil); !strings.Contains(string(b), "looking") {
			t.Errorf("the timeline after a note lacks it: %s", b)
		}
		step("a snapshot", func() {
			call(t, "POST", base+"/api/v1/incidents/c/snapshots?name=p.json", "application/json", strings.NewReader(
				`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "hub", "namespace": "prod"}, "status": {"phase": "Failed", "reason": "Evicted"}}`))
		}, 2)
		step("a new title", func() {
			call(t, "PUT", base+"/api/v1/incidents/c", "application/json", strings.NewReader(`{"title": "cached, renamed", "cluster": "leap", "started_at": "2023-02-01T17:00:00Z"}`))
		}, 2)
		if _, b := call(t, "GET", base+"/incidents/c", "", nil); !strings.Contains(string(b), "cached, renamed") {
			t.Error("the page after a new title lacks it")
		}
		step("a new window", func() {
			call(t, "PUT", base+"/api/v1/incidents/c", "application/json", strings.NewReader(`{"title": "cached, renamed", "cluster": "leap", "started_at": "2023-02-01T16:00:00Z"}`))
		}, 3)
		step("a collected batch", func() {
			call(t, "POST", base+"/api/v1/events?cluster=leap", "application/json", strings.NewReader(
				`{"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e", "namespace": "prod", "uid": "u1"}, "reason": "Evicted",
				  "involvedObject": {"kind": "Pod", "namespace": "prod", "name": "hub"}, "count": 1, "lastTimestamp": "2023-02-01T17:06:00Z"}`))
		}, 4)
		step("the same batch again (nothing changed)", func() {
			call(t, "POST", base+"/api/v1/events?cluster=leap", "application/json", strings.NewReader(
				`{"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e", "namespace": "prod", "uid": "u1"}, "reason": "Evicted",
				  "involvedObject": {"kind": "Pod", "namespace": "prod", "name": "hub"}, "count": 1, "lastTimestamp": "2023-02-01T17:06:00Z"}`))
		}, 4)
	})
}

// TestConcurrentPages: many requests read one cached incident at once, each page and API view of
// it, and each gets what it gets alone. Run under -race (as .ci/run does), this fails if anything
// a cached state shares (the model, the analysis, the timeline) is written after it is made.
func TestConcurrentPages(t *testing.T) {
	t.Parallel()
	dir := fixtures.IL0070VariantDir("liveness")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	var names []string
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()], names = b, append(names, e.Name())
	}
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "IL-0070", "title": "Hub restart", "cluster": "leap"}`)
		body, ct := multipartBody(t, files, names...)
		if status, b := call(t, "POST", base+"/api/v1/incidents/IL-0070/snapshots", ct, body); status != http.StatusCreated {
			t.Fatalf("upload: %d %s", status, b)
		}
		paths := []string{"/incidents/IL-0070", "/incidents/IL-0070?type=symptom", "/incidents/IL-0070/symptoms/S1", "/incidents/IL-0070/causes/C1",
			"/api/v1/incidents/IL-0070/analysis", "/api/v1/incidents/IL-0070/timeline?limit=50", "/api/v1/incidents/IL-0070/timeline?collapse=off",
			"/api/v1/incidents/IL-0070/symptoms/S1/members", "/api/v1/incidents/IL-0070/export"}
		// A page's form token is new on every request: the rest is what is compared.
		token := regexp.MustCompile(`name="csrf" value="[^"]*"`)
		read := func(p string) (int, string) {
			status, b := call(t, "GET", base+p, "", nil)
			return status, token.ReplaceAllString(string(b), `name="csrf"`)
		}
		alone := map[string]string{}
		for _, p := range paths {
			status, b := read(p)
			if status != http.StatusOK {
				t.Fatalf("%s: %d %s", p, status, b)
			}
			alone[p] = b
		}
		var wg sync.WaitGroup
		for i := range 4 * len(paths) {
			p := paths[i%len(paths)]
			wg.Go(func() {
				if status, b := read(p); status != http.StatusOK || b != alone[p] {
					t.Errorf("%s read with others: %d, and not what it was alone", p, status)
				}
			})
		}
		wg.Wait()
	})
}
