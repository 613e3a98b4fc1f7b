package rules

import (
	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/change"
	"github.com/rootline-dev/rootline/internal/signal"
)

// cordonedNodeRule: a node was cordoned (spec.unschedulable), then pods that could have run on
// it could not be scheduled, the scheduler saying that node(s) were unschedulable; or, drained,
// the pods on it were evicted through the eviction API.
type cordonedNodeRule struct{}

func (cordonedNodeRule) Name() string { return "recent-change-cordon" }

func (cordonedNodeRule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	return nodeChangeCauses(in, symptoms, nodeMechanism{matches: cordoned, hits: cordonHits,
		what: "the scheduler could not place pods on the cordoned node, or its pods were drained", confidence: 0.7})
}

// cordoned reports whether a change cordoned a node.
func cordoned(c change.Change) bool { return c.Path.Attr == change.Unschedulable && c.Is.Set }

// cordonHits reports whether a symptom is of a cordon of node n: a pod pending that could have
// run on it, for which the scheduler found node(s) unschedulable; a pod on it evicted, not for a
// resource the node ran low on (drained).
func cordonHits(in analysis.Input, s analysis.Symptom, _ change.Change, n changedNode) bool {
	switch s.Kind {
	case analysis.PodPending:
		_, ok := schedulerSaid(s, signal.ClassUnschedulable)
		return ok && waitsFor(in, s, n)
	case analysis.PodEvicted:
		return ranOn(in, s, n) && s.Details.Resource == "" && s.Details.Condition == ""
	}
	return false
}
