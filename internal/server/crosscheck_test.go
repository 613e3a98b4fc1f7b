package server_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// An imported report beside the analysis of the same incident's evidence: before any upload
// the page says there is no evidence (not "0 file(s)") and compares nothing; after the IL-0070
// upload it says both name the root cause and where their numbers differ (the report's 93%
// of the memory against the evidence's 91%).
func TestReportAgainstEvidencePage(t *testing.T) {
	t.Parallel()
	md, err := os.ReadFile(filepath.Join("..", "..", "examples", "incidents", "IL-0070.md"))
	if err != nil {
		t.Fatal(err)
	}
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		if status, b := call(t, "POST", base+"/api/v1/incidents/import", "text/markdown", strings.NewReader(string(md))); status != http.StatusCreated {
			t.Fatalf("import: %d %s", status, b)
		}
		_, b := call(t, "GET", base+"/incidents/IL-0070", "", nil)
		doc := page(t, b)
		if got := doc.Find(`[data-testid="inputs"]`).Text(); strings.Contains(got, "0 file(s)") || !strings.Contains(got, "no evidence uploaded yet") {
			t.Errorf("a report-only page's inputs line: %q", got)
		}
		if doc.Find(`[data-testid="report-check"]`).Length() != 0 {
			t.Error("a report-only page compares the report with evidence it does not have")
		}

		body, ct := multipartBody(t, fixtures.IL0070Bytes(t), "events.json", "nodes.json", "pods.json")
		if status, b := call(t, "POST", base+"/api/v1/incidents/IL-0070/snapshots", ct, body); status != http.StatusCreated {
			t.Fatalf("upload: %d %s", status, b)
		}
		_, b = call(t, "GET", base+"/incidents/IL-0070", "", nil)
		check := page(t, b).Find(`[data-testid="report-check"]`)
		if got := check.Find(`[data-testid="check-root"]`).Text(); !strings.Contains(got, "Both name the root cause: Capacity exhausted") {
			t.Errorf("root: %q", got)
		}
		differs := strings.Join(strings.Fields(check.Find(`[data-testid="check-number"].differs`).Text()), " ")
		if !strings.Contains(differs, "the report says 93%") || !strings.Contains(differs, "the evidence gives 91%") ||
			!strings.Contains(differs, "the report says 124%") || !strings.Contains(differs, "the evidence gives 121%") {
			t.Errorf("the differing numbers: %q", differs)
		}
		if got := check.Find(`[data-testid="check-number"]:not(.differs)`).Text(); !strings.Contains(got, "Both give 88%") {
			t.Errorf("the agreeing number: %q", got)
		}
	})
}
