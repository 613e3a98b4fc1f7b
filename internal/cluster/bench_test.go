package cluster_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/synth"
)

// benchModel is the model of the analyze benchmark's 20,000 generated pods on their nodes.
// It lives in an external test package because synth imports (through incident and analysis)
// this package.
func benchModel(b *testing.B) *cluster.Model {
	b.Helper()
	o := synth.Options{Pods: 20000, Seed: 42}
	nodes := max(o.Pods/30, 1)
	objs := make([]*cluster.Object, 0, o.Pods+nodes)
	for i := range nodes {
		n := synth.Node(o, i)
		objs = append(objs, &cluster.Object{Kind: cluster.KindNode, Name: n.Name, Node: n})
	}
	for i := range o.Pods {
		p := synth.Pod(o, i)
		objs = append(objs, &cluster.Object{Kind: cluster.KindPod, Namespace: p.Namespace, Name: p.Name, Pod: cluster.PodOf(p)})
	}
	return cluster.NewModel(nil, objs)
}

// BenchmarkPodRequests is one PodRequests call, going round the 20,000 pods: rules call it for
// every pod of every troubled node, and again to sort and describe them.
func BenchmarkPodRequests(b *testing.B) {
	m := benchModel(b)
	var sum int64
	i := 0
	for b.Loop() {
		sum += cluster.PodRequests(m.Pods[i].Pod).Memory
		i = (i + 1) % len(m.Pods)
	}
	if sum < 0 {
		b.Fatal(sum)
	}
}

// BenchmarkModelPodRequests is the same question put to the model, which worked the answer
// out when it took the pod in.
func BenchmarkModelPodRequests(b *testing.B) {
	m := benchModel(b)
	var sum int64
	i := 0
	for b.Loop() {
		sum += m.PodRequests(m.Pods[i]).Memory
		i = (i + 1) % len(m.Pods)
	}
	if sum < 0 {
		b.Fatal(sum)
	}
}

// BenchmarkPodLimits is PodRequests' twin over limits.
func BenchmarkPodLimits(b *testing.B) {
	m := benchModel(b)
	var sum int64
	i := 0
	for b.Loop() {
		sum += cluster.PodLimits(m.Pods[i].Pod).Memory
		i = (i + 1) % len(m.Pods)
	}
	if sum < 0 {
		b.Fatal(sum)
	}
}

// BenchmarkModelPools builds the model of 20,000 pods and asks for every pool's load, which
// visits every pod's requests and limits once: the work a cache in the model moves to NewModel.
func BenchmarkModelPools(b *testing.B) {
	base := benchModel(b)
	objs := append(append([]*cluster.Object{}, base.Nodes...), base.Pods...)
	for b.Loop() {
		m := cluster.NewModel(nil, objs)
		if len(m.Pools()) == 0 {
			b.Fatal("no pools")
		}
	}
}

// BenchmarkPoolFor is the pool of a pending JupyterHub user pod (a nodeSelector and the
// user pool's toleration) among the generated cluster's 666 nodes: the capacity rule asks it
// for every pending pod it weighs.
func BenchmarkPoolFor(b *testing.B) {
	m := benchModel(b)
	p := &cluster.Object{Kind: cluster.KindPod, Namespace: "hub", Name: "jupyter-alice", Pod: cluster.PodOf(&corev1.Pod{Spec: corev1.PodSpec{
		NodeSelector: map[string]string{"hub.jupyter.org/node-purpose": "user"},
		Tolerations: []corev1.Toleration{{Key: "hub.jupyter.org_dedicated", Operator: corev1.TolerationOpEqual, Value: "user",
			Effect: corev1.TaintEffectNoSchedule}}}})}
	if m.PoolFor(p) == "" {
		b.Fatal("no pool")
	}
	for b.Loop() {
		m.PoolFor(p)
	}
}
