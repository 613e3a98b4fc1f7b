package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestNotFoundTextsClipped: a 404 that names what was asked for (a symptom, a cause, an
// page's object) quotes it cut short, so that an answer never echoes a request's kilobytes.
func TestNotFoundTextsClipped(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "il", "title": "IL-0070"}`)
		body, ct := multipartBody(t, fixtures.IL0070VariantBytes(t, "liveness"), "events.json", "nodes.json", "pods.json")
		if status, b := call(t, "POST", base+"/api/v1/incidents/il/snapshots", ct, body); status != http.StatusCreated {
			t.Fatalf("upload: %d %s", status, b)
		}
		long := strings.Repeat("S", 6000)
		for _, path := range []string{
			"/api/v1/incidents/il/symptoms/" + long + "/members",
			"/api/v1/incidents/il/causes/" + long + "/members",
			"/incidents/il/symptoms/" + long,
		} {
			status, b := call(t, "GET", base+path, "", nil)
			if status != http.StatusNotFound {
				t.Errorf("%.60s…: %d, want 404", path, status)
			}
			if strings.Contains(string(b), strings.Repeat("S", 200)) {
				t.Errorf("%.60s…: the answer echoes what was asked whole (%d bytes)", path, len(b))
			}
		}
	})
}
