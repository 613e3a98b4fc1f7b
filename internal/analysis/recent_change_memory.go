package analysis

import (
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/rootline-dev/rootline/internal/change"
)

// loweredMemoryLimitRule: a workload's memory limit was lowered (or set where there was none),
// then its containers were OOM-killed: the kernel kills a container at its limit.
type loweredMemoryLimitRule struct{}

func (loweredMemoryLimitRule) Name() string { return "recent-change-memory-limit" }

func (loweredMemoryLimitRule) Causes(in Input, symptoms []Symptom) []Cause {
	return changeCauses(in, symptoms, mechanism{matches: lowered, kinds: []string{OOMKilled}, what: "OOM-killed under the lower limit", confidence: 0.8})
}

// lowered reports whether a change set a memory limit lower than before, or one where there was
// none.
func lowered(c change.Change) bool {
	return strings.HasSuffix(c.Field, ".resources.limits.memory") && less(c)
}

// less reports whether a change of a quantity made it smaller, or set one where there was none
// (a limit added where there was none).
func less(c change.Change) bool {
	after, err := resource.ParseQuantity(c.After)
	if err != nil {
		return false
	}
	if c.Before == change.Absent {
		return true
	}
	was, err := resource.ParseQuantity(c.Before)
	return err == nil && after.Cmp(was) < 0
}
