package rules

import (
	"strings"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/change"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// movedPlacementRule: a workload's node selector, affinity or tolerations changed, then its
// new pods could not be scheduled: no node matched where they were now told to run.
type movedPlacementRule struct{}

func (movedPlacementRule) Name() string { return "recent-change-placement" }

func (movedPlacementRule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	return changeCauses(in, symptoms, mechanism{matches: placement, kinds: []string{analysis.PodPending}, fits: placementRefused,
		what: "no node matched where the new pods were sent", confidence: 0.7})
}

// placement reports whether a change is to where a workload's pods may run: its node
// selector, affinity or tolerations.
func placement(c change.Change) bool {
	switch c.Path.Attr {
	case change.NodeSelector, change.Affinity, change.Tolerations:
		return c.Kind != cluster.KindNode
	}
	return false
}

// placementRefused reports whether the scheduler, where its message is at hand, said nodes did
// not match the pod's selector or affinity, or had taints it did not tolerate.
func placementRefused(s analysis.Symptom) bool {
	sch, msg, ok := s.Scheduling()
	if msg == "" {
		return true // nothing says otherwise
	}
	if !ok {
		return false
	}
	reasons := []string{sch.PreFilter}
	for _, rc := range sch.Reasons {
		reasons = append(reasons, rc.Reason)
	}
	for _, reason := range reasons {
		r := strings.ToLower(reason)
		if strings.Contains(r, "affinity") || strings.Contains(r, "selector") || strings.Contains(r, "taint") {
			return true
		}
	}
	return false
}
