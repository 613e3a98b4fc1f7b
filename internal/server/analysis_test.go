package server_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/rules"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestAnalysisMatchesOffline uploads the IL-0070 fixture and checks that the incident's
// analysis from the database finds the same symptoms and causes, with the same evidence
// locations, as the offline analysis of the same files: one pipeline, whichever door.
func TestAnalysisMatchesOffline(t *testing.T) {
	t.Parallel()
	names := []string{"events.json", "nodes.json", "pods.json"}
	files := fixtures.IL0070Bytes(t)
	objs := fixtures.DecodeIL0070(t, names...)
	offline := rules.Run(cluster.NewModel(names, objs), analysis.Options{})

	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "IL-0070", "title": "Hub restart during a large node scale-up", "cluster": "leap"}`)
		body, ct := multipartBody(t, files, names...)
		if status, b := call(t, "POST", base+"/api/v1/incidents/IL-0070/snapshots", ct, body); status != http.StatusCreated {
			t.Fatalf("upload: %d %s", status, b)
		}
		status, b := call(t, "GET", base+"/api/v1/incidents/IL-0070/analysis", "", nil)
		if status != http.StatusOK {
			t.Fatalf("analysis: %d %s", status, b)
		}
		var online analysis.Report
		if err := json.Unmarshal(b, &online); err != nil {
			t.Fatal(err)
		}
		summary := func(r analysis.Report) []string {
			var out []string
			for _, s := range r.Symptoms {
				out = append(out, s.ID+" "+s.Kind+" "+s.Summary)
			}
			for _, c := range r.Causes {
				out = append(out, c.ID+" "+c.Kind+" "+c.Role+" "+c.Summary)
			}
			for _, g := range r.Gaps {
				out = append(out, g.Kind)
			}
			return out
		}
		if diff := cmp.Diff(summary(offline), summary(online)); diff != "" {
			t.Errorf("server analysis differs from offline (-offline +server):\n%s", diff)
		}
		if diff := cmp.Diff(offline.Symptoms[0].Evidence[0], online.Symptoms[0].Evidence[0]); diff != "" {
			t.Errorf("evidence location differs (-offline +server):\n%s", diff)
		}
		if status, _ := call(t, "GET", base+"/api/v1/incidents/nope/analysis", "", nil); status != http.StatusNotFound {
			t.Errorf("unknown incident: %d, want 404", status)
		}
	})
}

// TestTimelineScenarios reads the IL-0070 timeline through the API: filters, paging, links.
func TestTimelineScenarios(t *testing.T) {
	t.Parallel()
	files := fixtures.IL0070Bytes(t)
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "IL-0070", "title": "Hub restart", "cluster": "leap"}`)
		body, ct := multipartBody(t, files, "events.json", "nodes.json", "pods.json")
		if status, b := call(t, "POST", base+"/api/v1/incidents/IL-0070/snapshots", ct, body); status != http.StatusCreated {
			t.Fatalf("upload: %d %s", status, b)
		}
		call(t, "POST", base+"/api/v1/incidents/IL-0070/notes", "application/json",
			strings.NewReader(`{"at": "2023-02-01T17:20:00Z", "kind": "hypothesis", "body": "evicted?", "causes": ["capacity_exhaustion"]}`))
		tl := base + "/api/v1/incidents/IL-0070/timeline"
		scenarios := []struct {
			name, query string
			want        int
			wantIn      []string
		}{
			{"symptoms and causes linked", "?type=symptom,cause", 200, []string{`"type":"symptom","kind":"pod_evicted"`, `"links":["C1"`, `"type":"cause","kind":"capacity_exhaustion"`}},
			{"notes", "?type=note", 200, []string{`"kind":"hypothesis"`, `"links":["capacity_exhaustion"]`}},
			{"window and namespace", "?from=2023-02-01T17:05:00Z&to=2023-02-01T17:07:00Z&namespace=prod&type=event", 200, []string{`"kind":"Evicted"`}},
			{"critical only", "?severity=critical", 200, []string{`"severity":"critical"`}},
			{"page", "?limit=3&offset=2", 200, []string{`"at"`}},
			{"grouped by namespace", "?type=event&kind=FailedScheduling&group=namespace&collapse=off", 200, []string{`objects"`}},
			{"bad group", "?group=zone", 400, []string{"group="}},
			{"bad time", "?from=yesterday", 400, []string{`from=\"yesterday\"`}},
			{"bad type", "?type=gossip", 400, []string{`type=\"gossip\"`}},
			{"bad limit", "?limit=0", 400, []string{"limit"}},
		}
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) {
				status, b := call(t, "GET", tl+sc.query, "", nil)
				if status != sc.want {
					t.Fatalf("status = %d, want %d: %.300s", status, sc.want, b)
				}
				for _, w := range sc.wantIn {
					if !strings.Contains(string(b), w) {
						t.Errorf("answer lacks %s: %.500s", w, b)
					}
				}
				if sc.want == 200 && !strings.HasPrefix(string(b), "[") {
					t.Errorf("answer is not a list: %.100s", b)
				}
			})
		}
		req, _ := http.NewRequest("GET", tl+"?limit=3&collapse=off", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if n, _ := strconv.Atoi(resp.Header.Get("X-Total-Count")); n < 100 {
			t.Errorf("X-Total-Count = %q, want the whole timeline's size", resp.Header.Get("X-Total-Count"))
		}
		if status, _ := call(t, "GET", base+"/api/v1/incidents/nope/timeline", "", nil); status != 404 {
			t.Errorf("unknown incident: %d", status)
		}
	})
}

// TestExport writes IL-0070 as a report in the Markdown format of CONTRACT.md, and as JSON.
func TestExport(t *testing.T) {
	t.Parallel()
	files := fixtures.IL0070Bytes(t)
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "IL-0070", "title": "Hub restart during a large node scale-up", "tags": ["kubernetes", "observability"]}`)
		body, ct := multipartBody(t, files, "events.json", "nodes.json", "pods.json")
		if status, b := call(t, "POST", base+"/api/v1/incidents/IL-0070/snapshots", ct, body); status != http.StatusCreated {
			t.Fatalf("upload: %d %s", status, b)
		}
		call(t, "POST", base+"/api/v1/incidents/IL-0070/notes", "application/json", strings.NewReader(`{"at": "2023-02-01T17:20:00Z", "body": "Grafana shows the hub's memory steady"}`))
		status, md := call(t, "GET", base+"/api/v1/incidents/IL-0070/export?format=md", "", nil)
		if status != 200 || !strings.HasPrefix(string(md), "---\n") {
			t.Fatalf("export: %d %.200s", status, md)
		}
		front, text, ok := strings.Cut(strings.TrimPrefix(string(md), "---\n"), "\n---\n")
		if !ok {
			t.Fatalf("no front matter end: %.300s", md)
		}
		var fm struct {
			ID         string   `json:"id"`
			Title      string   `json:"title"`
			Date       string   `json:"date"`
			Tags       []string `json:"tags"`
			Symptoms   []string `json:"symptoms"`
			RootCause  string   `json:"root_cause"`
			Causes     []string `json:"causes"`
			Components []struct{ Kind, Name string }
		}
		if err := yaml.Unmarshal([]byte(front), &fm); err != nil {
			t.Fatalf("front matter: %v\n%s", err, front)
		}
		comps := ""
		for _, c := range fm.Components {
			comps += c.Kind + ":" + c.Name + " "
		}
		if fm.ID != "IL-0070" || fm.RootCause != "capacity_exhaustion" || fm.Date != "2023-02-01" || len(fm.Tags) != 2 ||
			!slices.Contains(fm.Causes, "shared_prometheus") || !slices.Contains(fm.Symptoms, "pod_evicted") ||
			!strings.Contains(comps, "NodePool:core-pool") || !strings.Contains(comps, "Prometheus:support-prometheus-server") {
			t.Errorf("front matter = %+v", fm)
		}
		if !strings.Contains(text, "## Causes") || !strings.Contains(front, "Grafana shows the hub's memory steady") {
			t.Errorf("body = %.500s, front matter (with the notes) = %s", text, front)
		}
		status, js := call(t, "GET", base+"/api/v1/incidents/IL-0070/export?format=json", "", nil)
		if status != 200 || !strings.Contains(string(js), `"root_cause":"capacity_exhaustion"`) || !strings.Contains(string(js), `"analysis":{`) {
			t.Errorf("json export: %d %.300s", status, js)
		}
		if status, _ := call(t, "GET", base+"/api/v1/incidents/IL-0070/export?format=pdf", "", nil); status != 400 {
			t.Errorf("unknown format: %d", status)
		}
	})
}
