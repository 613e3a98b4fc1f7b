package text

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseFormats checks each format on small inputs: the digest of every emitted object.
func TestParseFormats(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"events current layout", "LAST SEEN   TYPE      REASON    OBJECT      MESSAGE\n" +
			"3m          Warning   BackOff   pod/web-1   Back-off restarting failed container web in pod web-1_prod(ab)\n",
			[]string{`2 Event web-1.BackOff.2 Warning BackOff on Pod /web-1 "Back-off restarting failed container web in pod web-1_prod(ab)"`}},
		{"events with namespace and repeats", "NAMESPACE   LAST SEEN   TYPE   REASON   OBJECT   MESSAGE\n" +
			"prod   20s (x5 over 2d14h)   Warning   Unhealthy   pod/api-0   Readiness probe failed:   503\n",
			[]string{`2 Event prod/api-0.Unhealthy.2 Warning Unhealthy on Pod prod/api-0 x5 "Readiness probe failed:   503"`}},
		{"events old layout with empty subobject", "LASTSEEN   FIRSTSEEN   COUNT   NAME   KIND   SUBOBJECT   TYPE   REASON   SOURCE   MESSAGE\n" +
			"1m   1h   3   node-a   Node      Normal   NodeNotReady   node-controller   Node node-a status is now: NodeNotReady\n",
			[]string{`2 Event node-a.NodeNotReady.2 Normal NodeNotReady on Node /node-a x3 "Node node-a status is now: NodeNotReady"`}},
		{"events without header", "> prod   3m26s   Warning   Evicted   pod/x-1   The node was low on resource: ephemeral-storage.\n",
			[]string{`1 Event prod/x-1.Evicted.1 Warning Evicted on Pod prod/x-1 "The node was low on resource: ephemeral-storage."`}},
		{"pods table", "NAME   READY   STATUS   RESTARTS   AGE\nweb-1   0/1   ImagePullBackOff   0   5m\n",
			[]string{`2 Pod web-1 phase=Pending PodScheduled=True [ready=false waiting:ImagePullBackOff restarts=0]`}},
		{"pods wide pending unscheduled", "NAME   READY   STATUS   RESTARTS   AGE   IP   NODE   NOMINATED NODE   READINESS GATES\n" +
			"web-1   0/1   Pending   0   5m   <none>   <none>   <none>   <none>\n",
			[]string{`2 Pod web-1 phase=Pending PodScheduled=False [ready=false restarts=0]`}},
		{"pods markdown table", "| NAME | READY | STATUS | RESTARTS | AGE |\n|------|-------|--------|----------|-----|\n| db-0 | 0/1 | Error | 0 | 1m |\n",
			[]string{`3 Pod db-0 phase=Failed [ready=false terminated:Error:1 restarts=0]`}},
		{"describe pod with wrapped event", "Name: p\nNamespace: n\nStatus: Running\nNode: a/1.2.3.4\nEvents:\n  Type  Reason  Age  From  Message\n" +
			"  Warning  Unhealthy  1m  kubelet  Liveness probe failed: Get \"http://x/h\":\n    connection refused\n",
			[]string{`1 Pod n/p phase=Running node=a`, `7 Event n/p.Unhealthy.7 Warning Unhealthy on Pod n/p "Liveness probe failed: Get \"http://x/h\": connection refused"`}},
		{"detached events follow their pod", "Name: p\nNamespace: n\nStatus: Pending\nNode: <none>\n\n```\nEvents:\n  Warning  FailedScheduling  1m  default-scheduler  0/2 nodes are available: 2 Too many pods.\n",
			[]string{`1 Pod n/p phase=Pending`, `8 Event n/p.FailedScheduling.8 Warning FailedScheduling on Pod n/p "0/2 nodes are available: 2 Too many pods."`}},
		{"describe deployment is not a pod", "Name: d\nNamespace: n\nReplicas: 1 desired\nSelector: app=d\nEvents:\n  Normal  ScalingReplicaSet  1m  deployment-controller  Scaled up replica set d-1 to 1\n",
			[]string{`6 Event n/d.ScalingReplicaSet.6 Normal ScalingReplicaSet on  n/d "Scaled up replica set d-1 to 1"`}},
		{"describe node taints and pods", "Name: n1\nRoles: <none>\nTaints: node.kubernetes.io/not-ready:NoSchedule\nNon-terminated Pods: (1 in total)\n" +
			"  Namespace  Name  CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age\n  ns  p1  250m (6%)  0 (0%)  1Gi (7%)  2Gi (14%)  1d\n",
			[]string{`1 Node n1 taint=node.kubernetes.io/not-ready:NoSchedule`, `6 Pod ns/p1 phase=Running node=n1 req=250m/1Gi lim=0/2Gi`}},
		{"phrases in a person's sentences are claims", "we saw CrashLoopBackOff on pod/web-1 all night\nthe node was fine\nWarning: System OOM encountered, victim process: java\n",
			[]string{`1 Claim in:1 "we saw CrashLoopBackOff on pod/web-1 all night" quotes CrashLoopBackOff "CrashLoopBackOff on pod/web-1 all night"`,
				`3 Event unknown.in.SystemOOM.3 Warning SystemOOM on Node / loose "System OOM encountered, victim process: java"`}},
		// A message of the catalogue is machine output wherever it stands, in prose too.
		{"a message in output or in prose is observed", "Pods kept dying and we do not know why.\nThe hub restarted many times during the day.\n" +
			"As the events show, the node was low on memory: The node was low on resource: memory.\n```\nThe node was low on resource: memory. Container hub was using 2Gi, request is 1Gi, has larger consumption of memory.\n```\n",
			[]string{`2 Claim in:2 "The hub restarted many times during the day."`,
				`5 Event unknown.in.Evicted.5 Warning Evicted on Pod / loose "The node was low on resource: memory. Container hub was using 2Gi, request is 1Gi, has larger consumption of memory."`,
				`3 Event unknown.in.Evicted.3 Warning Evicted on Pod / loose "The node was low on resource: memory."`}},
		{"a line a program wrote is output wherever it is", "The pods were evicted last night, all of them, and nobody knew why.\nWe looked everywhere for a reason.\n" +
			`      "message": "The node was low on resource: ephemeral-storage. ",` + "\n",
			[]string{`1 Claim in:1 "The pods were evicted last night, all of them, and nobody knew why."`,
				`3 Event unknown.in.Evicted.3 Warning Evicted on Pod / loose "The node was low on resource: ephemeral-storage."`}},
		{"a claim is the sentence of a hard-wrapped paragraph", "## Summary\n> The errors came from the main service running in one of our clusters and\n> were ultimately caused by an outage of the cluster DNS after the pods ran out of memory.\n> We raised the limit.\n",
			[]string{`3 Claim in:3 "The errors came from the main service running in one of our clusters and were ultimately caused by an outage of the cluster DNS after the pods ran out of memory."`}},
		{"a causal sentence is a claim", "## What went wrong\nThe EBS volume of the hub node was just 10Gb: it filled up and caused the evictions.\nWe will fix it.\n",
			[]string{`2 Claim in:2 "The EBS volume of the hub node was just 10Gb: it filled up and caused the evictions."`}},
		{"a list of incidents says so", "# Our incidents\n## 2019-01-07 DNS outage\nRoot cause: CoreDNS limit too low.\n## 2019-03-02 Hub down\nRoot cause: disk full.\n## 2019-05-05 Pending pods\nRoot cause: cluster full.\n",
			[]string{`3 Claim in:3 "Root cause: CoreDNS limit too low."`, `5 Claim in:5 "Root cause: disk full."`, `7 Claim in:7 "Root cause: cluster full."`,
				`1 Claim in:1 "this document describes 3 incidents" incidents=3`}},
		{"phrases inside formats are not repeated", "LAST SEEN   TYPE   REASON   OBJECT   MESSAGE\n1m   Warning   OOMKilling   node/n   Out of memory: OOMKilled process 1\n",
			[]string{`2 Event n.OOMKilling.2 Warning OOMKilling on Node /n "Out of memory: OOMKilled process 1"`}},
		{"garbage", "Name:\n:::\n\x00\xff\n  Type Reason\nNAME READY\n", nil},
		// The scan's wrappers: the node of a kubelet line is the journal's host; the pod of a
		// JSON log line its "Pod" key; a Job's status pasted apart is the Job the paste names.
		{"a kubelet line behind journald names its node", "May 05 13:59:56 ip-10-0-1-2.ec2.internal kubelet[2858]: I0505 13:59:56.872908    2858 kubelet.go:1] Node ip-10-0-1-2.ec2.internal status is now: NodeNotReady\n",
			[]string{`1 Event ip-10-0-1-2.ec2.internal.NodeNotReady.1 Warning NodeNotReady on Node /ip-10-0-1-2.ec2.internal loose "Node ip-10-0-1-2.ec2.internal status is now: NodeNotReady"`}},
		{"a JSON log line names its pod by its Pod key", `{"level":"ERROR","time":"2024-05-02T10:00:00Z","logger":"controller.provisioner","message":"could not schedule pod","Pod":{"name":"web-1","namespace":"shop"},"error":"incompatible with nodepool \"default\""}` + "\n",
			[]string{`1 Event shop/web-1.FailedScheduling.1 Warning FailedScheduling on Pod shop/web-1 loose "could not schedule pod: incompatible with nodepool \"default\""`}},
		{"an event as JSON on a log line names its object", `{"metadata":{"name":"web-1.16d8c","namespace":"prod"},"reason":"Unhealthy","message":"Readiness probe failed: connect: connection refused","involvedObject":{"kind":"Pod","namespace":"prod","name":"web-1","uid":"7b65"}}` + "\n",
			[]string{`1 Event prod/web-1.Unhealthy.1 Warning Unhealthy on Pod prod/web-1 loose "Readiness probe failed: connect: connection refused"`}},
		{"a controller's refusal is the controller's, not the pod's", `I1202 10:00:00.000000       1 event.go:291] "Event occurred" object="shop/web-7d9f" kind="ReplicaSet" apiVersion="apps/v1" type="Warning" reason="FailedCreate" message="Error creating: pods \"web-7d9f-\" is forbidden: error looking up service account shop/web: serviceaccount \"web\" not found"` + "\n",
			[]string{`1 Event shop/web-7d9f.FailedCreate.1 Warning FailedCreate on ReplicaSet shop/web-7d9f loose "Error creating: pods \"web-7d9f-\" is forbidden: error looking up service account shop/web: serviceaccount \"web\" not found"`}},
		{"a describe cut in its first word", "ame:         web-1\nNamespace:    shop\nNode:         n1\nStatus:       Failed\nReason:       Evicted\n",
			[]string{"1 Pod shop/web-1 phase=Failed reason=Evicted node=n1"}},
		{"a Job's status pasted apart", "```yaml\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: demo\n```\n\n```yaml\nstatus:\n  conditions:\n  - message: Job has reached the specified backoff limit\n    reason: BackoffLimitExceeded\n    type: Failed\n```\n",
			[]string{`11 Event demo.BackoffLimitExceeded.11 Warning BackoffLimitExceeded on Job /demo loose "Job has reached the specified backoff limit"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, _ := parseAll(t, "in", []byte(tt.in))
			var got []string
			for _, o := range objs {
				got = append(got, summary(o))
			}
			if diff := cmp.Diff(byLine(tt.want), byLine(got)); diff != "" {
				t.Errorf("objects (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLabelPairs checks the labels a describe's Labels: field gives: one a line, or joined by
// commas on one line as kubectl before 1.5 printed them; what the API server would refuse as a
// label is not one.
func TestLabelPairs(t *testing.T) {
	tests := []struct {
		name  string
		items []string
		want  map[string]string
	}{
		{"one a line", []string{"app=web", "tier=front"}, map[string]string{"app": "web", "tier": "front"}},
		{"1.2 joined by commas", []string{"beta.kubernetes.io/instance-type=t2.medium,kubernetes.io/hostname=ip-172-20-0-99.eu-west-1.compute.internal"},
			map[string]string{"beta.kubernetes.io/instance-type": "t2.medium", "kubernetes.io/hostname": "ip-172-20-0-99.eu-west-1.compute.internal"}},
		{"a value too long for a label", []string{"app=" + strings.Repeat("v", 64), "tier=front"}, map[string]string{"tier": "front"}},
		{"words, not a label", []string{"see the node's labels=all of them"}, nil},
		{"an empty value", []string{"node-role.kubernetes.io/master="}, map[string]string{"node-role.kubernetes.io/master": ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, labelPairs(tt.items)); diff != "" {
				t.Errorf("labels (-want +got):\n%s", diff)
			}
		})
	}
}
