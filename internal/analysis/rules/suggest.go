package rules

import (
	"fmt"
	"math"
	"sort"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// Suggestions are changes computed from the evidence, each naming the evidence it came from:
// never advice that would fit any incident. Each cause rule suggests what its own evidence
// supports (capacity.go, cpu_starvation.go, …); this file holds what they share.

// poolShape is a pool's usual node: the allocatable most of its Ready nodes have, the node
// that shows it, and its machine type.
func poolShape(m *cluster.Model, pool string) (cluster.Resources, *cluster.Object) {
	counts := map[cluster.Resources]int{}
	first := map[cluster.Resources]*cluster.Object{}
	for _, n := range m.Nodes {
		l := m.Load(n)
		if l.Pool != pool || l.Allocatable.MilliCPU == 0 && l.Allocatable.Memory == 0 {
			continue
		}
		if counts[l.Allocatable] == 0 {
			first[l.Allocatable] = n
		}
		counts[l.Allocatable]++
	}
	var best cluster.Resources
	for r, n := range counts {
		if n > counts[best] || n == counts[best] && first[best] != nil && first[r].Name < first[best].Name {
			best = r
		}
	}
	return best, first[best]
}

// nodesToHold is how many nodes of allocatable alloc hold lack.
func nodesToHold(lack, alloc cluster.Resources) int {
	n := 0.0
	if lack.MilliCPU > 0 && alloc.MilliCPU > 0 {
		n = math.Ceil(float64(lack.MilliCPU) / float64(alloc.MilliCPU))
	}
	if lack.Memory > 0 && alloc.Memory > 0 {
		n = max(n, math.Ceil(float64(lack.Memory)/float64(alloc.Memory)))
	}
	return int(n)
}

// medianCPURequest is the median CPU request of a node's pods other than skip that request
// any and that keep pick.
func medianCPURequest(m *cluster.Model, l cluster.NodeLoad, skip *cluster.Object, pick func(*cluster.Object) bool) (int64, int) {
	var reqs []int64
	for _, p := range l.Pods {
		if p != skip && pick(p) {
			if r := m.PodRequests(p).MilliCPU; r > 0 {
				reqs = append(reqs, r)
			}
		}
	}
	if len(reqs) == 0 {
		return 0, 0
	}
	sort.Slice(reqs, func(i, j int) bool { return reqs[i] < reqs[j] })
	return reqs[len(reqs)/2], len(reqs)
}

// workloadRef is the workload a pod belongs to, as an object: Deployment prod/hub, or the pod
// itself when it has no controller.
func workloadRef(o *cluster.Object) analysis.ObjectRef {
	kind, name := cluster.Workload(o.Pod)
	if kind == cluster.KindPod {
		return analysis.ObjectRef{Kind: "Pod", Namespace: o.Namespace, Name: o.Name}
	}
	return analysis.ObjectRef{Kind: kind, Namespace: o.Namespace, Name: name}
}

// workloadPhrase names the workload a pod belongs to, for a sentence: "Deployment prod/hub".
func workloadPhrase(o *cluster.Object) string {
	kind, name := cluster.Workload(o.Pod)
	if kind == cluster.KindPod {
		return fmt.Sprintf("pod %s/%s", o.Namespace, o.Name)
	}
	return fmt.Sprintf("%s %s/%s", kind, o.Namespace, name)
}

func appendUnique(ss []string, s string) []string {
	for _, have := range ss {
		if have == s {
			return ss
		}
	}
	return append(ss, s)
}
