package analysis

import (
	"fmt"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// rolloutStuckRule finds Deployments whose rollout stopped progressing: the Progressing
// condition False with reason ProgressDeadlineExceeded (the deployment controller's words,
// "ReplicaSet \"x\" has timed out progressing."), or that message wherever it was pasted.
type rolloutStuckRule struct{}

func (rolloutStuckRule) Name() string { return "rollout-stuck" }

func (rolloutStuckRule) Symptoms(in Input) []Symptom {
	syms := newObjectSymptoms(RolloutStuck)
	for _, o := range others(in.Model, "Deployment") {
		for _, c := range conditions(o) {
			if c.Type != "Progressing" || c.Status != "False" || c.Reason != "ProgressDeadlineExceeded" {
				continue
			}
			s := syms.get(ref(o), o.Source.File)
			s.Evidence = append(s.Evidence, cite(o, "status.conditions[Progressing]", c.Reason+": "+c.Message))
			s.At = earliest(s.At, timePtr(c.LastTransitionTime))
			if s.Details.Message == "" {
				s.Details.Message = firstLine(c.Message)
			}
		}
	}
	for _, o := range in.Model.Events {
		e := o.Event
		if e.Reason != "ProgressDeadlineExceeded" && in.eventSign(o, RolloutStuck) == nil {
			continue
		}
		s := syms.get(eventObject(o, "Deployment"), o.Source.File)
		s.Evidence = append(s.Evidence, citeEvent(o))
		_, first, _ := cluster.EventTimes(e)
		s.At = earliest(s.At, timePtr(first))
		if s.Details.Message == "" {
			s.Details.Message = firstLine(e.Message)
		}
	}
	return syms.list(func(s *Symptom) string {
		return fmt.Sprintf("the rollout of %s stopped progressing: %s", objectPhrase(s, "Deployment"), clip(s.Details.Message, 160))
	})
}
