package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// The same evidence uploaded to a second incident gives that incident its analysis signature
// too: the bytes were stored already, but the second incident had never been analysed, so
// ?component=Hub and related incidents would miss it.
func TestExistingSnapshotSignsItsNewIncident(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		for i, id := range []string{"A", "B"} {
			createIncident(t, base, fmt.Sprintf(`{"id": %q, "title": %q}`, id, id))
			body, ct := multipartBody(t, fixtures.IL0070Bytes(t), "events.json", "nodes.json", "pods.json")
			status, b := call(t, "POST", base+"/api/v1/incidents/"+id+"/snapshots", ct, body)
			if want := []int{http.StatusCreated, http.StatusOK}[i]; status != want || (i == 1) != strings.Contains(string(b), `"existing":true`) {
				t.Fatalf("upload to %s: %d %s", id, status, b)
			}
		}
		_, b := call(t, "GET", base+"/api/v1/incidents/B/signature", "", nil)
		if !strings.Contains(string(b), `"origin":"analysis"`) || !strings.Contains(string(b), `{"kind":"Hub","name":"hub"}`) {
			t.Errorf("B's signature: %s", b)
		}
		_, b = call(t, "GET", base+"/api/v1/incidents?component=Hub", "", nil)
		if !strings.Contains(string(b), `"id":"A"`) || !strings.Contains(string(b), `"id":"B"`) {
			t.Errorf("?component=Hub: %s", b)
		}
	})
}
