package analysis

import (
	"fmt"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// jobFailedRule finds Jobs that failed: the Failed condition True (reasons BackoffLimitExceeded,
// DeadlineExceeded, PodFailurePolicy, MaxFailedIndexesExceeded), the job controller's events
// of those reasons, or their messages wherever they were pasted.
type jobFailedRule struct{}

func (jobFailedRule) Name() string { return "job-failed" }

// jobFailureReasons are the reasons the job controller fails a Job for.
var jobFailureReasons = map[string]bool{"BackoffLimitExceeded": true, "DeadlineExceeded": true, "PodFailurePolicy": true,
	"MaxFailedIndexesExceeded": true, "FailedIndexes": true}

func (jobFailedRule) Symptoms(in Input) []Symptom {
	syms := newObjectSymptoms(JobFailed)
	for _, o := range others(in.Model, "Job") {
		for _, c := range conditions(o) {
			if c.Type != "Failed" || c.Status != "True" {
				continue
			}
			s := syms.get(ref(o), o.Source.File)
			s.Evidence = append(s.Evidence, cite(o, "status.conditions[Failed]", c.Reason+": "+c.Message))
			s.At = earliest(s.At, timePtr(c.LastTransitionTime))
			if s.Reason == "" {
				s.Reason, s.Details.Message = c.Reason, firstLine(c.Message)
			}
		}
	}
	for _, o := range in.Model.Events {
		e := o.Event
		kind := e.InvolvedObject.Kind
		if !(jobFailureReasons[e.Reason] && (kind == "Job" || kind == "")) && in.eventSign(o, JobFailed) == nil {
			continue
		}
		s := syms.get(eventObject(o, "Job"), o.Source.File)
		s.Evidence = append(s.Evidence, citeEvent(o))
		_, first, _ := cluster.EventTimes(e)
		s.At = earliest(s.At, timePtr(first))
		if s.Reason == "" {
			s.Reason, s.Details.Message = e.Reason, firstLine(e.Message)
		}
	}
	return syms.list(func(s *Symptom) string {
		sum := fmt.Sprintf("%s failed", objectPhrase(s, "Job"))
		if m := s.Details.Message; m != "" {
			sum += ": " + clip(m, 160)
		}
		return sum
	})
}
