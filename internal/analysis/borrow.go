package analysis

import (
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// borrowTimes gives a symptom without a time of its own (an evicted pod left in phase Failed,
// a node known only from its object) the time of the objects it came from: the latest time
// their status records, the earliest such time over its objects. Details.AtFrom says where
// the time came from, so that nobody takes it for the moment the trouble began.
func borrowTimes(m *cluster.Model, syms []Symptom) {
	for i := range syms {
		s := &syms[i]
		if s.At != nil {
			continue
		}
		var at time.Time
		var from string
		consider := func(t time.Time, what string) {
			if !t.IsZero() && (at.IsZero() || t.Before(at)) {
				at, from = t, what
			}
		}
		for _, ref := range s.Objects {
			switch ref.Kind {
			case cluster.KindPod:
				if p := m.Pod(ref.Namespace, ref.Name); p != nil {
					t, field := latestPodTime(p)
					consider(t, "pod "+p.Namespace+"/"+p.Name+" "+field)
				}
			case cluster.KindNode:
				if n := m.Node(ref.Name); n != nil {
					t, field := latestNodeTime(n)
					consider(t, "node "+n.Name+" "+field)
				}
			}
		}
		if len(s.Objects) == 0 && s.Pod != nil {
			t, field := latestPodTime(s.Pod)
			consider(t, "the pod's "+field)
		}
		if at.IsZero() {
			continue
		}
		at = at.UTC()
		s.At = &at
		s.Details.AtFrom = from
	}
}

// latestPodTime is the latest time a pod's status records, and the field it is in.
func latestPodTime(o *cluster.Object) (time.Time, string) {
	p := o.Pod
	var at time.Time
	field := ""
	take := func(t time.Time, f string) {
		if t.After(at) {
			at, field = t, f
		}
	}
	for _, c := range p.Status.Conditions {
		take(c.LastTransitionTime.Time(), "status.conditions["+string(c.Type)+"].lastTransitionTime")
	}
	for _, cs := range cluster.ContainerStatuses(p) {
		if t := cs.State.Terminated; t != nil {
			take(t.FinishedAt.Time, "status.containerStatuses["+cs.Name+"].state.terminated.finishedAt")
		}
		if t := cs.LastTerminationState.Terminated; t != nil {
			take(t.FinishedAt.Time, "status.containerStatuses["+cs.Name+"].lastState.terminated.finishedAt")
		}
		if r := cs.State.Running; r != nil {
			take(r.StartedAt.Time, "status.containerStatuses["+cs.Name+"].state.running.startedAt")
		}
	}
	if at.IsZero() && p.Status.StartTime != nil {
		take(p.Status.StartTime.Time, "status.startTime")
	}
	if at.IsZero() {
		take(p.CreationTimestamp.Time, "metadata.creationTimestamp")
	}
	return at, field
}

// latestNodeTime is the latest transition of a node's conditions, or its creation.
func latestNodeTime(o *cluster.Object) (time.Time, string) {
	var at time.Time
	field := ""
	for _, c := range o.Node.Status.Conditions {
		if c.LastTransitionTime.After(at) {
			at, field = c.LastTransitionTime.Time, "status.conditions["+string(c.Type)+"].lastTransitionTime"
		}
	}
	if at.IsZero() {
		at, field = o.Node.CreationTimestamp.Time, "metadata.creationTimestamp"
	}
	return at, field
}
