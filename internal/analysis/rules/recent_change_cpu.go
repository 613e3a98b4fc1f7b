package rules

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/change"
)

// cutCPURule: a workload's CPU request was lowered, or a CPU limit added or lowered, then its
// probes failed: a container given less CPU answers its probes late when the node is busy (its
// CFS quota throttles it under a limit; its share shrinks with its request).
type cutCPURule struct{}

func (cutCPURule) Name() string { return "recent-change-cpu" }

func (cutCPURule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	return changeCauses(in, symptoms, mechanism{matches: cutCPU, kinds: []string{analysis.LivenessProbeFailed, analysis.ReadinessProbeFailed, analysis.StartupProbeFailed},
		what: "their probes failed with less CPU", confidence: 0.6})
}

// cutCPU reports whether a change lowered a CPU request, or lowered or added a CPU limit.
func cutCPU(c change.Change) bool {
	switch {
	case c.Path.Resource != corev1.ResourceCPU:
		return false
	case c.Path.Attr == change.Limits:
		return c.Less() // lowered, or added where there was none
	case c.Path.Attr == change.Requests:
		return !c.Was.Absent && c.Less() // a request added is more, not less
	}
	return false
}
