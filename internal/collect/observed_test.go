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

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/ingest"
)

// TestTakeObservedAt: the collector's annotation becomes the object's Source.ObservedAt and
// leaves the object, its other annotations kept; an unreadable one just leaves.
func TestTakeObservedAt(t *testing.T) {
	at := time.Date(2023, 2, 1, 17, 4, 5, 123456789, time.UTC)
	for _, tc := range []struct {
		name        string
		annotations map[string]string
		want        time.Time
		left        map[string]string
	}{
		{"alone", map[string]string{observedAtAnnotation: at.Format(time.RFC3339Nano)}, at.Truncate(time.Microsecond), nil},
		{"with others", map[string]string{observedAtAnnotation: at.Format(time.RFC3339Nano), "team": "hub"}, at.Truncate(time.Microsecond),
			map[string]string{"team": "hub"}},
		{"unreadable", map[string]string{observedAtAnnotation: "yesterday"}, time.Time{}, nil},
		{"none", map[string]string{"team": "hub"}, time.Time{}, map[string]string{"team": "hub"}},
	} {
		o := &cluster.Object{Kind: cluster.KindPod, Pod: &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "hub", Annotations: tc.annotations}}}
		TakeObservedAt(o)
		if !o.Source.ObservedAt.Equal(tc.want) || !reflect.DeepEqual(o.Pod.Annotations, tc.left) {
			t.Errorf("%s: observed at %v, annotations %v; want %v, %v", tc.name, o.Source.ObservedAt, o.Pod.Annotations, tc.want, tc.left)
		}
	}
}

// TestObservedAtRoundTrip: what encode writes for each kind the collector sends, decoded as the
// server decodes a batch, gives back the time it was seen and the object as the cluster held it.
func TestObservedAtRoundTrip(t *testing.T) {
	at := time.Date(2023, 2, 1, 17, 4, 5, 123456000, time.UTC)
	objs := []any{
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "hub", Namespace: "prod", Annotations: map[string]string{"team": "hub"}}},
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "core-1"}},
		&corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: "hub.1", Namespace: "prod"}, Reason: "Evicted"},
		&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "hub", Namespace: "prod", Annotations: map[string]string{"deployment.kubernetes.io/revision": "2"}}},
		&appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "prometheus", Namespace: "monitoring"}},
		&appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "fluentd", Namespace: "kube-system"}},
		&appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "hub-7c9", Namespace: "prod"}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "hub", Namespace: "prod"}, Data: map[string]string{"a": "sha256:0123456789ab"}},
	}
	for _, obj := range objs {
		raw, kind, err := encode(obj, at)
		if err != nil {
			t.Fatal(err)
		}
		var got []*cluster.Object
		err = ingest.NewDecoder(ingest.Options{}).Decode(t.Context(), "batch", bytes.NewReader(raw), func(o *cluster.Object) error {
			TakeObservedAt(o)
			got = append(got, o)
			return nil
		})
		if err != nil || len(got) != 1 {
			t.Fatalf("%s: decoded %d objects, err %v", kind, len(got), err)
		}
		o := got[0]
		if !o.Source.ObservedAt.Equal(at) {
			t.Errorf("%s: observed at %v, want %v", kind, o.Source.ObservedAt, at)
		}
		var left map[string]string
		switch {
		case o.Pod != nil:
			left = o.Pod.Annotations
			if !reflect.DeepEqual(left, map[string]string{"team": "hub"}) {
				t.Errorf("pod annotations %v, want its own only", left)
			}
			continue
		case o.Node != nil:
			left = o.Node.Annotations
		case o.Event != nil:
			left = o.Event.Annotations
		default:
			var meta struct {
				Metadata metav1.ObjectMeta
			}
			if err := json.Unmarshal(o.Raw, &meta); err != nil {
				t.Fatalf("%s: %v", kind, err)
			}
			if o.Kind != kind || meta.Metadata.Name == "" {
				t.Errorf("%s: decoded as %s %q", kind, o.Kind, meta.Metadata.Name)
			}
			left = meta.Metadata.Annotations
			if kind == "Deployment" {
				if !reflect.DeepEqual(left, map[string]string{"deployment.kubernetes.io/revision": "2"}) {
					t.Errorf("deployment annotations %v, want its own only", left)
				}
				continue
			}
		}
		if len(left) != 0 {
			t.Errorf("%s: annotations %v left", kind, left)
		}
	}
}

// TestTakeDeleted: a node sent deleted comes to the server marked so, with the time it was seen
// deleted, and its own annotations only.
func TestTakeDeleted(t *testing.T) {
	at := time.Date(2023, 2, 1, 17, 4, 5, 0, time.UTC)
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "user-9", Annotations: map[string]string{"team": "data"}}}
	c := &Collector{}
	c.o.Now = func() time.Time { return at }
	c.m, c.o.BatchSize = NewMetrics(), 10
	c.observeDeleted(n)
	if len(c.batch) != 1 || len(n.Annotations) != 1 {
		t.Fatalf("batch %d, the cached node's annotations %v", len(c.batch), n.Annotations)
	}
	var got []*cluster.Object
	err := ingest.NewDecoder(ingest.Options{}).Decode(t.Context(), "batch", bytes.NewReader(c.batch[0]), func(o *cluster.Object) error {
		TakeObservedAt(o)
		got = append(got, o)
		return nil
	})
	if err != nil || len(got) != 1 {
		t.Fatalf("decoded %d, %v", len(got), err)
	}
	if o := got[0]; !o.Source.Deleted || !o.Source.ObservedAt.Equal(at) || !reflect.DeepEqual(o.Node.Annotations, map[string]string{"team": "data"}) {
		t.Errorf("deleted %v at %v, annotations %v", o.Source.Deleted, o.Source.ObservedAt, o.Node.Annotations)
	}
}
