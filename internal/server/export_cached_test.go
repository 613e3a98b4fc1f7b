package server_test

import (
	"net/http"
	"testing"

	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/server"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestExportUsesTheCachedAnalysis: an export of an incident whose state is cached (its page
// viewed, nothing changed since) loads no evidence and makes no analysis of its own, in either
// format.
func TestExportUsesTheCachedAnalysis(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		objects := &countingObjects{Store: st} // cache_test.go
		base, srv := newServerWith(t, st, testConfig(), func(d *server.Deps) { d.Objects = objects })
		createIncident(t, base, `{"id": "il", "title": "IL-0070"}`)
		body, ct := multipartBody(t, fixtures.IL0070VariantBytes(t, "liveness"), "events.json", "nodes.json", "pods.json")
		if status, b := call(t, "POST", base+"/api/v1/incidents/il/snapshots", ct, body); status != http.StatusCreated {
			t.Fatalf("upload: %d %s", status, b)
		}
		// The upload's signature refresh runs in the background, and analyses too: done before
		// the counting starts.
		if err := srv.Settle(t.Context()); err != nil {
			t.Fatal(err)
		}
		if status, _ := call(t, "GET", base+"/incidents/il", "", nil); status != http.StatusOK {
			t.Fatalf("page: %d", status)
		}
		before, loads := counter(t, base, "rootline_analyses_total"), objects.loads.Load()
		if before == 0 {
			t.Fatal("the page made no analysis")
		}
		for _, format := range []string{"json", "md", "json"} {
			if status, b := call(t, "GET", base+"/api/v1/incidents/il/export?format="+format, "", nil); status != http.StatusOK || len(b) == 0 {
				t.Fatalf("export %s: %d", format, status)
			}
		}
		if n, l := counter(t, base, "rootline_analyses_total")-before, objects.loads.Load()-loads; n != 0 || l != 0 {
			t.Errorf("three exports of a cached incident made %d analyses and %d evidence loads, want none", n, l)
		}
	})
}
