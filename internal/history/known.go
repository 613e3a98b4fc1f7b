package history

import (
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// A state is drawn from when it is known to have begun: a condition from its
// lastTransitionTime, a container's run from its startedAt and its end from its finishedAt,
// an object's state line (as a snapshot shows it) from the latest of the transitions it
// records. Before that, from the object's creation, the state is unknown and drawn so, never
// as the later state: a pod evicted at 17:06 was not Failed since it was created.

// unknownBefore is a lane whose states are known from some time on, with the time from the
// object's creation (from) to its first known state drawn unknown. A lane of no states, or of
// states known since creation, is left as it is; so is one whose object has no known
// creation.
func unknownBefore(l Lane, from time.Time) Lane {
	if from.IsZero() || len(l.Spans) == 0 {
		return l
	}
	first := l.Spans[0].From
	for _, s := range l.Spans[1:] {
		if s.From.Before(first) {
			first = s.From
		}
	}
	if !from.Before(first) {
		return l
	}
	u := Span{From: from.UTC(), To: first, Tone: ToneUnknown,
		State: "unknown: nothing the evidence holds tells this state before " + first.UTC().Format("2006-01-02 15:04:05Z")}
	l.Spans = append([]Span{u}, l.Spans...)
	return l
}

// latest is the latest of times, zero when all are.
func latest(ts ...time.Time) time.Time {
	var out time.Time
	for _, t := range ts {
		if t.After(out) {
			out = t
		}
	}
	return out
}

// podSince is when a pod's state as its snapshot shows it (cluster.PodState: phase and
// reason, conditions, containers, restarts) is known to have begun: the latest transition the
// pod records (a condition's lastTransitionTime, a container's start, end or last end, the
// pod's start on its node, the start of its deletion) or event of its status' reason (the
// kubelet's Evicted) or of a container's waiting reason (BackOff); a Pending pod with none of them has been so since it was created. Else
// the latest time of the evidence (the state was so then), else its creation.
func (b *builder) podSince(o Object, p *cluster.Pod) time.Time {
	var ts []time.Time
	for _, c := range p.Status.Conditions {
		ts = append(ts, c.LastTransitionTime.Time())
	}
	if p.Status.StartTime != nil {
		ts = append(ts, p.Status.StartTime.Time)
	}
	for _, cs := range append(append([]cluster.ContainerStatus{}, p.Status.InitContainerStatuses...), p.Status.ContainerStatuses...) {
		if r := cs.State.Running; r != nil {
			ts = append(ts, r.StartedAt.Time)
		}
		if t := cs.State.Terminated; t != nil {
			ts = append(ts, t.StartedAt.Time, t.FinishedAt.Time)
		}
		if t := cs.LastTerminationState.Terminated; t != nil {
			ts = append(ts, t.FinishedAt.Time)
		}
		if w := cs.State.Waiting; w != nil {
			ts = append(ts, toldSince(b.events[o], cs.Name, w.Reason, time.Time{}))
		}
	}
	if d := p.DeletionTimestamp; d != nil {
		grace := time.Duration(0)
		if g := p.DeletionGracePeriodSeconds; g != nil {
			grace = time.Duration(*g) * time.Second
		}
		ts = append(ts, d.Add(-grace))
	}
	if p.Status.Reason != "" {
		for _, e := range b.events[o] {
			if e.Reason == p.Status.Reason {
				_, first, _ := cluster.EventTimes(e)
				ts = append(ts, first)
			}
		}
	}
	created := p.CreationTimestamp.Time
	if t := latest(ts...); !t.IsZero() {
		return latest(t, created)
	}
	if p.Status.Phase == corev1.PodPending || p.Status.Phase == "" {
		return created
	}
	return b.evidenceOr(created)
}

// nodeSince is when a node's state as its snapshot shows it (cluster.NodeState: readiness,
// pressures, taints) is known to have begun: the latest of its conditions' lastTransitionTime
// and its taints' timeAdded; else the latest time of the evidence, else its creation.
func (b *builder) nodeSince(n *corev1.Node) time.Time {
	var ts []time.Time
	for _, c := range n.Status.Conditions {
		ts = append(ts, c.LastTransitionTime.Time)
	}
	for _, t := range n.Spec.Taints {
		if t.TimeAdded != nil {
			ts = append(ts, t.TimeAdded.Time)
		}
	}
	if t := latest(ts...); !t.IsZero() {
		return latest(t, n.CreationTimestamp.Time)
	}
	return b.evidenceOr(n.CreationTimestamp.Time)
}

// evidenceOr is the latest time the incident's evidence records, else otherwise.
func (b *builder) evidenceOr(otherwise time.Time) time.Time {
	if to := b.in.Report.Inputs.To; to != nil && !to.IsZero() {
		return *to
	}
	return otherwise
}

// waitingEvents are the reasons of the kubelet's events that tell a container's waiting reason:
// a BackOff event ("Back-off pulling image", "Back-off restarting failed container") or a
// Failed one (the pull, the container's config) is when it began to wait so.
var waitingEvents = map[string][]string{
	"ImagePullBackOff":           {"BackOff", "Failed"},
	"ErrImagePull":               {"Failed"},
	"CrashLoopBackOff":           {"BackOff"},
	"CreateContainerConfigError": {"Failed"},
	"CreateContainerError":       {"Failed"},
	"InvalidImageName":           {"InspectFailed", "Failed"},
}

// toldSince is the first time, after from, that an event about a pod (and its container,
// when the event names one) told that the container waits for reason; zero when none did.
func toldSince(events []*cluster.Event, container, reason string, from time.Time) time.Time {
	var out time.Time
	for _, e := range events {
		if !slices.Contains(waitingEvents[reason], e.Reason) {
			continue
		}
		if f := e.InvolvedObject.FieldPath; f != "" && !strings.HasSuffix(f, "{"+container+"}") {
			continue
		}
		if _, first, _ := cluster.EventTimes(e); first.After(from) && (out.IsZero() || first.Before(out)) {
			out = first
		}
	}
	return out
}
