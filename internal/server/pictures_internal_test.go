package server

import (
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/metrics"
)

// TestPictureChoices: the pictures read what the causes cite as values: the metrics a cause
// cites come first, in its order, and the nodes drawn are those the causes name, a pod cited
// standing for its node, before the symptoms'; evidence of neither (the author's claim) names
// none.
func TestPictureChoices(t *testing.T) {
	node := func(name string) *cluster.Object {
		return &cluster.Object{Kind: cluster.KindNode, Name: name, Node: &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}}
	}
	pod := &cluster.Object{Kind: cluster.KindPod, Namespace: "prod", Name: "hub-1", Pod: cluster.PodOf(&corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "prod", Name: "hub-1"}, Spec: corev1.PodSpec{NodeName: "n2"}})}
	m := cluster.NewModel(nil, []*cluster.Object{node("n1"), node("n2"), node("n3"), pod})
	rep := analysis.Report{
		Symptoms: []analysis.Symptom{{ID: "S1", Node: "n3"}},
		Causes: []analysis.Cause{{ID: "C1", Evidence: []analysis.Evidence{
			{Ref: "the author", Field: "author's claim"},
			{Metric: "throttling", Ref: "Metric throttling{pod=\"hub-1\"}", Field: "query throttling"},
			{Object: analysis.ObjectRef{Kind: cluster.KindPod, Namespace: "prod", Name: "hub-1"}, Ref: "Pod prod/hub-1"},
			{Object: analysis.ObjectRef{Kind: cluster.KindNode, Name: "n1"}, Ref: "Node n1"},
		}}},
	}
	var nodes []string
	for _, l := range involvedNodes(m, rep) {
		nodes = append(nodes, l.Node.Name)
	}
	if want := []string{"n2", "n3", "n1"}; !slices.Equal(nodes, want) {
		t.Errorf("nodes drawn %v, want %v (the cause's first, the symptom's, the cause's others)", nodes, want)
	}
	var names []string
	for _, a := range metricAnswers([]metrics.Answer{{Name: "memory"}, {Name: "throttling"}}, rep) {
		names = append(names, a.Name)
	}
	if want := []string{"throttling", "memory"}; !slices.Equal(names, want) {
		t.Errorf("metrics drawn %v, want %v (the cited first)", names, want)
	}
}
