package server_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestSignatureScenarios: a person's signature wins over the report's, is shown as theirs on
// the related page, changes the relations, and when removed the report's speaks again.
func TestSignatureScenarios(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		docs := map[string][]byte{
			"IL-0070.md": []byte(reportIL0070),
			"C.md":       []byte("---\nid: C\ntitle: DNS outage\nroot_cause: memory_limit_too_low\ncomponents: [{kind: DNS, name: coredns}]\n---\nCoreDNS OOM.\n"),
		}
		body, ct := multipartBody(t, docs, "C.md", "IL-0070.md")
		if status, b := call(t, "POST", base+"/api/v1/incidents/import", ct, body); status != http.StatusCreated {
			t.Fatalf("import: %d %s", status, b)
		}
		token, cookie := formToken(t, base)
		form := func(v url.Values) string { v.Set("csrf", token); return v.Encode() }
		const formType = "application/x-www-form-urlencoded"
		scenarios := []struct {
			name, method, path, contentType, body string
			wantStatus                            int
			wantIn, wantOut                       []string
		}{
			{"from the report", "GET", "/api/v1/incidents/C/signature", "", "", 200,
				[]string{`"origin":"report"`, `"origin_words":"from the report"`, `"root_cause":"memory_limit_too_low"`}, nil},
			{"not related yet", "GET", "/api/v1/incidents/C/related", "", "", 200, []string{`[]`}, nil},
			{"a person sets it", "PUT", "/api/v1/incidents/C/signature", "application/json",
				`{"symptoms": ["oom_killed", "oom_killed"], "causes": ["capacity_exhaustion", "memory_limit_too_low"], "components": [{"kind": "Prometheus", "name": "prom"}]}`, 200,
				[]string{`"origin":"person"`, `"origin_words":"set by a person"`, `"effective":{"symptoms":["oom_killed"],"root_cause":"capacity_exhaustion"`,
					`"report":{"root_cause":"memory_limit_too_low"`}, nil},
			{"which wins in related search", "GET", "/api/v1/incidents/IL-0070/related", "", "", 200,
				[]string{`"id":"C"`, `"relation":"same root cause"`, `"shared":["Prometheus"]`}, nil},
			{"and is shown as theirs", "GET", "/incidents/C/related", "", "", 200,
				[]string{`data-origin="person"`, "set by a person", `data-testid="signature-clear"`, "IL-0070"}, nil},
			{"and filters by it", "GET", "/api/v1/incidents?cause=capacity_exhaustion", "", "", 200, []string{`"id":"C"`}, nil},
			{"unknown kind", "PUT", "/api/v1/incidents/C/signature", "application/json", `{"causes": ["gremlins"]}`, 422,
				[]string{`cause \"gremlins\" is not a cause kind`}, nil},
			{"component without a kind", "PUT", "/api/v1/incidents/C/signature", "application/json", `{"components": [{"name": "x"}]}`, 422,
				[]string{"a component needs a kind"}, nil},
			{"unknown field", "PUT", "/api/v1/incidents/C/signature", "application/json", `{"cause": "x"}`, 422, []string{`unknown field \"cause\"`}, nil},
			{"missing incident", "PUT", "/api/v1/incidents/NOPE/signature", "application/json", `{}`, 404, []string{"incident NOPE not found"}, nil},
			{"refused edits change nothing", "GET", "/api/v1/incidents/C/signature", "", "", 200, []string{`"origin":"person"`}, nil},
			{"removed", "DELETE", "/api/v1/incidents/C/signature", "", "", 200, []string{`"origin":"report"`}, []string{`"person"`}},
			{"by the page's form", "POST", "/incidents/C/signature", formType,
				form(url.Values{"root_cause": {"shared_prometheus"}, "causes": {"capacity_exhaustion, shared_prometheus"}, "symptoms": {"pod_evicted pod_pending"},
					"components": {"Prometheus support-prometheus-server\r\nNodePool core\r\n"}}), 200,
				[]string{"set by a person", "shared_prometheus", "Prometheus support-prometheus-server, Node pool core"}, nil},
			{"a wrong form shows why", "POST", "/incidents/C/signature", formType, form(url.Values{"causes": {"gremlins"}}), 422,
				[]string{`data-testid="signature-error"`, "gremlins", `value="gremlins"`}, nil},
			{"cleared by the page", "POST", "/incidents/C/signature", formType, form(url.Values{"action": {"clear"}}), 200,
				[]string{`data-origin="report"`, "from the report"}, []string{"signature-clear"}},
			{"an empty signature is no signature", "PUT", "/api/v1/incidents/C/signature", "application/json", `{"symptoms": []}`, 200,
				[]string{`"origin":"report"`}, nil},
		}
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) {
				var body io.Reader
				if sc.body != "" {
					body = strings.NewReader(sc.body)
				}
				status, got := call(t, sc.method, base+sc.path, sc.contentType, body, cookie...)
				if status != sc.wantStatus {
					t.Fatalf("status = %d, want %d; body %s", status, sc.wantStatus, got)
				}
				for _, w := range sc.wantIn {
					if !strings.Contains(string(got), w) {
						t.Errorf("body does not contain %s:\n%s", w, got)
					}
				}
				for _, w := range sc.wantOut {
					if strings.Contains(string(got), w) {
						t.Errorf("body contains %s:\n%s", w, got)
					}
				}
			})
		}
	})
}
