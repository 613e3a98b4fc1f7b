package rules

import (
	"fmt"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// nodeOOMRule finds the kernel's OOM killer at work on a node: the kubelet's SystemOOM event
// and node-problem-detector's OOMKilling, or any message the catalogue knows for it (a kernel
// log line pasted). A process killed by the kernel, not a container at its own limit
// (oom_killed): the node as a whole ran out of memory.
type nodeOOMRule struct{}

func (nodeOOMRule) Name() string { return "node-oom" }

func (nodeOOMRule) Symptoms(in analysis.Input) []analysis.Symptom {
	byNode := map[string]*analysis.Symptom{}
	var order []string
	for _, o := range in.Model.Events {
		e := o.Event
		if e.Reason != "SystemOOM" && e.Reason != "OOMKilling" && eventSign(in, o, analysis.NodeOOM) == nil {
			continue
		}
		if eventSign(in, o, analysis.OOMKilled) != nil {
			continue // a memory cgroup's limit, not the node's memory: oom_killed
		}
		node := e.InvolvedObject.Name
		if e.InvolvedObject.Kind != cluster.KindNode {
			node = e.Source.Host
		}
		s, ok := byNode[node]
		if !ok {
			s = &analysis.Symptom{Kind: analysis.NodeOOM, Node: node, Objects: []analysis.ObjectRef{}}
			if node != "" {
				s.Objects = []analysis.ObjectRef{{Kind: cluster.KindNode, Name: node}}
			}
			byNode[node] = s
			order = append(order, node)
		}
		count, first, _ := cluster.EventTimes(e)
		s.Count += max(int(count), 1)
		s.Evidence = append(s.Evidence, citeEvent(o))
		s.At = earliest(s.At, timePtr(first))
		if s.Details.Output == "" {
			s.Details.Output = firstLine(e.Message)
		}
	}
	out := make([]analysis.Symptom, 0, len(order))
	for _, node := range order {
		s := byNode[node]
		where := "node " + node
		if node == "" {
			where = analysis.UnnamedNode
		}
		s.Summary = fmt.Sprintf("the kernel's OOM killer ran on %s: %s", where, phrase.Clip(s.Details.Output, 160))
		s.Details.Output, s.Count = "", 0
		out = append(out, *s)
	}
	return out
}
