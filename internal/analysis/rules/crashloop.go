package rules

import (
	"fmt"
	"strings"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// crashLoopRule finds containers in CrashLoopBackOff: the waiting reason in the pod's status,
// and the kubelet's BackOff events ("Back-off restarting failed container …").
type crashLoopRule struct{}

func (crashLoopRule) Name() string { return "crash-loop-backoff" }

func (crashLoopRule) Symptoms(in analysis.Input) []analysis.Symptom {
	syms := newPodSymptoms(analysis.CrashLoopBackOff)
	for _, o := range in.Model.Pods {
		for _, cs := range cluster.ContainerStatuses(o.Pod) {
			// CrashLoopBackOff, or another reason the catalogue files under it.
			if reason, ok := waitingSign(cs, analysis.CrashLoopBackOff); ok {
				s := syms.pod(o)
				s.Node = o.Pod.Spec.NodeName
				s.Evidence = append(s.Evidence, cite(o, fmt.Sprintf("status.containerStatuses[%s].state.waiting", cs.Name), reason+": "+cs.State.Waiting.Message))
			}
		}
	}
	for _, o := range in.Model.Events {
		e := o.Event
		backOff := e.Reason == "BackOff" && strings.Contains(e.Message, "restarting failed container")
		if !backOff && eventSign(in, o, analysis.CrashLoopBackOff) == nil || !aboutPod(o) {
			continue
		}
		s := syms.event(o)
		s.Evidence = append(s.Evidence, citeEvent(o))
		_, first, _ := cluster.EventTimes(e)
		s.At = earliest(s.At, timePtr(first))
	}
	return syms.list(func(pod string, _ *analysis.Symptom) string {
		return fmt.Sprintf("a container of %s kept crashing (CrashLoopBackOff)", podPhrase(pod))
	})
}
