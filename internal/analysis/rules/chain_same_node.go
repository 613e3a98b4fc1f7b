package rules

import (
	"fmt"
	"slices"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// sameNodeLink links a cause about a node's neighbours (a pool mixing critical and heavy pods,
// Prometheus crowding a node, limits over the node's allocatable) to a cause about one of the
// node's pods (CPU starvation, memory over request) when both are about the same node: the
// neighbour is why the pod's small request mattered.
type sameNodeLink struct{}

func (sameNodeLink) Name() string { return "same-node" }

// sameNodeWhy says, for a pair of cause kinds, how the first leads to the second on a node.
var sameNodeWhy = map[[2]string]string{
	{analysis.SharedNodePool, analysis.SharedPrometheus}:    "the pool mixes critical pods with heavy ones, so Prometheus ran beside them on node %s",
	{analysis.SharedNodePool, analysis.CPUStarvation}:       "the pool mixes critical pods with heavy ones, so the starved pod ran beside them on node %s",
	{analysis.SharedNodePool, analysis.MemoryOverRequest}:   "the pool mixes critical pods with heavy ones, so the evicted pod ran beside them on node %s",
	{analysis.SharedPrometheus, analysis.CPUStarvation}:     "Prometheus took most of node %s beside the starved pod: the harder Prometheus worked, the less CPU was left for a pod that requested so little",
	{analysis.SharedPrometheus, analysis.MemoryOverRequest}: "Prometheus's memory brought node %s to its eviction threshold, and the kubelet evicts first the pods that use more than they request",
	{analysis.NodeOvercommitted, analysis.MemoryOverRequest}: "the memory limits of node %s's pods exceeded what it had, so together they could use more than the node had; " +
		"the kubelet then evicts first the pods that use more than they request",
}

func (sameNodeLink) Links(_ analysis.Input, r *analysis.Report) []analysis.Edge {
	var out []analysis.Edge
	for _, x := range r.Causes {
		for _, y := range r.Causes {
			why, ok := sameNodeWhy[[2]string{x.Kind, y.Kind}]
			if !ok {
				continue
			}
			for _, n := range x.Nodes {
				if slices.Contains(y.Nodes, n) {
					out = append(out, analysis.Edge{From: x.ID, To: y.ID, Why: fmt.Sprintf(why, n)})
					break
				}
			}
		}
	}
	return out
}
