package rules

import (
	"fmt"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
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

func (jobFailedRule) Symptoms(in analysis.Input) []analysis.Symptom {
	syms := newObjectSymptoms(analysis.JobFailed)
	syms.fromConditions(in, []string{"Job"}, func(c workloadCondition) bool { return c.Type == "Failed" && c.Status == "True" })
	syms.fromEvents(in, "Job", func(o *cluster.Object) bool {
		kind := o.Event.InvolvedObject.Kind
		return jobFailureReasons[o.Event.Reason] && (kind == "Job" || kind == "") || eventSign(in, o, analysis.JobFailed) != nil
	})
	return syms.list(func(s *analysis.Symptom) string {
		sum := fmt.Sprintf("%s failed", objectPhrase(s, "Job"))
		if m := s.Details.Message; m != "" {
			sum += ": " + phrase.Clip(m, 160)
		}
		return sum
	})
}
