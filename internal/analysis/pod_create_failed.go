package analysis

import (
	"fmt"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// podCreateFailedRule finds controllers that could not create their pods: FailedCreate events
// on a ReplicaSet, a Job, a StatefulSet or a DaemonSet (the API server refused the pod: a
// ResourceQuota, a LimitRange, an admission webhook, a missing ServiceAccount), and the
// ReplicaFailure condition a ReplicaSet keeps for it.
type podCreateFailedRule struct{}

func (podCreateFailedRule) Name() string { return "pod-create-failed" }

// controllerKinds are the kinds that create pods.
var controllerKinds = map[string]bool{"ReplicaSet": true, "ReplicationController": true, "Job": true, "StatefulSet": true,
	"DaemonSet": true, "CronJob": true, "Deployment": true}

func (podCreateFailedRule) Symptoms(in Input) []Symptom {
	syms := newObjectSymptoms(PodCreateFailed)
	for _, o := range others(in.Model, "ReplicaSet", "ReplicationController") {
		for _, c := range conditions(o) {
			// The controller sets it True; a status written by hand may leave it empty.
			if c.Type != "ReplicaFailure" || c.Status != "True" && !(c.Status == "" && c.Reason == "FailedCreate") {
				continue
			}
			s := syms.get(ref(o), o.Source.File)
			s.Evidence = append(s.Evidence, cite(o, "status.conditions[ReplicaFailure]", c.Reason+": "+c.Message))
			s.At = earliest(s.At, timePtr(c.LastTransitionTime))
			if s.Details.Message == "" {
				s.Details.Message = firstLine(c.Message)
			}
		}
	}
	for _, o := range in.Model.Events {
		e := o.Event
		kind := e.InvolvedObject.Kind
		failed := e.Reason == "FailedCreate" && controllerKinds[kind]
		// The API server's refusal names the pod it would not make; a wrapper may name that pod.
		if !failed && (in.eventSign(o, PodCreateFailed) == nil || kind == cluster.KindNode) {
			continue
		}
		s := syms.get(eventObject(o, "ReplicaSet"), o.Source.File)
		s.Evidence = append(s.Evidence, citeEvent(o))
		_, first, _ := cluster.EventTimes(e)
		s.At = earliest(s.At, timePtr(first))
		if s.Details.Message == "" {
			s.Details.Message = firstLine(e.Message)
		}
	}
	return syms.list(func(s *Symptom) string {
		return fmt.Sprintf("%s could not create its pods: %s", objectPhrase(s, "controller"), clip(s.Details.Message, 160))
	})
}
