package rules

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/cluster"
)

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

// overcommitRule finds nodes whose pods' limits add up to more than the node has, where
// trouble followed: limits over 100% are a promise the node cannot keep if pods use them
// ("Total limits may be over 100 percent, i.e., overcommitted."). Memory limits over 100%
// explain memory trouble (evictions, pressure, OOM kills); CPU or memory limits far over it
// (overcommitFar) explain a node that stopped being ready, its kubelet starved.
type overcommitRule struct{}

func (overcommitRule) Name() string { return "node-overcommitted" }

// overcommitFar is the share of allocatable, as limits, at which a node's pods can starve its
// kubelet and system daemons.
const overcommitFar = 1.5

func (overcommitRule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	m := in.Model
	c := analysis.Cause{Kind: analysis.NodeOvercommitted, Role: analysis.Contributing, Confidence: 0.55, Components: []analysis.Component{}}
	seen := map[string]bool{}
	var parts []string
	add := func(s analysis.Symptom, node *cluster.Object, res string, share float64, ev analysis.Evidence) {
		c.Explains = append(c.Explains, s.ID)
		if !seen[node.Name] {
			seen[node.Name] = true
			c.Nodes = append(c.Nodes, node.Name)
			parts = append(parts, fmt.Sprintf("node %s had %s limits at %.0f%% of allocatable", node.Name, res, share*100))
			c.Evidence = append(c.Evidence, ev)
		}
	}
	for _, t := range memoryTrouble(m, symptoms) {
		if share, ev, ok := limitShare(m, t.node, "memory"); ok && share > 1 {
			add(*t.symptom, t.node, "memory", share, ev)
		}
	}
	for _, s := range symptoms {
		if s.Kind != analysis.NodeNotReady {
			continue
		}
		for _, ref := range s.Objects {
			node := m.Node(ref.Name)
			if node == nil {
				continue
			}
			for _, res := range []string{"cpu", "memory"} {
				if share, ev, ok := limitShare(m, node, res); ok && share >= overcommitFar {
					add(s, node, res, share, ev)
				}
			}
		}
	}
	if len(c.Explains) == 0 {
		return nil
	}
	c.Explains = analysis.Unique(c.Explains)
	c.Summary = phrase.Parts(parts, "; ")
	return []analysis.Cause{c}
}

// limitShare is the share of a node's allocatable CPU or memory its pods' limits add up to:
// from the pods the model holds, or, when they set none, from describe node's "Allocated
// resources" table.
func limitShare(m *cluster.Model, node *cluster.Object, res string) (float64, analysis.Evidence, bool) {
	l := m.Load(node)
	cpu, mem := l.LimitFraction()
	share, limit, alloc := mem, memString(l.Limits.Memory), memString(l.Allocatable.Memory)
	if res == "cpu" {
		share, limit, alloc = cpu, cpuString(l.Limits.MilliCPU), cpuString(l.Allocatable.MilliCPU)
	}
	if share > 0 {
		return share, cite(node, "status.allocatable."+res, fmt.Sprintf("%s; limits of its pods: %s (%.0f%%)", alloc, limit, share*100)), true
	}
	for _, a := range node.Allocated() {
		if a.Resource != res {
			continue
		}
		if pct, ok := allocatedPercent(a.Limits); ok {
			return pct / 100, cite(node, "Allocated resources: "+res+" limits", a.Limits), true
		}
	}
	return 0, analysis.Evidence{}, false
}
