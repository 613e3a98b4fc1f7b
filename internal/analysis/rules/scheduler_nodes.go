package rules

import (
	"slices"
	"strings"

	"github.com/rootline-dev/rootline/internal/signal"
)

// notReadyCondition is what schedulerConditions says of nodes the scheduler found not ready.
const notReadyCondition = "not-ready"

// schedulerConditions are the conditions of nodes a scheduler's diagnosis counts without
// naming them, each once: notReadyCondition, or a pressure ("memory", "disk", "pids"). They
// are its 1.9–1.17 words ("2 node(s) were not ready", "1 node(s) had disk pressure") or the
// pressure taints the node lifecycle controller puts on nodes under pressure. The not-ready
// and unreachable taints are not read so: every node carries the not-ready taint until its
// first Ready, so the scheduler's count of them is a scale-up's nodes joining as often as
// nodes lost (scale_up_not_ready reads it). The node_not_ready and node_pressure rules read
// these where nothing else in the input names such a node.
func schedulerConditions(msg string) []string {
	sch, ok := signal.ParseFailedScheduling(msg)
	if !ok {
		return nil
	}
	var out []string
	for _, r := range sch.Reasons {
		if c := schedulerCondition(r); c != "" && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// schedulerCondition is the condition one reason of the scheduler says nodes were in, or "".
func schedulerCondition(r signal.ReasonCount) string {
	if t, ok := r.Taint(); ok {
		return conditionTaints[t.Key] // a pressure, or "" for a not-ready taint or one of no condition
	}
	if r.Class() != signal.ClassNodeCondition {
		return ""
	}
	s := strings.ToLower(r.Reason)
	switch {
	case strings.Contains(s, "not ready") || strings.Contains(s, "notready"):
		return notReadyCondition
	case strings.Contains(s, "memory pressure") || strings.Contains(s, "memorypressure"):
		return "memory"
	case strings.Contains(s, "disk pressure") || strings.Contains(s, "diskpressure"):
		return "disk"
	case strings.Contains(s, "pid pressure") || strings.Contains(s, "pidpressure"):
		return "pids"
	}
	return ""
}
