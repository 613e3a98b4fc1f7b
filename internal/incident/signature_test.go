package incident

import (
	"reflect"
	"testing"
)

// TestSignatureMerge: what an upload's own signature adds to an incident's is its kinds and
// components not there yet, after the incident's; the incident's root cause stays, and the
// upload's speaks only when the incident had none.
func TestSignatureMerge(t *testing.T) {
	t.Parallel()
	hub := Component{Kind: "Deployment", Name: "hub"}
	prom := Component{Kind: "StatefulSet", Name: "prometheus"}
	pool := Component{Kind: NodePool, Name: "core"}
	for _, tc := range []struct {
		name       string
		before, of Signature
		want       Signature
	}{
		{name: "nothing to either", want: Signature{}},
		{
			name: "a first upload is the whole",
			of:   Signature{Symptoms: []string{"pod_evicted"}, RootCause: "capacity_exhaustion", Causes: []string{"capacity_exhaustion"}, Components: []Component{pool}},
			want: Signature{Symptoms: []string{"pod_evicted"}, RootCause: "capacity_exhaustion", Causes: []string{"capacity_exhaustion"}, Components: []Component{pool}},
		},
		{
			name:   "kinds and components added once, after the incident's",
			before: Signature{Symptoms: []string{"pod_pending", "pod_evicted"}, RootCause: "capacity_exhaustion", Causes: []string{"capacity_exhaustion", "shared_node_pool"}, Components: []Component{pool, hub}},
			of:     Signature{Symptoms: []string{"oom_killed", "pod_evicted"}, RootCause: "memory_limit_too_low", Causes: []string{"memory_limit_too_low", "shared_node_pool"}, Components: []Component{prom, hub}},
			want: Signature{Symptoms: []string{"pod_pending", "pod_evicted", "oom_killed"}, RootCause: "capacity_exhaustion",
				Causes: []string{"capacity_exhaustion", "shared_node_pool", "memory_limit_too_low"}, Components: []Component{pool, hub, prom}},
		},
		{
			name:   "an incident without a root cause takes the upload's",
			before: Signature{Symptoms: []string{"pod_pending"}},
			of:     Signature{RootCause: "preemption", Causes: []string{"preemption"}},
			want:   Signature{Symptoms: []string{"pod_pending"}, RootCause: "preemption", Causes: []string{"preemption"}},
		},
		{
			name:   "an upload that finds nothing changes nothing",
			before: Signature{Symptoms: []string{"node_not_ready"}, RootCause: "node_disk_exhaustion", Causes: []string{"node_disk_exhaustion"}},
			want:   Signature{Symptoms: []string{"node_not_ready"}, RootCause: "node_disk_exhaustion", Causes: []string{"node_disk_exhaustion"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			before := tc.before
			beforeSymptoms := append([]string(nil), before.Symptoms...)
			got := tc.before.Merge(tc.of)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Merge = %+v, want %+v", got, tc.want)
			}
			if !got.Equal(tc.want) {
				t.Errorf("Merge = %+v is not Equal to %+v", got, tc.want)
			}
			if !reflect.DeepEqual(before.Symptoms, beforeSymptoms) {
				t.Errorf("Merge changed its receiver's symptoms: %v", before.Symptoms)
			}
		})
	}
}
