package rules

import (
	"slices"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/change"
	"github.com/rootline-dev/rootline/internal/signal"
)

// taintedNodeRule: a node gained a NoSchedule or NoExecute taint, then pods that could have run
// on it but do not tolerate the taint could not be scheduled, the scheduler naming it; for a
// NoExecute taint, the pods on it that do not tolerate it were evicted. The taints the node
// lifecycle controller puts on nodes in trouble (not-ready, pressure) are the node's condition,
// not a change people made.
type taintedNodeRule struct{}

func (taintedNodeRule) Name() string { return "recent-change-taint" }

func (taintedNodeRule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	return nodeChangeCauses(in, symptoms, nodeMechanism{matches: func(c change.Change) bool { return len(gainedTaints(c)) > 0 },
		hits: taintHits, what: "pods that do not tolerate the new taint could not be placed on the node, or were evicted from it", confidence: 0.7})
}

// gainedTaints are the NoSchedule and NoExecute taints a change to a node's taints added, but
// for the taints of a node's conditions.
func gainedTaints(c change.Change) []corev1.Taint {
	if c.Path.Attr != change.Taints {
		return nil
	}
	var out []corev1.Taint
	for _, t := range c.GainedTaints() {
		if _, cond := conditionTaints[t.Key]; cond || t.Effect != corev1.TaintEffectNoSchedule && t.Effect != corev1.TaintEffectNoExecute {
			continue
		}
		out = append(out, corev1.Taint{Key: t.Key, Value: t.Value, Effect: t.Effect})
	}
	return out
}

// taintHits reports whether a symptom is of node n's new taints: a pod pending that could have
// run on it, for which the scheduler named a new taint (or, in the wordings that name none, a
// pod that tolerates none of them); a pod on it evicted, not for a resource, that does not
// tolerate a new NoExecute taint.
func taintHits(in analysis.Input, s analysis.Symptom, c change.Change, n changedNode) bool {
	gained := gainedTaints(c)
	switch s.Kind {
	case analysis.PodPending:
		reasons, ok := schedulerSaid(s, signal.ClassTaint)
		if !ok || !waitsFor(in, s, n) {
			return false
		}
		for _, r := range reasons {
			if t, named := r.Taint(); named {
				if slices.ContainsFunc(gained, func(g corev1.Taint) bool { return g.Key == t.Key }) {
					return true
				}
			} else if r.Class() == signal.ClassTaint && untolerated(in, s, gained) {
				return true
			}
		}
	case analysis.PodEvicted:
		var noExecute []corev1.Taint
		for _, t := range gained {
			if t.Effect == corev1.TaintEffectNoExecute {
				noExecute = append(noExecute, t)
			}
		}
		return len(noExecute) > 0 && ranOn(in, s, n) && s.Details.Resource == "" && untolerated(in, s, noExecute)
	}
	return false
}

// untolerated reports whether a symptom's pod tolerates none of some of the taints: one it
// does not tolerate is enough to keep it off. A pod the model lacks is not known to tolerate any.
func untolerated(in analysis.Input, s analysis.Symptom, taints []corev1.Taint) bool {
	p := podOf(in.Model, s)
	for _, t := range taints {
		// Lt and Gt tolerations compared as numbers, as cluster.PodPlacement does.
		if p == nil || !slices.ContainsFunc(p.Pod.Spec.Tolerations, func(tol corev1.Toleration) bool { return tol.ToleratesTaint(logr.Discard(), &t, true) }) {
			return true
		}
	}
	return false
}
