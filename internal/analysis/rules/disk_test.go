package rules

import (
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// evictedFor is `kubectl describe pod` of pod prod/logstash-0, evicted by the kubelet of
// node-7 with the given message.
func evictedFor(message string) string {
	return strings.NewReplacer("web-7d9c6b5f4-q8r2t", "logstash-0", "core-1", "node-7",
		"The node was low on resource: memory. Threshold quantity: 100Mi, available: 92160Ki.", message).Replace(evictedWeb)
}

// TestNodeDiskRule: node_disk_exhaustion from each kind of evidence, with the confidence the
// rule gives it: evictions for ephemeral-storage, inodes, nodefs or the DiskPressure condition
// (diskEvictionConfidence); nodes under disk pressure by their condition, their event or the
// eviction manager's reclaim (diskPressureConfidence); pods the scheduler kept off nodes with
// the disk-pressure taint (diskTaintConfidence, saying what is missing). Memory evictions and
// memory pressure are not disk.
func TestNodeDiskRule(t *testing.T) {
	evicted := []string{"evicted_pods_lingering prod/logstash-0", "pod_evicted prod/logstash-0"}
	byEviction := causeWant{role: analysis.Root, confidence: diskEvictionConfidence, explains: []string{"pod_evicted prod/logstash-0"},
		summary: []string{"nodes ran out of disk: 1 pod(s) were evicted for disk: pod prod/logstash-0"}}
	underPressure := causeWant{role: analysis.Root, confidence: diskPressureConfidence, explains: []string{"node_pressure node-7"},
		summary: []string{"nodes ran out of disk: under disk pressure: node node-7"}}
	diskPressure := "DiskPressure True KubeletHasDiskPressure kubelet has disk pressure"
	nodeEvents := func(reason, message string) string {
		return "$ kubectl get events --field-selector involvedObject.kind=Node\nLAST SEEN   TYPE      REASON                 OBJECT        MESSAGE\n" +
			"6m          Warning   " + reason + "   node/node-7   " + message + "\n"
	}
	tainted := "0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 node(s) had untolerated taint {node.kubernetes.io/disk-pressure: }. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
	tests := []causeCase{
		{name: "evicted for ephemeral-storage", docs: []string{evictedFor("The node was low on resource: ephemeral-storage. Threshold quantity: 10Gi, available: 9437184Ki. Container logstash was using 61Gi, request is 0, has larger consumption of ephemeral-storage.")},
			symptoms: evicted, kinds: []string{analysis.NodeDiskExhaustion}, want: byEviction},
		{name: "evicted for inodes", docs: []string{evictedFor("The node was low on resource: inodes. ")},
			symptoms: evicted, kinds: []string{analysis.NodeDiskExhaustion}, want: byEviction},
		{name: "evicted for nodefs (kubelet 1.6)", docs: []string{evictedFor("The node was low on resource: nodefs.")},
			symptoms: evicted, kinds: []string{analysis.NodeDiskExhaustion}, want: byEviction},
		{name: "evicted for the DiskPressure condition", docs: []string{evictedFor("The node had condition: [DiskPressure]. ")},
			symptoms: []string{"evicted_pods_lingering prod/logstash-0", "node_pressure node-7", "pod_evicted prod/logstash-0"}, kinds: []string{analysis.NodeDiskExhaustion},
			want: causeWant{role: analysis.Root, confidence: diskEvictionConfidence, explains: []string{"node_pressure node-7", "pod_evicted prod/logstash-0"},
				summary: []string{"nodes ran out of disk: 1 pod(s) were evicted for disk: pod prod/logstash-0"}}},
		{name: "evicted for memory", docs: []string{evictedFor("The node was low on resource: memory. ")},
			symptoms: evicted, kinds: []string{}},
		{name: "the DiskPressure condition", docs: []string{nodeText{name: "node-7", cpu: "4", memory: "16Gi", conditions: []string{diskPressure}}.String()},
			symptoms: []string{"node_pressure node-7"}, kinds: []string{analysis.NodeDiskExhaustion}, want: underPressure},
		{name: "the MemoryPressure condition", docs: []string{nodeText{name: "node-7", cpu: "4", memory: "16Gi",
			conditions: []string{"MemoryPressure True KubeletHasInsufficientMemory kubelet has insufficient memory available"}}.String()},
			symptoms: []string{"node_pressure node-7"}, kinds: []string{}},
		{name: "the kubelet's NodeHasDiskPressure event", docs: []string{nodeEvents("NodeHasDiskPressure", "Node node-7 status is now: NodeHasDiskPressure")},
			symptoms: []string{"node_pressure node-7"}, kinds: []string{analysis.NodeDiskExhaustion}, want: underPressure},
		{name: "the eviction manager reclaiming ephemeral-storage", docs: []string{nodeEvents("EvictionThresholdMet", "Attempting to reclaim ephemeral-storage")},
			symptoms: []string{"node_pressure node-7"}, kinds: []string{analysis.NodeDiskExhaustion}, want: underPressure},
		{name: "the eviction manager reclaiming memory", docs: []string{nodeEvents("EvictionThresholdMet", "Attempting to reclaim memory")},
			symptoms: []string{"node_pressure node-7"}, kinds: []string{}},
		{name: "the disk-pressure taint in FailedScheduling", docs: []string{pendingPod("report-0", tainted)},
			symptoms: []string{"node_pressure", "pod_pending prod/report-0"}, kinds: []string{analysis.NodeDiskExhaustion},
			want: causeWant{role: analysis.Root, confidence: diskTaintConfidence, explains: []string{"node_pressure", "pod_pending prod/report-0"},
				summary: []string{"kept off nodes under disk pressure: pod prod/report-0 (2 node(s) with the disk-pressure taint)"},
				missing: []string{"the node's DiskPressure condition"}}},
		{name: "the memory-pressure taint in FailedScheduling", docs: []string{pendingPod("report-0", strings.ReplaceAll(tainted, "disk-pressure", "memory-pressure"))},
			symptoms: []string{"node_pressure", "pod_pending prod/report-0"}, kinds: []string{}},
		{name: "an eviction and the node's condition", docs: []string{evictedFor("The node was low on resource: ephemeral-storage. "),
			nodeText{name: "node-7", cpu: "4", memory: "16Gi", conditions: []string{diskPressure}}.String()},
			symptoms: []string{"evicted_pods_lingering prod/logstash-0", "node_pressure node-7", "pod_evicted prod/logstash-0"}, kinds: []string{analysis.NodeDiskExhaustion},
			want: causeWant{role: analysis.Root, confidence: diskEvictionConfidence, explains: []string{"node_pressure node-7", "pod_evicted prod/logstash-0"},
				summary: []string{"1 pod(s) were evicted for disk: pod prod/logstash-0", "; under disk pressure: node node-7"}}},
	}
	runCauseCases(t, analysis.NodeDiskExhaustion, tests)
}
