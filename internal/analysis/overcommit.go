package analysis

import (
	"fmt"
	"strings"
)

// overcommitRule finds nodes whose pods' memory limits add up to more than the node has, where
// memory trouble followed: limits over 100% are a promise the node cannot keep if pods use
// them ("Total limits may be over 100 percent, i.e., overcommitted.").
type overcommitRule struct{}

func (overcommitRule) Name() string { return "node-overcommitted" }

func (overcommitRule) Causes(in Input, symptoms []Symptom) []Cause {
	m := in.Model
	c := Cause{Kind: "node_overcommitted", Role: Contributing, Confidence: 0.55, Components: []Component{}}
	seen := map[string]bool{}
	var parts []string
	for _, s := range symptoms {
		if s.Kind != PodEvicted && s.Kind != NodePressure && s.Kind != OOMKilled {
			continue
		}
		node := m.Node(nodeOf(m, s))
		if node == nil {
			continue
		}
		l := m.Load(node)
		_, mem := l.LimitFraction()
		if mem <= 1 {
			continue
		}
		c.Explains = append(c.Explains, s.ID)
		if !seen[node.Name] {
			seen[node.Name] = true
			parts = append(parts, fmt.Sprintf("node %s had memory limits at %.0f%% of allocatable", node.Name, mem*100))
			c.Evidence = append(c.Evidence, cite(node, "status.allocatable.memory", fmt.Sprintf("%s; limits of its pods: %s (%.0f%%)", memString(l.Allocatable.Memory), memString(l.Limits.Memory), mem*100)))
		}
	}
	if len(c.Explains) == 0 {
		return nil
	}
	c.Summary = strings.Join(parts, "; ")
	return []Cause{c}
}
