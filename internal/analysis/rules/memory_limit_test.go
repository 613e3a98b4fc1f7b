package rules

import (
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// twoContainers is `kubectl describe pod` of data/trino-worker-0: container trino and its
// sidecar log-shipper, each with its last termination reason ("": it never restarted) and its
// resources lines.
func twoContainers(trinoReason, trinoResources, shipperReason, shipperResources string) string {
	last := func(reason string) string {
		if reason == "" {
			return `    State:          Running
      Started:      Wed, 05 Feb 2025 08:00:10 +0000
    Ready:          True
    Restart Count:  0
`
		}
		code := "1"
		if reason == "OOMKilled" {
			code = "137"
		}
		return `    State:          Running
      Started:      Wed, 05 Feb 2025 10:06:12 +0000
    Last State:     Terminated
      Reason:       ` + reason + `
      Exit Code:    ` + code + `
      Started:      Wed, 05 Feb 2025 09:41:03 +0000
      Finished:     Wed, 05 Feb 2025 10:06:10 +0000
    Ready:          True
    Restart Count:  2
`
	}
	return `$ kubectl describe pod trino-worker-0 -n data
Name:             trino-worker-0
Namespace:        data
Priority:         0
Service Account:  trino
Node:             node-5/10.128.0.11
Start Time:       Wed, 05 Feb 2025 08:00:00 +0000
Labels:           app=trino
                  component=worker
Status:           Running
IP:               10.4.3.9
Controlled By:    StatefulSet/trino-worker
Containers:
  trino:
    Container ID:   containerd://aa01
    Image:          trinodb/trino:468
    Port:           8080/TCP
` + last(trinoReason) + trinoResources + `    Environment:    <none>
  log-shipper:
    Container ID:   containerd://bb02
    Image:          fluent/fluent-bit:3.2
    Port:           <none>
` + last(shipperReason) + shipperResources + `    Environment:    <none>
QoS Class:        Burstable
Events:           <none>
`
}

// TestMemoryLimitRule: a container OOM-killed with a memory limit set is memory_limit_too_low,
// naming the container and its limit; one without a limit, a limited container that did not
// die of memory, and the kernel's OOM killer on a node are not.
func TestMemoryLimitRule(t *testing.T) {
	const (
		limited   = "    Limits:\n      memory:  6Gi\n    Requests:\n      cpu:     2\n      memory:  6Gi\n"
		unlimited = "    Requests:\n      cpu:     2\n      memory:  6Gi\n"
		small     = "    Limits:\n      memory:  64Mi\n    Requests:\n      cpu:     50m\n      memory:  32Mi\n"
	)
	oom := []string{"oom_killed data/trino-worker-0"}
	tests := []causeCase{
		{name: "OOM-killed at its limit", docs: []string{twoContainers("OOMKilled", limited, "", small)},
			symptoms: oom, kinds: []string{analysis.MemoryLimitTooLow},
			want: causeWant{role: analysis.Root, confidence: 0.7, explains: oom,
				summary:  []string{"containers were OOM-killed at their memory limit: container trino of pod data/trino-worker-0 (limit 6Gi)"},
				evidence: []string{"6Gi"}, missing: []string{"the containers' memory use before the kill"}}},
		{name: "OOM-killed without a limit", docs: []string{twoContainers("OOMKilled", unlimited, "", unlimited)},
			symptoms: oom, kinds: []string{}},
		{name: "OOM-killed without a limit beside a limited sidecar", docs: []string{twoContainers("OOMKilled", unlimited, "", small)},
			symptoms: oom, kinds: []string{}},
		{name: "the limited sidecar OOM-killed", docs: []string{twoContainers("", unlimited, "OOMKilled", small)},
			symptoms: oom, kinds: []string{analysis.MemoryLimitTooLow},
			want: causeWant{role: analysis.Root, confidence: 0.7, explains: oom,
				summary:  []string{"container log-shipper of pod data/trino-worker-0 (limit 64Mi)"},
				evidence: []string{"64Mi"}, missing: []string{"the containers' memory use"}}},
		{name: "a limited container that failed otherwise", docs: []string{twoContainers("Error", limited, "", small)},
			symptoms: []string{"container_restarted data/trino-worker-0"}, kinds: []string{}},
		{name: "the kernel's OOM killer on a node", docs: []string{"LAST SEEN   TYPE      REASON      OBJECT        MESSAGE\n" +
			"5m          Warning   SystemOOM   node/node-5   System OOM encountered, victim process: trino-server, pid: 48211\n"},
			symptoms: []string{"node_oom node-5"}, kinds: []string{}},
		{name: "kubectl get pod -o json", docs: []string{`{
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {"name": "api-0", "namespace": "prod", "labels": {"app": "api"}},
    "spec": {
        "nodeName": "node-5",
        "containers": [{"name": "api", "image": "registry.example.com/api:1.8.2",
            "resources": {"limits": {"memory": "300Mi"}, "requests": {"cpu": "100m", "memory": "300Mi"}}}]
    },
    "status": {
        "phase": "Running",
        "containerStatuses": [{
            "name": "api", "image": "registry.example.com/api:1.8.2", "imageID": "", "ready": true, "restartCount": 4,
            "state": {"running": {"startedAt": "2025-02-05T10:06:12Z"}},
            "lastState": {"terminated": {"exitCode": 137, "reason": "OOMKilled", "startedAt": "2025-02-05T09:50:00Z", "finishedAt": "2025-02-05T10:06:10Z"}}
        }]
    }
}`}, symptoms: []string{"oom_killed prod/api-0"}, kinds: []string{analysis.MemoryLimitTooLow},
			want: causeWant{role: analysis.Root, confidence: 0.7, explains: []string{"oom_killed prod/api-0"},
				summary: []string{"container api of pod prod/api-0 (limit 300Mi)"}, evidence: []string{"300Mi"}, missing: []string{"memory use"}}},
	}
	runCauseCases(t, analysis.MemoryLimitTooLow, tests)
}

// TestLimitString: a limit is written in the units it was most likely given in, never rounded
// into another.
func TestLimitString(t *testing.T) {
	for _, tt := range []struct {
		bytes int64
		want  string
	}{{3_000_000_000, "3G"}, {2 << 30, "2Gi"}, {512 << 20, "512Mi"}, {100_000_000, "100M"}} {
		if got := limitString(tt.bytes); got != tt.want {
			t.Errorf("limitString(%d) = %q, want %q", tt.bytes, got, tt.want)
		}
	}
}
