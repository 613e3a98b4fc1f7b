package analysis

import (
	"github.com/rootline-dev/rootline/internal/cluster"
)

// preemptedRule finds pods the scheduler evicted to make room for higher-priority ones: the
// Preempted event on the victim, and the DisruptionTarget condition PreemptionByScheduler.
type preemptedRule struct{}

func (preemptedRule) Name() string { return "preempted" }

func (preemptedRule) Symptoms(in Input) []Symptom {
	syms := newPodSymptoms(Preempted)
	for _, o := range in.Model.Pods {
		if c := disruption(o.Pod); c != nil && c.Reason == "PreemptionByScheduler" {
			s := syms.pod(o)
			s.Node = o.Pod.Spec.NodeName
			s.Evidence = append(s.Evidence, cite(o, "status.conditions[DisruptionTarget]", c.Reason+": "+c.Message))
			s.At = earliest(s.At, timePtr(c.LastTransitionTime.Time))
		}
	}
	for _, o := range in.Model.Events {
		e := o.Event
		if e.Reason != "Preempted" || !aboutPod(o) {
			continue
		}
		s := syms.event(o)
		s.Evidence = append(s.Evidence, citeEvent(o))
		s.At = earliest(s.At, timePtr(cluster.EventTime(o)))
	}
	return syms.list(func(pod string, _ *Symptom) string {
		return podPhrase(pod) + " was preempted by a higher-priority pod"
	})
}
