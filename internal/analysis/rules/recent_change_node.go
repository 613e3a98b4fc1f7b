package rules

import (
	"fmt"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/change"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/signal"
)

// The recent_change rules of nodes (recent_change_cordon.go, recent_change_taint.go,
// recent_change_node_removed.go) take a change to a node, not to a workload: it hurts the pods
// that ran on the node, or that waited for a place on it, whatever workload they are of. So
// they match symptoms by node and pool (nodeChangeCauses), where changeCauses matches them by
// workload.

// changedNode is the node a change is to: its name, its pool, and the node as the input holds
// it (nil for a node the input no longer has: one removed).
type changedNode struct {
	name, pool string
	obj        *cluster.Object
}

// changedNodeOf finds the node of a change in the model; of a node the model lacks, the pool is
// what the change says it was in when it went ("present, in pool core", change.Between).
func changedNodeOf(m *cluster.Model, c change.Change) changedNode {
	n := changedNode{name: c.Name, obj: m.Node(c.Name)}
	if n.obj != nil {
		n.pool = n.obj.NodePool()
	} else {
		n.pool = c.Was.Pool
	}
	return n
}

// nodeMechanism is how a change to a node hurts pods: the changes it takes (matches), and the
// symptoms it leads to (hits), given the node; what says it in words, and confidence is the
// cause's when nothing speaks against it.
type nodeMechanism struct {
	matches    func(change.Change) bool
	hits       func(in analysis.Input, s analysis.Symptom, c change.Change, n changedNode) bool
	what       string
	confidence float64
}

// nodeChangeCauses builds one recent_change cause per change to a node the mechanism matches,
// explaining the symptoms it hits that began after the change; those it hits that began before
// speak against it, and lower its confidence.
func nodeChangeCauses(in analysis.Input, symptoms []analysis.Symptom, mech nodeMechanism) []analysis.Cause {
	var out []analysis.Cause
	for _, ch := range in.Changes() {
		if ch.Kind != cluster.KindNode || !mech.matches(ch.Change) {
			continue
		}
		n := changedNodeOf(in.Model, ch.Change)
		c := analysis.Cause{Kind: analysis.RecentChange, Role: analysis.Root, Confidence: mech.confidence, Components: []analysis.Component{},
			Evidence: []analysis.Evidence{citeChange(ch.Change)}, Changes: []string{ch.ID}, Nodes: []string{n.name}}
		if n.pool != "" {
			c.Components = append(c.Components, analysis.Component{Kind: cluster.ComponentNodePool, Name: n.pool})
		}
		var against []analysis.Evidence
		for _, s := range symptoms {
			if !mech.hits(in, s, ch.Change, n) {
				continue
			}
			if before(s, ch.Change) {
				against = append(against, beganBefore(s))
				continue
			}
			c.Explains = append(c.Explains, s.ID)
			if len(s.Evidence) > 0 {
				c.Evidence = append(c.Evidence, s.Evidence[0])
			}
		}
		if len(c.Explains) == 0 {
			continue
		}
		what := fmt.Sprintf("%s changed from %s to %s", ch.Field, ch.Before, ch.After)
		if removed(ch.Change) {
			what = "was removed"
		}
		where := ""
		if n.pool != "" {
			where = " (pool " + n.pool + ")"
		}
		c.Summary = fmt.Sprintf("Node %s%s %s, then %d symptom(s) of pods on it or waiting for room on it followed (%s)",
			n.name, where, what, len(c.Explains), mech.what)
		weigh(&c, against, "the node's own events around the change (NodeNotSchedulable, RemovingNode, TaintManagerEviction), and pods of the same workloads on other nodes: if those failed the same way, the change is not the cause")
		out = append(out, c)
	}
	return out
}

// waitsFor reports whether a pending symptom's pod could have been placed on the node, but for
// its cordon, taints or room: its node selector and required affinity match the node's labels.
// Of a node the model lacks only the pool is known: the remaining nodes the pod's placement
// matches are of that pool, or it may run anywhere. A
// symptom whose pod the model lacks may be of any pod.
func waitsFor(in analysis.Input, s analysis.Symptom, n changedNode) bool {
	p := podOf(in.Model, s)
	if p == nil {
		return true
	}
	if n.obj != nil {
		ok, _ := p.Pod.RequiredNodeAffinity().Match(n.obj.Node)
		return ok
	}
	if pool := in.Model.PoolFor(p); pool != "" {
		return pool == n.pool
	}
	spec := p.Pod.Spec
	return len(spec.NodeSelector) == 0 && (spec.Affinity == nil || spec.Affinity.NodeAffinity == nil ||
		spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil)
}

// schedulerSaid reports whether a pending symptom's scheduler message gives a reason of one of
// the classes, and returns its reasons.
func schedulerSaid(s analysis.Symptom, classes ...signal.ReasonClass) ([]signal.ReasonCount, bool) {
	sch, _, ok := s.Scheduling()
	if !ok {
		return nil, false
	}
	for _, r := range sch.Reasons {
		for _, c := range classes {
			if r.Class() == c {
				return sch.Reasons, true
			}
		}
	}
	return sch.Reasons, false
}

// ranOn reports whether a symptom happened on the node.
func ranOn(in analysis.Input, s analysis.Symptom, n changedNode) bool {
	return nodeOf(in.Model, s) == n.name
}
