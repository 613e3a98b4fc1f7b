package rules

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/catalog"
)

// TestCatalogueWords: every one-word reason of the catalogue that is a sign of a symptom, in
// each place a program prints it (a table's cell, a describe field, a JSON status), gives its
// symptom about the object of that place. Words in a person's sentence are the author's (see
// TestParseFormats in internal/ingest/text).
func TestCatalogueWords(t *testing.T) {
	const node = "node-7"
	for _, e := range catalog.Default().Entries {
		pod := "web-7d9f8c6b5-x2x4q"
		if !e.Word || e.Symptom == "" {
			continue
		}
		w := e.Template
		var places map[string]string
		switch {
		case slices.Contains(e.In, "taint"):
			places = map[string]string{
				"describe node Taints": fmt.Sprintf("Name:               %s\nRoles:              <none>\nTaints:             %s:NoSchedule\nUnschedulable:      false\n", node, w),
				"node JSON":            fmt.Sprintf(`{"apiVersion":"v1","kind":"Node","metadata":{"name":"%s"},"spec":{"taints":[{"key":"%s","effect":"NoSchedule"}]}}`, node, w),
			}
		case e.Object == "node" && slices.Contains(e.In, "condition"):
			places = map[string]string{
				"describe node condition": fmt.Sprintf("Name:               %s\nRoles:              <none>\nConditions:\n  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason    Message\n  ----             ------  -----------------                 ------------------                ------    -------\n  %s  %s    Mon, 01 Jan 2026 10:00:00 +0000   Mon, 01 Jan 2026 10:00:00 +0000   %s   kubelet says so\n", node, conditionOf(w), statusOf(w), w),
			}
		case e.Object == "node":
			places = map[string]string{
				"kubectl get nodes row": fmt.Sprintf("NAME     STATUS     ROLES    AGE   VERSION\n%s   %s   <none>   5d    v1.29.1\n", node, w),
				"old kubectl get nodes": fmt.Sprintf("NAME      LABELS     STATUS\n%s    <none>     %s\n", node, w),
			}
		case e.Object != "pod" && e.Object != "container" && e.Object != "node":
			o := objectFor(e)
			cond := map[string][2]string{"Deployment": {"Progressing", "False"}, "Job": {"Failed", "True"}, "ReplicaSet": {"ReplicaFailure", "True"}}[o.kind]
			keys := map[string]string{"Deployment": "StrategyType:           RollingUpdate\n", "Job": "Parallelism:    1\nCompletions:    1\n",
				"ReplicaSet": "Replicas:       1 current / 3 desired\nPod Template:\n  Containers:\n   web:\n    Image:  web:1\n"}[o.kind]
			places = map[string]string{
				"describe conditions": fmt.Sprintf("Name:           %s\nNamespace:      %s\n%sConditions:\n  Type           Status  Reason\n  ----           ------  ------\n  %s    %s   %s\n",
					o.name, o.namespace, keys, cond[0], cond[1], w),
				"JSON condition": fmt.Sprintf(`{"apiVersion":"v1","kind":"%s","metadata":{"name":"%s","namespace":"%s"},"status":{"conditions":[{"type":"%s","status":"%s","reason":"%s"}]}}`,
					o.kind, o.name, o.namespace, cond[0], cond[1], w),
			}
			pod = o.name
		case slices.Contains(e.In, "condition"):
			places = map[string]string{
				"pod JSON condition": fmt.Sprintf(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","namespace":"shop"},"status":{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False","reason":"%s"}]}}`, pod, w),
			}
		case slices.Contains(e.In, "waiting") || slices.Contains(e.In, "terminated"):
			state := fmt.Sprintf("    State:          Waiting\n      Reason:       %s\n", w)
			js := fmt.Sprintf(`"state":{"waiting":{"reason":"%s"}}`, w)
			if slices.Contains(e.In, "terminated") {
				state = fmt.Sprintf("    State:          Running\n    Last State:     Terminated\n      Reason:       %s\n      Exit Code:    137\n", w)
				js = fmt.Sprintf(`"state":{"running":{}},"lastState":{"terminated":{"reason":"%s","exitCode":137}}`, w)
			}
			places = map[string]string{
				"kubectl get pods row": fmt.Sprintf("NAME   READY   STATUS   RESTARTS   AGE\n%s   0/1   %s   3   5m\n", pod, w),
				"custom columns row":   fmt.Sprintf("POD                      STATE\n%s      %s\n", pod, w),
				"describe pod state":   fmt.Sprintf("Name:         %s\nNamespace:    shop\nNode:         %s\nStatus:       Running\nContainers:\n  web:\n%s    Restart Count:  3\n", pod, node, state),
				"pod JSON":             fmt.Sprintf(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","namespace":"shop"},"spec":{"nodeName":"%s"},"status":{"phase":"Running","containerStatuses":[{"name":"web","restartCount":3,%s}]}}`, pod, node, js),
			}
		default: // a pod's status reason
			places = map[string]string{
				"kubectl get pods row": fmt.Sprintf("NAME   READY   STATUS   RESTARTS   AGE\n%s   0/1   %s   0   5m\n", pod, w),
				"describe pod status":  fmt.Sprintf("Name:         %s\nNamespace:    shop\nNode:         %s\nStatus:       Failed\nReason:       %s\nMessage:      the kubelet refused it\n", pod, node, w),
				"pod JSON":             fmt.Sprintf(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","namespace":"shop"},"spec":{"nodeName":"%s"},"status":{"phase":"Failed","reason":"%s","message":"the kubelet refused it"}}`, pod, node, w),
			}
		}
		want := pod
		if e.Object == "node" {
			want = node
		}
		for place, text := range places {
			checkSign(t, e, place, text, want)
		}
	}
}

// conditionOf is the node condition a kubelet condition reason belongs to.
func conditionOf(reason string) string {
	switch {
	case strings.Contains(reason, "Memory"):
		return "MemoryPressure"
	case strings.Contains(reason, "Disk"):
		return "DiskPressure"
	case strings.Contains(reason, "PID"):
		return "PIDPressure"
	}
	return "Ready"
}

// statusOf is the status of the condition a kubelet condition reason stands beside: Ready is
// False when the kubelet is not ready, a pressure True.
func statusOf(reason string) string {
	if conditionOf(reason) == "Ready" {
		return "False"
	}
	return "True"
}
