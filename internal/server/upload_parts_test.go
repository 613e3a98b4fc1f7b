package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestUploadSkippedPartWay: the files of an upload are stored as they are decoded, so a file
// of several that turns out unreadable part way, after many objects, is dropped whole: none of
// its objects stored or counted, its skipped objects not listed, and an object it held that
// comes again in a later file is stored, not refused as a duplicate. A file listed as
// truncated stays listed when a later file is skipped (it was lost when the truncated file came
// first).
func TestUploadSkippedPartWay(t *testing.T) {
	t.Parallel()
	pod := func(name string) string {
		return `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "` + name + `", "namespace": "prod", "uid": "uid-` + name + `"},
			"spec": {"containers": [{"name": "app", "image": "busybox"}]}}`
	}
	event := func(name string) string {
		return `{"apiVersion": "v1", "kind": "Event", "metadata": {"name": "` + name + `", "namespace": "prod", "uid": "ev-` + name + `"},
			"involvedObject": {"kind": "Pod", "namespace": "prod", "name": "hub-0"}, "reason": "Started", "count": 1,
			"lastTimestamp": "2023-02-01T17:00:00Z"}`
	}
	secret := `{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "token", "namespace": "prod"}}`
	list := func(items ...string) []byte {
		return []byte(`{"apiVersion": "v1", "kind": "List", "items": [` + strings.Join(items, ",\n") + `]}`)
	}
	// 5,000 pods and 5,000 events (several batches on either database), a Secret (skipped), and
	// then an item that is not a Kubernetes object.
	var broken []string
	for i := range 5000 {
		broken = append(broken, pod(fmt.Sprintf("stray-%d", i)), event(fmt.Sprintf("stray-%d", i)))
	}
	broken = append(broken, secret, `{"kind": 5}`)
	files := map[string][]byte{
		"b-broken.json": list(broken...),
		"c-pods.json":   list(pod("hub-0"), pod("stray-7"), event("stray-7")),
		"a-cut.json":    []byte(`{"apiVersion": "v1", "kind": "List", "items": [` + pod("web-0") + ",\n" + `{"apiVersion": "v1", "kind": "Pod", "stat`),
		"d-notes.md":    []byte("# Notes\n\nWhat the on-call engineer saw.\n"),
	}
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "p", "title": "parts"}`)
		body, ct := multipartBody(t, files, "a-cut.json", "b-broken.json", "c-pods.json", "d-notes.md")
		status, b := call(t, "POST", base+"/api/v1/incidents/p/snapshots", ct, body)
		if status != http.StatusCreated {
			t.Fatalf("status %d: %.500s", status, b)
		}
		var a struct {
			Objects map[string]int `json:"objects"`
			Skipped []struct {
				File, Kind string
				Truncated  bool
			} `json:"skipped"`
		}
		if err := json.Unmarshal(b, &a); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(map[string]int{"Pod": 3, "Event": 1}, a.Objects); diff != "" {
			t.Errorf("objects (-want +got):\n%s", diff)
		}
		var got []string
		for _, s := range a.Skipped {
			got = append(got, fmt.Sprintf("%s %s truncated=%v", s.File, s.Kind, s.Truncated))
		}
		want := []string{"a-cut.json File truncated=true", "b-broken.json File truncated=false", "d-notes.md File truncated=false"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("skipped (-want +got):\n%s", diff)
		}
		c := rowCounts(t, st, bk.Target)
		if c["pods"] != 3 || c["events"] != 1 || c["snapshot_events"] != 1 || c["pod_containers"] != 3 {
			t.Errorf("rows = %v, want 3 pods (3 containers) and 1 event: nothing of b-broken.json", c)
		}
	})
}
