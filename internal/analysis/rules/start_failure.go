package rules

import (
	"fmt"
	"regexp"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// startFailureRule finds containers that crash because they cannot start: the runtime could
// not run the command (executable not found, permission denied, a missing ConfigMap key), or
// the container exits within seconds of starting, again and again. A crash loop alone is not
// enough: a container that runs for minutes and then fails crashes for another reason.
type startFailureRule struct{}

func (startFailureRule) Name() string { return "container-start-failure" }

// startWindow is how soon after starting a container that exits counts as not starting.
const startWindow = 10 * time.Second

// startFailureReasons are the waiting and terminated reasons of a container that did not start.
var startFailureReasons = map[string]bool{"RunContainerError": true, "CreateContainerError": true, "CreateContainerConfigError": true,
	"StartError": true, "ContainerCannotRun": true, "PostStartHookError": true, "PreStartHookError": true}

// hookEvents are the events of a lifecycle hook that failed and killed its container.
var hookEvents = map[string]bool{"FailedPostStartHook": true}

// startFailureTags are the catalogue's evidence tags of a container that could not start.
var startFailureTags = []string{"container_start_failed"}

// startFailureRe finds the runtime's and the kubelet's words for a container that cannot start.
var startFailureRe = regexp.MustCompile(`(?i)failed to (?:start|create) container|executable file not found|no such file or directory|permission denied|exec format error|OCI runtime (?:create|exec|start) failed|couldn't find key|(?:configmap|secret) "[^"]*" not found|StartError|RunContainerError|CreateContainerConfigError`)

func (startFailureRule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	c := analysis.Cause{Kind: analysis.ContainerStartFailure, Role: analysis.Root, Confidence: 0.75, Components: []analysis.Component{}}
	var parts []string
	for _, s := range symptoms {
		if s.Kind != analysis.CrashLoopBackOff && s.Kind != analysis.ContainerRestarted {
			continue
		}
		ev, why, ok := startFailure(in, s)
		if !ok {
			continue
		}
		c.Explains = append(c.Explains, s.ID)
		c.Evidence = append(c.Evidence, ev)
		parts = append(parts, s.Label()+": "+why)
	}
	if len(c.Explains) == 0 {
		return nil
	}
	c.Summary = "containers cannot start: " + phrase.First(analysis.Unique(parts), 5)
	return []analysis.Cause{c}
}

// startFailure finds the evidence that a crashing container cannot start: a Failed event with
// the runtime's error, a start-failure reason, exit codes 126 and 127 (the shell's "cannot
// execute" and "not found"), or a run shorter than startWindow that did not end for memory.
func startFailure(in analysis.Input, s analysis.Symptom) (analysis.Evidence, string, bool) {
	m := in.Model
	for _, o := range eventsFor(in, s) {
		e := o.Event
		if (e.Reason == "Failed" || startFailureReasons[e.Reason]) && startFailureRe.MatchString(e.Message) || hookEvents[e.Reason] {
			return citeEvent(o), firstLine(e.Message), true
		}
		if said, ok := tagSaid(in, e.Message, startFailureTags); ok {
			return citeEvent(o), said, true // the runtime's own words, in the container's log
		}
	}
	p := podOf(m, s)
	if p == nil {
		return analysis.Evidence{}, "", false
	}
	for _, cs := range cluster.ContainerStatuses(p.Pod) {
		field := fmt.Sprintf("status.containerStatuses[%s]", cs.Name)
		if w := cs.State.Waiting; w != nil && startFailureReasons[w.Reason] {
			return cite(p, field+".state.waiting", w.Reason+": "+w.Message), w.Reason, true
		}
		for i, t := range []*corev1.ContainerStateTerminated{cs.State.Terminated, cs.LastTerminationState.Terminated} {
			if t == nil || t.Reason == "OOMKilled" {
				continue
			}
			at := field + ".state.terminated" // cite the state the termination was read from
			if i == 1 {
				at = field + ".lastState.terminated"
			}
			value := fmt.Sprintf("%s, exit code %d", t.Reason, t.ExitCode)
			switch {
			case startFailureReasons[t.Reason] || t.ExitCode == 126 || t.ExitCode == 127:
				return cite(p, at, value), value, true
			case t.ExitCode != 0 && !t.StartedAt.IsZero() && !t.FinishedAt.IsZero() && t.FinishedAt.Sub(t.StartedAt.Time) < startWindow:
				d := t.FinishedAt.Sub(t.StartedAt.Time)
				return cite(p, at, fmt.Sprintf("%s after %s", value, d)), fmt.Sprintf("exits %s after it starts (%s)", d, value), true
			}
		}
	}
	return analysis.Evidence{}, "", false
}

// eventsFor lists the events about a symptom's pod: by its name, or, for a pod the input does
// not name, the events of the same file that name none. The events are indexed by the name of
// the pod they are about, once per analysis.
func eventsFor(in analysis.Input, s analysis.Symptom) []*cluster.Object {
	byName := podEvents(in)
	var out []*cluster.Object
	for _, ref := range s.Objects {
		for _, o := range byName[ref.Name] {
			io := o.Event.InvolvedObject
			if io.Namespace == ref.Namespace || io.Namespace == "" || ref.Namespace == "" {
				out = append(out, o)
			}
		}
	}
	if len(s.Objects) == 0 {
		files := map[string]bool{}
		for _, e := range s.Evidence {
			files[e.File] = true
		}
		for _, o := range byName[""] {
			if files[o.Source.File] {
				out = append(out, o)
			}
		}
	}
	return out
}

// podEvents indexes the events about pods (or about nothing named) by the pod's name.
func podEvents(in analysis.Input) map[string][]*cluster.Object {
	return analysis.Once(in, podEventsKey{}, func() map[string][]*cluster.Object {
		byName := map[string][]*cluster.Object{}
		for _, o := range in.Model.Events {
			io := o.Event.InvolvedObject
			if io.Kind == cluster.KindPod || io.Kind == "" {
				byName[io.Name] = append(byName[io.Name], o)
			}
		}
		return byName
	})
}

// podEventsKey is the key of a run's podEvents (analysis.Once).
type podEventsKey struct{}
