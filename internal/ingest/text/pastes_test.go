package text

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParsePastes checks one input of each class people paste, written for the test in the
// shape it takes in the wild: tables behind prompts, watch and grep; nodes tables; custom
// columns and jsonpath output read by the command above them; the event layouts of old
// releases (tab-separated, dated, sources in braces); describe fragments named by their
// command or by the event before them; k9s boxes; <details>/<pre> blocks.
func TestParsePastes(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"2015", "$ kubectl describe pod web-1\nName:\t\t\t\tweb-1\nNamespace:\t\t\tdefault\nImage(s):\t\t\tnginx:1.9\nNode:\t\t\t\tgke-node-1/10.0.0.1\nStatus:\t\t\t\tRunning\nReplication Controllers:\tweb (2/2 replicas created)\nContainers:\n  web:\n    Image:\t\tnginx:1.9\n    State:\t\tWaiting\n      Reason:\t\tCrashLoopBackOff\n    Ready:\t\tFalse\n    Restart Count:\t25\nEvents:\n  FirstSeen\t\t\t\tLastSeen\t\t\tCount\tFrom\t\t\t\tSubobjectPath\t\t\tReason\t\tMessage\n  ─────────\t\t\t\t────────\t\t\t─────\t────\t\t\t\t─────────────\t\t\t──────\t\t───────\n  Wed, 18 Nov 2015 10:35:20 +0100\tWed, 18 Nov 2015 11:08:57 +0100\t25\t{kubelet gke-node-1}\tspec.containers{web}\tBackOff\t\tBack-off restarting failed docker container\n",
			[]string{`2 Pod default/web-1 phase=Running node=gke-node-1 [web ready=false waiting:CrashLoopBackOff restarts=25]`, `18 Event default/web-1.BackOff.18  BackOff on Pod default/web-1 x25 "Back-off restarting failed docker container"`}},
		{"a describe node pasted double-spaced: its blank lines do not end it",
			"Name:               worker-3\n\nRoles:              <none>\n\nLabels:             kubernetes.io/hostname=worker-3\n\n                    pool=general\n\nTaints:             node.kubernetes.io/unreachable:NoExecute\n\n                    node.kubernetes.io/unreachable:NoSchedule\n\nUnschedulable:      false\n",
			[]string{`1 Node worker-3 taint=node.kubernetes.io/unreachable:NoExecute taint=node.kubernetes.io/unreachable:NoSchedule`}},
		{"a lone Name: line, a blank, then an indented fragment: no proof of double spacing, the fragment stands alone",
			"Name:         web-1\n\n    State:          Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n",
			[]string{"3 Pod  phase= [ready=false terminated:OOMKilled:137 restarts=0]"}},
		{"two describes apart: a blank line between them still ends the first",
			"Name:               worker-3\nRoles:              <none>\n\nName:               worker-4\nRoles:              <none>\n",
			[]string{`1 Node worker-3`, `4 Node worker-4`}},
		{"a claim's events under a describe pod: the volume controllers' reasons are no pod's",
			"$ kubectl describe pod loader-0\n...\nEvents:\n  Type     Reason                Age                From                         Message\n  ----     ------                ----               ----                         -------\n  Normal   Provisioning          20s (x3 over 40s)  ebs.csi.aws.com_ctrl-5f7d   External provisioner is provisioning volume for claim \"etl/data-loader-0\"\n  Warning  ProvisioningFailed    20s (x3 over 40s)  ebs.csi.aws.com_ctrl-5f7d   failed to provision volume with StorageClass \"gp3\": rpc error: code = Internal desc = quota exceeded\n",
			[]string{`6 Event unknown.in.Provisioning.6 Normal Provisioning on  / x3 "External provisioner is provisioning volume for claim \"etl/data-loader-0\""`,
				`7 Event unknown.in.ProvisioningFailed.7 Warning ProvisioningFailed on  / x3 "failed to provision volume with StorageClass \"gp3\": rpc error: code = Internal desc = quota exceeded"`}},
		{"a listing that lost its namespace, then a describe of one of its pods with -n: one pod",
			"kubectl get pods -n etl\n\n## what we see\nNAME            READY   STATUS    RESTARTS   AGE\nloader-7f9c-k2x 0/1     Pending   0          40s\n\nkubectl describe pod loader-7f9c-k2x -n etl\nEvents:\n  Type     Reason            Age   From               Message\n  ----     ------            ----  ----               -------\n  Warning  FailedScheduling  30s   default-scheduler  0/2 nodes are available: 2 Insufficient cpu.\n",
			[]string{"5 Pod etl/loader-7f9c-k2x phase=Pending PodScheduled=False [ready=false restarts=0]", `11 Event etl/loader-7f9c-k2x.FailedScheduling.11 Warning FailedScheduling on Pod etl/loader-7f9c-k2x "0/2 nodes are available: 2 Insufficient cpu."`}},
		{"a listing without its namespace and events of a pod of its name in two namespaces: neither taken",
			"NAME            READY   STATUS    RESTARTS   AGE\nloader-7f9c-k2x 0/1     Pending   0          40s\n\nkubectl describe pod loader-7f9c-k2x -n etl\nEvents:\n  Type     Reason            Age   From               Message\n  ----     ------            ----  ----               -------\n  Warning  FailedScheduling  30s   default-scheduler  0/2 nodes are available: 2 Insufficient cpu.\n\nkubectl describe pod loader-7f9c-k2x -n etl-canary\nEvents:\n  Type     Reason            Age   From               Message\n  ----     ------            ----  ----               -------\n  Warning  FailedScheduling  30s   default-scheduler  0/2 nodes are available: 2 Insufficient cpu.\n",
			[]string{"2 Pod loader-7f9c-k2x phase=Pending PodScheduled=False [ready=false restarts=0]",
				`8 Event etl/loader-7f9c-k2x.FailedScheduling.8 Warning FailedScheduling on Pod etl/loader-7f9c-k2x "0/2 nodes are available: 2 Insufficient cpu."`,
				`14 Event etl-canary/loader-7f9c-k2x.FailedScheduling.14 Warning FailedScheduling on Pod etl-canary/loader-7f9c-k2x "0/2 nodes are available: 2 Insufficient cpu."`}},
		{"the kernel's OOM dump of the node's memory, cut before its verdict: the node's OOM, by its first line",
			"[ 812.100001] postgres invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=-997\n[ 812.100009] Call Trace:\n[ 812.100011]  dump_stack_lvl+0x48/0x60\n[ 812.100015]  dump_header+0x4a/0x210\n[ 812.100018]  oom_kill_process+0xf9/0x190\n[ 812.100021]  out_of_memory+0x256/0x540\n[ 812.100024]  __alloc_pages_slowpath.constprop.0+0xa1c/0xd80\n",
			[]string{`1 Event unknown.in.OOMKilling.1 Warning OOMKilling on  / loose "postgres invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=-997"`,
				"1 Claim in:1 \"[ 812.100001] postgres invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=-997 [ 812.100009] Call Trace:\"", "5 Claim in:5 \"[ 812.100018]  oom_kill_process+0xf9/0x190\""}},
		{"the kernel's OOM dump of a memory cgroup, cut before its verdict: not the node's",
			"[ 812.100001] postgres invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=-997\n[ 812.100009] Call Trace:\n[ 812.100018]  oom_kill_process+0xf9/0x190\n[ 812.100021]  out_of_memory+0x256/0x540\n[ 812.100022]  mem_cgroup_out_of_memory+0x13f/0x160\n[ 812.100024]  try_charge_memcg+0x6b1/0x790\n",
			[]string{"1 Claim in:1 \"[ 812.100001] postgres invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=-997 [ 812.100009] Call Trace:\"", "3 Claim in:3 \"[ 812.100018]  oom_kill_process+0xf9/0x190\"",
				`5 Event unknown.in.OOMKilling.5 Warning OOMKilling on Pod / loose "mem_cgroup_out_of_memory+0x13f/0x160"`}},
		{"the kernel's OOM dump of the node's memory with its verdict: the verdict alone",
			"[ 812.100001] postgres invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=-997\n[ 812.100009] Call Trace:\n[ 812.100011]  dump_stack_lvl+0x48/0x60\n[ 812.100015]  dump_header+0x4a/0x210\n[ 812.100018]  oom_kill_process+0xf9/0x190\n[ 812.100021]  out_of_memory+0x256/0x540\n[ 812.100024]  __alloc_pages_slowpath.constprop.0+0xa1c/0xd80\n[ 812.100300] Mem-Info:\n[ 812.100900] Out of memory: Killed process 4242 (postgres) total-vm:4718592kB, anon-rss:3932160kB, file-rss:0kB, shmem-rss:0kB, UID:999 pgtables:7896kB oom_score_adj:-997\n",
			[]string{"1 Claim in:1 \"[ 812.100001] postgres invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=-997 [ 812.100009] Call Trace:\"", "5 Claim in:5 \"[ 812.100018]  oom_kill_process+0xf9/0x190\"",
				`9 Event unknown.in.OOMKilling.9 Warning OOMKilling on Node / loose "Out of memory: Killed process 4242 (postgres) total-vm:4718592kB, anon-rss:3932160kB, file-rss:0kB, shmem-rss:0kB, UID:999 pgtables:7896kB oom_score_adj:-997"`}},
		{"an OOM dump with a memory cgroup's usage and limit after a page allocator's frame: the cgroup's, not the node's",
			"[ 812.100001] java invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=968\n[ 812.100024]  __alloc_pages_slowpath.constprop.0+0xa1c/0xd80\n[ 812.100100] memory: usage 524288kB, limit 524288kB, failcnt 4211\n",
			[]string{"1 Claim in:1 \"[ 812.100001] java invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=968 [ 812.100024]  __alloc_pages_slowpath.constprop.0+0xa1c/0xd80 [ 812.100100] memory: usage 524288kB, limit 524288kB, failcnt 4211\""}},
		{"a CSI sidecar's gRPC error: its code is gRPC's, not a Job's reason",
			"I0805 05:33:10.817893       1 connection.go:187] GRPC error: rpc error: code = DeadlineExceeded desc = context deadline exceeded\n",
			nil},
		{"custom", "kubectl get pods -n batch -o custom-columns=NAME:.metadata.name,PHASE:.status.phase,REASON:.status.reason,NODE:.spec.nodeName\nNAME      PHASE    REASON      NODE\nworker-1  Failed   Evicted     node-a\nworker-2  Failed   OutOfcpu    node-b\nworker-3  Running  <none>      node-a\n",
			[]string{`3 Pod batch/worker-1 phase=Failed reason=Evicted node=node-a PodScheduled=True`, `4 Pod batch/worker-2 phase=Failed reason=OutOfcpu node=node-b PodScheduled=True`, `5 Pod batch/worker-3 phase=Running node=node-a PodScheduled=True`}},
		{"custom guess", "NAME      STATUS    REASON     MESSAGE\nweb-1     Failed    Evicted    The node was low on resource: memory.\n",
			[]string{`2 Pod web-1 phase=Failed reason=Evicted message="The node was low on resource: memory."`}},
		{"details", "<details>\n<summary>describe node</summary>\n<pre>\n$ kubectl describe node n1\nName:               n1\nConditions:\n  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message\n  ----             ------  -----------------                 ------------------                ------                       -------\n  MemoryPressure   True    Wed, 06 Mar 2019 09:46:36 +0100   Mon, 04 Mar 2019 09:52:26 +0100   KubeletHasInsufficientMemory   kubelet has insufficient memory available\n</pre>\n</details>\n",
			[]string{`5 Node n1 MemoryPressure=True`}},
		{"forwarded then fragment", "webhook body: b'{\"text\":\"Level:Warning \\\\nKind:Pod \\\\nNamespace:ns1 \\\\nName:api-5d-x7.17a71c191e6304ea \\\\nReason:BackOff \\\\nMessage:Back-off restarting failed container\"}'\n\n    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n    Restart Count:  3\n",
			[]string{`1 Event ns1/api-5d-x7.BackOff.1 Warning BackOff on Pod ns1/api-5d-x7 loose "Back-off restarting failed container"`, `3 Pod ns1/api-5d-x7 phase= [ready=false last:OOMKilled:137 restarts=3]`}},
		{"fragment by command", "$ kubectl describe pod api-0 -n prod | grep -A8 State\n    State:          Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n    Restart Count:  4\n",
			[]string{`2 Pod prod/api-0 phase= [ready=false terminated:OOMKilled:137 restarts=4]`}},
		{"grep", "$ kubectl get pods -n jhub | grep Evicted\njupyter-alice    0/1     Evicted   0     20h\njupyter-...-348  0/1     Evicted   0     1h\n",
			[]string{`2 Pod jhub/jupyter-alice phase=Failed reason=Evicted [ready=false restarts=0]`, `3 Pod jhub/jupyter-...-348 phase=Failed reason=Evicted [ready=false restarts=0]`}},
		{"jsonpath", "root:~# kubectl -n sre get pod web-7c9-abcde -o jsonpath='{.metadata.name}{\"\\t\\t\"}{.status.reason}{\"\\t\\t\"}{.status.message}{\"\\n\"}'\nweb-7c9-abcde\t\tEvicted\t\tThe node was low on resource: ephemeral-storage. Threshold quantity: 30Gi, available: 24094024Ki.\n",
			[]string{`2 Pod sre/web-7c9-abcde phase=Failed reason=Evicted message="The node was low on resource: ephemeral-storage. Threshold quantity: 30Gi, available: 24094024Ki."`}},
		{"k9s", "│ Events:                                             │\n│   Type     Reason            Age   From               Message   │\n│   ----     ------            ----  ----               -------   │\n│   Warning  FailedScheduling  51s   default-scheduler  0/3 nodes are available: 3 Insufficient memory.  │\n",
			[]string{`4 Event unknown.in.FailedScheduling.4 Warning FailedScheduling on  / "0/3 nodes are available: 3 Insufficient memory."`}},
		{"an export split by semicolons, the second row about a pod only its own row names: not the pod the first names",
			"2024-03-04T10:02:11Z;prod;web-7d9f8-x2k4p;BackOff;Back-off restarting failed container web in pod web-7d9f8-x2k4p_prod(8ea8c461-b6a8-4c16-9b57-71ba32ae8cba)\n2024-03-04T09:58:02Z;prod;api-5c6d7b9f8-q9w8x;FailedScheduling;0/6 nodes are available: 6 Insufficient memory.\n",
			[]string{`1 Event prod/web-7d9f8-x2k4p.BackOff.1 Warning BackOff on Pod prod/web-7d9f8-x2k4p loose "Back-off restarting failed container web in pod web-7d9f8-x2k4p_prod(8ea8c461-b6a8-4c16-9b57-71ba32ae8cba)"`,
				`2 Event unknown.in.FailedScheduling.2 Warning FailedScheduling on Pod / loose "0/6 nodes are available: 6 Insufficient memory."`}},
		{"an export split by semicolons, the second row naming the ReplicaSet of the pod the first names: that pod's",
			"2024-03-04T10:02:11Z;prod;web-7d9f8-x2k4p;BackOff;Back-off restarting failed container web in pod web-7d9f8-x2k4p_prod(8ea8c461-b6a8-4c16-9b57-71ba32ae8cba)\n2024-03-04T09:58:02Z;prod;web-7d9f8;FailedScheduling;0/6 nodes are available: 6 Insufficient memory.\n",
			[]string{`1 Event prod/web-7d9f8-x2k4p.BackOff.1 Warning BackOff on Pod prod/web-7d9f8-x2k4p loose "Back-off restarting failed container web in pod web-7d9f8-x2k4p_prod(8ea8c461-b6a8-4c16-9b57-71ba32ae8cba)"`,
				`2 Event prod/web-7d9f8-x2k4p.FailedScheduling.2 Warning FailedScheduling on Pod prod/web-7d9f8-x2k4p loose "0/6 nodes are available: 6 Insufficient memory."`}},
		{"kube-scheduler's klog lines: the diagnosis in err=, to its closing quote, once for the line that repeats it; the preemption part in status= is not one of its own",
			`E0314 09:12:44.100200      1 schedule_one.go:247] "pod anti-affinity after SchedulePod for pod" pod="data/kafka-2" status="preemption: 0/12 nodes are available: 2 node(s) didn't match pod anti-affinity rules, 10 Preemption is not helpful for scheduling." err="0/12 nodes are available: 1 Insufficient memory, 2 node(s) didn't match pod anti-affinity rules, 9 node(s) didn't match Pod's node affinity/selector. preemption: 0/12 nodes are available: 2 node(s) didn't match pod anti-affinity rules, 10 Preemption is not helpful for scheduling." node="-"` + "\n" +
				`I0314 09:12:44.100300      1 schedule_one.go:1129] "Unable to schedule pod; no fit; waiting" pod="data/kafka-2" err="0/12 nodes are available: 1 Insufficient memory, 2 node(s) didn't match pod anti-affinity rules, 9 node(s) didn't match Pod's node affinity/selector. preemption: 0/12 nodes are available: 2 node(s) didn't match pod anti-affinity rules, 10 Preemption is not helpful for scheduling."` + "\n",
			[]string{`1 Event data/kafka-2.FailedScheduling.1 Warning FailedScheduling on Pod data/kafka-2 loose "0/12 nodes are available: 1 Insufficient memory, 2 node(s) didn't match pod anti-affinity rules, 9 node(s) didn't match Pod's node affinity/selector. preemption: 0/12 nodes are available: 2 node(s) didn't match pod anti-affinity rules, 10 Preemption is not helpful for scheduling."`}},
		{"a klog line with a key after its err=: the message ends at its value's closing quote",
			`I0314 09:12:44.100300      1 schedule_one.go:1129] "Unable to schedule pod; no fit; waiting" pod="data/kafka-2" err="0/12 nodes are available: 12 Insufficient memory." attempts=3` + "\n",
			[]string{`1 Event data/kafka-2.FailedScheduling.1 Warning FailedScheduling on Pod data/kafka-2 loose "0/12 nodes are available: 12 Insufficient memory."`}},
		{"a kubelet klog line with keys after its err=: the message ends at its value's closing quote",
			`E0314 09:12:44.100300    2011 pod_workers.go:1301] "Error syncing pod, skipping" err="failed to \"StartContainer\" for \"app\" with ImagePullBackOff: \"Back-off pulling image \\\"registry.example.com/app:v2\\\"\"" pod="prod/app-7d9f8-x2k4p" podUID="8ea8c461-b6a8-4c16-9b57-71ba32ae8cba"` + "\n",
			[]string{`1 Event prod/app-7d9f8-x2k4p.FailedSync.1 Normal FailedSync on Pod prod/app-7d9f8-x2k4p loose "Error syncing pod, skipping: failed to \"StartContainer\" for \"app\" with ImagePullBackOff: \"Back-off pulling image \\\"registry.example.com/app:v2\\\"\""`}},
		{"a logfmt line with keys after the value a message stands in: the message ends at the value's closing quote",
			`level=warn ts=2024-03-04T09:58:02Z component=probe-watcher msg="pod prod/api-5c6d7b9f8-q9w8x: Readiness probe failed: HTTP probe failed with statuscode: 503" attempt=4 node=ip-10-0-3-17` + "\n",
			[]string{`1 Event unknown.in.Unhealthy.1 Warning Unhealthy on Pod / loose "Readiness probe failed: HTTP probe failed with statuscode: 503"`}},
		{"Karpenter's controller log line of v0.x: the error its message, to the fields zap writes after a tab; the pod its \"pod\" key",
			"controller 2022-06-04T23:46:15.075Z\tERROR\tcontroller\tno instance type satisfied resources {\"cpu\":\"60\",\"pods\":\"1\"} and requirements karpenter.sh/provisioner-name In [default]\t{\"commit\": \"a7e26e6\", \"pod\": \"prod/train-0\"}\n",
			[]string{`1 Event prod/train-0.FailedScheduling.1 Warning FailedScheduling on Pod prod/train-0 loose "no instance type satisfied resources {\"cpu\":\"60\",\"pods\":\"1\"} and requirements karpenter.sh/provisioner-name In [default]"`}},
		{"events an exporter wrote as logfmt: each line's object by its keys",
			"level=warn ts=2024-03-04T09:58:02Z kind=Pod namespace=prod name=api-5c6d7b9f8-q9w8x reason=FailedScheduling msg=\"0/6 nodes are available: 6 Insufficient memory.\"\n" +
				"level=info ts=2024-03-04T09:59:00Z involvedObject.kind=Node involvedObject.name=ip-10-0-3-17.ec2.internal reason=NodeNotReady msg=\"Node ip-10-0-3-17.ec2.internal status is now: NodeNotReady\"\n",
			[]string{`1 Event prod/api-5c6d7b9f8-q9w8x.FailedScheduling.1 Warning FailedScheduling on Pod prod/api-5c6d7b9f8-q9w8x loose "0/6 nodes are available: 6 Insufficient memory."`,
				`2 Event ip-10-0-3-17.ec2.internal.NodeNotReady.2 Warning NodeNotReady on Node /ip-10-0-3-17.ec2.internal loose "Node ip-10-0-3-17.ec2.internal status is now: NodeNotReady"`}},
		{"a StatefulSet controller's refusal, a describe row quoted in a sentence: the set its words name",
			"We see this on the namespace after the quota change:\n\n  Warning  FailedCreate  51s (x19 over 23m)  statefulset-controller  create Pod odhf-processing-0 in StatefulSet odhf-processing failed error: pods \"odhf-processing-0\" is forbidden: exceeded quota: quotas, requested: limits.cpu=2, used: limits.cpu=15, limited: limits.cpu=16\n",
			[]string{`3 Event odhf-processing.FailedCreate.3 Warning FailedCreate on StatefulSet /odhf-processing x19 "create Pod odhf-processing-0 in StatefulSet odhf-processing failed error: pods \"odhf-processing-0\" is forbidden: exceeded quota: quotas, requested: limits.cpu=2, used: limits.cpu=15, limited: limits.cpu=16"`}},
		{"OpenShift's console event log, tab-separated: a name that ends one column before a tab stop is a cell of its own",
			"Event log for builds:\n\nTime\tName\tKind\tSeverity\tReason\tMessage\n3:00:50 PM\tjenkins-2-kxzvt\tPod\tWarning\tFailed scheduling \tNo nodes are available that match all of the following predicates:: Insufficient cpu (12), MatchNodeSelector (2).\n3:00:39 PM\tnexus-1-deploy\tPod\tNormal\tKilling \tKilling container with id docker://deployment:Need to kill Pod\n",
			[]string{`4 Event jenkins-2-kxzvt.FailedScheduling.4 Warning FailedScheduling on Pod /jenkins-2-kxzvt loose "No nodes are available that match all of the following predicates:: Insufficient cpu (12), MatchNodeSelector (2)."`,
				`5 Event nexus-1-deploy.Killing.5 Normal Killing on Pod /nexus-1-deploy loose "Killing container with id docker://deployment:Need to kill Pod"`}},
		{"a pods header whose RESTARTS a paste split in two",
			"$ kubectl get pods\nNAME                         READY   STATUS    RESTART   S   AGE\nworker-7d9f8b6c5d-x2k4p      1/2     Error     14            3d\nbroker-0                     0/1     Pending   0             3d\n",
			[]string{`3 Pod worker-7d9f8b6c5d-x2k4p phase=Running [ready=true restarts=14] [ready=false terminated:Error:1 restarts=0]`,
				`4 Pod broker-0 phase=Pending PodScheduled=False [ready=false restarts=0]`}},
		{"a describe fragment of Init Containers alone, no pod named: its init container's states",
			"Init Containers:\n  fetch-config:\n    Image:         registry.example.com/tools/fetch:1.2\n    State:          Waiting\n      Reason:       CrashLoopBackOff\n    Last State:     Terminated\n      Reason:       Error\n      Message:      Failed to fetch /opt/app/conf/app.yml. statusCode=403\n      Exit Code:    1\n      Started:      Tue, 25 Aug 2020 08:20:35 +0000\n      Finished:     Tue, 25 Aug 2020 08:20:35 +0000\n    Ready:          False\n    Restart Count:  16\n",
			[]string{`1 Pod  phase= init[fetch-config ready=false waiting:CrashLoopBackOff last:Error:1 restarts=16]`}},
		{"rollout status under its command's namespace: the deployment its message names is in it",
			"$ kubectl rollout status deployment/checkout -n shop\nWaiting for deployment \"checkout\" rollout to finish: 1 out of 3 new replicas have been updated...\nerror: deployment \"checkout\" exceeded its progress deadline\n",
			[]string{`3 Event shop/checkout.ProgressDeadlineExceeded.3 Warning ProgressDeadlineExceeded on Deployment shop/checkout loose "deployment \"checkout\" exceeded its progress deadline"`}},
		{"the same after a blank line: no longer the command's output, no namespace given",
			"$ kubectl rollout status deployment/checkout -n shop\n\nerror: deployment \"checkout\" exceeded its progress deadline\n",
			[]string{`3 Event checkout.ProgressDeadlineExceeded.3 Warning ProgressDeadlineExceeded on Deployment /checkout loose "deployment \"checkout\" exceeded its progress deadline"`}},
		{"nodes", "$ kubectl get nodes\nNAME     STATUS                        ROLES    AGE   VERSION\nnode-a   Ready                         master   7d    v1.10.3\nnode-b   NotReady,SchedulingDisabled   <none>   41d   v1.7.0\n",
			[]string{`3 Node node-a Ready=True`, `4 Node node-b Ready=False`}},
		{"nodes old", "# kubectl get nodes\nNAME      STATUS     AGE       VERSION\n10.0.0.1   Ready      41d       v1.7.0\n10.0.0.2   NotReady   41d       v1.7.0\n",
			[]string{`3 Node 10.0.0.1 Ready=True`, `4 Node 10.0.0.2 Ready=False`}},
		{"old get events braces", "FIRSTSEEN   LASTSEEN   COUNT     NAME      KIND      SUBOBJECT              TYPE      REASON    SOURCE                 MESSAGE\n1h          1m         12        web-1     Pod       spec.containers{web}   Warning   BackOff   {kubelet node-a}       Back-off restarting failed container\n",
			[]string{`2 Event web-1.BackOff.2 Warning BackOff on Pod /web-1 x12 "Back-off restarting failed container"`}},
		{"old tabbed", "  2h\t\t48m\t\t7\tdefault-scheduler\t\t\tWarning\t\tFailedScheduling\tNo nodes are available that match all of the following predicates:: Insufficient cpu (9), Insufficient memory (15), MatchNodeSelector (18).\n  4h\t\t46m\t\t9\tdefault-scheduler\t\t\tWarning\t\tFailedScheduling\tNo nodes are available that match all of the following predicates:: Insufficient cpu (9).\n",
			[]string{`1 Event unknown.in.FailedScheduling.1 Warning FailedScheduling on  / x7 "No nodes are available that match all of the following predicates:: Insufficient cpu (9), Insufficient memory (15), MatchNodeSelector (18)."`, `2 Event unknown.in.FailedScheduling.2 Warning FailedScheduling on  / x9 "No nodes are available that match all of the following predicates:: Insufficient cpu (9)."`}},
		{"a taint's key a pod tolerates is no taint; one a node has is", "pod's tolerations\n```\n  tolerations:\n    - key: CriticalAddonsOnly\n      operator: Exists\n    - effect: NoExecute\n      key: node.kubernetes.io/not-ready\n      operator: Exists\n```\n\nnode's taints\n```\nspec:\n  taints:\n    - effect: NoSchedule\n      key: node.kubernetes.io/unreachable\n```\n",
			[]string{`16 Event unknown.in.NodeStatusUnknown.16 Warning NodeStatusUnknown on Node / loose "node.kubernetes.io/unreachable"`}},
		{"old wide events rows without their header: a row's message ends at the next row", "kube-system     3m          3m           1       canal-hgqfr.158111ce45c6fe5f                             Pod         spec.containers{calico-node}                Warning   Unhealthy                 kubelet, 10.150.162.241      Readiness probe failed: Get http://10.150.162.241:9099/readiness: dial tcp 10.150.162.241:9099: connect: connection refused\n" + "kube-system     3m          3m           1       canal-5q4ds.158111ce6c40012f                             Pod         spec.containers{calico-node}                Normal    Started                   kubelet, 10.150.162.243      Started container\n",
			[]string{`1 Event canal-hgqfr.Unhealthy.1 Warning Unhealthy on Pod /canal-hgqfr loose "Readiness probe failed: Get http://10.150.162.241:9099/readiness: dial tcp 10.150.162.241:9099: connect: connection refused"`}},
		{"a describe's tolerations", "Node-Selectors:  <none>\nTolerations:     node.kubernetes.io/not-ready:NoExecute op=Exists for 300s\n                 node.kubernetes.io/unreachable:NoExecute op=Exists for 300s\nEvents:          <none>\n",
			nil},
		{"a message that names its pod is that pod's, beside a reader's reading of the same line", "WARNING: Event retrieved from the cluster: The node was low on resource: ephemeral-storage. Threshold quantity: 16023864137, available: 12671572Ki. ERROR: Job failed (system failure): pod \"ci/runner-1\" is disrupted: reason \"TerminationByKubelet\", message \"The node was low on resource: ephemeral-storage.\"\n",
			[]string{`1 Event unknown.in.Evicted.1 Warning Evicted on Pod / loose "The node was low on resource: ephemeral-storage. Threshold quantity: 16023864137, available: 12671572Ki. ERROR: Job failed (system failure):"`,
				`1 Event ci/runner-1.Evicted.1 Warning Evicted on Pod ci/runner-1 loose "pod \"ci/runner-1\" is disrupted: reason \"TerminationByKubelet\", message \"The node was low on resource: ephemeral-storage.\""`}},
		{"a container's log under kubectl logs, its prompt against the command", "$kubectl logs tiefighter\nexec /usr/bin/bash: exec format error\n",
			[]string{`2 Event tiefighter..2 Normal  on Pod /tiefighter loose "exec /usr/bin/bash: exec format error"`}},
		{"a message quoted in a sentence is about the pod of the command the sentence quotes", "The command \"kubectl describe pods apache-7f6fddb7df-q229r\" and the output is \" Warning  FailedScheduling  61s (x2 over 6m23s)  default-scheduler  0/1 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }.\"\n",
			[]string{`1 Event apache-7f6fddb7df-q229r.FailedScheduling.1 Warning FailedScheduling on Pod /apache-7f6fddb7df-q229r loose "0/1 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }."`}},
		{"a tool's tables: a node column, and events by their own names", "NODENAME   SEVERITY   HEARTBEATTIME               REASON              MESSAGE\nnode-7     Fatal      2024-03-01T10:32:03+08:00   NodeStatusUnknown   Kubelet stopped posting node status.\n\n" +
			"NAMESPACE   SEVERITY   PODNAME                            EVENTTIME                   REASON      MESSAGE\nshop        Warning    node-7.164b5861e041a60e            2024-03-01T19:01:09+08:00   SystemOOM   System OOM encountered, victim process: java, pid: 4242\nshop        Warning    web-7d9f8c6b5-x2x4q.16491643e6b6   2024-03-01T17:09:24+08:00   Failed      Error: ImagePullBackOff\n",
			[]string{`2 Event node-7.NodeStatusUnknown.2 Warning NodeStatusUnknown on Node /node-7 loose "Kubelet stopped posting node status."`,
				`5 Event node-7.SystemOOM.5 Warning SystemOOM on Node /node-7 loose "System OOM encountered, victim process: java, pid: 4242"`,
				`6 Event shop/web-7d9f8c6b5-x2x4q.Failed.6 Warning Failed on Pod shop/web-7d9f8c6b5-x2x4q loose "Error: ImagePullBackOff"`}},
		{"a placeholder in a quoted command names nothing", "Run `kubectl describe pod <pod-name>` and look for: 0/1 nodes are available: 1 Insufficient cpu.\n",
			[]string{`1 Event unknown.in.FailedScheduling.1 Warning FailedScheduling on Pod / loose "0/1 nodes are available: 1 Insufficient cpu."`}},
		{"describe rows without their Events header are the pod their Scheduled row names", "  Normal   Scheduled  5m6s                   default-scheduler  Successfully assigned prod/web-1 to node3\n  Warning  BackOff    3m42s (x7 over 4m56s)  kubelet, node3     Back-off restarting failed container\n",
			[]string{`1 Event prod/web-1.Scheduled.1 Normal Scheduled on Pod prod/web-1 "Successfully assigned prod/web-1 to node3"`, `2 Event prod/web-1.BackOff.2 Warning BackOff on Pod prod/web-1 x7 "Back-off restarting failed container"`}},
		{"an event list copied as pipe rows: the name and kind cells", "3:19:08 PM | web-5-x5np6 | Pod | Warning | Failed | Error: ImagePullBackOff\n",
			[]string{`1 Event web-5-x5np6.Failed.1 Warning Failed on Pod /web-5-x5np6 loose "Error: ImagePullBackOff"`}},
		{"old get events -A rows without their header", "shop   1h   1h   2   web-1-p7jnr   Pod   spec.containers{web}   Warning   Unhealthy   {kubelet ip-10-0-0-1}   Readiness probe failed: HTTP probe failed with statuscode: 503\n",
			[]string{`1 Event web-1-p7jnr.Unhealthy.1 Warning Unhealthy on Pod /web-1-p7jnr loose "Readiness probe failed: HTTP probe failed with statuscode: 503"`}},
		{"kubectl events' OBJECT column, its header lost in a test's words", "[FAILED] unexpected event, got: LAST SEEN   TYPE      REASON    OBJECT       MESSAGE\n20s         Warning   BackOff   Pod/web-1    Back-off restarting failed container\n21s         Warning   FailedCreate   ReplicaSet/web-7d9f   Error creating: pods \"web-7d9f-x2x4q\" is forbidden: exceeded quota: compute, requested: cpu=2, used: cpu=8, limited: cpu=8\n",
			[]string{`2 Event web-1.BackOff.2 Warning BackOff on Pod /web-1 loose "Back-off restarting failed container"`,
				`3 Event web-7d9f.FailedCreate.3 Warning FailedCreate on ReplicaSet /web-7d9f loose "Error creating: pods \"web-7d9f-x2x4q\" is forbidden: exceeded quota: compute, requested: cpu=2, used: cpu=8, limited: cpu=8"`}},
		{"watch", "Every 2.0s: kubectl get pods -n spark          host-1: Sun Dec 31 13:46:45 2017\n\nNAME        READY     STATUS    RESTARTS   AGE\nexec-1      0/1       Pending   0          9m\n",
			[]string{`4 Pod spark/exec-1 phase=Pending PodScheduled=False [ready=false restarts=0]`}},
		{"a node shown twice is one node with what both say", "# kubectl get nodes\nNAME   STATUS     AGE   VERSION\nn-2    NotReady   41d   v1.7.0\n\n# kubectl describe node n-2\nName:\t\t\tn-2\nTaints:\t\t\tnode.alpha.kubernetes.io/unreachable:NoExecute\n",
			[]string{`6 Node n-2 Ready=False taint=node.alpha.kubernetes.io/unreachable:NoExecute`}},
		{"a watch keeps what each of its rows showed", "$ kubectl get pods -n mem -w\nNAME            READY   STATUS              RESTARTS   AGE\ndemo-2   0/1     ContainerCreating   0          2s\ndemo-2   1/1     Running             0          5s\ndemo-2   0/1     OOMKilled           0          9s\ndemo-2   1/1     Running             1          11s\ndemo-2   0/1     CrashLoopBackOff    1          27s\ndemo-2   1/1     Running             2          40s\n",
			[]string{`5 Event mem/demo-2.OOMKilled.5 Warning OOMKilled on Pod mem/demo-2 loose "OOMKilled"`, `7 Event mem/demo-2.CrashLoopBackOff.7 Warning CrashLoopBackOff on Pod mem/demo-2 loose "CrashLoopBackOff"`, "8 Pod mem/demo-2 phase=Running PodScheduled=True [ready=true running restarts=2]"}},
		{"a node a later showing calls Ready was not ready before", "$ kubectl get nodes -w\nNAME   STATUS     ROLES    AGE   VERSION\nn-1    NotReady   <none>   41d   v1.27.3\nn-1    Ready      <none>   41d   v1.27.3\n",
			[]string{`3 Event n-1.NodeNotReady.3 Warning NodeNotReady on Node /n-1 loose "NotReady"`, "4 Node n-1 Ready=True"}},
		{"the events of a workload described by name", "$ kubectl describe jobs.batch hello -n batch\n. . .\nEvents:\n  Type     Reason            Age                From            Message\n  ----     ------            ----               ----            -------\n  Normal   SuccessfulCreate  13m                job-controller  Created pod: hello-6mk4q\n  Warning  DeadlineExceeded  12m (x2 over 12m)  job-controller  Job was active longer than specified deadline\n",
			[]string{`6 Event batch/hello.SuccessfulCreate.6 Normal SuccessfulCreate on Job batch/hello "Created pod: hello-6mk4q"`, `7 Event batch/hello.DeadlineExceeded.7 Warning DeadlineExceeded on Job batch/hello x2 "Job was active longer than specified deadline"`}},
		{"output under a command about one pod is that pod's, whatever pods come later", "$ kubectl get pod demo-2 -n mem -o yaml\n\n```\nlastState:\n   terminated:\n     exitCode: 137\n     reason: OOMKilled\n```\n\n$ kubectl get pod demo-3 -n mem\nNAME     READY   STATUS    RESTARTS   AGE\ndemo-3   0/1     Pending   0          1m\n",
			[]string{`7 Event mem/demo-2.OOMKilled.7 Warning OOMKilled on Pod mem/demo-2 loose "OOMKilled"`, "12 Pod mem/demo-3 phase=Pending PodScheduled=False [ready=false restarts=0]"}},
		{"a message of several lines is one message, about the pod its first line names", "The scheduler said:\n\npod (web-1) failed to fit in any node\nfit failure on node (node-a): Insufficient memory\nfit failure on node (node-b): Insufficient memory\n\nand later\n\nfit failure on node (node-c): PodFitsHostPorts\n",
			[]string{`3 Event web-1.FailedScheduling.3 Warning FailedScheduling on Pod /web-1 loose "pod (web-1) failed to fit in any node fit failure on node (node-a): Insufficient memory\nfit failure on node (node-b): Insufficient memory"`, `9 Event unknown.in.FailedScheduling.9 Warning FailedScheduling on Pod / loose "fit failure on node (node-c): PodFitsHostPorts"`}},
		{"the lines of a message a table row holds", "LASTSEEN   FIRSTSEEN   COUNT     NAME          KIND      SUBOBJECT   TYPE      REASON             SOURCE              MESSAGE\n1m         5m          21        web-1         Pod                   Warning   FailedScheduling   {default-scheduler }   pod (web-1) failed to fit in any node\nfit failure on node (node-a): Insufficient cpu\nfit failure on node (node-b): Insufficient cpu\n",
			[]string{`2 Event web-1.FailedScheduling.2 Warning FailedScheduling on Pod /web-1 x21 "pod (web-1) failed to fit in any node fit failure on node (node-a): Insufficient cpu"`}},
		{"a nameless describe of the one node the paste showed is of that node", "$ kubectl get nodes\nNAME   STATUS     ROLES    AGE   VERSION\nn-7    NotReady   <none>   15m   v1.27.1\n\n$ kubectl describe node $NODE_NAME | sed -n '/^Conditions:/,$p'\nConditions:\n  Type    Status   LastHeartbeatTime                 LastTransitionTime                Reason              Message\n  Ready   Unknown  Wed, 12 Feb 2025 15:20:21 +0000   Wed, 12 Feb 2025 15:21:04 +0000   NodeStatusUnknown   Kubelet stopped posting node status.\n",
			[]string{"6 Node n-7 Ready=Unknown"}},
		{"a nameless describe under a paste of two nodes is of neither", "$ kubectl get nodes\nNAME   STATUS     ROLES    AGE   VERSION\nn-7    NotReady   <none>   15m   v1.27.1\nn-8    Ready      <none>   15m   v1.27.1\n\n$ kubectl describe node $NODE_NAME | sed -n '/^Conditions:/,$p'\nConditions:\n  Type    Status   LastHeartbeatTime                 LastTransitionTime                Reason              Message\n  Ready   Unknown  Wed, 12 Feb 2025 15:20:21 +0000   Wed, 12 Feb 2025 15:21:04 +0000   NodeStatusUnknown   Kubelet stopped posting node status.\n",
			[]string{"3 Node n-7 Ready=False", "4 Node n-8 Ready=True", "7 Node  Ready=Unknown", `9 Event unknown.in.NodeStatusUnknown.9 Warning NodeStatusUnknown on Node / loose "Kubelet stopped posting node status."`}},
		{"a message quoted in the ticket is about the one pod its output shows", "**What happened**:\nBack-off restarting failed container\n\n```\n$ kubectl describe pods\nName:         wordpress-5bbd7fd785-p4s9r\nNamespace:    default\nNode:         node-1/192.168.43.166\nStatus:       Running\nContainers:\n  wordpress:\n    State:          Running\n    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    1\n    Ready:          True\n    Restart Count:  19\n```\n",
			[]string{`2 Event default/wordpress-5bbd7fd785-p4s9r.BackOff.2 Warning BackOff on Pod default/wordpress-5bbd7fd785-p4s9r loose "Back-off restarting failed container"`, "6 Pod default/wordpress-5bbd7fd785-p4s9r phase=Running node=node-1 [wordpress ready=true running last:Error:1 restarts=19]"}},
		{"old events rows whose header the paste lost name their object in NAME and KIND", "20m   20m   1   web-1.157791108f2b2229   ReplicationController      Warning   FailedCreate   replication-controller   Error creating: pods \"web-1-dr8p8\" is forbidden: exceeded quota: compute-resources, requested: limits.cpu=2, used: limits.cpu=2, limited: limits.cpu=2\n" +
			"1h    1h    3   api-7d9f8c6b5-x2x4q   Pod      Warning   FailedScheduling   {default-scheduler }   0/3 nodes are available: 3 Insufficient cpu.\n",
			[]string{`1 Event web-1.FailedCreate.1 Warning FailedCreate on ReplicationController /web-1 loose "Error creating: pods \"web-1-dr8p8\" is forbidden: exceeded quota: compute-resources, requested: limits.cpu=2, used: limits.cpu=2, limited: limits.cpu=2"`,
				`2 Event api-7d9f8c6b5-x2x4q.FailedScheduling.2 Warning FailedScheduling on Pod /api-7d9f8c6b5-x2x4q loose "0/3 nodes are available: 3 Insufficient cpu."`}},
		{"a controller's events under a describe that lost its Name are of the one Job the paste listed", "# oc get job\nNAME           COMPLETIONS   DURATION   AGE\nbackup-patch   0/1           8m58s      8m58s\n\n#oc descirbe job\nEvents:\n  Type     Reason                Age    From            Message\n  ----     ------                ----   ----            -------\n  Warning  BackoffLimitExceeded  84s    job-controller  Job has reached the specified backoff limit\n",
			[]string{`9 Event backup-patch.BackoffLimitExceeded.9 Warning BackoffLimitExceeded on Job /backup-patch "Job has reached the specified backoff limit"`}},
		{"the same under a list of two Jobs are of neither", "# oc get job\nNAME           COMPLETIONS   DURATION   AGE\nbackup-patch   0/1           8m58s      8m58s\nbackup-full    1/1           2m         1h\n\n#oc descirbe job\nEvents:\n  Type     Reason                Age    From            Message\n  ----     ------                ----   ----            -------\n  Warning  BackoffLimitExceeded  84s    job-controller  Job has reached the specified backoff limit\n",
			[]string{`10 Event unknown.in.BackoffLimitExceeded.10 Warning BackoffLimitExceeded on  / "Job has reached the specified backoff limit"`}},
		{"a describe flattened onto the line of its command", "$ kubectl describe pod tikv-0 ... Events: Type Reason Age From Message ---- ------ ---- ---- ------- Warning FailedScheduling 3m (x106 over 33m) default-scheduler 0/4 nodes are available: 1 node(s) had no available volume zone, 2 Insufficient cpu, 3 Insufficient memory.\n",
			[]string{`1 Event tikv-0.FailedScheduling.1 Warning FailedScheduling on Pod /tikv-0 loose "0/4 nodes are available: 1 node(s) had no available volume zone, 2 Insufficient cpu, 3 Insufficient memory."`}},
		{"a message a long command greps for is the command's", "$ kubectl get events -A | grep \"Back-off restarting failed container\" | grep -v kube-system | grep -v monitoring | grep -v logging | grep -v ingress-nginx | sort -k2 | uniq -c | head -50\n",
			nil},
		{"a pod shown twice is one pod", "$ kubectl get pods -n sre -o wide | grep api\napi-0   0/1   Error   0   50m   10.0.0.1   node-9\n" +
			"$ kubectl -n sre get pod api-0 -o jsonpath='{.metadata.name}{\"\\t\"}{.status.reason}{\"\\n\"}'\napi-0\tEvicted\n",
			[]string{`4 Pod sre/api-0 phase=Failed reason=Evicted node=node-9 PodScheduled=True [ready=false terminated:Error:1 restarts=0]`}},
		{"an events row wrapped inside a word", "Events:\n  Type     Reason   Age   From     Message\n  ----     ------   ----  ----     -------\n" +
			"  Warning  Evicted  5m    kubelet  The node was low on resource: memory. Container hub was using 1924152Ki, which e\nxceeds its request of 0.\n",
			[]string{`4 Event unknown.in.Evicted.4 Warning Evicted on  / "The node was low on resource: memory. Container hub was using 1924152Ki, which exceeds its request of 0."`}},
		{"a get events row wrapped onto the next line", "LAST SEEN   TYPE      REASON             OBJECT       MESSAGE\n" +
			"3m          Warning   FailedScheduling   pod/web-1    0/6 nodes are available: 2 node(s) didn't match Pod's node affinity/selector,\n4 Insufficient cpu.\n",
			[]string{`2 Event web-1.FailedScheduling.2 Warning FailedScheduling on Pod /web-1 "0/6 nodes are available: 2 node(s) didn't match Pod's node affinity/selector, 4 Insufficient cpu."`}},
		{"the writer speaking after a long row is not the row's rest", "LAST SEEN   TYPE      REASON             OBJECT       MESSAGE\n" +
			"3m          Warning   FailedScheduling   pod/web-1    0/6 nodes are available: 2 node(s) didn't match Pod's node affinity/selector.\nAny idea why this happens?\n",
			[]string{`2 Event web-1.FailedScheduling.2 Warning FailedScheduling on Pod /web-1 "0/6 nodes are available: 2 node(s) didn't match Pod's node affinity/selector."`}},
		{"a wide pods row wrapped onto two lines", "NAMESPACE   NAME                     READY   STATUS    RESTARTS   AGE     IP           NODE\n" +
			"prod        hub-7c9f8d6b5-x2x7k      0/1     Evicted   0          2d14h   <none>\n            node-a\n",
			[]string{`2 Pod prod/hub-7c9f8d6b5-x2x7k phase=Failed reason=Evicted node=node-a PodScheduled=True [ready=false restarts=0]`}},
		{"a describe message wrapped at column 0", "Name:         web-1\nNamespace:    prod\nStatus:       Failed\nReason:       Evicted\n" +
			"Message:      The node was low on resource: memory. Container web was using 9402820Ki, which exceeds its requ\nest of 7G.\nIP:           \n",
			[]string{`1 Pod prod/web-1 phase=Failed reason=Evicted message="The node was low on resource: memory. Container web was using 9402820Ki, which exceeds its request of 7G."`}},
		{"events of the namespace the command named", "$ kubectl get events -n jhub\nLAST SEEN   TYPE      REASON             OBJECT              MESSAGE\n" +
			"14m         Warning   FailedScheduling   pod/jupyter-alice   0/12 nodes are available: 4 Insufficient memory.\n",
			[]string{`3 Event jhub/jupyter-alice.FailedScheduling.3 Warning FailedScheduling on Pod jhub/jupyter-alice "0/12 nodes are available: 4 Insufficient memory."`}},
		{"a container's state pasted without its indentation", "Our app crashes, describe says:\n\nState: Waiting\nReason: CrashLoopBackOff\nLast State: Terminated\nReason: OOMKilled\nExit Code: 137\nReady: False\nRestart Count: 7\n",
			[]string{`3 Pod  phase= [ready=false waiting:CrashLoopBackOff last:OOMKilled:137 restarts=7]`}},
		{"a 2015 describe with its lower-case reasons", "Name:\t\t\t\tsimleak-abcde\nNamespace:\t\t\tdefault\nStatus:\t\t\t\tRunning\nContainers:\n  simleak:\n" +
			"    Last Termination State:\tTerminated\n      Reason:\t\tOOMKilled\n      Exit Code:\t\t137\n    Restart Count:\t5\nEvents:\n" +
			"  FirstSeen\t\t\t\tLastSeen\t\t\tCount\tFrom\t\t\t\tSubobjectPath\t\t\t\tReason\t\tMessage\n" +
			"  Tue, 07 Jul 2015 12:53:51 -0700\tTue, 07 Jul 2015 12:53:51 -0700\t1\t{scheduler }\t\t\t\t\tscheduled\tSuccessfully assigned simleak-abcde to minion-1\n" +
			"  Tue, 07 Jul 2015 12:53:51 -0700\tTue, 07 Jul 2015 12:53:51 -0700\t1\t{kubelet minion-1}\timplicitly required container POD\tpulled\t\tPod container image already present\n",
			[]string{`1 Pod default/simleak-abcde phase=Running [simleak ready=false last:OOMKilled:137 restarts=5]`,
				`12 Event default/simleak-abcde.Scheduled.12  Scheduled on Pod default/simleak-abcde x1 "Successfully assigned simleak-abcde to minion-1"`,
				`13 Event default/simleak-abcde.Pulled.13  Pulled on Pod default/simleak-abcde x1 "Pod container image already present"`}},
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
