package server_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/server"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestUploadRefreshesFromWhatItAdded (issue 30, item 4): an upload's signature refresh
// analyses the objects the upload added, not the incident read back: no evidence load and no
// analysis of the incident is made for it. What it gives is the signature the whole
// incident's analysis gives when the incident is that upload alone; a second upload adds its
// own kinds to it; and the related lookup, which analyses the whole incident, stores what the
// whole says.
func TestUploadRefreshesFromWhatItAdded(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		objects := &countingObjects{Store: st} // cache_test.go
		base, srv := newServerWith(t, st, testConfig(), func(d *server.Deps) { d.Objects = objects })
		createIncident(t, base, `{"id": "il", "title": "IL-0070"}`)
		signature := func() incident.Signatures {
			t.Helper()
			status, b := call(t, "GET", base+"/api/v1/incidents/il/signature", "", nil)
			if status != http.StatusOK {
				t.Fatalf("signature: %d %s", status, b)
			}
			var sigs incident.Signatures
			if err := json.Unmarshal(b, &sigs); err != nil {
				t.Fatal(err)
			}
			return sigs
		}
		settled := func() {
			t.Helper()
			if err := srv.Settle(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		noWholeAnalysis := func(when string) {
			t.Helper()
			if n, l := counter(t, base, "rootline_analyses_total"), objects.loads.Load(); n != 0 || l != 0 {
				t.Errorf("%s: %d analyses and %d evidence loads of the incident, want none", when, n, l)
			}
		}

		body, ct := multipartBody(t, fixtures.IL0070VariantBytes(t, "liveness"), "events.json", "nodes.json", "pods.json")
		if status, b := call(t, "POST", base+"/api/v1/incidents/il/snapshots", ct, body); status != http.StatusCreated {
			t.Fatalf("upload: %d %s", status, b)
		}
		settled()
		noWholeAnalysis("after the first upload's refresh")
		first := signature()
		if first.Origin != incident.OriginAnalysis || first.Effective.RootCause == "" || !slices.Contains(first.Effective.Symptoms, analysis.LivenessProbeFailed) {
			t.Fatalf("the first upload's signature: %+v", first)
		}

		oom := []byte(`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "worker-1", "namespace": "batch", "uid": "u-worker-1"},
			"spec": {"nodeName": "pool-2", "containers": [{"name": "worker", "resources": {"limits": {"memory": "64Mi"}}}]},
			"status": {"phase": "Running", "containerStatuses": [{"name": "worker", "restartCount": 3, "ready": false,
				"state": {"waiting": {"reason": "CrashLoopBackOff"}},
				"lastState": {"terminated": {"reason": "OOMKilled", "exitCode": 137,
					"startedAt": "2024-05-06T07:00:00Z", "finishedAt": "2024-05-06T07:01:00Z"}}}]}}`)
		body, ct = multipartBody(t, map[string][]byte{"worker.json": oom}, "worker.json")
		if status, b := call(t, "POST", base+"/api/v1/incidents/il/snapshots", ct, body); status != http.StatusCreated {
			t.Fatalf("second upload: %d %s", status, b)
		}
		settled()
		noWholeAnalysis("after the second upload's refresh")
		second := signature()
		if want := first.Effective.Merge(second.Effective); !second.Effective.Equal(want) || second.Effective.RootCause != first.Effective.RootCause {
			t.Errorf("the second upload took kinds away: %+v after %+v", second.Effective, first.Effective)
		}
		if !slices.Contains(second.Effective.Symptoms, analysis.OOMKilled) {
			t.Errorf("the second upload's OOM kill is not in the signature: %+v", second.Effective)
		}

		// The related lookup analyses the whole incident and stores what it says.
		if status, b := call(t, "GET", base+"/api/v1/incidents/il/related", "", nil); status != http.StatusOK {
			t.Fatalf("related: %d %s", status, b)
		}
		whole := signature()
		if n := counter(t, base, "rootline_analyses_total"); n != 1 {
			t.Errorf("the related lookup made %d analyses, want 1", n)
		}
		if !slices.Contains(whole.Effective.Symptoms, analysis.OOMKilled) || !slices.Contains(whole.Effective.Symptoms, analysis.LivenessProbeFailed) {
			t.Errorf("the whole incident's signature: %+v", whole.Effective)
		}
	})
}

// TestFirstUploadSignatureIsTheWholes: for an incident made of one upload, the signature its
// refresh gives from the upload's objects is the one the whole incident's analysis gives.
func TestFirstUploadSignatureIsTheWholes(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base, srv := newServerWith(t, st, testConfig(), nil)
		for _, variant := range []string{"liveness", "evicted"} {
			createIncident(t, base, `{"id": "`+variant+`", "title": "IL-0070 `+variant+`"}`)
			body, ct := multipartBody(t, fixtures.IL0070VariantBytes(t, variant), "events.json", "nodes.json", "pods.json")
			if status, b := call(t, "POST", base+"/api/v1/incidents/"+variant+"/snapshots", ct, body); status != http.StatusCreated {
				t.Fatalf("upload: %d %s", status, b)
			}
			if err := srv.Settle(t.Context()); err != nil {
				t.Fatal(err)
			}
			added, err := st.Signatures(t.Context(), variant)
			if err != nil {
				t.Fatal(err)
			}
			if status, b := call(t, "GET", base+"/api/v1/incidents/"+variant+"/related", "", nil); status != http.StatusOK {
				t.Fatalf("related: %d %s", status, b)
			}
			whole, err := st.Signatures(t.Context(), variant)
			if err != nil {
				t.Fatal(err)
			}
			if added.Effective.Empty() || !added.Effective.Equal(whole.Effective) {
				t.Errorf("%s: the upload's signature %+v, the whole incident's %+v", variant, added.Effective, whole.Effective)
			}
		}
	})
}
