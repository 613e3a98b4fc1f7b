package rules

import (
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/signal"
)

// preemptedRule finds pods ended to make room or because their node went away on purpose:
// the scheduler's Preempted event and DisruptionTarget PreemptionByScheduler; the kubelet's
// preemption to admit a critical pod (reason and event Preempting); and pods ended by a node's
// graceful shutdown (Terminated, NodeShutdown), which is how spot and preemptible nodes are
// reclaimed.
type preemptedRule struct{}

func (preemptedRule) Name() string { return "preempted" }

func (preemptedRule) Symptoms(in analysis.Input) []analysis.Symptom {
	syms := newPodSymptoms(analysis.Preempted)
	for _, o := range in.Model.Pods {
		if p := o.Pod; p.Status.Phase == corev1.PodFailed && p.Status.Reason != "" {
			// The kubelet's preemption to admit a critical pod (Preempting), and pods ended by
			// a node's graceful shutdown (Terminated, NodeShutdown), as spot and preemptible
			// nodes are reclaimed.
			f := signal.ClassifyPodFailure(p.Status.Reason, p.Status.Message)
			if node := in.Model.Node(p.Spec.NodeName); node != nil {
				f = f.OnNode(node.Node.Labels)
			}
			if f.Class == signal.FailurePreemption {
				s := syms.pod(o)
				s.Node = p.Spec.NodeName
				s.Details.By = f.Kind
				s.Evidence = append(s.Evidence, cite(o, "status.reason", p.Status.Reason+": "+p.Status.Message))
				continue
			}
		}
		if c := disruption(o.Pod); c != nil && c.Reason == "PreemptionByScheduler" {
			s := syms.pod(o)
			s.Node = o.Pod.Spec.NodeName
			s.Evidence = append(s.Evidence, citeCondition(o, "DisruptionTarget", c.Reason+": "+c.Message))
			s.At = earliest(s.At, timePtr(c.LastTransitionTime.Time()))
		}
	}
	for _, o := range in.Model.Events {
		e := o.Event
		if e.Reason != "Preempted" && e.Reason != "Preempting" && eventSign(in, o, analysis.Preempted) == nil || !aboutPod(o) {
			continue
		}
		s := syms.event(o)
		s.Evidence = append(s.Evidence, citeEvent(o))
		s.At = earliest(s.At, timePtr(cluster.EventTime(o)))
	}
	return syms.list(func(pod string, s *analysis.Symptom) string {
		if e := s.Evidence; len(e) > 0 && strings.Contains(e[0].Value, "critical pod") {
			s.Details.By = signal.PreemptionCriticalPod // the kubelet's event says so
		}
		switch s.Details.By {
		case signal.PreemptionCriticalPod:
			return podPhrase(pod) + " was preempted by its node's kubelet to admit a critical pod"
		case signal.PreemptionNodeShutdown:
			return podPhrase(pod) + " was ended by its node's shutdown"
		case signal.PreemptionSpot:
			return podPhrase(pod) + " was ended when its spot or preemptible node was reclaimed"
		}
		return podPhrase(pod) + " was preempted by a higher-priority pod"
	})
}
