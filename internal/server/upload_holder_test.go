package server_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/server"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// lateHolder is a store that finds no holder for the first few lookups, as when a concurrent
// upload of the same files commits between this upload's lookup and its write.
type lateHolder struct {
	*store.Store
	misses atomic.Int32
}

func (s *lateHolder) SnapshotHolder(ctx context.Context, digest string) (string, error) {
	if s.misses.Add(-1) >= 0 {
		return "", store.ErrNotFound
	}
	return s.Store.SnapshotHolder(ctx, digest)
}

// TestUploadGoesToHolder: an upload that would create an incident (create=true) for files
// already stored goes to the incident that holds them, whether their objects are stored (200,
// existing), have expired (stored again for it, 201), or were stored by a concurrent upload
// after this one looked (200); no second incident is created (issue 27).
func TestUploadGoesToHolder(t *testing.T) {
	t.Parallel()
	pod := `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "hub-0", "namespace": "prod", "uid": "u1"}, "spec": {"nodeName": "n1"}, "status": {"phase": "Running"}}`
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		late := &lateHolder{Store: st}
		deps := server.StoreDeps(st, slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn})))
		deps.Snapshots = late
		srv := server.New(testConfig(), deps)
		closeServer(t, srv, st)
		ts := httptest.NewServer(srv.Handler())
		t.Cleanup(ts.Close)
		post := func(id string) (int, string) {
			t.Helper()
			status, b := call(t, "POST", ts.URL+"/api/v1/incidents/"+id+"/snapshots?create=true&name=pods.json", "application/octet-stream", strings.NewReader(pod))
			var answer struct {
				Incident string `json:"incident"`
				Created  bool   `json:"created"`
			}
			if err := json.Unmarshal(b, &answer); err != nil {
				t.Fatalf("%d %s", status, b)
			}
			if answer.Created != (answer.Incident == id) {
				t.Errorf("answer for %s: %s", id, b)
			}
			return status, answer.Incident
		}
		incidents := func() int {
			list, err := st.Incidents(t.Context(), store.IncidentFilter{})
			if err != nil {
				t.Fatal(err)
			}
			return len(list)
		}
		if status, got := post("H1"); status != http.StatusCreated || got != "H1" {
			t.Fatalf("first upload: %d for %s, want 201 for H1", status, got)
		}

		late.misses.Store(1) // the lookup before the write misses; the one after it finds H1
		if status, got := post("H2"); status != http.StatusOK || got != "H1" {
			t.Errorf("the same files, stored by a concurrent upload: %d for %s, want 200 for H1", status, got)
		}

		if _, err := st.Expire(t.Context(), time.Now().Add(time.Hour), time.Minute); err != nil {
			t.Fatal(err)
		}
		if status, got := post("H3"); status != http.StatusCreated || got != "H1" {
			t.Errorf("the same files after their objects expired: %d for %s, want 201 for H1", status, got)
		}
		if n := incidents(); n != 1 {
			t.Errorf("%d incidents, want H1 alone", n)
		}
		if status, b := call(t, "GET", ts.URL+"/api/v1/incidents/H1/analysis", "", nil); status != 200 || !strings.Contains(string(b), `"pods":1`) {
			t.Errorf("H1 has its evidence back: %d %.200s", status, b)
		}
	})
}
