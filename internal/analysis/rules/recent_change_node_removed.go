package rules

import (
	"slices"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/change"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/signal"
)

// removedNodeRule: a node went (its pool shrunk: scaled down, or the node deleted), then pods
// waiting for room in its pool could not be scheduled for want of resources, and the pods that
// ran on it were evicted or preempted.
type removedNodeRule struct{}

func (removedNodeRule) Name() string { return "recent-change-node-removed" }

func (removedNodeRule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	return nodeChangeCauses(in, symptoms, nodeMechanism{matches: removed, hits: removedHits,
		what: "its pool had less room for the pods waiting for it, and the pods on it went with it", confidence: 0.6})
}

// removed reports whether a change is a node that went.
func removed(c change.Change) bool {
	return c.Kind == cluster.KindNode && c.Path.Object() && c.Is.Absent
}

// removedHits reports whether a symptom is of node n's going: a pod pending for want of
// resources that waits for n's pool (or any pool); a pod pending because no node matched its
// node selector, which names n's pool, of which no node is left (the pool scaled to nothing);
// a pod that ran on n evicted or preempted.
func removedHits(in analysis.Input, s analysis.Symptom, _ change.Change, n changedNode) bool {
	switch s.Kind {
	case analysis.PodPending:
		if _, ok := schedulerSaid(s, signal.ClassInsufficient, signal.ClassTooManyPods); ok && waitsFor(in, s, n) {
			return true
		}
		_, ok := schedulerSaid(s, signal.ClassAffinity)
		p := podOf(in.Model, s)
		if !ok || p == nil || n.pool == "" {
			return false
		}
		pool, _ := cluster.NodePool(p.Pod.Spec.NodeSelector)
		return pool == n.pool && !slices.ContainsFunc(in.Model.Nodes, func(o *cluster.Object) bool { return o.NodePool() == n.pool })
	case analysis.PodEvicted, analysis.Preempted:
		return ranOn(in, s, n)
	}
	return false
}
