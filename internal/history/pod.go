package history

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// pod is a pod's lanes: its states (as the collector saw them, else as the snapshot shows the
// pod since it was created), its conditions since they last changed, each container's runs
// and restarts, and the events and symptoms about it. False when nothing names the pod.
func (b *builder) pod(o Object) (Group, bool) {
	g := Group{Object: o}
	var p *corev1.Pod
	if b.in.Model != nil {
		if obj := b.in.Model.Pod(o.Namespace, o.Name); obj != nil {
			p = obj.Pod
		}
	}
	states := b.states[o]
	switch {
	case len(states) > 0:
		g.Lanes = append(g.Lanes, statesLane("status (collected)", states))
	case p != nil:
		from := p.CreationTimestamp.Time
		if from.IsZero() && p.Status.StartTime != nil {
			from = p.Status.StartTime.Time
		}
		if !from.IsZero() {
			s := cluster.PodState(p)
			g.Lanes = append(g.Lanes, Lane{Name: "status (snapshot)", Spans: []Span{{From: from.UTC(), State: s, Tone: stateTone(s)}}})
		}
	}
	if p != nil {
		for _, c := range p.Status.Conditions {
			if c.LastTransitionTime.IsZero() {
				continue
			}
			tone := ToneOK
			if c.Status != corev1.ConditionTrue {
				tone = ToneWarning
				if c.Type == corev1.PodScheduled {
					tone = ToneBad
				}
			}
			state := string(c.Status)
			if c.Reason != "" {
				state += " (" + c.Reason + ")"
			}
			if c.Message != "" {
				state += ": " + firstLine(c.Message)
			}
			g.Lanes = append(g.Lanes, Lane{Name: "condition " + string(c.Type), Spans: []Span{{From: c.LastTransitionTime.Time.UTC(), State: state, Tone: tone}}})
		}
		start := p.CreationTimestamp.Time
		if p.Status.StartTime != nil {
			start = p.Status.StartTime.Time
		}
		for _, cs := range append(append([]corev1.ContainerStatus{}, p.Status.InitContainerStatuses...), p.Status.ContainerStatuses...) {
			g.Lanes = append(g.Lanes, containerLane(cs, start))
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

// containerLane is a container's runs as its status tells them: the last run that ended (and
// its restart), then the current state, running since it started or waiting since the last
// run ended (else since the pod started).
func containerLane(cs corev1.ContainerStatus, podStart time.Time) Lane {
	l := Lane{Name: fmt.Sprintf("container %s · restarts %d", cs.Name, cs.RestartCount)}
	waitFrom := podStart
	if t := cs.LastTerminationState.Terminated; t != nil {
		state := fmt.Sprintf("ran, then %s (exit %d)", orText(t.Reason, "terminated"), t.ExitCode)
		tone := ToneWarning
		if t.Reason == "OOMKilled" || t.Reason == "Error" || t.ExitCode != 0 {
			tone = ToneBad
		}
		if !t.StartedAt.IsZero() {
			l.Spans = append(l.Spans, Span{From: t.StartedAt.Time.UTC(), To: t.FinishedAt.Time.UTC(), State: state, Tone: tone})
		}
		if !t.FinishedAt.IsZero() {
			l.Marks = append(l.Marks, Mark{At: t.FinishedAt.Time.UTC(), Kind: MarkRestart, Label: cs.Name + " stopped: " + orText(t.Reason, "terminated"), Tone: tone})
			waitFrom = t.FinishedAt.Time
		}
	}
	switch st := cs.State; {
	case st.Running != nil && !st.Running.StartedAt.IsZero():
		state, tone := "running, not ready", ToneWarning
		if cs.Ready {
			state, tone = "running, ready", ToneOK
		}
		l.Spans = append(l.Spans, Span{From: st.Running.StartedAt.Time.UTC(), State: state, Tone: tone})
	case st.Terminated != nil && !st.Terminated.StartedAt.IsZero():
		tone := ToneInfo
		if st.Terminated.ExitCode != 0 {
			tone = ToneBad
		}
		l.Spans = append(l.Spans, Span{From: st.Terminated.StartedAt.Time.UTC(), To: st.Terminated.FinishedAt.Time.UTC(),
			State: fmt.Sprintf("terminated: %s (exit %d)", orText(st.Terminated.Reason, "terminated"), st.Terminated.ExitCode), Tone: tone})
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
		l.Spans = append(l.Spans, Span{From: waitFrom.UTC(), State: state, Tone: tone})
	}
	return l
}

func orText(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}
