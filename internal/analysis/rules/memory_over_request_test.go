package rules

import (
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// evictedUsing is evictedWeb with the kubelet's message naming container web's memory use and
// request, as kubelets since 1.9 write it into the pod's status and its Evicted event.
func evictedUsing(message string) string {
	return strings.ReplaceAll(evictedWeb, "The node was low on resource: memory. Threshold quantity: 100Mi, available: 92160Ki.", message)
}

// TestMemoryOverRequestRule pins the comparison of memory_over_request: an evicted container
// that used more memory than it requested (strictly: using exactly its request is not over it),
// for memory evictions and evictions that name no resource, not for other resources.
func TestMemoryOverRequestRule(t *testing.T) {
	const pod = "prod/web-7d9c6b5f4-q8r2t"
	evicted := []string{"evicted_pods_lingering " + pod, "pod_evicted " + pod}
	over := func(used, evidence string) causeWant {
		return causeWant{role: analysis.Contributing, confidence: 0.6, explains: []string{"pod_evicted " + pod},
			summary:  []string{"evicted containers used more memory than they requested: container web of pod " + pod + " used " + used + " against a request of 512Mi"},
			evidence: []string{evidence}}
	}
	tests := []causeCase{
		{name: "used 1Ki less than its request", symptoms: evicted, kinds: []string{},
			docs: []string{evictedUsing("The node was low on resource: memory. Threshold quantity: 100Mi, available: 92160Ki. Container web was using 524287Ki, request is 512Mi, has larger consumption of memory.")}},
		{name: "used its request", symptoms: evicted, kinds: []string{},
			docs: []string{evictedUsing("The node was low on resource: memory. Threshold quantity: 100Mi, available: 92160Ki. Container web was using 524288Ki, request is 512Mi, has larger consumption of memory.")}},
		{name: "used 1Ki more than its request", symptoms: evicted, kinds: []string{analysis.MemoryOverRequest},
			docs: []string{evictedUsing("The node was low on resource: memory. Threshold quantity: 100Mi, available: 92160Ki. Container web was using 524289Ki, request is 512Mi, has larger consumption of memory.")},
			want: over("512Mi", "Container web was using 524289Ki, request is 512Mi")},
		{name: "used 1.8Gi (kubelet 1.9 wording)", symptoms: evicted, kinds: []string{analysis.MemoryOverRequest},
			docs: []string{evictedUsing("The node was low on resource: memory. Container web was using 1900004Ki, which exceeds its request of 536870912.")},
			want: over("1.8Gi", "Container web was using 1900004Ki, which exceeds its request of 536870912.")},
		{name: "requested nothing", symptoms: evicted, kinds: []string{analysis.MemoryOverRequest},
			docs: []string{evictedUsing("The node was low on resource: memory. Threshold quantity: 100Mi, available: 92160Ki. Container web was using 300Mi, request is 0, has larger consumption of memory.")},
			want: causeWant{role: analysis.Contributing, confidence: 0.6, explains: []string{"pod_evicted " + pod},
				summary: []string{"container web of pod " + pod + " used 300Mi against a request of 0"}}},
		{name: "an eviction naming no container", symptoms: evicted, kinds: []string{},
			docs: []string{evictedUsing("The node was low on resource: memory. ")}},
		{name: "over its ephemeral-storage request", symptoms: evicted, kinds: []string{analysis.NodeDiskExhaustion},
			docs: []string{evictedUsing("The node was low on resource: ephemeral-storage. Threshold quantity: 10Gi, available: 9437184Ki. Container web was using 61Gi, request is 0, has larger consumption of ephemeral-storage.")}},
		{name: "an Evicted event in get events", symptoms: []string{"pod_evicted prod/web-1"}, kinds: []string{analysis.MemoryOverRequest},
			docs: []string{"$ kubectl get events -n prod\nLAST SEEN   TYPE      REASON    OBJECT      MESSAGE\n" +
				"12m         Warning   Evicted   pod/web-1   The node was low on resource: memory. Threshold quantity: 100Mi, available: 92160Ki. Container web was using 2Gi, request is 1Gi, has larger consumption of memory.\n"},
			want: causeWant{role: analysis.Contributing, confidence: 0.6, explains: []string{"pod_evicted prod/web-1"},
				summary:  []string{"container web of pod prod/web-1 used 2Gi against a request of 1Gi"},
				evidence: []string{"Container web was using 2Gi, request is 1Gi"}}},
	}
	runCauseCases(t, analysis.MemoryOverRequest, tests)
}
