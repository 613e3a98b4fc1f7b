package rules

import (
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// TestSchedulingConstraintsRule: pods the scheduler may not place for where they are allowed
// to run (node affinity or selector, a taint of the cluster's own, pod anti-affinity, topology
// spread) are scheduling_constraints; the taints the node lifecycle controller puts on nodes in
// trouble, cordoned nodes alone, and lack of room are not; a rule of placement that leaves only
// cordoned nodes is.
func TestSchedulingConstraintsRule(t *testing.T) {
	const preemption = " preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling."
	pending := []string{"pod_pending prod/report-0"}
	constrained := func(msg string) causeWant {
		said := "not for lack of capacity"
		if strings.Contains(msg, "anti-affinity") && strings.Contains(msg, "Insufficient") {
			// The one row where some of the nodes its node affinity left the pod lacked room
			// (spreadBinds): capacity is reported beside. Where no node meets a rule, room
			// never mattered.
			said = "which left them few nodes or none"
		}
		return causeWant{role: analysis.Root, confidence: 0.6, explains: pending,
			summary: []string{"pods could not be placed because of where they are allowed to run, " + said + ": pod prod/report-0: " + msg}}
	}
	tests := []struct {
		name  string
		msg   string
		kinds []string
		// pressure: the scheduler's reasons count nodes under pressure, a node_pressure of its own
		pressure bool
	}{
		{"node selector", "0/5 nodes are available: 5 node(s) didn't match Pod's node affinity/selector." + preemption, []string{analysis.SchedulingConstraints}, false},
		{"a taint of the cluster's own", "0/5 nodes are available: 5 node(s) had untolerated taint {dedicated: gpu}." + preemption, []string{analysis.SchedulingConstraints}, false},
		{"node affinity and a taint", "0/5 nodes are available: 2 node(s) had untolerated taint {dedicated: gpu}, 3 node(s) didn't match Pod's node affinity/selector." + preemption, []string{analysis.SchedulingConstraints}, false},
		{"pod anti-affinity and topology spread", "0/5 nodes are available: 2 node(s) didn't match pod anti-affinity rules, 3 node(s) didn't match pod topology spread constraints." + preemption, []string{analysis.SchedulingConstraints}, false},
		{"the pre-1.11 predicates", "No nodes are available that match all of the following predicates:: MatchNodeSelector (5).", []string{analysis.SchedulingConstraints}, false},
		{"the memory-pressure taint", "0/5 nodes are available: 5 node(s) had untolerated taint {node.kubernetes.io/memory-pressure: }." + preemption, []string{}, true},
		{"the not-ready taint", "0/5 nodes are available: 5 node(s) had untolerated taint {node.kubernetes.io/not-ready: }." + preemption, []string{}, false},
		{"the unreachable taint", "0/5 nodes are available: 5 node(s) had taint {node.kubernetes.io/unreachable: }, that the pod didn't tolerate.", []string{}, false},
		{"a node selector and the memory-pressure taint", "0/5 nodes are available: 2 node(s) had untolerated taint {node.kubernetes.io/memory-pressure: }, 3 node(s) didn't match Pod's node affinity/selector." + preemption, []string{}, true},
		{"cordoned nodes", "0/5 nodes are available: 5 node(s) were unschedulable." + preemption, []string{}, false},
		{"a node selector that leaves only cordoned nodes", "0/5 nodes are available: 3 node(s) didn't match Pod's node affinity/selector, 2 node(s) were unschedulable." + preemption, []string{analysis.SchedulingConstraints}, false},
		{"a node selector no node matches, some short of cpu besides", "0/5 nodes are available: 5 node(s) didn't match node selector, 2 Insufficient cpu." + preemption, []string{analysis.CapacityExhaustion, analysis.SchedulingConstraints}, false},
		{"a node selector and lack of cpu", "0/5 nodes are available: 2 Insufficient cpu, 3 node(s) didn't match Pod's node affinity/selector." + preemption, []string{analysis.CapacityExhaustion}, false},
		{"pod anti-affinity rules out more of the selected nodes than lack room", "0/401 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 Too many pods, 3 node(s) didn't match pod anti-affinity rules, 397 node(s) didn't match Pod's node affinity/selector." + preemption, []string{analysis.CapacityExhaustion, analysis.SchedulingConstraints}, false},
		{"pod anti-affinity rules out fewer of the selected nodes than lack room", "0/5 nodes are available: 2 Insufficient cpu, 1 node(s) didn't match pod anti-affinity rules, 2 node(s) didn't match Pod's node affinity/selector." + preemption, []string{analysis.CapacityExhaustion}, false},
		{"pod anti-affinity and lack of room leave nodes free", "0/10 nodes are available: 1 Insufficient cpu, 3 node(s) didn't match pod anti-affinity rules, 2 node(s) didn't match Pod's node affinity/selector." + preemption, []string{analysis.CapacityExhaustion}, false},
	}
	var cases []causeCase
	for _, tt := range tests {
		symptoms := pending
		if tt.pressure {
			symptoms = []string{"node_pressure", "pod_pending prod/report-0"}
		}
		cases = append(cases, causeCase{name: tt.name, docs: []string{pendingPod("report-0", tt.msg)}, symptoms: symptoms, kinds: tt.kinds, want: constrained(tt.msg)})
	}
	runCauseCases(t, analysis.SchedulingConstraints, cases)
}
