package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

const reportIL0070 = `---
id: IL-0070
title: Hub restart during a large node scale-up
org: 2i2c
date: 2023-02-01
symptoms: [pod_evicted, pod_pending]
root_cause: capacity_exhaustion
causes: [capacity_exhaustion, shared_node_pool, shared_prometheus]
components: [{kind: NodePool, name: core}, {kind: Prometheus, name: support-prometheus-server}]
---
Prometheus load grows with the number of nodes.
`

func TestImportReports(t *testing.T) {
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		url := base + "/api/v1/incidents/import"
		status, b := call(t, "POST", url+"?name=IL-0070.md", "text/markdown", strings.NewReader(reportIL0070))
		if status != http.StatusCreated || !strings.Contains(string(b), `"created":true`) {
			t.Fatalf("import: %d %s", status, b)
		}
		status, b = call(t, "POST", url+"?name=IL-0070.md", "text/markdown", strings.NewReader(reportIL0070))
		if status != http.StatusCreated || !strings.Contains(string(b), `"created":false`) {
			t.Errorf("re-import: %d %s", status, b)
		}
		// Several reports, one bad: nothing of them is imported.
		good := strings.Replace(reportIL0070, "IL-0070", "IL-0071", 1)
		bad := "---\nid: IL-0072\ntitle: t\ncauses: [bad_luck]\n---\n"
		body, ct := multipartBody(t, map[string][]byte{"IL-0071.md": []byte(good), "IL-0072.md": []byte(bad)}, "IL-0071.md", "IL-0072.md")
		status, b = call(t, "POST", url, ct, body)
		if status != http.StatusUnprocessableEntity || !strings.Contains(string(b), `"file":"IL-0072.md"`) || !strings.Contains(string(b), `"line":4`) {
			t.Errorf("bad report: %d %s", status, b)
		}
		if status, _ := call(t, "GET", base+"/api/v1/incidents/IL-0071", "", nil); status != http.StatusNotFound {
			t.Errorf("the good report of a refused request was imported: %d", status)
		}
		status, b = call(t, "GET", base+"/api/v1/incidents/IL-0070", "", nil)
		if status != 200 || !strings.Contains(string(b), "Hub restart") {
			t.Errorf("imported incident: %d %s", status, b)
		}
	})
}
