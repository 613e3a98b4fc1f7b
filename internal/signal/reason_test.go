package signal

import "testing"

func TestReasonCount(t *testing.T) {
	tests := []struct {
		reason   string
		class    ReasonClass
		resource string
		taint    Taint
		taintOK  bool
	}{
		{reason: "Insufficient cpu", class: ClassInsufficient, resource: "cpu"},
		{reason: "Insufficient memory", class: ClassInsufficient, resource: "memory"},
		{reason: "Insufficient nvidia.com/gpu", class: ClassInsufficient, resource: "nvidia.com/gpu"},
		{reason: "Insufficient ephemeral-storage", class: ClassInsufficient, resource: "ephemeral-storage"},
		{reason: "PodExceedsFreeCPU", class: ClassInsufficient, resource: "cpu"},
		{reason: "PodFitsResources", class: ClassInsufficient},
		{reason: "Too many pods", class: ClassTooManyPods, resource: "pods"},
		{reason: "Insufficient pods", class: ClassTooManyPods, resource: "pods"},
		{reason: "node(s) had taints that the pod didn't tolerate", class: ClassTaint},
		{
			reason: "node(s) had taint {node.kubernetes.io/memory-pressure: }, that the pod didn't tolerate",
			class:  ClassTaint, taint: Taint{Key: "node.kubernetes.io/memory-pressure"}, taintOK: true,
		},
		{
			reason: "node(s) had untolerated taint {hub.jupyter.org_dedicated: user}",
			class:  ClassTaint, taint: Taint{Key: "hub.jupyter.org_dedicated", Value: "user"}, taintOK: true,
		},
		{
			reason: "node(s) had untolerated taint {node.kubernetes.io/not-ready: }",
			class:  ClassTaint, taint: Taint{Key: "node.kubernetes.io/not-ready"}, taintOK: true,
		},
		{reason: "node(s) had untolerated taint(s)", class: ClassTaint},
		{reason: "PodToleratesNodeTaints", class: ClassTaint},
		{reason: "node(s) didn't match Pod's node affinity/selector", class: ClassAffinity},
		{reason: "node(s) didn't match node selector", class: ClassAffinity},
		{reason: "MatchNodeSelector", class: ClassAffinity},
		{reason: "node(s) didn't match pod anti-affinity rules", class: ClassPodAffinity},
		{reason: "node(s) didn't match pod affinity rules", class: ClassPodAffinity},
		{reason: "node(s) didn't satisfy existing pods anti-affinity rules", class: ClassPodAffinity},
		{reason: "MatchInterPodAffinity", class: ClassPodAffinity},
		{reason: "node(s) didn't match pod topology spread constraints", class: ClassTopologySpread},
		{reason: "node(s) were unschedulable", class: ClassUnschedulable},
		{reason: "node(s) had volume node affinity conflict", class: ClassVolume},
		{reason: "node(s) didn't find available persistent volumes to bind", class: ClassVolume},
		{reason: `persistentvolumeclaim "data-db-0" not found`, class: ClassVolume},
		{reason: "pod has unbound immediate PersistentVolumeClaims", class: ClassVolume},
		{reason: "NoVolumeZoneConflict", class: ClassVolume},
		{reason: "node(s) did not have enough free storage", class: ClassVolume}, // the volume binder's storage capacity check, 1.23+
		{reason: "node(s) had memory pressure", class: ClassNodeCondition},
		{reason: "node(s) were not ready", class: ClassNodeCondition},
		{reason: "node(s) didn't have free ports for the requested pod ports", class: ClassOther},
		{reason: "Preemption is not helpful for scheduling", class: ClassOther},
		{reason: "max node group size reached", class: ClassOther},
		{reason: "", class: ClassOther},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			r := ReasonCount{Count: 1, Reason: tt.reason}
			if got := r.Class(); got != tt.class {
				t.Errorf("Class() = %q, want %q", got, tt.class)
			}
			if got := r.Resource(); got != tt.resource {
				t.Errorf("Resource() = %q, want %q", got, tt.resource)
			}
			taint, ok := r.Taint()
			if ok != tt.taintOK || taint != tt.taint {
				t.Errorf("Taint() = %+v, %v; want %+v, %v", taint, ok, tt.taint, tt.taintOK)
			}
		})
	}
}
