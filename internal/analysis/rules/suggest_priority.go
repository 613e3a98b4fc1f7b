package rules

import (
	"fmt"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// priorityRule suggests a PriorityClass for the critical components that were evicted or
// preempted without one: the kubelet evicts lower-priority pods first under node pressure, and
// the scheduler preempts lower-priority pods to place a higher one. The suggestion goes to the
// worst cause of the symptom, once per workload.
type priorityRule struct{}

func (priorityRule) Name() string { return "priority-class" }

func (priorityRule) Amend(in analysis.Input, r *analysis.Report) {
	done := map[string]bool{}
	for _, s := range r.Symptoms {
		if s.Kind != analysis.PodEvicted && s.Kind != analysis.Preempted {
			continue
		}
		cs := r.Explaining(s.ID)
		if len(cs) == 0 {
			continue
		}
		for _, ref := range s.Objects {
			p := in.Model.Pod(ref.Namespace, ref.Name)
			if p == nil || in.Component(p) == "" || !in.Critical(p) || p.Pod.Spec.PriorityClassName != "" || p.Pod.Spec.Priority != nil && *p.Pod.Spec.Priority > 0 {
				continue
			}
			w := workloadPhrase(p)
			if done[w] {
				continue
			}
			done[w] = true
			what := "evicted"
			if s.Kind == analysis.Preempted {
				what = "preempted"
			}
			cs[0].Suggestions = append(cs[0].Suggestions, analysis.Suggestion{
				Change: fmt.Sprintf("give %s a PriorityClass above the user pods' (it has none, and was %s in %s): under node pressure the kubelet evicts lower-priority pods first, and the scheduler preempts them to place it",
					w, what, s.ID),
				Evidence: []analysis.Evidence{cite(p, "spec.priorityClassName", "(none), priority 0")},
				Action:   analysis.ActionPriorityClass, Targets: []analysis.ObjectRef{workloadRef(p)}})
		}
	}
}
