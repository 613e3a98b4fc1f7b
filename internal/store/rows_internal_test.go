package store

import (
	"bytes"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/synth"
)

// TestObjectJSON: what an upload stores of a typed object is byte for byte what
// cluster.Object.JSON (encoding/json) makes of it: generated pods, nodes and events, and an
// object with what encoding/json escapes or compacts (HTML in a message, quantities, times,
// map keys out of order, a raw extension).
func TestObjectJSON(t *testing.T) {
	t.Parallel()
	o := synth.Options{Pods: 300, Events: 300, Seed: 3}
	var objs []*cluster.Object
	for i := range 300 {
		objs = append(objs, &cluster.Object{Kind: cluster.KindPod, Pod: cluster.PodOf(synth.Pod(o, i))}, &cluster.Object{Kind: cluster.KindEvent, Event: cluster.EventOf(synth.Event(o, i))})
	}
	for i := range 20 {
		objs = append(objs, &cluster.Object{Kind: cluster.KindNode, Node: synth.Node(o, i)})
	}
	odd := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "odd", Namespace: "prod", Labels: map[string]string{"z": "1", "a": "<b>&amp;</b>", "m": "\u2028"},
			Annotations: map[string]string{"note": "tab\there, quote \" and é"}, CreationTimestamp: metav1.Now()},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m"), corev1.ResourceMemory: resource.MustParse("1.5Gi")}}}}},
		Status: corev1.PodStatus{Message: "<script>alert(1)</script> & more", Phase: corev1.PodFailed},
	}
	objs = append(objs, &cluster.Object{Kind: cluster.KindPod, Pod: cluster.PodOf(odd)},
		&cluster.Object{Kind: "ConfigMap", Raw: []byte(`{"kind":"ConfigMap"}`)})
	for _, obj := range objs {
		want, err := obj.JSON()
		if err != nil {
			t.Fatal(err)
		}
		got, err := objectJSON(obj)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s %s:\n got %s\nwant %s", obj.Kind, obj.Name, got, want)
		}
	}
}
