package server_test

import (
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

func TestNoteScenarios(t *testing.T) {
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
