package server_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
	"github.com/rootline-dev/rootline/internal/wire"
)

// collectedBatch is what `rootline collect` sends (wire.ContentType): a pod seen evicted, an
// event, a Secret (which a collector never sends, and ingestion refuses) and a node seen
// deleted.
const collectedBatch = `{"items": [
 {"observedAt": "2023-02-01T17:06:10.123456789Z", "object": {"apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "hub-1", "namespace": "prod", "uid": "p1", "resourceVersion": "7"},
  "spec": {"nodeName": "core-1", "containers": [{"name": "hub", "env": [{"name": "TOKEN", "value": "s3cr3t-value"}],
   "resources": {"requests": {"memory": "1Gi"}}}]},
  "status": {"phase": "Failed", "reason": "Evicted", "message": "The node was low on resource: memory. Threshold quantity: 100Mi, available: 80Mi. Container hub was using 3Gi, request is 1Gi, has larger consumption of memory. "}}},
 {"observedAt": "2023-02-01T17:06:11Z", "object": {"apiVersion": "v1", "kind": "Event", "metadata": {"name": "hub-1.17", "namespace": "prod", "uid": "e1"},
  "involvedObject": {"kind": "Pod", "namespace": "prod", "name": "hub-1"}, "reason": "Evicted", "type": "Warning",
  "message": "The node was low on resource: memory. Threshold quantity: 100Mi, available: 80Mi. Container hub was using 3Gi, request is 1Gi, has larger consumption of memory. ",
  "count": 1, "firstTimestamp": "2023-02-01T17:06:00Z", "lastTimestamp": "2023-02-01T17:06:00Z", "source": {"component": "kubelet", "host": "core-1"}}},
 {"observedAt": "2023-02-01T17:06:12Z", "object": {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "namespace": "prod"}, "data": {"k": "c2VjcmV0"}}},
 {"observedAt": "2023-02-01T17:06:30Z", "deleted": true, "object": {"apiVersion": "v1", "kind": "Node",
  "metadata": {"name": "user-9", "uid": "n9", "resourceVersion": "40", "creationTimestamp": "2023-02-01T09:00:00Z"},
  "status": {"conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": "2023-02-01T09:01:00Z"}]}}}
]}`

// TestPostEvents: the collector's endpoint takes batches through ingestion (redaction,
// Secrets left out), stores them once however often they come, and an incident defined on the
// cluster's window is analysed from them without any upload.
func TestPostEvents(t *testing.T) {
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		base := newServer(t, st, testConfig())
		scenarios := []struct {
			name, path, body string
			contentType      string
			wantStatus       int
			wantIn           []string
		}{
			{"no cluster", "/api/v1/events", collectedBatch, wire.ContentType, 400, []string{"cluster= is required"}},
			{"bad cluster", "/api/v1/events?cluster=a%20b", collectedBatch, wire.ContentType, 422, []string{"cluster"}},
			{"a batch", "/api/v1/events?cluster=leap", collectedBatch, wire.ContentType, 200, []string{`"events":1`, `"states":2`, `"known":0`}},
			{"the same batch again", "/api/v1/events?cluster=leap", collectedBatch, wire.ContentType, 200, []string{`"states":0`, `"known":2`}},
			{"a batch cut short", "/api/v1/events?cluster=leap", collectedBatch[:300], wire.ContentType, 422, []string{"collector batch: item 1:"}},
			{"a List sent as a batch", "/api/v1/events?cluster=leap", `{"kind": "List", "items": []}`, wire.ContentType, 422, []string{`collector batch: field \"kind\"`}},
			{"an item's object ingestion refuses, by its number", "/api/v1/events?cluster=leap", `{"items": [
				{"observedAt": "2023-02-01T17:06:10Z", "object": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a"}}},
				{"observedAt": "2023-02-01T17:06:10Z", "object": {"apiVersion": "v1", "kind": "Pod",
				 "metadata": {"name": "a", "name": "b"}}}]}`, wire.ContentType, 422, []string{`duplicate key`, `"line":2`}},
			{"an item's object over lines, as written by hand", "/api/v1/events?cluster=hand", `{"items": [
				{"observedAt": "2023-02-01T17:06:10Z", "object": {"apiVersion": "v1", "kind": "Pod",
				  "metadata": {"name": "a", "namespace": "prod", "uid": "h1", "resourceVersion": "1"},
				  "status": {"phase": "Running"}}},
				{"observedAt": "2023-02-01T17:06:11Z", "deleted": true, "object": {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n", "uid": "h2", "resourceVersion": "1"}}}]}`,
				wire.ContentType, 200, []string{`"states":2`}},
			{"a List, as a script posts it", "/api/v1/events?cluster=script", `{"apiVersion": "v1", "kind": "List", "items": [
				{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "job-1", "namespace": "batch", "uid": "j1", "resourceVersion": "3"},
				 "status": {"phase": "Running"}}]}`, "application/json", 200, []string{`"states":1`}},
			{"malformed List", "/api/v1/events?cluster=leap", `{"kind": "List", "items": [{"kind": "Event",`, "application/json", 422, []string{"batch"}},
			{"an incident on the window", "/api/v1/incidents", `{"id": "live", "title": "Hub restart", "cluster": "leap",
				"started_at": "2023-02-01T17:00:00Z", "ended_at": "2023-02-01T17:30:00Z"}`, "application/json", 201, []string{`"id":"live"`}},
		}
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) {
				status, got := call(t, "POST", base+sc.path, sc.contentType, strings.NewReader(sc.body))
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
			!strings.Contains(string(tl), `"object":"Pod prod/hub-1"`) || !strings.Contains(string(tl), `"at":"2023-02-01T17:06:10.123456Z"`) {
			t.Errorf("the collected pod state is not on the timeline: %s", tl)
		}
		// The node seen deleted is stored so, when it was seen.
		_, h := call(t, "GET", base+"/api/v1/incidents/live/history?kind=Node&name=user-9", "", nil)
		if !strings.Contains(string(h), "deleted") {
			t.Errorf("the node seen deleted is not so in its history: %s", h)
		}
		// Nothing secret was stored, nor anything of the batch's wrapping.
		sawRedacted := false
		err := storetest.EachValue(t, bk.Target, func(table, column string, v []byte) error {
			if bytes.Contains(v, []byte("s3cr3t")) || bytes.Contains(v, []byte("c2VjcmV0")) || bytes.Contains(v, []byte("observedAt")) {
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
		counts := rowCounts(t, st, bk.Target)
		if counts["object_states"] != 5 {
			t.Errorf("object_states = %d", counts["object_states"])
		}
	})
}
