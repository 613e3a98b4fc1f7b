package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

const collectedBatch = `{"apiVersion": "v1", "kind": "List", "items": [
 {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "hub-1", "namespace": "prod", "uid": "p1", "resourceVersion": "7",
   "annotations": {"rootline.dev/observed-at": "2023-02-01T17:06:10Z"}},
  "spec": {"nodeName": "core-1", "containers": [{"name": "hub", "env": [{"name": "TOKEN", "value": "s3cr3t-value"}],
   "resources": {"requests": {"memory": "1Gi"}}}]},
  "status": {"phase": "Failed", "reason": "Evicted", "message": "The node was low on resource: memory. Threshold quantity: 100Mi, available: 80Mi. Container hub was using 3Gi, request is 1Gi, has larger consumption of memory. "}},
 {"apiVersion": "v1", "kind": "Event", "metadata": {"name": "hub-1.17", "namespace": "prod", "uid": "e1"},
  "involvedObject": {"kind": "Pod", "namespace": "prod", "name": "hub-1"}, "reason": "Evicted", "type": "Warning",
  "message": "The node was low on resource: memory. Threshold quantity: 100Mi, available: 80Mi. Container hub was using 3Gi, request is 1Gi, has larger consumption of memory. ",
  "count": 1, "firstTimestamp": "2023-02-01T17:06:00Z", "lastTimestamp": "2023-02-01T17:06:00Z", "source": {"component": "kubelet", "host": "core-1"}},
 {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "namespace": "prod"}, "data": {"k": "c2VjcmV0"}}
]}`

// TestPostEvents: the collector's endpoint takes batches through ingestion (redaction,
// Secrets left out), stores them once however often they come, and an incident defined on the
// cluster's window is analysed from them without any upload.
func TestPostEvents(t *testing.T) {
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		scenarios := []struct {
			name, path, body string
			wantStatus       int
			wantIn           []string
		}{
			{"no cluster", "/api/v1/events", collectedBatch, 400, []string{"cluster= is required"}},
			{"bad cluster", "/api/v1/events?cluster=a%20b", collectedBatch, 422, []string{"cluster"}},
			{"a batch", "/api/v1/events?cluster=leap", collectedBatch, 200, []string{`"events":1`, `"states":1`, `"known":0`}},
			{"the same batch again", "/api/v1/events?cluster=leap", collectedBatch, 200, []string{`"states":0`, `"known":1`}},
			{"malformed", "/api/v1/events?cluster=leap", `{"kind": "List", "items": [{"kind": "Event",`, 422, []string{"batch"}},
			{"an incident on the window", "/api/v1/incidents", `{"id": "live", "title": "Hub restart", "cluster": "leap",
				"started_at": "2023-02-01T17:00:00Z", "ended_at": "2023-02-01T17:30:00Z"}`, 201, []string{`"id":"live"`}},
		}
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) {
				status, got := call(t, "POST", base+sc.path, "application/json", strings.NewReader(sc.body))
				if status != sc.wantStatus {
					t.Fatalf("status = %d, want %d; body %s", status, sc.wantStatus, got)
				}
				for _, w := range sc.wantIn {
					if !strings.Contains(string(got), w) {
						t.Errorf("body does not contain %s:\n%s", w, got)
					}
				}
			})
		}
		status, b := call(t, "GET", base+"/api/v1/incidents/live/analysis", "", nil)
		var rep struct {
			Symptoms []struct {
				Kind     string
				Evidence []struct{ File string }
			}
		}
		if err := json.Unmarshal(b, &rep); err != nil || status != 200 {
			t.Fatalf("%d %s", status, b)
		}
		found := false
		for _, s := range rep.Symptoms {
			if s.Kind == "pod_evicted" && len(s.Evidence) > 0 && s.Evidence[0].File == store.CollectedFile {
				found = true
			}
		}
		if !found {
			t.Errorf("the window's analysis has no eviction from the collected objects: %s", b)
		}
		// The pod's state change is on the timeline.
		_, tl := call(t, "GET", base+"/api/v1/incidents/live/timeline?type=event", "", nil)
		if !strings.Contains(string(tl), `"kind":"PodState","severity":"warning","summary":"Failed (Evicted); on core-1"`) ||
			!strings.Contains(string(tl), `"object":"Pod prod/hub-1"`) || !strings.Contains(string(tl), `"at":"2023-02-01T17:06:10Z"`) {
			t.Errorf("the collected pod state is not on the timeline: %s", tl)
		}
		// Nothing secret was stored, nor the collector's transport annotation.
		sawRedacted := false
		err := st.EachValue(context.Background(), func(table, column string, v []byte) error {
			if bytes.Contains(v, []byte("s3cr3t")) || bytes.Contains(v, []byte("c2VjcmV0")) || bytes.Contains(v, []byte("observed-at")) {
				t.Errorf("%s.%s holds the secret or the annotation: %.200s", table, column, v)
			}
			if table == "object_states" && bytes.Contains(v, []byte("[redacted]")) {
				sawRedacted = true
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !sawRedacted {
			t.Error("no redacted value in object_states: the scan did not look inside them")
		}
		counts := rowCounts(t, st)
		if counts["object_states"] != 1 {
			t.Errorf("object_states = %d", counts["object_states"])
		}
	})
}
