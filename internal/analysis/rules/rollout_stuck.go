package rules

import (
	"fmt"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// rolloutStuckRule finds Deployments whose rollout stopped progressing: the Progressing
// condition False with reason ProgressDeadlineExceeded (the deployment controller's words,
// "ReplicaSet \"x\" has timed out progressing."), or that message wherever it was pasted.
type rolloutStuckRule struct{}

func (rolloutStuckRule) Name() string { return "rollout-stuck" }

func (rolloutStuckRule) Symptoms(in analysis.Input) []analysis.Symptom {
	syms := newObjectSymptoms(analysis.RolloutStuck)
	syms.fromConditions(in, []string{"Deployment"}, func(c workloadCondition) bool {
		return c.Type == "Progressing" && c.Status == "False" && c.Reason == "ProgressDeadlineExceeded"
	})
	syms.fromEvents(in, "Deployment", func(o *cluster.Object) bool {
		return o.Event.Reason == "ProgressDeadlineExceeded" || eventSign(in, o, analysis.RolloutStuck) != nil
	})
	return syms.list(func(s *analysis.Symptom) string {
		return fmt.Sprintf("the rollout of %s stopped progressing: %s", objectPhrase(s, "Deployment"), phrase.Clip(s.Details.Message, 160))
	})
}
