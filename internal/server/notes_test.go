package server_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/server"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

func TestNoteScenarios(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "IL-0070", "title": "Hub restart"}`)
		scenarios := []struct {
			name, method, path, body string
			want                     int
			wantIn                   []string
		}{
			{"hypothesis", "POST", "/api/v1/incidents/IL-0070/notes",
				`{"at": "2023-02-01T17:20:00Z", "author": "yuvi", "kind": "hypothesis", "body": "Evicted under **memory pressure**?", "causes": ["capacity_exhaustion", "shared_prometheus"]}`,
				201, []string{`"kind":"hypothesis"`, `"causes":["capacity_exhaustion","shared_prometheus"]`, `"at":"2023-02-01T17:20:00Z"`}},
			{"observation by default", "POST", "/api/v1/incidents/IL-0070/notes", `{"at": "2023-02-01T17:10:00Z", "body": "Grafana: hub memory steady"}`,
				201, []string{`"kind":"observation"`, `"causes":[]`}},
			{"empty body", "POST", "/api/v1/incidents/IL-0070/notes", `{"body": "  "}`, 422, []string{"body is required"}},
			{"unknown kind", "POST", "/api/v1/incidents/IL-0070/notes", `{"body": "x", "kind": "rumour"}`, 422, []string{`kind \"rumour\"`}},
			{"unknown cause", "POST", "/api/v1/incidents/IL-0070/notes", `{"body": "x", "kind": "hypothesis", "causes": ["gremlins"]}`, 422, []string{`cause \"gremlins\"`}},
			{"causes on an observation", "POST", "/api/v1/incidents/IL-0070/notes", `{"body": "x", "causes": ["preemption"]}`, 422, []string{"only a hypothesis"}},
			{"unknown incident", "POST", "/api/v1/incidents/nope/notes", `{"body": "x"}`, 404, []string{"incident nope not found"}},
			{"list in time order", "GET", "/api/v1/incidents/IL-0070/notes", "", 200, []string{`"body":"Grafana: hub memory steady"`}},
			{"list unknown incident", "GET", "/api/v1/incidents/nope/notes", "", 404, []string{"not found"}},
		}
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) {
				status, got := call(t, sc.method, base+sc.path, "application/json", strings.NewReader(sc.body))
				if status != sc.want {
					t.Fatalf("status = %d, want %d: %s", status, sc.want, got)
				}
				for _, w := range sc.wantIn {
					if !strings.Contains(string(got), w) {
						t.Errorf("answer lacks %s: %s", w, got)
					}
				}
			})
		}
		_, list := call(t, "GET", base+"/api/v1/incidents/IL-0070/notes", "", nil)
		if i, j := strings.Index(string(list), "Grafana"), strings.Index(string(list), "Evicted under"); i < 0 || j < 0 || i > j {
			t.Errorf("notes not in time order: %s", list)
		}
	})
}

// TestNotesRenderedOnce (issue 15, item 5): five notes of 60 KB of nested list markers (once
// 10 s and 3.6 MB of HTML for the incident page) make a page of bounded size, and a second
// view renders no Markdown: the notes' HTML is kept.
func TestNotesRenderedOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		srv := server.New(testConfig(), server.StoreDeps(st, slog.New(slog.DiscardHandler)))
		ts := httptest.NewServer(srv.Handler())
		t.Cleanup(ts.Close)
		createIncident(t, ts.URL, `{"id": "IL-0070", "title": "Hub restart"}`)
		body, _ := json.Marshal(map[string]string{"body": strings.Repeat("- ", 30_000) + "x"})
		for range 5 {
			if status, b := call(t, "POST", ts.URL+"/api/v1/incidents/IL-0070/notes", "application/json", strings.NewReader(string(body))); status != http.StatusCreated {
				t.Fatalf("note: %d %.200s", status, b)
			}
		}
		status, page := call(t, "GET", ts.URL+"/incidents/IL-0070", "", nil)
		if status != http.StatusOK {
			t.Fatalf("page: %d", status)
		}
		first := markdownRenders(t, ts.URL)
		if first == 0 {
			t.Fatal("the first view rendered no Markdown")
		}
		if len(page) > 1<<20 {
			t.Errorf("a page of %d bytes", len(page))
		}
		if n := strings.Count(string(page), "<ul>"); n > 5*16+10 {
			t.Errorf("%d lists on the page", n)
		}
		if status, _ := call(t, "GET", ts.URL+"/incidents/IL-0070", "", nil); status != http.StatusOK {
			t.Fatalf("second view: %d", status)
		}
		if n := markdownRenders(t, ts.URL) - first; n != 0 {
			t.Errorf("the second view rendered Markdown %d times, want 0", n)
		}
	})
}

// markdownRenders reads rootline_markdown_renders_total from the server's /metrics.
func markdownRenders(t *testing.T, base string) int {
	t.Helper()
	return counter(t, base, "rootline_markdown_renders_total")
}

// counter reads a counter without labels from the server's /metrics.
func counter(t *testing.T, base, name string) int {
	t.Helper()
	status, b := call(t, "GET", base+"/metrics", "", nil)
	if status != http.StatusOK {
		t.Fatalf("/metrics: %d", status)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			n, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				t.Fatalf("%s %q: %v", name, v, err)
			}
			return int(n)
		}
	}
	t.Fatalf("/metrics has no %s:\n%.2000s", name, b)
	return 0
}
