package signal

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestClassifyPodFailure(t *testing.T) {
	tests := []struct {
		name            string
		reason, message string
		want            PodFailure
	}{
		{
			name: "kubelet critical-pod preemption, pod status", reason: "Preempting", message: "Preempted in order to admit critical pod",
			want: PodFailure{Class: FailurePreemption, Kind: PreemptionCriticalPod},
		},
		{
			name: "critical-pod preemption, message only", message: "Preempted in order to admit critical pod",
			want: PodFailure{Class: FailurePreemption, Kind: PreemptionCriticalPod},
		},
		{
			name: "scheduler preemption event", reason: "Preempted", message: "Preempted by pod 6b1a4c2e on node n1",
			want: PodFailure{Class: FailurePreemption, Kind: PreemptionScheduler},
		},
		{
			name: "scheduler preemption condition", reason: "PreemptionByScheduler", message: "Kubernetes default scheduler: preempting to accommodate a higher priority pod",
			want: PodFailure{Class: FailurePreemption, Kind: PreemptionScheduler},
		},
		{
			name: "graceful shutdown 1.22+", reason: "Terminated", message: "Pod was terminated in response to imminent node shutdown.",
			want: PodFailure{Class: FailurePreemption, Kind: PreemptionNodeShutdown},
		},
		{
			name: "graceful shutdown DisruptionTarget", reason: "TerminationByKubelet", message: "Pod was terminated in response to imminent node shutdown.",
			want: PodFailure{Class: FailurePreemption, Kind: PreemptionNodeShutdown},
		},
		{
			name: "kubectl STATUS Terminated (GKE spot reclaim)", reason: "Terminated",
			want: PodFailure{Class: FailurePreemption, Kind: PreemptionNodeShutdown},
		},
		{
			name: "graceful shutdown 1.21", reason: "Shutdown", message: "Node is shutting, evicting pods",
			want: PodFailure{Class: FailurePreemption, Kind: PreemptionNodeShutdown},
		},
		{
			name: "refused while shutting down", reason: "NodeShutdown", message: "Pod was rejected as the node is shutting down.",
			want: PodFailure{Class: FailurePreemption, Kind: PreemptionNodeShutdown, Admission: true},
		},
		{
			name: "taint manager marking", reason: "TaintManagerEviction", message: "Marking for deletion Pod shop/cart-1",
			want: PodFailure{Class: FailureTaintEviction, Namespace: "shop", Name: "cart-1"},
		},
		{
			name: "taint manager cancelling", reason: "TaintManagerEviction", message: "Cancelling deletion of Pod shop/cart-1",
			want: PodFailure{Class: FailureTaintEviction, Namespace: "shop", Name: "cart-1", Cancelled: true},
		},
		{
			name: "taint manager cancelling, a row run on after it", reason: "TaintManagerEviction", message: "Cancelling deletion of Pod shop/cart-1 default 0s Normal SandboxChanged pod/cart-1",
			want: PodFailure{Class: FailureTaintEviction, Namespace: "shop", Name: "cart-1", Cancelled: true},
		},
		{
			name: "taint manager condition", reason: "DeletionByTaintManager", message: "Taint manager: deleting due to NoExecute taint",
			want: PodFailure{Class: FailureTaintEviction},
		},
		{
			name: "kubelet refuses an untolerated NoExecute taint", reason: "TaintToleration", message: "Predicate TaintToleration failed: node(s) had untolerated taint {dedicated: gpu}",
			want: PodFailure{Class: FailureTaintEviction, Admission: true},
		},
		{
			name: "eviction API", reason: "EvictionByEvictionAPI", message: "Eviction API: evicting",
			want: PodFailure{Class: FailureAPIEviction},
		},
		{
			name: "OutOfcpu with message", reason: "OutOfcpu", message: "Node didn't have enough resource: cpu, requested: 500, used: 3800, capacity: 4000",
			want: PodFailure{Class: FailureAdmission, Resource: "cpu", Admission: true},
		},
		{
			name: "OutOfmemory, STATUS column", reason: "OutOfmemory",
			want: PodFailure{Class: FailureAdmission, Resource: "memory", Admission: true},
		},
		{
			name: "OutOfpods", reason: "OutOfpods",
			want: PodFailure{Class: FailureAdmission, Resource: "pods", Admission: true},
		},
		{
			name: "extended resource", reason: "OutOfnvidia.com/gpu", message: "Node didn't have enough resource: nvidia.com/gpu, requested: 1, used: 1, capacity: 1",
			want: PodFailure{Class: FailureAdmission, Resource: "nvidia.com/gpu", Admission: true},
		},
		{
			name: "old message with Pod prefix, no reason", message: "Pod Node didn't have enough resource: ephemeral-storage, requested: 1, used: 5, capacity: 5",
			want: PodFailure{Class: FailureAdmission, Resource: "ephemeral-storage", Admission: true},
		},
		{
			name: "device manager", reason: "UnexpectedAdmissionError",
			message: "Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 4, Available: 0, which is unexpected",
			want:    PodFailure{Class: FailureAdmission, Resource: "nvidia.com/gpu", Admission: true},
		},
		{
			name: "unexpected admission error, other", reason: "UnexpectedAdmissionError", message: "Update plugin resources failed due to x, which is unexpected.",
			want: PodFailure{Class: FailureAdmission, Admission: true},
		},
		{
			name: "node affinity", reason: "NodeAffinity", message: "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector",
			want: PodFailure{Class: FailureNodeAffinity, Admission: true},
		},
		{
			name: "old match node selector", reason: "MatchNodeSelector", message: "Predicate MatchNodeSelector failed",
			want: PodFailure{Class: FailureNodeAffinity, Admission: true},
		},
		{
			name: "eviction memory", reason: "Evicted", message: "The node was low on resource: memory. Threshold quantity: 100Mi, available: 50Mi. ",
			want: PodFailure{Class: FailureEviction, Resource: "memory"},
		},
		{
			name: "eviction old nodefs", reason: "Evicted", message: "The node was low on resource: nodefs.",
			want: PodFailure{Class: FailureEviction, Resource: "ephemeral-storage"},
		},
		{
			name: "eviction by condition", reason: "Evicted", message: "Pod The node had condition: [DiskPressure]. ",
			want: PodFailure{Class: FailureEviction, Condition: "DiskPressure"},
		},
		{
			name: "eviction by memory pressure condition", reason: "Evicted", message: "The node had condition: [MemoryPressure]. ",
			want: PodFailure{Class: FailureEviction, Resource: "memory", Condition: "MemoryPressure"},
		},
		{
			name: "eviction for a local storage limit", reason: "Evicted", message: `Usage of EmptyDir volume "cache" exceeds the limit "512Mi". `,
			want: PodFailure{Class: FailureEviction, Resource: "ephemeral-storage"},
		},
		{
			name: "eviction condition of the kubelet", reason: "TerminationByKubelet", message: "The node was low on resource: ephemeral-storage. ",
			want: PodFailure{Class: FailureEviction, Resource: "ephemeral-storage"},
		},
		{
			name: "Evicted without message (STATUS column)", reason: "Evicted",
			want: PodFailure{Class: FailureEviction},
		},
		{
			name: "container status unknown", reason: "ContainerStatusUnknown", message: "The container could not be located when the pod was terminated",
			want: PodFailure{Class: FailureLost},
		},
		{
			name: "pod GC", reason: "DeletionByPodGC", message: "PodGC: node no longer exists",
			want: PodFailure{Class: FailureLost},
		},
		{name: "combined prefix", reason: "Evicted", message: CombinedPrefix + "The node was low on resource: pids. ", want: PodFailure{Class: FailureEviction, Resource: "pids"}},
		{name: "crash loop is not a failure class", reason: "CrashLoopBackOff", want: PodFailure{Class: FailureUnknown}},
		{name: "Terminated for another reason", reason: "Terminated", message: "something else", want: PodFailure{Class: FailureUnknown}},
		{name: "empty", want: PodFailure{Class: FailureUnknown}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ClassifyPodFailure(tt.reason, tt.message)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ClassifyPodFailure(%q, %q) mismatch (-want +got):\n%s", tt.reason, tt.message, diff)
			}
		})
	}
}

func TestOnNode(t *testing.T) {
	shutdown := ClassifyPodFailure("Terminated", "Pod was terminated in response to imminent node shutdown.")
	tests := []struct {
		name   string
		f      PodFailure
		labels map[string]string
		want   string
	}{
		{name: "GKE spot", f: shutdown, labels: map[string]string{"cloud.google.com/gke-spot": "true"}, want: PreemptionSpot},
		{name: "GKE preemptible", f: shutdown, labels: map[string]string{"cloud.google.com/gke-preemptible": "true"}, want: PreemptionSpot},
		{name: "EKS spot", f: shutdown, labels: map[string]string{"eks.amazonaws.com/capacityType": "SPOT"}, want: PreemptionSpot},
		{name: "Karpenter on-demand", f: shutdown, labels: map[string]string{"karpenter.sh/capacity-type": "on-demand"}, want: PreemptionNodeShutdown},
		{name: "no labels", f: shutdown, want: PreemptionNodeShutdown},
		{
			name: "critical-pod preemption stays", f: ClassifyPodFailure("Preempting", ""),
			labels: map[string]string{"cloud.google.com/gke-spot": "true"}, want: PreemptionCriticalPod,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.f.OnNode(tt.labels).Kind; got != tt.want {
				t.Errorf("Kind = %q, want %q", got, tt.want)
			}
		})
	}
}

func FuzzClassifyPodFailure(f *testing.F) {
	for _, s := range [][2]string{
		{"OutOfcpu", "Node didn't have enough resource: cpu, requested: 1, used: 2, capacity: 2"},
		{"TaintManagerEviction", "Cancelling deletion of Pod a/b"},
		{"Evicted", "The node was low on resource: memory. Container a was using 1Gi, request is 0, has"},
		{"UnexpectedAdmissionError", "requested number of devices unavailable for x.y/z"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, reason, message string) {
		p := ClassifyPodFailure(reason, message)
		if p.Class == "" {
			t.Fatalf("empty class for %q, %q", reason, message)
		}
		if (p.Class == FailurePreemption) != (p.Kind != "") {
			t.Errorf("kind %q with class %q", p.Kind, p.Class)
		}
		if p.Cancelled && p.Class != FailureTaintEviction {
			t.Errorf("cancelled outside taint eviction: %+v", p)
		}
	})
}
