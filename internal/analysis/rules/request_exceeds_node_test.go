package rules

import (
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// twoNodes is `kubectl get nodes -o json` of a cluster whose largest allocatable CPU is 8 (on
// node big-cpu) and largest allocatable memory 16Gi (on node big-mem): the two largest are not
// on the same node.
const twoNodes = `{
    "apiVersion": "v1",
    "items": [
        {
            "apiVersion": "v1",
            "kind": "Node",
            "metadata": {
                "creationTimestamp": "2025-02-01T08:00:00Z",
                "labels": {"kubernetes.io/hostname": "big-cpu", "node.kubernetes.io/instance-type": "c5.2xlarge"},
                "name": "big-cpu"
            },
            "spec": {"providerID": "aws:///eu-west-1a/i-0a1b2c3d4e5f60718"},
            "status": {
                "allocatable": {"cpu": "8", "ephemeral-storage": "95551679124", "memory": "12Gi", "pods": "58"},
                "capacity": {"cpu": "8", "ephemeral-storage": "104845292Ki", "memory": "15896544Ki", "pods": "58"},
                "conditions": [
                    {"lastHeartbeatTime": "2025-02-05T10:04:30Z", "lastTransitionTime": "2025-02-01T08:01:00Z", "message": "kubelet is posting ready status", "reason": "KubeletReady", "status": "True", "type": "Ready"}
                ]
            }
        },
        {
            "apiVersion": "v1",
            "kind": "Node",
            "metadata": {
                "creationTimestamp": "2025-02-01T08:00:00Z",
                "labels": {"kubernetes.io/hostname": "big-mem", "node.kubernetes.io/instance-type": "r5.xlarge"},
                "name": "big-mem"
            },
            "spec": {"providerID": "aws:///eu-west-1a/i-0f1e2d3c4b5a69788"},
            "status": {
                "allocatable": {"cpu": "3920m", "ephemeral-storage": "95551679124", "memory": "16Gi", "pods": "58"},
                "capacity": {"cpu": "4", "ephemeral-storage": "104845292Ki", "memory": "32386544Ki", "pods": "58"},
                "conditions": [
                    {"lastHeartbeatTime": "2025-02-05T10:04:30Z", "lastTransitionTime": "2025-02-01T08:01:00Z", "message": "kubelet is posting ready status", "reason": "KubeletReady", "status": "True", "type": "Ready"}
                ]
            }
        }
    ],
    "kind": "List",
    "metadata": {"resourceVersion": ""}
}
`

// TestRequestExceedsNodeRule pins what request_exceeds_node calls too big: more than the
// largest node's allocatable (strictly; a request equal to it fits an empty node, and the
// pod waits for capacity instead), and, without node objects, hugeMemory (256Gi) and
// hugeMilliCPU (64 CPU) or more, when the scheduler found every node short of that resource.
func TestRequestExceedsNodeRule(t *testing.T) {
	pending := []string{"pod_pending prod/train-0"}
	memory := "0/2 nodes are available: 2 Insufficient memory. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod."
	cpu := "0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod."
	allMemory := "0/12 nodes are available: 12 Insufficient memory."
	allCPU := "0/12 nodes are available: 12 Insufficient cpu."
	exceeds := func(asks, why string) causeWant {
		return causeWant{role: analysis.Root, confidence: 0.85, explains: pending,
			summary: []string{"pods request more than a node allocates: prod/train-0 asks " + asks + ": " + why}}
	}
	unknown := func(asks, why string) causeWant {
		w := exceeds(asks, why)
		w.confidence, w.missing = 0.55, []string{"node objects (kubectl get nodes -o json)"}
		return w
	}
	tests := []causeCase{
		{name: "memory 16383Mi, the largest node 16Gi", docs: []string{twoNodes, pendingPodAsking("train-0", "1", "16383Mi", memory)},
			symptoms: pending, kinds: []string{analysis.CapacityExhaustion}},
		{name: "memory 16Gi, the largest node 16Gi", docs: []string{twoNodes, pendingPodAsking("train-0", "1", "16Gi", memory)},
			symptoms: pending, kinds: []string{analysis.CapacityExhaustion}},
		{name: "memory 16385Mi, the largest node 16Gi", docs: []string{twoNodes, pendingPodAsking("train-0", "1", "16385Mi", memory)},
			symptoms: pending, kinds: []string{analysis.RequestExceedsNode},
			want: exceeds("1 CPU and 16Gi", "the largest node allocates 8 CPU and 16Gi")},
		{name: "CPU 7999m, the largest node 8", docs: []string{twoNodes, pendingPodAsking("train-0", "7999m", "1Gi", cpu)},
			symptoms: pending, kinds: []string{analysis.CapacityExhaustion}},
		{name: "CPU 8, the largest node 8", docs: []string{twoNodes, pendingPodAsking("train-0", "8", "1Gi", cpu)},
			symptoms: pending, kinds: []string{analysis.CapacityExhaustion}},
		{name: "CPU 8001m, the largest node 8", docs: []string{twoNodes, pendingPodAsking("train-0", "8001m", "1Gi", cpu)},
			symptoms: pending, kinds: []string{analysis.RequestExceedsNode},
			want: exceeds("8.0 CPU and 1Gi", "the largest node allocates 8 CPU and 16Gi")},
		{name: "nodes unknown, memory 262143Mi", docs: []string{pendingPodAsking("train-0", "1", "262143Mi", allMemory)},
			symptoms: pending, kinds: []string{analysis.CapacityExhaustion}},
		{name: "nodes unknown, memory 256Gi", docs: []string{pendingPodAsking("train-0", "1", "256Gi", allMemory)},
			symptoms: pending, kinds: []string{analysis.RequestExceedsNode},
			want: unknown("1 CPU and 256Gi", "all 12 nodes lack the memory, and 256Gi fits no common machine type")},
		{name: "nodes unknown, memory 262145Mi", docs: []string{pendingPodAsking("train-0", "1", "262145Mi", allMemory)},
			symptoms: pending, kinds: []string{analysis.RequestExceedsNode},
			want: unknown("1 CPU and 256Gi", "all 12 nodes lack the memory")},
		{name: "nodes unknown, CPU 63999m", docs: []string{pendingPodAsking("train-0", "63999m", "1Gi", allCPU)},
			symptoms: pending, kinds: []string{analysis.CapacityExhaustion}},
		{name: "nodes unknown, CPU 64", docs: []string{pendingPodAsking("train-0", "64", "1Gi", allCPU)},
			symptoms: pending, kinds: []string{analysis.RequestExceedsNode},
			want: unknown("64 CPU and 1Gi", "all 12 nodes lack the CPU, and 64 CPUs fit no common machine type")},
		{name: "nodes unknown, CPU 64001m", docs: []string{pendingPodAsking("train-0", "64001m", "1Gi", allCPU)},
			symptoms: pending, kinds: []string{analysis.RequestExceedsNode},
			want: unknown("64.0 CPU and 1Gi", "all 12 nodes lack the CPU")},
		{name: "nodes unknown, 256Gi but not every node short of memory", docs: []string{pendingPodAsking("train-0", "1", "256Gi",
			"0/12 nodes are available: 2 node(s) had untolerated taint {dedicated: gpu}, 10 Insufficient memory.")},
			symptoms: pending, kinds: []string{analysis.CapacityExhaustion}},
		{name: "nodes unknown, 256Gi asked but CPU short", docs: []string{pendingPodAsking("train-0", "1", "256Gi", allCPU)},
			symptoms: pending, kinds: []string{analysis.CapacityExhaustion}},
	}
	runCauseCases(t, analysis.RequestExceedsNode, tests)
}

// TestRequestExceedsNodeByAutoscaler: cluster-autoscaler's scale-up simulation that finds a
// pending pod short of a resource on a new node of its group says the request exceeds the
// node; short of anything else (a selector), it does not.
func TestRequestExceedsNodeByAutoscaler(t *testing.T) {
	line := func(why string) string {
		return "I0111 10:23:26.908932       1 orchestrator.go:470] Pod prod/train-0 can't be scheduled on eks-ng-1, predicate checking error: " + why + "; predicateName=NodeResourcesFit; reasons: " + why + "; debugInfo=\n"
	}
	event := func(msg string) string {
		return "LAST SEEN   TYPE     REASON              OBJECT          MESSAGE\n" +
			"2m          Warning  FailedScheduling    pod/train-0     0/3 nodes are available: 3 Insufficient cpu.\n" +
			"2m          Normal   NotTriggerScaleUp   pod/train-0     " + msg + "\n"
	}
	pending, inEvents := []string{"pod_pending prod/train-0"}, []string{"pod_pending train-0"}
	runCauseCases(t, analysis.RequestExceedsNode, []causeCase{
		{name: "short of cpu on a new node", docs: []string{line("Insufficient cpu")}, symptoms: pending, kinds: []string{analysis.RequestExceedsNode},
			want: causeWant{role: analysis.Root, confidence: 0.55, explains: pending, missing: []string{"node objects (kubectl get nodes -o json)"},
				summary: []string{"pod prod/train-0: cluster-autoscaler found it fits no new node: Pod prod/train-0 can't be scheduled on eks-ng-1"}}},
		{name: "a selector a new node does not match", docs: []string{line("node(s) didn't match Pod's node affinity/selector")}, symptoms: pending, kinds: []string{analysis.SchedulingConstraints}},
		{name: "the event: short of cpu on every group", docs: []string{event("pod didn't trigger scale-up: 2 Insufficient cpu")}, symptoms: inEvents, kinds: []string{analysis.CapacityExhaustion, analysis.RequestExceedsNode},
			want: causeWant{role: analysis.Root, confidence: 0.55, explains: inEvents, missing: []string{"node objects (kubectl get nodes -o json)"},
				summary: []string{"pod train-0: cluster-autoscaler found it fits no new node: pod didn't trigger scale-up: 2 Insufficient cpu"}}},
		{name: "the event: another group was at its maximum", docs: []string{event("pod didn't trigger scale-up: 1 max node group size reached, 1 Insufficient cpu")}, symptoms: inEvents, kinds: []string{analysis.CapacityExhaustion}},
	})
}

// TestRequestExceedsNodeByKarpenter: Karpenter's scheduling simulation that finds no instance
// type of the node pools a pending pod may use holding its requests says the request exceeds
// any node it can make, in its event (v1) and in its controller's log line (v0.x, where the
// error is the line's message and the pod its "pod" key); a pool it may not use (a taint it
// does not tolerate) says nothing of the request.
func TestRequestExceedsNodeByKarpenter(t *testing.T) {
	event := func(msg string) string {
		return "LAST SEEN   TYPE      REASON             OBJECT          MESSAGE\n" +
			"12s         Warning   FailedScheduling   pod/train-0     " + msg + "\n"
	}
	const log = `controller 2022-06-04T23:46:15.075Z	ERROR	controller	no instance type satisfied resources {"cpu":"60","memory":"125Gi","pods":"1"} and requirements kubernetes.io/os In [linux], node.kubernetes.io/instance-type In [c5.18xlarge c5.xlarge t3a.large], karpenter.sh/provisioner-name In [default]	{"commit": "a7e26e6", "pod": "prod/train-0"}` + "\n"
	inEvents, inLog := []string{"pod_pending train-0"}, []string{"pod_pending prod/train-0"}
	runCauseCases(t, analysis.RequestExceedsNode, []causeCase{
		{name: "the event: no instance type of the pool holds the pod", symptoms: inEvents, kinds: []string{analysis.RequestExceedsNode},
			docs: []string{event(`Failed to schedule pod, incompatible with nodepool "default", daemonset overhead={"cpu":"200m","memory":"300Mi","pods":"5"}, no instance type satisfied resources {"cpu":"29700m","memory":"246700Mi","pods":"6"} and requirements karpenter.sh/nodepool In [default], node.kubernetes.io/instance-type In [r5.8xlarge] (no instance type has enough resources)`)},
			want: causeWant{role: analysis.Root, confidence: 0.55, explains: inEvents, missing: []string{"node objects (kubectl get nodes -o json)"},
				summary: []string{"pod train-0: Karpenter found no instance type that holds it: no instance type satisfied resources"}}},
		{name: "the controller's log line", docs: []string{log}, symptoms: inLog, kinds: []string{analysis.RequestExceedsNode},
			want: causeWant{role: analysis.Root, confidence: 0.55, explains: inLog, missing: []string{"node objects (kubectl get nodes -o json)"},
				summary: []string{"pod prod/train-0: Karpenter found no instance type that holds it: no instance type satisfied resources"}}},
		{name: "the event: a taint of the only pool", symptoms: inEvents, kinds: []string{analysis.SchedulingConstraints},
			docs: []string{event(`Failed to schedule pod, incompatible with nodepool "gpu", daemonset overhead={"cpu":"200m","memory":"300Mi","pods":"5"}, did not tolerate nvidia.com/gpu=true:NoSchedule`)}},
	})
}
