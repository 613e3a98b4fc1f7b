package rules

import (
	"slices"
	"strings"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// heavyShare is the share of a node's allocatable memory or CPU above which a pod is heavy.
const heavyShare = 0.25

// heavy reports whether a pod weighs on its node: Prometheus (its memory grows with the number
// of scrape targets) or kube-state-metrics (with the number of objects), or a quarter or more
// of the node's allocatable CPU or memory requested.
func heavy(in analysis.Input, o *cluster.Object, l cluster.NodeLoad) bool {
	if in.Component(o) == cluster.ComponentPrometheus || cluster.GrowsWithCluster(o.Pod) {
		return true
	}
	r := in.Model.PodRequests(o)
	return (l.Allocatable.Memory > 0 && float64(r.Memory) >= heavyShare*float64(l.Allocatable.Memory)) ||
		(l.Allocatable.MilliCPU > 0 && float64(r.MilliCPU) >= heavyShare*float64(l.Allocatable.MilliCPU))
}

// podOf returns the pod a symptom is about, if the model has it.
func podOf(m *cluster.Model, s analysis.Symptom) *cluster.Object {
	if s.Pod != nil {
		return s.Pod
	}
	for _, o := range s.Objects {
		if o.Kind == cluster.KindPod {
			if p := m.Pod(o.Namespace, o.Name); p != nil {
				return p
			}
		}
	}
	return nil
}

// nodeOf returns the node a symptom happened on: its own, or its pod's.
func nodeOf(m *cluster.Model, s analysis.Symptom) string {
	if s.Node != "" {
		return s.Node
	}
	if p := podOf(m, s); p != nil {
		return p.Pod.Spec.NodeName
	}
	return ""
}

// clamp keeps a confidence between 0.05 and 0.95: the analysis is never certain either way.
func clamp(c float64) float64 {
	return min(max(c, 0.05), 0.95)
}

// troubledNode is a memory symptom (eviction, pressure, OOM kill) with the node it happened on
// and that node's load.
type troubledNode struct {
	symptom *analysis.Symptom // the caller's: a symptom is hundreds of bytes, and a large incident has thousands
	node    *cluster.Object
	load    cluster.NodeLoad
}

// memoryTrouble lists the memory symptoms whose node the model holds: OOM kills, and evictions
// and pressure for memory or that do not say what for (disk or PID trouble is not memory's).
func memoryTrouble(m *cluster.Model, symptoms []analysis.Symptom) []troubledNode {
	var out []troubledNode
	for i := range symptoms {
		s := &symptoms[i]
		if s.Kind != analysis.PodEvicted && s.Kind != analysis.NodePressure && s.Kind != analysis.OOMKilled || !mayBeMemory(*s) {
			continue
		}
		if node := m.Node(nodeOf(m, *s)); node != nil {
			out = append(out, troubledNode{symptom: s, node: node, load: m.Load(node)})
		}
	}
	return out
}

// mayBeMemory reports whether an eviction or a node's pressure is for memory, or does not say:
// the resource or condition its message names, the pressure its node reported.
func mayBeMemory(s analysis.Symptom) bool {
	switch s.Kind {
	case analysis.PodEvicted:
		res, cond := s.Details.Resource, s.Details.Condition
		switch {
		case res != "":
			return res == "memory"
		case cond != "":
			return strings.Contains(cond, "MemoryPressure")
		}
	case analysis.NodePressure:
		rs := s.Details.Resources
		return len(rs) == 0 || slices.Contains(rs, "memory")
	}
	return true
}
