package rules

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// The symptom and cause rules of issue 26, each at, below and above what makes it fire: a
// sign present, absent, and present but overtaken (a pod that started after all, a claim
// waiting for its first consumer).

const eventsHeader = "NAMESPACE   LAST SEEN   TYPE      REASON   OBJECT   MESSAGE\n"

func TestStuckCreatingRule(t *testing.T) {
	runCauseCases(t, analysis.IPExhaustion, []causeCase{
		{name: "a sandbox that gets no IP address", docs: []string{eventsHeader +
			`shop   2m   Warning   FailedCreatePodSandBox   pod/web-1   Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "4f3c": plugin type="aws-cni" name="aws-cni" failed (add): add cmd: failed to assign an IP address to container` + "\n"},
			symptoms: []string{"pod_stuck_creating shop/web-1"}, kinds: []string{analysis.IPExhaustion},
			want: causeWant{role: analysis.Root, confidence: 0.85, explains: []string{"pod_stuck_creating shop/web-1"},
				summary: []string{"no IP address was left", "failed to assign an IP address"}, evidence: []string{"failed to assign an IP address"}}},
		{name: "a sandbox that fails for another reason is stuck, without that cause", docs: []string{eventsHeader +
			`shop   2m   Warning   FailedCreatePodSandBox   pod/web-1   Failed to create pod sandbox: rpc error: code = DeadlineExceeded desc = context deadline exceeded` + "\n"},
			symptoms: []string{"pod_stuck_creating shop/web-1"}, kinds: []string{}},
		{name: "a pod Pending on no node that cannot start is pending too", docs: []string{eventsHeader +
			`shop   2m   Warning   FailedCreatePodSandBox   pod/web-1   Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "4f3c": plugin type="aws-cni" name="aws-cni" failed (add): add cmd: failed to assign an IP address to container` + "\n",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-1","namespace":"shop"},"spec":{"containers":[{"name":"web","image":"web:1"}]},"status":{"phase":"Pending","initContainerStatuses":[{"name":"init","ready":false,"restartCount":0,"image":"i:1","imageID":"","state":{"waiting":{"reason":"PodInitializing"}}}]}}`},
			symptoms: []string{"pod_pending shop/web-1", "pod_stuck_creating shop/web-1"}, kinds: []string{analysis.IPExhaustion},
			want: causeWant{role: analysis.Root, confidence: 0.85, explains: []string{"pod_pending shop/web-1", "pod_stuck_creating shop/web-1"},
				summary: []string{"no IP address was left"}}},
		{name: "ContainerCreating on a node whose network is not ready", docs: []string{
			"NAME                        READY   STATUS              RESTARTS   AGE   IP       NODE\nkube-dns-86f4d74b45-2xkqz   0/3     ContainerCreating   0          2m    <none>   master-1\n",
			"Apr 01 10:00:00 master-1 kubelet[812]: E0401 10:00:00.000000     812 kubelet.go:2105] Container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:docker: network plugin is not ready: cni config uninitialized\n"},
			symptoms: []string{"node_not_ready master-1", "pod_stuck_creating kube-dns-86f4d74b45-2xkqz"}, kinds: []string{analysis.NetworkSetupFailed},
			want: causeWant{role: analysis.Root, confidence: 0.8, explains: []string{"pod_stuck_creating kube-dns-86f4d74b45-2xkqz"}, summary: []string{"cni config uninitialized"}}},
		{name: "a pods row without a NODE column whose STATUS is the kubelet's is on a node: stuck, not pending", docs: []string{
			"NAME                  READY   STATUS                       RESTARTS   AGE\nweb-7d9f8c6b5-x2x4q   0/1     CreateContainerConfigError   0          2m\n"},
			symptoms: []string{"pod_stuck_creating web-7d9f8c6b5-x2x4q"}, kinds: []string{}},
		{name: "ContainerCreating for minutes on a node whose network is fine is not stuck", docs: []string{
			"NAME                        READY   STATUS              RESTARTS   AGE   IP       NODE\nkube-dns-86f4d74b45-2xkqz   0/3     ContainerCreating   0          2m    <none>   master-1\n"},
			symptoms: nil, kinds: []string{}},
		{name: "a pod running by the time of the input got past a mount that failed once", docs: []string{eventsHeader +
			`shop   9m   Warning   FailedMount   pod/web-1   MountVolume.SetUp failed for volume "config" : configmap "web" not found` + "\n",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-1","namespace":"shop"},"spec":{"nodeName":"n1","containers":[{"name":"web","image":"web:1"}]},"status":{"phase":"Running","containerStatuses":[{"name":"web","ready":true,"restartCount":0,"image":"web:1","imageID":"","state":{"running":{"startedAt":"2026-12-02T10:00:00Z"}}}]}}`},
			symptoms: nil, kinds: []string{}},
	})
}

func TestMissingObjectRule(t *testing.T) {
	runCauseCases(t, analysis.MissingObject, []causeCase{
		{name: "a Secret that does not exist", docs: []string{"Name:         web-1\nNamespace:    shop\nNode:         n1\nStatus:       Pending\nContainers:\n  web:\n    State:          Waiting\n      Reason:       CreateContainerConfigError\n" +
			"Events:\n  Type     Reason  Age   From     Message\n  ----     ------  ----  ----     -------\n  Warning  Failed  2m    kubelet  Error: secret \"db-password\" not found\n"},
			symptoms: []string{"pod_stuck_creating shop/web-1"}, kinds: []string{analysis.MissingObject},
			want: causeWant{role: analysis.Root, confidence: 0.85, explains: []string{"pod_stuck_creating shop/web-1"},
				summary: []string{`secret "db-password" not found`}}},
		{name: "a claim that does not exist is volume_binding's", docs: []string{eventsHeader +
			`shop   2m   Warning   FailedScheduling   pod/db-0   0/3 nodes are available: persistentvolumeclaim "data-db-0" not found.` + "\n"},
			symptoms: []string{"pod_pending shop/db-0"}, kinds: []string{analysis.VolumeBinding}},
	})
}

func TestQuotaExceededRule(t *testing.T) {
	runCauseCases(t, analysis.QuotaExceeded, []causeCase{
		{name: "a ReplicaSet refused by a quota", docs: []string{eventsHeader +
			`shop   1m   Warning   FailedCreate   replicaset/web-7d9f   Error creating: pods "web-7d9f-" is forbidden: exceeded quota: compute, requested: cpu=2, used: cpu=8, limited: cpu=8` + "\n"},
			symptoms: []string{"pod_create_failed shop/web-7d9f"}, kinds: []string{analysis.QuotaExceeded},
			want: causeWant{role: analysis.Root, confidence: 0.85, explains: []string{"pod_create_failed shop/web-7d9f"}, summary: []string{"exceeded quota: compute"}}},
		{name: "a scope the API server limits and no quota covers", docs: []string{eventsHeader +
			`kube-system   1m   Warning   FailedCreate   daemonset/agent   Error creating: insufficient quota to match these scopes: [{PriorityClass In [system-node-critical system-cluster-critical]}]` + "\n"},
			symptoms: []string{"pod_create_failed kube-system/agent"}, kinds: []string{analysis.QuotaExceeded},
			want: causeWant{role: analysis.Root, confidence: 0.85, explains: []string{"pod_create_failed kube-system/agent"}, summary: []string{"insufficient quota to match these scopes"}}},
		{name: "a ReplicaSet refused by a webhook is no quota", docs: []string{eventsHeader +
			`shop   1m   Warning   FailedCreate   replicaset/web-7d9f   Error creating: admission webhook "policy.example.com" denied the request: image not signed` + "\n"},
			symptoms: []string{"pod_create_failed shop/web-7d9f"}, kinds: []string{}},
	})
}

func TestWorkloadRules(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      []string
	}{
		{"a rollout past its deadline", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop"},"status":{"conditions":[{"type":"Progressing","status":"False","reason":"ProgressDeadlineExceeded","message":"ReplicaSet \"web-7d9f\" has timed out progressing."}]}}`,
			[]string{"rollout_stuck shop/web"}},
		{"a rollout still progressing", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop"},"status":{"conditions":[{"type":"Progressing","status":"True","reason":"ReplicaSetUpdated"}]}}`,
			[]string{}},
		{"a Job at its backoff limit", `{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"backup","namespace":"ops"},"status":{"failed":7,"conditions":[{"type":"Failed","status":"True","reason":"BackoffLimitExceeded","message":"Job has reached the specified backoff limit"}]}}`,
			[]string{"job_failed ops/backup"}},
		{"a Job that completed", `{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"backup","namespace":"ops"},"status":{"succeeded":1,"conditions":[{"type":"Complete","status":"True"}]}}`,
			[]string{}},
		{"a claim that could not be provisioned", eventsHeader + `shop   3m   Warning   ProvisioningFailed   persistentvolumeclaim/data-db-0   Failed to provision volume with StorageClass "fast": rpc error: code = ResourceExhausted desc = quota exceeded` + "\n",
			[]string{"volume_provisioning_failed shop/data-db-0"}},
		{"a claim waiting for its first consumer", eventsHeader + `shop   3m   Normal   WaitForFirstConsumer   persistentvolumeclaim/data-db-0   waiting for first consumer to be created before binding` + "\n",
			[]string{}},
		{"the kernel's OOM killer on a node", eventsHeader + `default   5m   Warning   SystemOOM   node/node-5   System OOM encountered, victim process: java, pid: 48211` + "\n",
			[]string{"node_oom node-5"}},
		{"a kernel that ran out of memory, as an old kernel wrote it", eventsHeader + `default   5m   Warning   OOMKilling   node/node-5   Out of memory: Kill process 31542 (java) score 1987 or sacrifice child` + "\n",
			[]string{"node_oom node-5"}},
		{"a memory cgroup at its limit is a container's kill, not the node's", eventsHeader + `default   5m   Warning   OOMKilling   node/node-5   Memory cgroup out of memory: Kill process 31542 (java) score 1987 or sacrifice child` + "\n",
			[]string{"oom_killed"}},
		{"the same, as a newer kernel writes it", eventsHeader + `default   5m   Warning   OOMKilling   node/node-5   Memory cgroup out of memory: Killed process 31542 (java) total-vm:8243112kB, anon-rss:3971224kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:8412kB oom_score_adj:936` + "\n",
			[]string{"oom_killed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := Run(model(t, tc.doc), analysis.Options{})
			got := sortedLabels(rep.Symptoms)
			if len(got) != len(tc.want) || len(got) > 0 && got[0] != tc.want[0] {
				t.Errorf("symptoms %q, want %q", got, tc.want)
			}
		})
	}
}

// TestCgroupOOMNamesItsNode: a kill at a memory cgroup's limit names the node the event is on,
// or the pod it is about, never the node as out of memory.
func TestCgroupOOMNamesItsNode(t *testing.T) {
	const msg = "Memory cgroup out of memory: Killed process 31542 (java) total-vm:8243112kB, anon-rss:3971224kB, file-rss:0kB"
	for _, tc := range []struct{ name, doc, node, pod string }{
		{"on a node", eventsHeader + "default   5m   Warning   OOMKilling   node/node-5   " + msg + "\n", "node-5", ""},
		{"on a pod", eventsHeader + "shop   5m   Warning   OOMKilling   pod/web-1   " + msg + "\n", "", "web-1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := Run(model(t, tc.doc), analysis.Options{})
			if len(rep.Symptoms) != 1 || rep.Symptoms[0].Kind != analysis.OOMKilled {
				t.Fatalf("symptoms %q, want one oom_killed", sortedLabels(rep.Symptoms))
			}
			s := rep.Symptoms[0]
			pod := ""
			if len(s.Objects) == 1 {
				pod = s.Objects[0].Name
			}
			if s.Node != tc.node || pod != tc.pod {
				t.Errorf("node %q, pod %q; want %q, %q", s.Node, pod, tc.node, tc.pod)
			}
		})
	}
}

// TestStartedAgain: a container the kubelet started (or created) n times (one Started event
// counted n times, or one event per container id before 1.10) restarted n-1 times, where no
// status says so; once is no restart, and a status that shows the restarts speaks for them.
func TestStartedAgain(t *testing.T) {
	events := func(started string) string {
		return "Name:         initpod\nNamespace:    default\nEvents:\n  Type    Reason   Age                From     Message\n  ----    ------   ----               ----     -------\n" +
			"  Normal  Started  22m" + started + "  kubelet  Started container web-ctr\n"
	}
	for _, tc := range []struct {
		name, doc string
		want      []string
		restarts  int
	}{
		{"started five times", events(" (x5 over 23m)"), []string{"container_restarted default/initpod"}, 4},
		{"started twice", events(" (x2 over 3m)"), []string{"container_restarted default/initpod"}, 1},
		{"started once", events(""), []string{}, 0},
		{"created three times", strings.Replace(events(" (x3 over 9m)"), "Started  22m (x3 over 9m)  kubelet  Started", "Created  22m (x3 over 9m)  kubelet  Created", 1), []string{"container_restarted default/initpod"}, 2},
		{"created and started three times: one restart symptom", events(" (x3 over 9m)") + "  Normal  Created  22m (x3 over 9m)  kubelet  Created container web-ctr\n", []string{"container_restarted default/initpod"}, 2},
		{"created with two docker ids, before 1.10", "Name:         initpod\nNamespace:    default\nEvents:\n" +
			"  24m   24m 1   {kubelet n-1} spec.containers{web-ctr}   Normal  Created     Created container with docker id 15c7ac30a4b3; Security:[seccomp=unconfined]\n" +
			"  23m   23m 1   {kubelet n-1} spec.containers{web-ctr}   Normal  Created     Created container with docker id 51168dc8d06e; Security:[seccomp=unconfined]\n" +
			"  23m   23m 1   {kubelet n-1} spec.containers{web-ctr}   Normal  Started     Started container with docker id 51168dc8d06e\n",
			[]string{"container_restarted default/initpod"}, 1},
		{"started five times, OOM-killed as its status shows", events(" (x5 over 23m)") + "Containers:\n  web-ctr:\n    State:          Running\n    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n    Restart Count:  4\n",
			[]string{"oom_killed default/initpod"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := Run(model(t, tc.doc), analysis.Options{})
			got := sortedLabels(rep.Symptoms)
			if len(got) != len(tc.want) || len(got) > 0 && got[0] != tc.want[0] {
				t.Fatalf("symptoms %q, want %q", got, tc.want)
			}
			if tc.restarts > 0 && (rep.Symptoms[0].Details.Restarts != tc.restarts || rep.Symptoms[0].Details.Container != "web-ctr") {
				t.Errorf("restarts %d of %q, want %d of web-ctr", rep.Symptoms[0].Details.Restarts, rep.Symptoms[0].Details.Container, tc.restarts)
			}
		})
	}
}

// TestKernelOOMLines: the kernel's own OOM report in a journal says which OOM it was: a memory
// cgroup's limit (CONSTRAINT_MEMCG, "Task in … killed as a result of limit of …") is a
// container's kill, a global one (CONSTRAINT_NONE) the node's; both are of the host that logged
// them.
func TestKernelOOMLines(t *testing.T) {
	for _, tc := range []struct{ name, line, kind string }{
		{"a memory cgroup's limit", "Dec 02 10:04:05 node-7 kernel: oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=4f3c2a1b,mems_allowed=0,oom_memcg=/kubepods/burstable/pod6c1d,task_memcg=/kubepods/burstable/pod6c1d/4f3c,task=java,pid=31542,uid=1000", analysis.OOMKilled},
		{"a memory cgroup's limit, as kernels before 4.19 said it", "Dec 02 10:04:05 node-7 kernel: [12345.678901] Task in /kubepods/burstable/pod6c1d/4f3c killed as a result of limit of /kubepods/burstable/pod6c1d/4f3c", analysis.OOMKilled},
		{"a memory cgroup's limit, its summary and its kill: one kill", "Dec 02 10:04:05 node-7 kernel: oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=4f3c2a1b,mems_allowed=0,oom_memcg=/kubepods/burstable/pod6c1d,task_memcg=/kubepods/burstable/pod6c1d/4f3c,task=java,pid=31542,uid=1000\n" +
			"Dec 02 10:04:05 node-7 kernel: Memory cgroup out of memory: Killed process 31542 (java) total-vm:8243112kB, anon-rss:3971224kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:8412kB oom_score_adj:936", analysis.OOMKilled},
		{"the node's memory", "Dec 02 10:04:05 node-7 kernel: [12345.678901] oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/kubepods/besteffort/pod1/abc,task=stress,pid=4242,uid=0", analysis.NodeOOM},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := Run(model(t, tc.line+"\n"), analysis.Options{})
			if len(rep.Symptoms) != 1 || rep.Symptoms[0].Kind != tc.kind || rep.Symptoms[0].Node != "node-7" {
				t.Fatalf("symptoms %q (node %q), want one %s on node-7", sortedLabels(rep.Symptoms), firstNode(rep.Symptoms), tc.kind)
			}
			if n := len(rep.Symptoms[0].Members); n > 0 {
				t.Errorf("a group of %d, want one kill: %s", n, rep.Symptoms[0].Summary)
			}
		})
	}
}

func firstNode(ss []analysis.Symptom) string {
	if len(ss) == 0 {
		return ""
	}
	return ss[0].Node
}

// TestScannedHost: a message read off a line that says where it was written has that node:
// an old events row's "component, host" source, a node-local component's journal; a
// controller's journal names its own host, not the node the message is about.
func TestScannedHost(t *testing.T) {
	for _, tc := range []struct{ name, doc, kind, node string }{
		{"an old events row's source", "kernel-monitor, gke-pool-1-gl40\t\t\tWarning\t\tOOMKilling\tMemory cgroup out of memory: Kill process 1371 (node) score 2081 or sacrifice child\nKilled process 1371 (node) total-vm:783352kB, anon-rss:201844kB, file-rss:22852kB\n",
			analysis.OOMKilled, "gke-pool-1-gl40"},
		{"the kernel's journal", "Dec 02 10:04:05 node-7 kernel: Memory cgroup out of memory: Killed process 31542 (java) total-vm:8243112kB, anon-rss:3971224kB, file-rss:0kB, shmem-rss:0kB\n",
			analysis.OOMKilled, "node-7"},
		{"a controller's journal", "Dec 02 10:04:05 master-1 kube-controller-manager[811]: I1202 10:04:05.123456 811 job_controller.go:1552] Job has reached the specified backoff limit\n",
			analysis.JobFailed, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := Run(model(t, tc.doc), analysis.Options{})
			if len(rep.Symptoms) != 1 || rep.Symptoms[0].Kind != tc.kind || rep.Symptoms[0].Node != tc.node {
				t.Fatalf("symptoms %q, want one %s on node %q", sortedLabels(rep.Symptoms), tc.kind, tc.node)
			}
		})
	}
}

// TestObjectsNeverNull: a symptom whose input names no object says so with an empty list, as
// docs/report-format promises ("[]" when the input names none), never null: a scale-up whose
// node groups the input does not give.
func TestObjectsNeverNull(t *testing.T) {
	rep := Run(model(t, "I0101 00:00:00.000000 1 scale_up.go:420] Final scale-up plan: [{eks-general-1a2b3c 2->4 (max: 10)}]\nScaleUp: InProgress (ready=3 registered=3)\n"), analysis.Options{})
	if len(rep.Symptoms) == 0 {
		t.Fatal("no symptom")
	}
	out, err := json.Marshal(rep.Symptoms)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), `"objects":null`) {
		t.Errorf("a symptom's objects are null: %s", out)
	}
}
