package rules

import (
	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/change"
)

// changedImageRule: a workload's image changed, then its new pods could not pull it or crashed
// as they started (image_pull_failed, crash_loop_backoff, and the restarts of the crashes but
// for those killed for memory): the new image is the root cause.
type changedImageRule struct{}

func (changedImageRule) Name() string { return "recent-change-image" }

func (changedImageRule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	image := func(c change.Change) bool { return c.Path.Attr == change.Image && !c.Was.Absent }
	crashed := func(s analysis.Symptom) bool {
		return s.Kind != analysis.ContainerRestarted || s.Details.Reason != "OOMKilled"
	}
	return changeCauses(in, symptoms, mechanism{matches: image, kinds: []string{analysis.ImagePullFailed, analysis.CrashLoopBackOff, analysis.ContainerRestarted},
		fits: crashed, what: "the new image could not be pulled or did not start", confidence: 0.8})
}
