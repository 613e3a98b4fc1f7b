package rules

import (
	"cmp"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/signal"
)

// evictedRule finds evicted pods: phase Failed with reason Evicted (the pair the kubelet's
// PodIsEvicted tests), a DisruptionTarget condition saying the kubelet or the eviction API
// terminated the pod (all a pod may keep, see kubernetes#105467), and Evicted events.
type evictedRule struct{}

func (evictedRule) Name() string { return "pod-evicted" }

// evictionReasons are the DisruptionTarget reasons that mean an eviction.
var evictionReasons = map[string]bool{"TerminationByKubelet": true, "EvictionByEvictionAPI": true, "DeletionByTaintManager": true}

func (evictedRule) Symptoms(in analysis.Input) []analysis.Symptom {
	syms := newPodSymptoms(analysis.PodEvicted)
	for _, o := range in.Model.Pods {
		readEvictedPod(in, syms, o)
	}
	for _, o := range in.Model.Events {
		evictionEvent(in, syms, o)
	}
	return syms.list(evictedSummary)
}

// readEvictedPod records a pod its object shows evicted. The kubelet sets phase Failed with reason
// Evicted; a pod object cut short (a fixture, a paste of its status alone) may keep the reason
// or the message only; a DisruptionTarget condition of an eviction says it too.
func readEvictedPod(in analysis.Input, syms *podSymptoms, o *cluster.Object) {
	p := o.Pod
	cond := disruption(p)
	evicted := p.Status.Reason == "Evicted" && (p.Status.Phase == corev1.PodFailed || p.Status.Phase == "")
	if !evicted && p.Status.Phase != corev1.PodRunning && p.Status.Message != "" && statusSign(in, p.Status.Message, analysis.PodEvicted) != nil {
		evicted = true
	}
	if !evicted && (cond == nil || !evictionReasons[cond.Reason]) {
		return
	}
	s := syms.pod(o)
	s.Node = cmp.Or(p.Spec.NodeName, scheduledNode(in, p.Namespace, p.Name))
	if evicted && p.Status.Reason != "" {
		s.Evidence = append(s.Evidence, cite(o, "status.reason", p.Status.Reason))
	}
	if evicted && p.Status.Message != "" {
		s.Evidence = append(s.Evidence, cite(o, "status.message", p.Status.Message))
		noteResource(s, p.Status.Message)
	}
	if cond != nil && evictionReasons[cond.Reason] {
		s.Evidence = append(s.Evidence, citeCondition(o, "DisruptionTarget", cond.Reason+": "+cond.Message))
		s.At = earliest(s.At, timePtr(cond.LastTransitionTime.Time()))
		noteResource(s, cond.Message)
	}
}

// evictionEvent records what an event says of a pod evicted: the kubelet's Evicted, a message
// the catalogue knows, or the taint manager's.
func evictionEvent(in analysis.Input, syms *podSymptoms, o *cluster.Object) {
	e := o.Event
	if e.Reason == "TaintManagerEviction" {
		taintManagerEviction(syms, o)
		return
	}
	if e.Reason != "Evicted" && eventSign(in, o, analysis.PodEvicted) == nil || !aboutPod(o) {
		return
	}
	s := syms.event(o)
	s.Evidence = append(s.Evidence, citeEvent(o))
	s.At = earliest(s.At, timePtr(cluster.EventTime(o)))
	if s.Node == "" {
		ns, name := podKey(o)
		s.Node = cmp.Or(e.Source.Host, scheduledNode(in, ns, name))
	}
	noteResource(s, e.Message)
	if ev, ok := signal.EvictionFromAnnotations(e.Annotations); ok {
		noteEviction(s, ev)
	}
}

// taintManagerEviction records "Marking for deletion Pod ns/name": the taint manager evicts the
// pods of a node that went NotReady or unreachable, once their toleration runs out.
func taintManagerEviction(syms *podSymptoms, o *cluster.Object) {
	e := o.Event
	f := signal.ClassifyPodFailure(e.Reason, e.Message)
	if f.Cancelled || f.Name == "" && e.InvolvedObject.Name == "" {
		return
	}
	ns, name := f.Namespace, f.Name
	if name == "" {
		ns, name = podKey(o)
	}
	s := syms.get(ns, name)
	s.Evidence = append(s.Evidence, citeEvent(o))
	s.At = earliest(s.At, timePtr(cluster.EventTime(o)))
	s.Details.Condition = "a NoExecute taint (the node was not ready or unreachable)"
}

// evictedSummary says an eviction in words: the pod, what the node was short of, the node.
func evictedSummary(pod string, s *analysis.Symptom) string {
	sum := podPhrase(pod) + " was evicted"
	if r := s.Details.Resource; r != "" {
		sum += ": the node was low on " + r
	} else if c := s.Details.Condition; c != "" {
		sum += ": the node had " + c
	}
	if s.Node != "" {
		sum += " (node " + s.Node + ")"
	}
	return sum
}

// disruption returns the pod's DisruptionTarget condition when it is True.
func disruption(p *cluster.Pod) *cluster.PodCondition {
	for i, c := range p.Status.Conditions {
		if c.Type == corev1.DisruptionTarget && c.Status == corev1.ConditionTrue {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

// noteResource records what an eviction message says: the starved resource and the
// containers that used more than they requested.
func noteResource(s *analysis.Symptom, msg string) {
	if ev, ok := signal.ParseEviction(msg); ok {
		noteEviction(s, ev)
	}
}

func noteEviction(s *analysis.Symptom, ev signal.Eviction) {
	switch {
	case ev.Resource != "":
		s.Details.Resource = ev.Resource
	case ev.Condition != "":
		s.Details.Condition = ev.Condition
	}
	if len(ev.Offenders) > 0 {
		offenders := make([]analysis.Offender, 0, len(ev.Offenders))
		for _, o := range ev.Offenders {
			offenders = append(offenders, analysis.Offender{Container: o.Name, Usage: o.Usage, Request: o.Request})
		}
		s.Details.Offenders = offenders
	}
}
