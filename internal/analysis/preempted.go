package analysis

import (
	"fmt"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// preemptedRule finds pods the scheduler evicted to make room for higher-priority ones: the
// Preempted event on the victim, and the DisruptionTarget condition PreemptionByScheduler.
type preemptedRule struct{}

func (preemptedRule) Name() string { return "preempted" }

func (preemptedRule) Symptoms(in Input) []Symptom {
	byPod := map[string]*Symptom{}
	var order []string
	get := func(namespace, name string) *Symptom {
		key := namespace + "/" + name
		if s, ok := byPod[key]; ok {
			return s
		}
		s := &Symptom{Kind: Preempted, Objects: []ObjectRef{{Kind: cluster.KindPod, Namespace: namespace, Name: name}}}
		byPod[key] = s
		order = append(order, key)
		return s
	}
	for _, o := range in.Model.Pods {
		if c := disruption(o.Pod); c != nil && c.Reason == "PreemptionByScheduler" {
			s := get(o.Namespace, o.Name)
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
		s := get(podKey(o))
		s.Evidence = append(s.Evidence, citeEvent(o))
		s.At = earliest(s.At, timePtr(cluster.EventTime(o)))
	}
	out := make([]Symptom, 0, len(order))
	for _, key := range order {
		s := byPod[key]
		s.Summary = fmt.Sprintf("pod %s was preempted by a higher-priority pod", key)
		out = append(out, *s)
	}
	return out
}
