package history

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// pod is a pod's lanes: its states (as the collector saw them, else as the snapshot shows the
// pod since the latest transition it records), its conditions since they last changed, each
// container's runs and restarts, and the events and symptoms about it; every lane of states
// unknown from the pod's creation to its first known state. False when nothing names the pod.
func (b *builder) pod(o Object) (Group, bool) {
	g := Group{Object: o}
	var p *cluster.Pod
	if b.in.Model != nil {
		if obj := b.in.Model.Pod(o.Namespace, o.Name); obj != nil {
			p = obj.Pod
		}
	}
	var created time.Time
	if p != nil {
		created = p.CreationTimestamp.Time
		if created.IsZero() && p.Status.StartTime != nil {
			created = p.Status.StartTime.Time
		}
	}
	states := b.states[o]
	switch {
	case len(states) > 0:
		g.Lanes = append(g.Lanes, unknownBefore(statesLane("status (collected)", states), created))
	case p != nil:
		if since := b.podSince(o, p); !since.IsZero() {
			s := cluster.PodState(p)
			g.Lanes = append(g.Lanes, unknownBefore(Lane{Name: "status (snapshot)", Spans: []Span{{From: since.UTC(), State: s, Tone: stateTone(s)}}}, created))
		}
	}
	if p != nil {
		var ready cluster.PodCondition // of all its containers
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.ContainersReady {
				ready = c
			}
			if c.LastTransitionTime.IsZero() {
				continue
			}
			state := string(c.Status)
			if c.Reason != "" {
				state += " (" + c.Reason + ")"
			}
			if c.Message != "" {
				state += ": " + firstLine(c.Message)
			}
			l := Lane{Name: "condition " + string(c.Type), Spans: []Span{{From: c.LastTransitionTime.Time(), State: state, Tone: podConditionTone(c.Type, c.Status)}}}
			g.Lanes = append(g.Lanes, unknownBefore(l, created))
		}
		start := p.CreationTimestamp.Time
		if p.Status.StartTime != nil {
			start = p.Status.StartTime.Time
		}
		for _, cs := range append(append([]cluster.ContainerStatus{}, p.Status.InitContainerStatuses...), p.Status.ContainerStatuses...) {
			g.Lanes = append(g.Lanes, unknownBefore(containerLane(cs, start, ready, b.events[o]), created))
		}
	}
	g.Lanes = append(g.Lanes,
		Lane{Name: "events", Marks: b.eventMarks(o)},
		Lane{Name: "symptoms", Marks: b.symptomMarks(func(r analysis.ObjectRef) bool {
			return r.Kind == cluster.KindPod && r.Namespace == o.Namespace && r.Name == o.Name
		}, "")})
	return g, p != nil || len(states) > 0 || named(g)
}

// named reports whether a group holds anything: marks of events or symptoms about its object.
func named(g Group) bool {
	for _, l := range g.Lanes {
		if len(l.Spans)+len(l.Marks) > 0 {
			return true
		}
	}
	return false
}

// containerLane is a container's runs as its status tells them, each state from when it began:
// the last run that ended (running from its start to its end, a restart mark there), then the
// current state: running since it started (ready or not since its pod's ContainersReady
// condition last changed, when that agrees, and merely running before); running until it
// ended, then terminated; or waiting since the last run ended (else since the pod started,
// and for its reason since the first event that tells it: the kubelet's BackOff or Failed).
func containerLane(cs cluster.ContainerStatus, podStart time.Time, ready cluster.PodCondition, events []*cluster.Event) Lane {
	l := Lane{Name: fmt.Sprintf("container %s · restarts %d", cs.Name, cs.RestartCount)}
	waitFrom := podStart
	var lastEnd time.Time
	if t := cs.LastTerminationState.Terminated; t != nil {
		how := orText(t.Reason, "terminated")
		tone := ToneWarning
		if t.Reason == "OOMKilled" || t.Reason == "Error" || t.ExitCode != 0 {
			tone = ToneBad
		}
		if !t.StartedAt.IsZero() && !t.FinishedAt.IsZero() {
			l.Spans = append(l.Spans, Span{From: t.StartedAt.Time.UTC(), To: t.FinishedAt.Time.UTC(),
				State: fmt.Sprintf("running, until %s (exit %d)", how, t.ExitCode), Tone: ToneInfo})
		}
		if !t.FinishedAt.IsZero() {
			l.Marks = append(l.Marks, Mark{At: t.FinishedAt.Time.UTC(), Kind: MarkRestart, Label: cs.Name + " stopped: " + how, Tone: tone})
			waitFrom, lastEnd = t.FinishedAt.Time, t.FinishedAt.Time
		}
	}
	switch st := cs.State; {
	case st.Running != nil && !st.Running.StartedAt.IsZero():
		from := st.Running.StartedAt.Time.UTC()
		if !lastEnd.IsZero() && from.After(lastEnd) {
			l.Spans = append(l.Spans, Span{From: lastEnd.UTC(), To: from, State: "stopped, restarting", Tone: ToneWarning})
		}
		state, tone, want := "running, not ready", ToneWarning, corev1.ConditionFalse
		if cs.Ready {
			state, tone, want = "running, ready", ToneOK, corev1.ConditionTrue
		}
		if since := ready.LastTransitionTime.Time(); ready.Status == want && since.After(from) {
			l.Spans = append(l.Spans, Span{From: from, To: since, State: "running", Tone: ToneInfo})
			from = since
		}
		l.Spans = append(l.Spans, Span{From: from, State: state, Tone: tone})
	case st.Terminated != nil && (!st.Terminated.StartedAt.IsZero() || !st.Terminated.FinishedAt.IsZero()):
		t := st.Terminated
		how := orText(t.Reason, "terminated")
		tone := ToneInfo
		if t.ExitCode != 0 {
			tone = ToneBad
		}
		state := fmt.Sprintf("terminated: %s (exit %d)", how, t.ExitCode)
		if t.FinishedAt.IsZero() { // ended, when not told: terminated since it started, as far as is known
			l.Spans = append(l.Spans, Span{From: t.StartedAt.Time.UTC(), State: state, Tone: tone})
			break
		}
		end := t.FinishedAt.Time.UTC()
		if !t.StartedAt.IsZero() && end.After(t.StartedAt.Time) {
			l.Spans = append(l.Spans, Span{From: t.StartedAt.Time.UTC(), To: end, State: "running", Tone: ToneInfo})
		}
		l.Spans = append(l.Spans, Span{From: end, State: state, Tone: tone})
		l.Marks = append(l.Marks, Mark{At: end, Kind: MarkRestart, Label: cs.Name + " stopped: " + how, Tone: tone})
	case st.Waiting != nil && !waitFrom.IsZero():
		tone := ToneWarning
		switch st.Waiting.Reason {
		case "CrashLoopBackOff", "ImagePullBackOff", "ErrImagePull", "CreateContainerConfigError", "CreateContainerError", "InvalidImageName":
			tone = ToneBad
		}
		state := "waiting: " + orText(st.Waiting.Reason, "unknown")
		if st.Waiting.Message != "" {
			state += ": " + firstLine(st.Waiting.Message)
		}
		from := waitFrom.UTC()
		// A container that never ran has waited since its pod started; why, from the first
		// event that tells it (before, it was being created, or its image pulled).
		if told := toldSince(events, cs.Name, st.Waiting.Reason, from); lastEnd.IsZero() && !told.IsZero() {
			l.Spans = append(l.Spans, Span{From: from, To: told, State: "waiting", Tone: ToneWarning})
			from = told
		}
		l.Spans = append(l.Spans, Span{From: from, State: state, Tone: tone})
	}
	return l
}

func orText(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}
