package rules

import (
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// TestVolumeBindingRule: pods the scheduler could not place for their volumes (no persistent
// volume to bind, a claim not found or unbound, a volume pinned where no node fits) are
// volume_binding, whether the scheduler says so in its filters or its PreFilter; pods short of
// CPU are not.
func TestVolumeBindingRule(t *testing.T) {
	const preemption = " preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
	pending := []string{"pod_pending prod/db-0"}
	tests := []struct {
		name  string
		msg   string
		kinds []string
	}{
		{"no persistent volume to bind", "0/3 nodes are available: 3 node(s) didn't find available persistent volumes to bind." + preemption, []string{analysis.VolumeBinding}},
		{"a claim not found", `0/3 nodes are available: persistentvolumeclaim "data-db-0" not found.` + preemption, []string{analysis.VolumeBinding}},
		{"an unbound claim", "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims." + preemption, []string{analysis.VolumeBinding}},
		{"volume node affinity conflict", "0/3 nodes are available: 3 node(s) had volume node affinity conflict." + preemption, []string{analysis.VolumeBinding}},
		{"the pre-1.11 zone predicate", "No nodes are available that match all of the following predicates:: NoVolumeZoneConflict (3).", []string{analysis.VolumeBinding}},
		{"a volume conflict and lack of cpu", "0/3 nodes are available: 1 node(s) had volume node affinity conflict, 2 Insufficient cpu." + preemption, []string{analysis.CapacityExhaustion, analysis.VolumeBinding}},
		{"lack of cpu alone", "0/3 nodes are available: 3 Insufficient cpu." + preemption, []string{analysis.CapacityExhaustion}},
		{"a node selector", "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector." + preemption, []string{analysis.SchedulingConstraints}},
	}
	var cases []causeCase
	for _, tt := range tests {
		cases = append(cases, causeCase{name: tt.name, docs: []string{pendingPod("db-0", tt.msg)}, symptoms: pending, kinds: tt.kinds,
			want: causeWant{role: analysis.Root, confidence: 0.8, explains: pending, summary: []string{"pods waited for their volumes: pod prod/db-0: " + tt.msg}}})
	}
	// The same, as `kubectl get events` shows it for a pod the input holds nothing else of.
	cases = append(cases, causeCase{name: "an events table",
		docs: []string{"LAST SEEN   TYPE      REASON             OBJECT      MESSAGE\n" +
			`45s         Warning   FailedScheduling   pod/pg-0    0/6 nodes are available: persistentvolumeclaim "pgdata-pg-0" not found. preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling.` + "\n"},
		symptoms: []string{"pod_pending pg-0"}, kinds: []string{analysis.VolumeBinding},
		want: causeWant{role: analysis.Root, confidence: 0.8, explains: []string{"pod_pending pg-0"},
			summary:  []string{`pod pg-0: 0/6 nodes are available: persistentvolumeclaim "pgdata-pg-0" not found.`},
			evidence: []string{`persistentvolumeclaim "pgdata-pg-0" not found`}}})
	runCauseCases(t, analysis.VolumeBinding, cases)
}
