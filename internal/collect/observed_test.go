package collect

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/ingest"
	"github.com/rootline-dev/rootline/internal/wire"
)

// observedCollector is a collector that only batches, seeing everything at at.
func observedCollector(at time.Time) *Collector {
	c := &Collector{m: NewMetrics()}
	c.o.Now = func() time.Time { return at }
	c.o.BatchSize = 100
	return c
}

// metaOf is the metadata of what ingest made of an object.
func metaOf(t *testing.T, o *cluster.Object) metav1.ObjectMeta {
	t.Helper()
	switch {
	case o.Pod != nil:
		m := o.Pod.ObjectMeta
		return metav1.ObjectMeta{Name: m.Name, Namespace: m.Namespace, UID: m.UID, ResourceVersion: m.ResourceVersion,
			CreationTimestamp: m.CreationTimestamp, Labels: m.Labels, Annotations: m.Annotations, OwnerReferences: m.OwnerReferences}
	case o.Node != nil:
		return o.Node.ObjectMeta
	case o.Event != nil:
		m := o.Event.EventMeta
		return metav1.ObjectMeta{Name: m.Name, Namespace: m.Namespace, UID: m.UID,
			CreationTimestamp: m.CreationTimestamp.Meta(), Annotations: m.Annotations}
	}
	var v struct{ Metadata metav1.ObjectMeta }
	if err := json.Unmarshal(o.Raw, &v); err != nil {
		t.Fatalf("%s: %v", o.Kind, err)
	}
	return v.Metadata
}

// decodeItem decodes an item's object as the server does, expecting one object.
func decodeItem(t *testing.T, it wire.Item) *cluster.Object {
	t.Helper()
	var got []*cluster.Object
	err := ingest.NewDecoder(ingest.Options{}).Decode(t.Context(), "batch", bytes.NewReader(it.Object), func(o *cluster.Object) error {
		got = append(got, o)
		return nil
	})
	if err != nil || len(got) != 1 {
		t.Fatalf("decoded %d objects, err %v: %s", len(got), err, it.Object)
	}
	return got[0]
}

// TestObservedItems: each kind the collector sends goes as an item with the time it was seen,
// and its object, decoded as the server decodes it, is of its kind and as the cluster held it:
// its own annotations, nothing added. The informer's cached object is not changed.
func TestObservedItems(t *testing.T) {
	at := time.Date(2023, 2, 1, 17, 4, 5, 123456789, time.UTC)
	own := map[string]string{"team": "hub"}
	meta := func(ns, name string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Name: name, Namespace: ns, Annotations: map[string]string{"team": "hub"}}
	}
	objs := map[string]runtime.Object{
		"Pod":         &corev1.Pod{ObjectMeta: meta("prod", "hub")},
		"Node":        &corev1.Node{ObjectMeta: meta("", "core-1")},
		"Event":       &corev1.Event{ObjectMeta: meta("prod", "hub.1"), Reason: "Evicted"},
		"Deployment":  &appsv1.Deployment{ObjectMeta: meta("prod", "hub")},
		"StatefulSet": &appsv1.StatefulSet{ObjectMeta: meta("monitoring", "prometheus")},
		"DaemonSet":   &appsv1.DaemonSet{ObjectMeta: meta("kube-system", "fluentd")},
		"ReplicaSet":  &appsv1.ReplicaSet{ObjectMeta: meta("prod", "hub-7c9")},
		"ConfigMap":   &corev1.ConfigMap{ObjectMeta: meta("prod", "hub"), Data: map[string]string{"a": "sha256:0123456789ab"}},
	}
	for kind, obj := range objs {
		c := observedCollector(at)
		c.observe(obj)
		if len(c.batch) != 1 {
			t.Fatalf("%s: batch of %d", kind, len(c.batch))
		}
		it := c.batch[0]
		if !it.ObservedAt.Equal(at) || it.Deleted {
			t.Errorf("%s: observed at %v, deleted %v; want %v, not deleted", kind, it.ObservedAt, it.Deleted, at)
		}
		o := decodeItem(t, it)
		if m := metaOf(t, o); o.Kind != kind || m.Name == "" || !reflect.DeepEqual(m.Annotations, own) {
			t.Errorf("%s: decoded as %s %q with annotations %v, want its own only", kind, o.Kind, m.Name, m.Annotations)
		}
		if gvk := obj.GetObjectKind().GroupVersionKind(); !gvk.Empty() {
			t.Errorf("%s: the cached object was changed: kind %v", kind, gvk)
		}
	}
}

// TestObserveDeleted: a node seen deleted goes as it was last, marked deleted, with the time it
// was seen deleted and its own annotations only; the informer's cached node is not changed.
func TestObserveDeleted(t *testing.T) {
	at := time.Date(2023, 2, 1, 17, 4, 5, 0, time.UTC)
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "user-9", Annotations: map[string]string{"team": "data"}}}
	c := observedCollector(at)
	c.observeDeleted(n)
	if len(c.batch) != 1 {
		t.Fatalf("batch of %d", len(c.batch))
	}
	it := c.batch[0]
	if !it.Deleted || !it.ObservedAt.Equal(at) {
		t.Errorf("deleted %v at %v, want deleted at %v", it.Deleted, it.ObservedAt, at)
	}
	o := decodeItem(t, it)
	if o.Node == nil || o.Node.Name != "user-9" || !reflect.DeepEqual(o.Node.Annotations, map[string]string{"team": "data"}) {
		t.Errorf("sent %+v", o.Node)
	}
	if n.Kind != "" || len(n.Annotations) != 1 {
		t.Errorf("the cached node was changed: kind %q, annotations %v", n.Kind, n.Annotations)
	}
}
