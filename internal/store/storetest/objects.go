package storetest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/ingest"
	"github.com/rootline-dev/rootline/internal/store"
)

// What the tests of the store and of what reads it write: snapshots of files, as an upload
// stores them, and the objects a collector sends.

// File is one file of a snapshot.
type File struct {
	Name string
	Data []byte
}

// Digest identifies files the way snapshots are identified: the SHA-256 of the files' hashes
// in name order.
func Digest(files []File) string {
	sorted := append([]File(nil), files...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	h := sha256.New()
	for _, f := range sorted {
		s := sha256.Sum256(f.Data)
		h.Write(s[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Meta describes files as a snapshot of the given incident and cluster.
func Meta(incidentID, clusterName string, files []File) store.SnapshotMeta {
	m := store.SnapshotMeta{Digest: Digest(files), Incident: incidentID, Cluster: clusterName}
	for _, f := range files {
		h := sha256.Sum256(f.Data)
		m.Bytes += int64(len(f.Data))
		m.Files = append(m.Files, store.SnapshotFile{Name: f.Name, SHA256: hex.EncodeToString(h[:]), Bytes: int64(len(f.Data))})
	}
	return m
}

// Decode decodes files with one Decoder, the way one upload is decoded, and returns the
// objects and what was skipped.
func Decode(t testing.TB, files []File) ([]*cluster.Object, []ingest.Skipped) {
	t.Helper()
	var skipped []ingest.Skipped
	dec := ingest.NewDecoder(ingest.Options{OnSkip: func(s ingest.Skipped) { skipped = append(skipped, s) }})
	var objs []*cluster.Object
	for _, f := range files {
		err := dec.Decode(t.Context(), f.Name, bytes.NewReader(f.Data), func(o *cluster.Object) error {
			objs = append(objs, o)
			return nil
		})
		if err != nil {
			t.Fatalf("decode %s: %v", f.Name, err)
		}
	}
	return objs, skipped
}

// StoreObjects stores objects as one snapshot.
func StoreObjects(t testing.TB, st *store.Store, m store.SnapshotMeta, objs []*cluster.Object, skipped []ingest.Skipped) *store.Snapshot {
	t.Helper()
	ctx := t.Context()
	w, err := st.BeginSnapshot(ctx, m)
	if err != nil {
		t.Fatalf("BeginSnapshot: %v", err)
	}
	defer w.Rollback()
	for _, o := range objs {
		if err := w.Add(ctx, o); err != nil {
			t.Fatalf("Add %s: %v", o.Ref(), err)
		}
	}
	snap, err := w.Commit(ctx, skipped)
	if err != nil {
		t.Fatalf("Commit: %v", err)
	}
	return snap
}

// CollectedPod is pod prod/hub (uid pod-1) on node core-1 as the collector sends it, seen at
// at: its resourceVersion rv, phase and reason.
func CollectedPod(rv, phase, reason string, at time.Time) *cluster.Object {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "hub", Namespace: "prod", UID: "pod-1", ResourceVersion: rv},
		Spec:   corev1.PodSpec{NodeName: "core-1", Containers: []corev1.Container{{Name: "hub", Env: []corev1.EnvVar{{Name: "X", Value: "[redacted]"}}}}},
		Status: corev1.PodStatus{Phase: corev1.PodPhase(phase), Reason: reason}}
	// When the collector saw it, as the server takes it off what the collector sends.
	return &cluster.Object{APIVersion: "v1", Kind: cluster.KindPod, Namespace: "prod", Name: "hub", UID: "pod-1", Pod: cluster.PodOf(p),
		Source: cluster.Source{ObservedAt: cluster.Observed(at.UTC().Truncate(time.Microsecond))}}
}

// CollectedEvent is event prod/hub.1 (uid ev-1), an eviction of pod hub, as the collector sends
// it: its count and first and last sightings.
func CollectedEvent(count int32, first, last time.Time) *cluster.Object {
	e := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: "hub.1", Namespace: "prod", UID: "ev-1"},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "prod", Name: "hub"}, Reason: "Evicted", Type: "Warning",
		Message: "The node was low on resource: memory.", Count: count, FirstTimestamp: metav1.NewTime(first), LastTimestamp: metav1.NewTime(last)}
	return &cluster.Object{APIVersion: "v1", Kind: cluster.KindEvent, Namespace: "prod", Name: "hub.1", UID: "ev-1", Event: cluster.EventOf(e)}
}

// EventNamed names a collected event (CollectedEvent) uid, in its metadata and as an object.
func EventNamed(o *cluster.Object, uid string) *cluster.Object {
	o.UID, o.Name, o.Event.UID, o.Event.Name = uid, uid, types.UID(uid), uid
	return o
}

// PodNamed names a collected pod (CollectedPod) name, of uid "uid-" and its name.
func PodNamed(o *cluster.Object, name string) *cluster.Object {
	o.Name, o.UID, o.Pod.Name, o.Pod.UID = name, "uid-"+name, name, types.UID("uid-"+name)
	return o
}

// SnapshotFiles are the files of a snapshot of cluster leap at t0: two pods, a node and
// three events (ev-a, ev-b, ev-c), one minute apart.
func SnapshotFiles(t0 time.Time, pods ...string) []File {
	var items []string
	for _, p := range pods {
		items = append(items, fmt.Sprintf(`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": %q, "namespace": "prod", "uid": "uid-%[1]s"},
			"spec": {"nodeName": "core-1", "containers": [{"name": "app", "resources": {"requests": {"memory": "1Gi"}}}]}, "status": {"phase": "Running"}}`, p))
	}
	var evs []string
	for i, uid := range []string{"ev-a", "ev-b", "ev-c"} {
		at := t0.Add(time.Duration(i) * time.Minute).Format(time.RFC3339)
		evs = append(evs, fmt.Sprintf(`{"apiVersion": "v1", "kind": "Event", "metadata": {"name": "%[1]s", "namespace": "prod", "uid": "%[1]s"}, `+
			`"involvedObject": {"kind": "Pod", "namespace": "prod", "name": "hub"}, "reason": "BackOff", "type": "Warning", "message": "back-off %[1]s", `+
			`"count": 1, "firstTimestamp": %[2]q, "lastTimestamp": %[2]q}`, uid, at)) // JSON Lines: one a line
	}
	return []File{
		{Name: "pods.json", Data: []byte(`{"apiVersion": "v1", "kind": "List", "items": [` + strings.Join(items, ",") + `]}`)},
		{Name: "nodes.json", Data: []byte(`{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "core-1", "uid": "node-1"}, "status": {"allocatable": {"memory": "8Gi"}}}`)},
		{Name: "events.jsonl", Data: []byte(strings.Join(evs, "\n"))},
	}
}
