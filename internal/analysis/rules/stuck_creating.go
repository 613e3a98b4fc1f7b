package rules

import (
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// stuckCreatingRule finds pods placed on a node that could not start: the kubelet could not
// make their sandbox or network (FailedCreatePodSandBox), attach or mount their volumes
// (FailedMount, FailedAttachVolume), or make their containers' configuration from a Secret or
// ConfigMap that is missing (CreateContainerConfigError). Which messages say so is the
// catalogue's (entries of symptom pod_stuck_creating). A pod that runs by the time of the
// input got past it: a mount that failed once at its start is not a symptom.
type stuckCreatingRule struct{}

func (stuckCreatingRule) Name() string { return "pod-stuck-creating" }

// stuckReasons are the events that say a pod cannot start on its node, whatever their words.
var stuckReasons = map[string]bool{"FailedCreatePodSandBox": true, "FailedMount": true, "FailedAttachVolume": true}

func (stuckCreatingRule) Symptoms(in analysis.Input) []analysis.Symptom {
	syms := newPodSymptoms(analysis.PodStuckCreating)
	stuckWaiting(in, syms)
	stuckOnNetwork(in, syms)
	stuckListed(in, syms)
	stuckEvents(in, syms)
	return syms.list(func(pod string, s *analysis.Symptom) string {
		sum := podPhrase(pod) + " could not start on its node"
		if s.Node != "" {
			sum = podPhrase(pod) + " could not start on node " + s.Node
		}
		if m := s.Details.Message; m != "" {
			sum += ": " + phrase.Clip(m, 160)
		}
		return sum
	})
}

// stuckWaiting records the pods not started with a container waiting for a reason of a pod
// stuck creating.
func stuckWaiting(in analysis.Input, syms *podSymptoms) {
	for _, o := range in.Model.Pods {
		if started(o.Pod) {
			continue
		}
		for _, cs := range cluster.ContainerStatuses(o.Pod) {
			reason, ok := waitingSign(cs, analysis.PodStuckCreating)
			if !ok {
				continue
			}
			s := syms.pod(o)
			s.Node = o.Pod.Spec.NodeName
			s.Evidence = append(s.Evidence, cite(o, fmt.Sprintf("status.containerStatuses[%s].state.waiting", cs.Name), reason+": "+cs.State.Waiting.Message))
			if s.Details.Message == "" {
				s.Details.Message = firstLine(reason + ": " + cs.State.Waiting.Message)
			}
		}
	}
}

// stuckOnNetwork records a pod still ContainerCreating on a node whose network is not ready
// (its CNI plugin not initialized, not configured): it cannot start until the network does.
func stuckOnNetwork(in analysis.Input, syms *podSymptoms) {
	down := networkDown(in)
	if len(down) == 0 {
		return
	}
	for _, o := range in.Model.Pods {
		node := o.Pod.Spec.NodeName
		ev, ok := down[node]
		if !ok && node == "" && len(down) == 1 {
			for _, e := range down {
				ev, ok = e, true // the one node the input says so of, for a pod of unknown node
			}
		}
		if !ok || started(o.Pod) {
			continue
		}
		for _, cs := range cluster.ContainerStatuses(o.Pod) {
			if w := cs.State.Waiting; w != nil && w.Reason == "ContainerCreating" {
				s := syms.pod(o)
				s.Node = node
				s.Evidence = append(s.Evidence, cite(o, fmt.Sprintf("status.containerStatuses[%s].state.waiting", cs.Name), "ContainerCreating"), ev)
				if s.Details.Message == "" {
					s.Details.Message = "ContainerCreating while its node's network is not ready: " + firstLine(ev.Value)
				}
				break
			}
		}
	}
}

// stuckListed records a pod a pasted listing shows still ContainerCreating long after it was
// made, whatever the input says of why. Its age is the AGE the listing printed, as of the
// listing's own time; a pod object's creation against the input's latest time says nothing so
// sure (the pods may have been listed before the last event was), so it is not read so.
func stuckListed(in analysis.Input, syms *podSymptoms) {
	for _, o := range in.Model.Pods {
		age := o.ListedAge()
		if _, said := syms.byPod[o.Namespace+"/"+o.Name]; age < stuckAfter || started(o.Pod) || said && o.Name != "" {
			continue
		}
		for _, cs := range cluster.ContainerStatuses(o.Pod) {
			if w := cs.State.Waiting; w != nil && w.Reason == "ContainerCreating" {
				s := syms.pod(o)
				s.Node = o.Pod.Spec.NodeName
				s.Evidence = append(s.Evidence, cite(o, fmt.Sprintf("status.containerStatuses[%s].state.waiting", cs.Name),
					"ContainerCreating, the pod "+phrase.Duration(int(age.Seconds()))+" old"))
				s.Details.Message = "still ContainerCreating " + phrase.Duration(int(age.Seconds())) + " after it was made"
				break
			}
		}
	}
}

// stuckEvents records the events that say a pod cannot start on its node, of pods not started.
func stuckEvents(in analysis.Input, syms *podSymptoms) {
	for _, o := range in.Model.Events {
		e := o.Event
		if !stuckReasons[e.Reason] && eventSign(in, o, analysis.PodStuckCreating) == nil || !aboutPod(o) {
			continue
		}
		if pod := in.Model.Pod(e.InvolvedObject.Namespace, e.InvolvedObject.Name); pod != nil && started(pod.Pod) || startedAfter(in, o) {
			continue
		}
		s := syms.event(o)
		s.Evidence = append(s.Evidence, citeEvent(o))
		_, first, _ := cluster.EventTimes(e)
		s.At = earliest(s.At, timePtr(first))
		if s.Node == "" {
			s.Node = e.Source.Host
		}
		if s.Details.Message == "" {
			s.Details.Message = firstLine(e.Message)
		}
	}
}

// startedAfter reports whether the pod of an event that says it cannot start had a container
// started when or after the event was last seen (the kubelet's Started event, "Started
// container manager"): the pod got past it, as a pod that runs did (started). A mount that
// failed until its Secret was made, then a start, is not a pod stuck. Only where both times
// are known.
func startedAfter(in analysis.Input, o *cluster.Object) bool {
	_, _, last := cluster.EventTimes(o.Event)
	if last.IsZero() {
		return false
	}
	ns, name := podKey(o)
	for _, e := range podEvents(in)[name] {
		if e.Event.Reason != "Started" || e.Event.InvolvedObject.Namespace != ns {
			continue
		}
		if _, _, at := cluster.EventTimes(e.Event); !at.IsZero() && !at.Before(last) {
			return true
		}
	}
	return false
}

// stuckAfter is how long a pod may be ContainerCreating before it is stuck: pulling a large
// image takes minutes, but the kubelet gives up a runtime call after two (its
// --runtime-request-timeout) and a mount after about two (the volume manager's wait), and
// retries; a pod still creating after ten minutes is not getting past it.
const stuckAfter = 10 * time.Minute

// started reports whether a pod got past its start: running with every container started, or
// finished.
func started(p *cluster.Pod) bool {
	switch p.Status.Phase {
	case corev1.PodSucceeded:
		return true
	case corev1.PodRunning:
		for _, cs := range cluster.ContainerStatuses(p) {
			if cs.State.Waiting != nil && cs.State.Waiting.Reason != "CrashLoopBackOff" {
				return false
			}
		}
		return true
	}
	return false
}

// networkDown are the nodes whose network the input says is not ready, each with the evidence:
// a message the catalogue tags cni_not_ready in a node's Ready condition or in an event or log
// line about it ("" for one that names no node).
func networkDown(in analysis.Input) map[string]analysis.Evidence {
	down := map[string]analysis.Evidence{}
	cni := func(text string) bool { return slices.Contains(evidenceTags(in, text), "cni_not_ready") }
	for _, o := range in.Model.Nodes {
		for _, c := range o.Node.Status.Conditions {
			if c.Type == corev1.NodeReady && c.Status != corev1.ConditionTrue && cni(c.Message) {
				down[o.Node.Name] = citeCondition(o, "Ready", string(c.Status)+": "+c.Reason+" "+c.Message)
			}
		}
	}
	for _, o := range in.Model.Events {
		if o.Event.InvolvedObject.Kind == cluster.KindPod || !cni(o.Event.Message) {
			continue
		}
		node := eventNode(in, o)
		if _, ok := down[node]; !ok {
			down[node] = citeEvent(o)
		}
	}
	return down
}
