package rules

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/change"
)

// loweredMemoryLimitRule: a workload's memory limit was lowered (or set where there was none),
// then its containers were OOM-killed: the kernel kills a container at its limit.
type loweredMemoryLimitRule struct{}

func (loweredMemoryLimitRule) Name() string { return "recent-change-memory-limit" }

func (loweredMemoryLimitRule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	return changeCauses(in, symptoms, mechanism{matches: lowered, kinds: []string{analysis.OOMKilled}, what: "OOM-killed under the lower limit", confidence: 0.8})
}

// lowered reports whether a change set a memory limit lower than before, or one where there was
// none.
func lowered(c change.Change) bool {
	return c.Path.Attr == change.Limits && c.Path.Resource == corev1.ResourceMemory && c.Less()
}
