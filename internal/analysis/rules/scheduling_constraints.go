package rules

import (
	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/signal"
)

// conditionTaints are the taints the node lifecycle controller puts on a node for a condition
// (TaintNodesByCondition): they say the node is in trouble, not where a pod may run.
var conditionTaints = map[string]string{"node.kubernetes.io/memory-pressure": "memory", "node.kubernetes.io/disk-pressure": "disk",
	"node.kubernetes.io/pid-pressure": "pids", "node.kubernetes.io/not-ready": "", "node.kubernetes.io/unreachable": "",
	"node.kubernetes.io/network-unavailable": "", "node.cloudprovider.kubernetes.io/uninitialized": ""}

// schedulingConstraintsRule finds pods Pending because of where they may run (affinity, node
// selectors, taints other than not-ready, topology spread), not because capacity ran out.
type schedulingConstraintsRule struct{}

func (schedulingConstraintsRule) Name() string { return "scheduling-constraints" }

func (schedulingConstraintsRule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	c := analysis.Cause{Kind: analysis.SchedulingConstraints, Role: analysis.Root, Confidence: 0.6, Components: []analysis.Component{}}
	var parts []string
	explain := func(s analysis.Symptom, ev analysis.Evidence, part string) {
		c.Explains = append(c.Explains, s.ID)
		c.Evidence = append(c.Evidence, ev)
		parts = append(parts, s.Label()+": "+part)
	}
	short := false // some nodes a pod's node affinity left it lacked room (spreadBinds): capacity is reported beside
	for _, s := range symptoms {
		if s.Kind == analysis.PodPending && s.Details.Refused == "NodeAffinity" {
			// The kubelet refused it: its node affinity or selector no longer matched the node.
			explain(s, s.Evidence[0], "its node's kubelet refused it (NodeAffinity)")
			continue
		}
		sch, msg, ok := s.Scheduling()
		if !ok && s.Kind == analysis.PodPending {
			// A message the scheduler's diagnosis format does not hold (Karpenter's): what the
			// catalogue says its parts tell, a rule of placement and no lack of room.
			if ev, _, shown := tagShown(in, s, placementTags); shown {
				if _, _, room := tagShown(in, s, capacityTags); !room {
					explain(s, ev, firstLine(ev.Value))
				}
			}
			continue
		}
		if ok && sch.Total > 0 && excludesAll(sch) {
			// A rule of placement no node meets: what else some nodes lacked does not matter.
			explain(s, s.Evidence[0], msg)
			continue
		}
		if ok && spreadBinds(sch) {
			// Some nodes lacked room, but the pod's rules about other pods ruled out more.
			short = true
			explain(s, s.Evidence[0], msg)
			continue
		}
		if !ok || len(sch.Reasons) == 0 || insufficient(sch) {
			continue
		}
		constrained, placed := true, false
		for _, r := range sch.Reasons {
			t, isTaint := r.Taint()
			switch r.Class() {
			case signal.ClassAffinity, signal.ClassPodAffinity, signal.ClassTopologySpread:
				placed = true
			case signal.ClassTaint:
				placed = true
				if _, cond := conditionTaints[t.Key]; isTaint && cond {
					constrained = false // a node in trouble, not a rule of placement
				}
			case signal.ClassUnschedulable:
				// Cordoned nodes: with a rule of placement that kept the pod off the others,
				// the nodes it may run on are cordoned; alone, a cordon is no rule of the pod's.
			default:
				constrained = false
			}
		}
		if constrained && placed {
			explain(s, s.Evidence[0], msg)
		}
	}
	if len(c.Explains) == 0 {
		return nil
	}
	// Not "not for lack of capacity" where some of the nodes its node affinity left a pod
	// lacked room too. Where a rule no node meets (excludesAll), room never mattered.
	why := "not for lack of capacity"
	if short {
		why = "which left them few nodes or none"
	}
	c.Summary = "pods could not be placed because of where they are allowed to run, " + why + ": " + phrase.Parts(parts, "; ")
	return []analysis.Cause{c}
}

// placementTags are the catalogue's evidence tags (internal/catalog) of a rule of placement,
// and capacityTags those of a lack of room.
var (
	placementTags = []string{"node_selector_mismatch", "node_affinity_mismatch", "untolerated_taint", "pod_affinity", "topology_spread"}
	capacityTags  = []string{"insufficient_resource", "request_exceeds_node", "cloud_capacity", "cluster_resource_limit", "nodepool_limit_reached"}
)

// excludesAll reports whether one rule of placement (node affinity or selector, pod affinity,
// topology spread, a taint of the cluster's own) kept the pod off every node the scheduler
// counted ("10 node(s) didn't match node selector, 4 Insufficient cpu" of 10 nodes).
func excludesAll(sch signal.Scheduling) bool {
	for _, r := range sch.Reasons {
		if r.Count != sch.Total {
			continue
		}
		switch r.Class() {
		case signal.ClassAffinity, signal.ClassPodAffinity, signal.ClassTopologySpread:
			return true
		case signal.ClassTaint:
			if t, isTaint := r.Taint(); isTaint {
				if _, cond := conditionTaints[t.Key]; !cond {
					return true
				}
			}
		}
	}
	return false
}

// spreadBinds reports whether, where some nodes lacked room, the pod's rules about other pods
// (inter-pod affinity or anti-affinity, topology spread) ruled out more nodes than lacked room,
// and its rules of placement ruled out every other node: of the few nodes its node affinity
// leaves it, most hold a pod it must not join ("0/401 nodes are available: 1 Insufficient cpu,
// 3 node(s) didn't match pod anti-affinity rules, 397 node(s) didn't match Pod's node
// affinity/selector"). The scheduler stops at a node's first failing plugin, so the counts of
// rules of placement do not overlap; the resource reasons of one node do, so room counts the
// most of them. A taint or a cordon among the reasons leaves the question to the others.
func spreadBinds(sch signal.Scheduling) bool {
	var placed, spread, room int
	for _, r := range sch.Reasons {
		switch r.Class() {
		case signal.ClassAffinity:
			placed += r.Count
		case signal.ClassPodAffinity, signal.ClassTopologySpread:
			placed += r.Count
			spread += r.Count
		case signal.ClassInsufficient, signal.ClassTooManyPods:
			room = max(room, r.Count)
		default:
			return false
		}
	}
	return sch.Total > 0 && room > 0 && spread > room && placed+room >= sch.Total
}
