package analysis

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// allocatedMemoryLimits is where the text parser keeps the memory limits row of describe
// node's "Allocated resources" table (ingest/text.AllocatedAnnotationPrefix + "memory-limits").
const allocatedMemoryLimits = "rootline.dev/allocated-memory-limits"

var percent = regexp.MustCompile(`\((\d+)%\)`)

// allocatedPercent reads the percentage of a describe table cell such as "12Gi (124%)".
func allocatedPercent(cell string) (float64, bool) {
	m := percent.FindStringSubmatch(cell)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(m[1], 64)
	return v, err == nil
}

// overcommitRule finds nodes whose pods' memory limits add up to more than the node has, where
// memory trouble followed: limits over 100% are a promise the node cannot keep if pods use
// them ("Total limits may be over 100 percent, i.e., overcommitted.").
type overcommitRule struct{}

func (overcommitRule) Name() string { return "node-overcommitted" }

func (overcommitRule) Causes(in Input, symptoms []Symptom) []Cause {
	m := in.Model
	c := Cause{Kind: NodeOvercommitted, Role: Contributing, Confidence: 0.55, Components: []Component{}}
	seen := map[string]bool{}
	var parts []string
	for _, t := range memoryTrouble(m, symptoms) {
		s, node, l := t.symptom, t.node, t.load
		_, mem := l.LimitFraction()
		ev := cite(node, "status.allocatable.memory", fmt.Sprintf("%s; limits of its pods: %s (%.0f%%)", memString(l.Allocatable.Memory), memString(l.Limits.Memory), mem*100))
		if pct, ok := allocatedPercent(node.Node.Annotations[allocatedMemoryLimits]); ok && l.Limits.Memory == 0 {
			// Only kubectl describe node's "Allocated resources" table tells.
			mem = pct / 100
			ev = cite(node, "Allocated resources: memory limits", node.Node.Annotations[allocatedMemoryLimits])
		}
		if mem <= 1 {
			continue
		}
		c.Explains = append(c.Explains, s.ID)
		if !seen[node.Name] {
			seen[node.Name] = true
			parts = append(parts, fmt.Sprintf("node %s had memory limits at %.0f%% of allocatable", node.Name, mem*100))
			c.Evidence = append(c.Evidence, ev)
		}
	}
	if len(c.Explains) == 0 {
		return nil
	}
	c.Summary = strings.Join(parts, "; ")
	return []Cause{c}
}
