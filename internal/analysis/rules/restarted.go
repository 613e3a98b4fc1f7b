package rules

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// restartedRule finds containers that restarted for reasons other than the OOM killer (which
// oomRule reports): a restart count with the last termination's reason and exit code.
type restartedRule struct{}

func (restartedRule) Name() string { return "container-restarted" }

func (restartedRule) Symptoms(in analysis.Input) []analysis.Symptom {
	var out []analysis.Symptom
	shown := map[string]bool{} // the pods whose status showed a restart, for whatever reason
	for _, o := range in.Model.Pods {
		for _, cs := range cluster.ContainerStatuses(o.Pod) {
			t := cs.LastTerminationState.Terminated
			restarts := cs.RestartCount
			// A last termination where the paste lost the count (a describe cut short): the
			// container restarted at least once when it runs again, or when the paste lost its
			// current state too (the kubelet keeps a last state only for a container it has
			// started again or is about to: a fragment from "Last State:" on).
			lostState := cs.State == (corev1.ContainerState{})
			inferred := restarts == 0 && t != nil && (cs.State.Running != nil || lostState)
			if inferred {
				restarts = 1
			}
			if restarts > 0 {
				shown[o.Namespace+"/"+o.Name] = true
			}
			if restarts == 0 || (t != nil && t.Reason == "OOMKilled") {
				continue // an OOM kill's restarts are oom_killed's
			}
			s := analysis.Symptom{Kind: analysis.ContainerRestarted, Objects: []analysis.ObjectRef{ref(o)}, Node: o.Pod.Spec.NodeName, Pod: o,
				Details: analysis.Details{Restarts: int(restarts), RestartDetails: analysis.RestartDetails{Container: cs.Name}}}
			value := fmt.Sprintf("%d restart(s)", restarts)
			switch {
			case inferred && lostState:
				value = "restarted, or about to (a last termination; neither the current state nor the restart count is in the input)"
			case inferred:
				value = "restarted (a last termination, and running again; the restart count is not in the input)"
			}
			switch {
			case t != nil && terminationUnknown(t):
				// "Last State: Terminated" and nothing under it (a describe cut there): the
				// container ended once, with no reason, code or time the input gives.
				value += "; last terminated (its reason and exit code are not in the input)"
			case t != nil:
				value += fmt.Sprintf("; last terminated: %s, exit code %d", t.Reason, t.ExitCode)
				s.Details.Reason, s.Details.ExitCode = t.Reason, &t.ExitCode
				s.At = timePtr(t.FinishedAt.Time)
			}
			s.Evidence = []analysis.Evidence{cite(o, fmt.Sprintf("status.containerStatuses[%s].restartCount", cs.Name), value)}
			name := "container " + cs.Name
			if cs.Name == "" {
				name = "a container" // a pods table gives counts, not names
			}
			s.Summary = fmt.Sprintf("%s of %s restarted %d time(s)", name, podPhrase(o.Namespace+"/"+o.Name), restarts)
			if inferred {
				s.Summary = fmt.Sprintf("%s of %s restarted", name, podPhrase(o.Namespace+"/"+o.Name))
			}
			if o.Name == "" {
				s.Objects = []analysis.ObjectRef{}
			}
			if t != nil && t.Reason != "" {
				s.Summary += fmt.Sprintf(" (last: %s, exit code %d)", t.Reason, t.ExitCode)
			}
			out = append(out, s)
		}
	}
	out = append(out, signedRestarts(in, shown)...)
	return append(out, startedAgain(in, shown)...)
}

// signedRestarts finds the restarts a tool's message states, where no status showed them: the
// catalogue's signs of a restart (oc status' "container "web" in pod/web-1 has restarted 7
// times"), with the count the message gives, else at least one.
func signedRestarts(in analysis.Input, shown map[string]bool) []analysis.Symptom {
	var out []analysis.Symptom
	for _, o := range in.Model.Events {
		if !aboutPod(o) || eventSign(in, o, analysis.ContainerRestarted) == nil {
			continue
		}
		ns, name := podKey(o)
		if shown[ns+"/"+name] {
			continue
		}
		m := messages(in).message(o.Event.Message)
		restarts := 1
		if m != nil {
			if n, err := strconv.Atoi(m.Capture("count")); err == nil && n > 0 {
				restarts = n
			}
		}
		container := ""
		if m != nil {
			container = m.Capture("container")
		}
		s := analysis.Symptom{Kind: analysis.ContainerRestarted, Objects: []analysis.ObjectRef{}, Node: o.Event.Source.Host,
			Details:  analysis.Details{Restarts: restarts, RestartDetails: analysis.RestartDetails{Container: container}},
			Evidence: []analysis.Evidence{citeEvent(o)}}
		if name != "" {
			s.Objects = []analysis.ObjectRef{{Kind: cluster.KindPod, Namespace: ns, Name: name}}
			shown[ns+"/"+name] = true
		}
		what := "a container"
		if container != "" {
			what = "container " + container
		}
		s.Summary = fmt.Sprintf("%s of %s restarted %d time(s)", what, podPhrase(ns+"/"+name), restarts)
		out = append(out, s)
	}
	return out
}

// startReasons are the kubelet's events for each container it makes and starts.
var startReasons = map[string]bool{"Started": true, "Created": true}

// startedAgain finds containers the kubelet started (or created) more than once, where no
// status showed it: the kubelet records a Created and a Started event each time it makes and
// starts a container (pkg/kubelet/events: CreatedContainer, StartedContainer), and the API
// server counts the repeats of one object's event ("Started container web (x5 over 23m)"),
// so a count of n is n-1 restarts. The pod's UID is part of the event's object, so a pod made
// again under the same name starts its own count.
//
// Before 1.10 the message named the runtime's id of the container ("Created container with
// docker id 15c7ac30a4b3", "Started container with docker id 7dc6893a5f79"), so each is an
// event of its own: their counts add up for one container of one pod (the event's field path,
// spec.containers{web}), each reason apart.
func startedAgain(in analysis.Input, shown map[string]bool) []analysis.Symptom {
	var out []analysis.Symptom
	byID := map[string]*cluster.Object{} // the first of a container's starts by id
	sums := map[string]int32{}
	var keys []string
	for _, o := range in.Model.Events {
		e := o.Event
		if !startReasons[e.Reason] || !aboutPod(o) || !strings.HasPrefix(e.Message, e.Reason+" container with ") {
			continue
		}
		ns, name := podKey(o)
		k := ns + "/" + name + "\x00" + e.InvolvedObject.FieldPath + "\x00" + e.Reason
		if byID[k] == nil {
			byID[k] = o
			keys = append(keys, k)
		}
		count, _, _ := cluster.EventTimes(e)
		sums[k] += count
	}
	for _, k := range keys {
		o := byID[k]
		ns, name := podKey(o)
		if sums[k] < 2 || shown[ns+"/"+name] || name == "" {
			continue
		}
		container := strings.TrimSuffix(strings.TrimPrefix(o.Event.InvolvedObject.FieldPath, "spec.containers{"), "}")
		if container == o.Event.InvolvedObject.FieldPath {
			container = ""
		}
		s := analysis.Symptom{Kind: analysis.ContainerRestarted, Objects: []analysis.ObjectRef{{Kind: cluster.KindPod, Namespace: ns, Name: name}}, Node: o.Event.Source.Host,
			Details:  analysis.Details{Restarts: int(sums[k]) - 1, RestartDetails: analysis.RestartDetails{Container: container}},
			Evidence: []analysis.Evidence{citeEvent(o)}}
		what := "a container"
		if container != "" {
			what = "container " + container
		}
		s.Summary = fmt.Sprintf("%s of %s was %s %d times (a %s event for each container id): restarted %d time(s)", what, podPhrase(ns+"/"+name),
			strings.ToLower(o.Event.Reason), sums[k], o.Event.Reason, sums[k]-1)
		shown[ns+"/"+name] = true
		out = append(out, s)
	}
	seen := map[string]bool{} // pod and container
	for _, o := range in.Model.Events {
		e := o.Event
		count, first, last := cluster.EventTimes(e)
		if !startReasons[e.Reason] || count < 2 || !aboutPod(o) {
			continue
		}
		ns, name := podKey(o)
		if shown[ns+"/"+name] {
			continue
		}
		container, _ := strings.CutPrefix(e.Message, e.Reason+" container ")
		if strings.HasPrefix(container, "with ") || container == e.Message {
			container = "" // 1.2-1.9 named the runtime's container id, 1.10-1.12 nothing
		}
		if seen[ns+"/"+name+"\x00"+container] {
			continue // its Started and its Created events, counted alike
		}
		s := analysis.Symptom{Kind: analysis.ContainerRestarted, Objects: []analysis.ObjectRef{}, Node: e.Source.Host, At: timePtr(last),
			Details:  analysis.Details{Restarts: int(count) - 1, RestartDetails: analysis.RestartDetails{Container: container}},
			Evidence: []analysis.Evidence{citeEvent(o)}}
		if name != "" {
			s.Objects = []analysis.ObjectRef{{Kind: cluster.KindPod, Namespace: ns, Name: name}}
		}
		what := "a container"
		if container != "" {
			what = "container " + container
		}
		done := strings.ToLower(e.Reason)
		s.Summary = fmt.Sprintf("%s of %s was %s %d times from %s to %s: restarted %d time(s)", what,
			podPhrase(ns+"/"+name), done, count, first.Format(time.RFC3339), last.Format(time.RFC3339), count-1)
		if first.IsZero() || last.IsZero() {
			s.Summary = fmt.Sprintf("%s of %s was %s %d times: restarted %d time(s)", what, podPhrase(ns+"/"+name), done, count, count-1)
		}
		seen[ns+"/"+name+"\x00"+container] = true
		out = append(out, s)
	}
	return out
}

// terminationUnknown reports whether a termination holds nothing but that it happened: no
// reason, exit code, signal or time. The API server always gives a reason and times; only a
// describe cut after its "Last State: Terminated" line reads so.
func terminationUnknown(t *corev1.ContainerStateTerminated) bool {
	return t.Reason == "" && t.ExitCode == 0 && t.Signal == 0 && t.StartedAt.IsZero() && t.FinishedAt.IsZero()
}
