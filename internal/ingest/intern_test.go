package ingest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// TestEqualLabelsAreShared: the pods of one controller, whose labels, annotations and node
// selectors are equal, share one map of each, whether decoded for analysis alone or for the
// store; a pod whose labels differ by one value keeps its own; and what is stored of each pod
// is its own labels.
func TestEqualLabelsAreShared(t *testing.T) {
	t.Parallel()
	pod := func(name, hash string) string {
		return fmt.Sprintf(`{"kind":"Pod","apiVersion":"v1","metadata":{"name":%q,"namespace":"prod",
			"labels":{"app":"web","pod-template-hash":%q},"annotations":{"prometheus.io/scrape":"true"}},
			"spec":{"nodeSelector":{"pool":"user"},"containers":[{"name":"web"}]}}`, name, hash)
	}
	list := `{"kind":"PodList","apiVersion":"v1","items":[` + strings.Join([]string{
		pod("web-7c9-a", "7c9"), pod("web-7c9-b", "7c9"), pod("web-5d4-c", "5d4")}, ",") + `]}`
	same := func(a, b map[string]string) bool {
		return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
	}
	for _, unstored := range []bool{true, false} {
		objs := decodeThree(t, list, unstored)
		a, b, c := objs[0].Pod, objs[1].Pod, objs[2].Pod
		if !same(a.Labels, b.Labels) || !same(a.Annotations, b.Annotations) || !same(a.Spec.NodeSelector, b.Spec.NodeSelector) {
			t.Errorf("unstored %v: two pods of one ReplicaSet do not share their labels, annotations and node selector", unstored)
		}
		if same(a.Labels, c.Labels) || c.Labels["pod-template-hash"] != "5d4" {
			t.Errorf("unstored %v: a pod of another ReplicaSet has labels %v", unstored, c.Labels)
		}
		if !same(a.Annotations, c.Annotations) {
			t.Errorf("unstored %v: equal annotations are not shared across ReplicaSets", unstored)
		}
		if unstored {
			continue
		}
		var stored struct {
			Metadata struct {
				Labels map[string]string `json:"labels"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal(objs[2].Stored(), &stored); err != nil {
			t.Fatal(err)
		}
		if stored.Metadata.Labels["pod-template-hash"] != "5d4" {
			t.Errorf("stored labels %v", stored.Metadata.Labels)
		}
	}
}

// decodeThree decodes a list of three pods, for analysis alone (unstored) or for the store.
func decodeThree(t *testing.T, list string, unstored bool) []*cluster.Object {
	t.Helper()
	objs, _, err := decodeAll(t, "pods.json", []byte(list), Options{Unstored: unstored})
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 3 {
		t.Fatalf("unstored %v: %d objects", unstored, len(objs))
	}
	return objs
}

// TestPodSharesItsNameWithItsEvents: a folder's events are read before its pods (events.json
// sorts first), and a pod's name and uid are the strings its events already hold of it
// (involvedObject), not a copy of each: at 20,000 pods and 50,000 events, 0.8 MB.
func TestPodSharesItsNameWithItsEvents(t *testing.T) {
	t.Parallel()
	events := `{"kind":"EventList","apiVersion":"v1","items":[{"kind":"Event","apiVersion":"v1",
		"metadata":{"name":"web-7c9-a.17a","namespace":"prod"},"reason":"Killing","message":"Stopping container web",
		"involvedObject":{"kind":"Pod","namespace":"prod","name":"web-7c9-a","uid":"0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"}}]}`
	pods := `{"kind":"PodList","apiVersion":"v1","items":[{"kind":"Pod","apiVersion":"v1",
		"metadata":{"name":"web-7c9-a","namespace":"prod","uid":"0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"},
		"spec":{"containers":[{"name":"web"}]}}]}`
	for _, unstored := range []bool{true, false} {
		dec := NewDecoder(Options{Unstored: unstored})
		var objs []*cluster.Object
		for _, f := range []File{{Name: "events.json", Content: strings.NewReader(events)}, {Name: "pods.json", Content: strings.NewReader(pods)}} {
			if _, err := dec.DecodeFile(t.Context(), f, func(o *cluster.Object) error { objs = append(objs, o); return nil }); err != nil {
				t.Fatal(err)
			}
		}
		if len(objs) != 2 || objs[0].Event == nil || objs[1].Pod == nil {
			t.Fatalf("unstored %v: decoded %d objects, want an event then a pod", unstored, len(objs))
		}
		ref, pod := objs[0].Event.InvolvedObject, objs[1].Pod
		if unsafe.StringData(ref.Name) != unsafe.StringData(pod.Name) || unsafe.StringData(string(ref.UID)) != unsafe.StringData(string(pod.UID)) {
			t.Errorf("unstored %v: the pod's name and uid are copies of its event's", unstored)
		}
	}
}
