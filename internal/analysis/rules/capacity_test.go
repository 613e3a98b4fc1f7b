package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// coreNode is node core-1 of pool core (4 CPU, 10000Mi allocatable), its pods requesting
// memMi of memory in all, and the given conditions.
func coreNode(memMi int, conditions ...string) string {
	return nodeText{name: "core-1", pool: "core", cpu: "4", memory: "10000Mi", conditions: conditions,
		pods: []string{
			"prod api-6d4f9b7c8-k2x9q 1500m (37%) 0 (0%) 4500Mi (45%) 0 (0%)",
			fmt.Sprintf("prod worker-5b8c7d9f6-p7m2n 1500m (37%%) 0 (0%%) %dMi (%d%%) 0 (0%%)", memMi-4600, (memMi-4600)/100),
			"kube-system kube-proxy-core-1 100m (2%) 0 (0%) 100Mi (1%) 0 (0%)",
		}}.String()
}

// evictedWeb is `kubectl describe pod` of a pod the kubelet of core-1 evicted for memory.
const evictedWeb = `$ kubectl describe pod web-7d9c6b5f4-q8r2t -n prod
Name:             web-7d9c6b5f4-q8r2t
Namespace:        prod
Priority:         0
Service Account:  default
Node:             core-1/10.128.0.7
Start Time:       Wed, 05 Feb 2025 09:00:00 +0000
Labels:           app=web
                  pod-template-hash=7d9c6b5f4
Annotations:      <none>
Status:           Failed
Reason:           Evicted
Message:          The node was low on resource: memory. Threshold quantity: 100Mi, available: 92160Ki. 
IP:               
Controlled By:    ReplicaSet/web-7d9c6b5f4
Containers:
  web:
    Image:          nginx:1.27
    Port:           8080/TCP
    State:          Terminated
      Reason:       ContainerStatusUnknown
      Exit Code:    137
    Ready:          False
    Restart Count:  0
    Requests:
      cpu:        100m
      memory:     256Mi
QoS Class:        Burstable
Events:
  Type     Reason   Age   From     Message
  ----     ------   ----  ----     -------
  Warning  Evicted  12m   kubelet  The node was low on resource: memory. Threshold quantity: 100Mi, available: 92160Ki.
`

// pendingPod is `kubectl describe pod` of a pod of pool core, requesting 2 CPU and 1Gi, that
// the scheduler could not place.
func pendingPod(name, message string) string {
	return pendingPodAsking(name, "2", "1Gi", message)
}

// pendingPodAsking is pendingPod with the pod's requests.
func pendingPodAsking(name, cpu, memory, message string) string {
	return `$ kubectl describe pod ` + name + ` -n prod
Name:             ` + name + `
Namespace:        prod
Priority:         0
Service Account:  default
Node:             <none>
Labels:           app=report
Annotations:      <none>
Status:           Pending
IP:               
IPs:              <none>
Containers:
  report:
    Image:      registry.example.com/report:2.3
    Port:       <none>
    Requests:
      cpu:        ` + cpu + `
      memory:     ` + memory + `
Conditions:
  Type           Status
  PodScheduled   False 
QoS Class:       Burstable
Node-Selectors:  cloud.google.com/gke-nodepool=core
Tolerations:     node.kubernetes.io/not-ready:NoExecute op=Exists for 300s
                 node.kubernetes.io/unreachable:NoExecute op=Exists for 300s
Events:
  Type     Reason            Age                 From               Message
  ----     ------            ----                ----               -------
  Warning  FailedScheduling  2m (x3 over 7m)     default-scheduler  ` + message + `
`
}

// TestCapacityRule pins fullShare (0.9) for memory pressure and the 0.8 for evictions: a
// node whose memory is at least that share requested explains its memory trouble, not its
// disk trouble; and pending pods the scheduler found no room for, unlike pods it may not place.
func TestCapacityRule(t *testing.T) {
	pressure := "MemoryPressure True KubeletHasInsufficientMemory kubelet has insufficient memory available"
	full := func(pct string) causeWant {
		return causeWant{role: analysis.Root, confidence: 0.65, explains: []string{"node_pressure core-1"},
			summary:  []string{"node core-1 had 78% of its CPU and " + pct + " of its memory requested"},
			evidence: []string{"requested by 3 pods: prod/api-6d4f9b7c8-k2x9q"}}
	}
	evicted := func(pct string) causeWant {
		return causeWant{role: analysis.Root, confidence: 0.65, explains: []string{"pod_evicted prod/web-7d9c6b5f4-q8r2t"},
			summary: []string{"node core-1 had 78% of its CPU and " + pct + " of its memory requested"}}
	}
	onNode := []string{"node_pressure core-1"}
	evictions := []string{"evicted_pods_lingering prod/web-7d9c6b5f4-q8r2t", "pod_evicted prod/web-7d9c6b5f4-q8r2t"}
	pending := []string{"pod_pending prod/report-0"}
	tests := []causeCase{
		{name: "pressure, memory 89% requested", symptoms: onNode, docs: []string{coreNode(8900, pressure)}, kinds: []string{}},
		{name: "pressure, memory 90% requested", symptoms: onNode, docs: []string{coreNode(9000, pressure)}, kinds: []string{analysis.CapacityExhaustion}, want: full("90%")},
		{name: "pressure, memory 91% requested", symptoms: onNode, docs: []string{coreNode(9100, pressure)}, kinds: []string{analysis.CapacityExhaustion}, want: full("91%")},
		{name: "eviction, memory 79% requested", symptoms: evictions, docs: []string{coreNode(7900), evictedWeb}, kinds: []string{}},
		{name: "eviction, memory 80% requested", symptoms: evictions, docs: []string{coreNode(8000), evictedWeb}, kinds: []string{analysis.CapacityExhaustion}, want: evicted("80%")},
		{name: "eviction, memory 81% requested", symptoms: evictions, docs: []string{coreNode(8100), evictedWeb}, kinds: []string{analysis.CapacityExhaustion}, want: evicted("81%")},
		{name: "disk pressure, memory 95% requested", symptoms: onNode, kinds: []string{analysis.NodeDiskExhaustion},
			docs: []string{coreNode(9500, "DiskPressure True KubeletHasDiskPressure kubelet has disk pressure")}},
		{name: "eviction for ephemeral-storage, memory 95% requested", symptoms: evictions, kinds: []string{analysis.NodeDiskExhaustion},
			docs: []string{coreNode(9500), strings.ReplaceAll(evictedWeb, "resource: memory.", "resource: ephemeral-storage.")}},
		{name: "pressure at 85% is not full though an eviction would be", symptoms: onNode, docs: []string{coreNode(8500, pressure)}, kinds: []string{}},
		{name: "pending for cpu", symptoms: pending, docs: []string{coreNode(5000), pendingPod("report-0",
			"0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.")},
			kinds: []string{analysis.CapacityExhaustion},
			want: causeWant{role: analysis.Root, confidence: 0.8, explains: []string{"pod_pending prod/report-0"},
				summary:  []string{"pool core lacked 1.1 CPU for 1 pending pods"},
				evidence: []string{"Pending, not on a node"}}},
		{name: "pending for cpu, nodes unknown", symptoms: pending, docs: []string{pendingPod("report-0", "0/3 nodes are available: 1 Insufficient memory, 2 Insufficient cpu.")},
			kinds: []string{analysis.CapacityExhaustion},
			want: causeWant{role: analysis.Root, confidence: 0.65, explains: []string{"pod_pending prod/report-0"},
				summary: []string{"1 pod(s) did not fit on any node"},
				missing: []string{"node objects"}}},
		{name: "refused by its node's kubelet (OutOfcpu): that node short, no word that every node was", symptoms: []string{"pod_pending prod/report-2"},
			docs:  []string{"$ kubectl get pods -n prod\nNAME       READY   STATUS     RESTARTS   AGE\nreport-2   0/1     OutOfcpu   0          3h\n"},
			kinds: []string{analysis.CapacityExhaustion},
			want: causeWant{role: analysis.Root, confidence: 0.4, explains: []string{"pod_pending prod/report-2"},
				summary: []string{"1 pod(s) refused for lack of cpu by the kubelet of the node the scheduler placed them on"},
				missing: []string{"node objects"}}},
		{name: "pending, the autoscaler at its maximum", symptoms: []string{"pod_pending prod/report-1"}, kinds: []string{analysis.CapacityExhaustion},
			docs: []string{"$ kubectl get pods -n prod\nNAME       READY   STATUS    RESTARTS   AGE\nreport-1   0/1     Pending   0          40m\n",
				"$ kubectl get events -n prod\nLAST SEEN   TYPE     REASON              OBJECT         MESSAGE\n" +
					"2m          Normal   NotTriggerScaleUp   pod/report-1   pod didn't trigger scale-up: 1 max node group size reached\n"},
			want: causeWant{role: analysis.Root, explains: []string{"pod_pending prod/report-1"},
				components: []string{"Autoscaler:cluster-autoscaler"},
				summary:    []string{"the autoscaler could not add nodes: 1 node group(s) at their maximum size or limit (max node group size reached)"},
				evidence:   []string{"pod didn't trigger scale-up: 1 max node group size reached"}, missing: []string{"node objects"}}},
		{name: "pending with no word of the scheduler or the autoscaler", symptoms: []string{"pod_pending prod/report-1"}, kinds: []string{},
			docs: []string{"$ kubectl get pods -n prod\nNAME       READY   STATUS    RESTARTS   AGE\nreport-1   0/1     Pending   0          40m\n"}},
		{name: "pending on a node selector", symptoms: pending, docs: []string{coreNode(5000), pendingPod("report-0", "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.")},
			kinds: []string{analysis.SchedulingConstraints}},
	}
	runCauseCases(t, analysis.CapacityExhaustion, tests)
}
