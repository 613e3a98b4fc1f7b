package analysis

import (
	"fmt"
	"slices"
)

// sameNodeLink links a cause about a node's neighbours (a pool mixing critical and heavy pods,
// Prometheus crowding a node, limits over the node's allocatable) to a cause about one of the
// node's pods (CPU starvation, memory over request) when both are about the same node: the
// neighbour is why the pod's small request mattered.
type sameNodeLink struct{}

func (sameNodeLink) Name() string { return "same-node" }

// sameNodeWhy says, for a pair of cause kinds, how the first leads to the second on a node.
var sameNodeWhy = map[[2]string]string{
	{SharedNodePool, SharedPrometheus}:    "the pool mixes critical pods with heavy ones, so Prometheus ran beside them on node %s",
	{SharedNodePool, CPUStarvation}:       "the pool mixes critical pods with heavy ones, so the starved pod ran beside them on node %s",
	{SharedNodePool, MemoryOverRequest}:   "the pool mixes critical pods with heavy ones, so the evicted pod ran beside them on node %s",
	{SharedPrometheus, CPUStarvation}:     "Prometheus took most of node %s beside the starved pod: the harder Prometheus worked, the less CPU was left for a pod that requested so little",
	{SharedPrometheus, MemoryOverRequest}: "Prometheus's memory brought node %s to its eviction threshold, and the kubelet evicts first the pods that use more than they request",
	{NodeOvercommitted, MemoryOverRequest}: "the memory limits of node %s's pods exceeded what it had, so together they could use more than the node had; " +
		"the kubelet then evicts first the pods that use more than they request",
}

func (sameNodeLink) Links(_ Input, r *Report) []Edge {
	var out []Edge
	for _, x := range r.Causes {
		for _, y := range r.Causes {
			why, ok := sameNodeWhy[[2]string{x.Kind, y.Kind}]
			if !ok {
				continue
			}
			for _, n := range x.Nodes {
				if slices.Contains(y.Nodes, n) {
					out = append(out, Edge{From: x.ID, To: y.ID, Why: fmt.Sprintf(why, n)})
					break
				}
			}
		}
	}
	return out
}
