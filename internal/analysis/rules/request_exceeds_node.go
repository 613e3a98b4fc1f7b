package rules

import (
	"fmt"
	"strings"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/signal"
)

// requestExceedsNodeRule finds pending pods that request more CPU or memory than any node
// allocates: no scale-up can place them, only a larger machine type or a smaller request.
// Without node objects it says so only of requests no common machine type holds, and only when
// the scheduler found every node short of that resource.
type requestExceedsNodeRule struct{}

func (requestExceedsNodeRule) Name() string { return "request-exceeds-node" }

// Requests beyond these fit no common machine type; used only when the nodes are unknown.
const (
	hugeMemory   = 256 << 30
	hugeMilliCPU = 64000
)

func (requestExceedsNodeRule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	m := in.Model
	c := analysis.Cause{Kind: analysis.RequestExceedsNode, Role: analysis.Root, Confidence: 0.85, Components: []analysis.Component{}}
	var parts []string
	largest := largestNode(m)
	for _, s := range symptoms {
		if s.Kind != analysis.PodPending {
			continue
		}
		if ev, said, ok := templateUnfit(in, s); ok {
			// The autoscaler's scale-up simulation: the pod does not fit a new node of the
			// group, so adding nodes cannot place it.
			c.Explains = append(c.Explains, s.ID)
			c.Evidence = append(c.Evidence, ev)
			parts = append(parts, s.Label()+": cluster-autoscaler found it fits no new node: "+phrase.Clip(said, 200))
			continue
		}
		if ev, said, ok := provisionerUnfit(in, s); ok {
			// Karpenter's scheduling simulation: no instance type its node pools allow holds
			// the pod with the DaemonSets' pods, so no node it can make will place it.
			c.Explains = append(c.Explains, s.ID)
			c.Evidence = append(c.Evidence, ev)
			parts = append(parts, s.Label()+": Karpenter found no instance type that holds it: "+phrase.Clip(said, 200))
			continue
		}
		for _, ref := range s.Objects {
			p := m.Pod(ref.Namespace, ref.Name)
			if p == nil {
				continue
			}
			why, ok := exceedsNode(m, largest, p, s)
			if !ok {
				continue
			}
			r := m.PodRequests(p)
			c.Explains = append(c.Explains, s.ID)
			c.Evidence = append(c.Evidence, cite(p, "spec.containers[].resources.requests", fmt.Sprintf("%s CPU, %s", cpuString(r.MilliCPU), memString(r.Memory))))
			parts = append(parts, fmt.Sprintf("%s/%s asks %s CPU and %s: %s", p.Namespace, p.Name, cpuString(r.MilliCPU), memString(r.Memory), why))
			break
		}
	}
	if len(c.Explains) == 0 {
		return nil
	}
	if len(m.Nodes) == 0 {
		c.Confidence = 0.55
		c.Missing = []string{"node objects (kubectl get nodes -o json), to compare the request with the largest node's allocatable"}
	}
	c.Explains = analysis.Unique(c.Explains)
	c.Summary = "pods request more than a node allocates: " + phrase.Parts(parts, "; ")
	return []analysis.Cause{c}
}

// The catalogue's tags that templateUnfit reads: cluster-autoscaler finding that a pod fits no
// new node of a group (its template node: the machine type with its DaemonSets' pods); a part
// of its reasons saying the pod is short of a resource there (the autoscaler's "2 Insufficient
// cpu", the scheduler's "Insufficient cpu" it quotes in its log); and a part saying a group
// could not grow, where the pod might have fit.
var (
	templateUnfitTags = []string{"no_node_group_fits"}
	templateShortTags = []string{"request_exceeds_node", "insufficient_resource"}
	groupMaxedTags    = []string{"node_group_max_size"}
)

// templateUnfit finds cluster-autoscaler saying that a pending pod is short of a resource on a
// new node of a group ("can't be scheduled on eks-ng-1, predicate checking error: Insufficient
// cpu"): the pod asks more than such a node has. A group that was at its maximum size says
// nothing of the request: a node of it might have held the pod.
func templateUnfit(in analysis.Input, s analysis.Symptom) (analysis.Evidence, string, bool) {
	for _, o := range eventsFor(in, s) {
		msg := o.Event.Message
		said, ok := tagSaid(in, msg, templateUnfitTags)
		if !ok {
			continue
		}
		if _, short := tagSaid(in, msg, templateShortTags); !short {
			continue
		}
		if _, maxed := tagSaid(in, msg, groupMaxedTags); maxed {
			continue
		}
		return citeEvent(o), said, true
	}
	return analysis.Evidence{}, "", false
}

// provisionerUnfit finds Karpenter saying that no instance type of the node pools a pending
// pod may use holds its requests with the DaemonSets' ("no instance type satisfied resources
// {"cpu":"60",…} and requirements …", "no instance type has enough resources, …"), in an event
// or a log line of its: the catalogue's request_exceeds_node parts of Karpenter's messages.
func provisionerUnfit(in analysis.Input, s analysis.Symptom) (analysis.Evidence, string, bool) {
	for _, o := range eventsFor(in, s) {
		for _, p := range messages(in).explain(o.Event.Message) {
			if p.Entry.Component == "karpenter" && p.Entry.Evidence == "request_exceeds_node" {
				return citeEvent(o), strings.TrimSpace(p.Text), true
			}
		}
	}
	return analysis.Evidence{}, "", false
}

// exceedsNode reports whether a pending pod asks more than a node can give: more than the
// largest node's allocatable when the nodes are known; else a request no common machine type
// holds, of a resource the scheduler found every node short of. largest is largestNode(m),
// made once for all the pods a rule asks about, not once a pod (pods × nodes).
func exceedsNode(m *cluster.Model, largest cluster.Resources, p *cluster.Object, s analysis.Symptom) (string, bool) {
	r := m.PodRequests(p)
	if len(m.Nodes) > 0 {
		if r.MilliCPU > largest.MilliCPU || r.Memory > largest.Memory {
			return fmt.Sprintf("the largest node allocates %s CPU and %s", cpuString(largest.MilliCPU), memString(largest.Memory)), true
		}
		return "", false
	}
	sch, _, ok := s.Scheduling()
	if !ok || sch.Total == 0 {
		return "", false
	}
	short := map[string]bool{}
	for _, rc := range sch.Reasons {
		if rc.Class() == signal.ClassInsufficient && rc.Count == sch.Total {
			short[rc.Resource()] = true
		}
	}
	switch {
	case short["memory"] && r.Memory >= hugeMemory:
		return fmt.Sprintf("all %d nodes lack the memory, and %s fits no common machine type", sch.Total, memString(r.Memory)), true
	case short["cpu"] && r.MilliCPU >= hugeMilliCPU:
		return fmt.Sprintf("all %d nodes lack the CPU, and %s CPUs fit no common machine type", sch.Total, cpuString(r.MilliCPU)), true
	}
	return "", false
}

// largestNode is the most CPU and the most memory a node of m allocates (each of the node
// with the most of it).
func largestNode(m *cluster.Model) cluster.Resources {
	var biggest cluster.Resources
	for _, n := range m.Nodes {
		l := m.Load(n)
		biggest.MilliCPU = max(biggest.MilliCPU, l.Allocatable.MilliCPU)
		biggest.Memory = max(biggest.Memory, l.Allocatable.Memory)
	}
	return biggest
}
