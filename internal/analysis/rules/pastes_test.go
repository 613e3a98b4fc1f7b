package rules

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rootline-dev/rootline/internal/analysis"
)

// TestPastes analyses one paste of each kind people bring, written for the test in the shape
// it takes in tickets, and checks the symptoms (with the objects they name) and the causes:
// what each reason and signal means, and that prose yields no symptom.
func TestPastes(t *testing.T) {
	tests := []struct {
		name     string
		paste    string
		symptoms []string // "kind ns/name,…" in any order
		causes   []string // kinds
	}{
		{"kubelet preempted a pod for a critical one", "NAME      READY   STATUS       RESTARTS   AGE\nbatch-1   0/1     Preempting   0          5m\n",
			[]string{"preempted batch-1"}, []string{"preemption"}},
		{"pods refused at admission", "$ kubectl get pods -n ci\nNAME     READY   STATUS         RESTARTS   AGE\nbuild-1  0/1     OutOfcpu       0          3h\nbuild-2  0/1     OutOfmemory    0          3h\nbuild-3  0/1     NodeAffinity   0          3h\n",
			[]string{"pod_pending ci/build-1", "pod_pending ci/build-2", "pod_pending ci/build-3"}, []string{"scheduling_constraints", "capacity_exhaustion"}},
		{"the taint manager evicts", "LAST SEEN   TYPE     REASON                 OBJECT      MESSAGE\n2m          Normal   TaintManagerEviction   pod/web-1   Marking for deletion Pod prod/web-1\n",
			[]string{"pod_evicted prod/web-1"}, nil},
		{"a describe node cut in its conditions, after the one that was fine, before the one its taint states", "Name:               minikube\nRoles:              master\nTaints:             node.kubernetes.io/disk-pressure:NoSchedule\nUnschedulable:      false\nConditions:\n  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message\n  ----             ------  -----------------                 ------------------                ------                       -------\n  MemoryPressure   False   Thu, 05 Mar 2020 20:32:46 -0800   Thu, 05 Mar 2020 20:26:07 -0800   KubeletHasSufficientMemory   kubelet has sufficient memory available\n",
			[]string{"node_pressure minikube"}, []string{"node_disk_exhaustion"}},
		{"a describe node whose condition says the taint is gone", "Name:               minikube\nTaints:             node.kubernetes.io/disk-pressure:NoSchedule\nConditions:\n  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message\n  ----             ------  -----------------                 ------------------                ------                       -------\n  DiskPressure     False   Thu, 05 Mar 2020 20:32:46 -0800   Thu, 05 Mar 2020 20:26:07 -0800   KubeletHasNoDiskPressure     kubelet has no disk pressure\n",
			nil, nil},
		{"a pods table in a CRI log file", "2024-03-01T12:00:00.1Z stdout F NAME      READY   STATUS    RESTARTS   AGE\n2024-03-01T12:00:00.2Z stdout F web-1     0/1     Evicted   0          5m\n",
			[]string{"evicted_pods_lingering web-1", "pod_evicted web-1"}, nil},
		{"the journal's JSON of a kernel OOM kill", `{"__REALTIME_TIMESTAMP":"1709294400000000","_HOSTNAME":"node-1","SYSLOG_IDENTIFIER":"kernel","MESSAGE":"Out of memory: Killed process 1234 (java) total-vm:8000kB, anon-rss:4000kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:100kB oom_score_adj:0"}` + "\n",
			[]string{"node_oom node-1"}, nil},
		{"containerd's journal: the sandbox of a pod its metadata names", `May 11 16:09:21 m-1 containerd[765]: time="2023-05-11T16:09:21.8+08:00" level=error msg="RunPodSandbox for &PodSandboxMetadata{Name:coredns-f5cb5585b-s2bxk,Uid:eeb63f47,Namespace:kube-system,Attempt:0,} failed, error" error="failed to setup network for sandbox \"f1f5\": plugin type=\"calico\" failed (add): netplugin failed with no error message: signal: killed"` + "\n",
			[]string{"pod_stuck_creating kube-system/coredns-f5cb5585b-s2bxk"}, []string{"network_setup_failed"}},
		{"the 1.5 kubelet's log of a pod whose network was not set up, cut at the paste's width", `Feb 28 14:21:50 ip-10-1 kubelet[735]: E0228 14:21:50.538153     735 docker_manager.go:2201] Failed to setup network for pod "dm-4070366716-bkm5r_default(def2ee23)" using network plugins "cni": unable to allocate IP address: Post http://127.0.0.1:6784/ip/28d: dial tcp 127.0.0.1:6784:` + "\n",
			[]string{"pod_stuck_creating default/dm-4070366716-bkm5r"}, []string{"network_setup_failed"}},
		{"the autoscaler's old scale-up check of a pod no new node takes for its affinity", "I1220 23:52:25.618948       1 scale_up.go:152] Scale-up predicate failed: MatchInterPodAffinity predicate mismatch, cannot put default/h2-zwq56 on template-node-for-m4-7056, reason: node(s) didn't match pod affinity/anti-affinity,node(s) didn't match pod affinity rules\n",
			[]string{"pod_pending default/h2-zwq56"}, []string{"scheduling_constraints"}},
		{"the node lifecycle controller's log of a node it found unresponsive", "I0513 06:11:28.805952       1 node_lifecycle_controller.go:885] Node kind-worker is unresponsive as of 2022-05-13 06:11:28.805937574 +0000 UTC m=+63814.469914826. Adding it to the Taint queue.\nI0513 06:11:34.027922       1 node_lifecycle_controller.go:697] Node kind-control-plane was in a taint queue, but it's ready now. Ignoring taint request.\n",
			[]string{"node_not_ready kind-worker"}, nil},
		{"a scheduler's message quoted by Kubeflow's notebook controller", "Events:\n  Type     Reason             Age   From                 Message\n  ----     ------             ----  ----                 -------\n  Warning  FailedScheduling   12m   notebook-controller  Reissued from pod/gpu1-0: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu.\n  Normal   TriggeredScaleUp   11m   notebook-controller  Reissued from pod/gpu1-0: pod triggered scale-up: [{gke-kf-gpu-grp 0->1 (max: 10)}]\n",
			[]string{"pod_pending gpu1-0", "scale_up "}, []string{"capacity_exhaustion"}},
		{"the volume-count predicate's lookup the autoscaler logs, beside its 0.x scale-up events", "E0328 18:14:57.140465       1 predicates.go:234] Unable to look up PVC info for logging/datadir-es-1, assuming PVC matches predicate when counting limits: persistentvolumeclaim \"datadir-es-1\" not found\n" +
			"LASTSEEN   FIRSTSEEN   COUNT     NAME      KIND      SUBOBJECT   TYPE      REASON              SOURCE                  MESSAGE\n17m        27m         55        es-1      Pod                   Normal    NotTriggerScaleUp   {cluster-autoscaler }   pod didn't trigger scale-up (it wouldn't fit if a new node is added)\n16m        16m         1         es-1      Pod                   Normal    TriggeredScaleUp    {cluster-autoscaler }   pod triggered scale-up, group: nodes.example.com, sizes (current/new): 2/3\n",
			[]string{"pod_pending es-1", "scale_up "}, nil},
		{"a sandbox failure whose pod only the CNI_ARGS its plugin printed back name", "`Warning  FailedCreatePodSandBox  4m11s (x108 over 32m)  kubelet  (combined from similar events): Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox \"37d6\": plugin type=\"multus-shim\" name=\"multus-cni-network\" failed (add): CmdAdd (shim): CNI request failed with status 400: '&{ContainerID:37d6 Netns:/var/run/netns/cni-a2a9 IfName:eth0 Args:K8S_POD_UID=e4c6;IgnoreUnknown=1;K8S_POD_NAMESPACE=orq;K8S_POD_NAME=db-7b6c8bb675-fbhgr;K8S_POD_INFRA_CONTAINER_ID=37d6 Path:'`\n",
			[]string{"pod_stuck_creating orq/db-7b6c8bb675-fbhgr"}, []string{"network_setup_failed"}},
		{"rsyslog's kubelet line, without its pid", "Apr 13 10:53:52 ip-10-42-10-121 kubelet: E0413 10:53:52.844381    3263 kubelet.go:2055] \"Skipping pod synchronization\" err=\"PLEG is not healthy: pleg was last seen active 2h33m12.704970756s ago; threshold is 3m0s\"\n",
			[]string{"node_not_ready ip-10-42-10-121"}, nil},
		{"events rows no header names, whose pod the one `kubectl logs` after them names", "```\n  Warning  Unhealthy  50s (x16 over 5m50s)   kubelet            Liveness probe failed: dial tcp 10.0.0.5:8080: connect: connection refused\n```\n\npod log:\n\n```\n$ kubectl logs akhq-65fcb6f9f8-qmc64\nStartup completed in 2253ms.\n```\n",
			[]string{"liveness_probe_failed akhq-65fcb6f9f8-qmc64"}, nil},
		{"an Events section cut from its describe, whose pod the command after it names", "Events:\n  Type     Reason   Age                From     Message\n  ----     ------   ----               ----     -------\n  Warning  BackOff  2m (x40 over 12m)  kubelet  Back-off restarting failed container\n\nThe previous logs:\n\n$ kubectl logs web-5d8f7b9c4d-abcde --previous\nError: config file missing\n",
			[]string{"crash_loop_backoff web-5d8f7b9c4d-abcde"}, nil},
		{"the tail of one describe whose header was cut, then another pod's describe", "Tolerations:     node.kubernetes.io/not-ready:NoExecute op=Exists for 300s\nEvents:\n  Type     Reason            Age                  From               Message\n  ----     ------            ----                 ----               -------\n  Warning  FailedScheduling  22s (x4 over 2m31s)  default-scheduler  0/1 nodes are available: 1 Insufficient cpu.\n\n" +
			"Name:         op-5dd757f594-79ssx\nNamespace:    default\nNode:         minikube/192.168.49.2\nStatus:       Running\nContainers:\n  op:\n    Image:          quay.io/op:0.10.0\n    State:          Running\n    Ready:          True\n    Restart Count:  0\n",
			[]string{"pod_pending "}, []string{"capacity_exhaustion"}},
		{"events rows no header names, in a paste that names two pods after them", "```\n  Warning  Unhealthy  50s (x16 over 5m50s)   kubelet            Liveness probe failed: dial tcp 10.0.0.5:8080: connect: connection refused\n```\n\n```\n$ kubectl logs akhq-65fcb6f9f8-qmc64\nok\n$ kubectl logs akhq-65fcb6f9f8-zzzzz\nok\n```\n",
			[]string{"liveness_probe_failed "}, nil},
		{"Cilium's agent with no address left in the node's range", "  Warning  FailedCreatePodSandBox  7m10s  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox \"f175\": plugin type=\"cilium-cni\" failed (add): unable to allocate IP via local cilium agent: [POST /ipam][502] postIpamFailure  range is full\n",
			[]string{"pod_stuck_creating "}, []string{"ip_exhaustion"}},
		{"a describe deployment whose ReplicaFailure is its new ReplicaSet's", "$ kubectl describe deployment web -n shop\nName:                   web\nNamespace:              shop\nReplicas:               3 desired | 0 updated | 0 total | 0 available | 3 unavailable\nStrategyType:           RollingUpdate\nConditions:\n  Type             Status  Reason\n  ----             ------  ------\n  Progressing      True    NewReplicaSetCreated\n  Available        False   MinimumReplicasUnavailable\n  ReplicaFailure   True    FailedCreate\nOldReplicaSets:    <none>\nNewReplicaSet:     web-7d9f8c6b5 (0/3 replicas created)\n",
			[]string{"pod_create_failed shop/web-7d9f8c6b5"}, nil}, // in the namespace of the command and of the describe
		{"docker events of a container's OOM, the kubelet's labels among its attributes", "2019-05-04T18:05:45.011072877-05:00 container oom 29d72966e0be (annotation.io.kubernetes.container.hash=cad60de0, io.kubernetes.container.name=notebook, io.kubernetes.pod.name=jupyter-ana, io.kubernetes.pod.namespace=jhub, name=k8s_notebook_jupyter-ana_jhub_efa7_0)\n",
			[]string{"oom_killed jhub/jupyter-ana"}, nil},
		{"a container's labels with a masked pod name name no pod", "2019-05-04T18:05:45.011072877-05:00 container oom 29d72966e0be (io.kubernetes.pod.name=jupyter-******, io.kubernetes.pod.namespace=jhub)\n",
			[]string{"oom_killed "}, nil},
		{"the kubelet's log of a pod whose volumes were not attached in time", `E0119 10:02:03.000000    1234 pod_workers.go:1300] "Error syncing pod, skipping" err="unmounted volumes=[volv], unattached volumes=[volv], failed to process volumes=[]: context deadline exceeded" pod="default/volume-test" podUID="e771f640"` + "\n",
			[]string{"pod_stuck_creating default/volume-test"}, []string{"volume_attach_failure"}},
		{"Karpenter v0.3x's console log of a pod no provisioner's requirements allow", "2025-06-12T06:58:42.083Z\tERROR\tcontroller.provisioner\tCould not schedule pod, incompatible with provisioner \"dev\", daemonset overhead={\"cpu\":\"736m\",\"memory\":\"1452Mi\",\"pods\":\"11\"}, incompatible requirements, label \"node-role.kubernetes.io/control-plane\" does not have known values\t{\"commit\": \"abc\", \"pod\": \"default/web-1\"}\n",
			[]string{"pod_pending default/web-1"}, []string{"scheduling_constraints"}},
		{"Karpenter v0.3x's console log of a pod whose provisioner is at its limits", "2023-09-26T10:01:47.781Z\tERROR\tcontroller.provisioner\tscheduling/scheduler.go:190\tCould not schedule pod, all available instance types exceed limits for provisioner: \"default\"\t{\"commit\": \"637a642\", \"pod\": \"default/web-1\"}\n",
			[]string{"pod_pending default/web-1"}, []string{"capacity_exhaustion"}},
		{"events rows whose pod only a command quoted in the sentence above names", "When I ran `kubectl describe pods stars-instance3-57ss-0` , there was a warning in the Events:\n\nEvents:\n......\n  **Warning  Unhealthy  49m (x4 over 49m)  kubelet            Readiness probe failed: HTTP probe failed with statuscode: 503**\n",
			[]string{"readiness_probe_failed stars-instance3-57ss-0"}, nil},
		{"the autoscaler's log of pods the scheduler marked unschedulable", "I0223 09:09:49.672684       1 filter_out_schedulable.go:123] Pod ns.sts-0 marked as unschedulable can be scheduled on node template-node-for-eks-ng-1-upcoming-0 (based on hinting). Ignoring in scale up.\n",
			[]string{"pod_pending ns/sts-0"}, nil},
		{"the external provisioner's event of a claim the driver will never make, in a structured log", `I1110 15:04:03.977981       1 event.go:389] "Event occurred" object="volume-99/data-0" fieldPath="" kind="PersistentVolumeClaim" apiVersion="v1" type="Warning" reason="ProvisioningFailed" message="Volume provisioning failed with infeasible error. Retries will be delayed. rpc error: code = InvalidArgument desc = bad size"` + "\n",
			[]string{"volume_provisioning_failed volume-99/data-0"}, nil},
		{"the kubelet's sync loop on a liveness failure", `I0509 08:18:50.485093  941881 kubelet.go:2668] "SyncLoop (probe)" probe="liveness" status="unhealthy" pod="manager/ftp-0"` + "\n" + `I0509 08:18:50.485093  941881 kubelet.go:2668] "SyncLoop (probe)" probe="readiness" status="not ready" pod="manager/ftp-1"` + "\n",
			[]string{"liveness_probe_failed manager/ftp-0"}, nil},
		{"an event exported to Cloud Logging, printed over lines, its node in involvedObject", "```json\n{\n  \"insertId\": \"1e88lpdf9mgv7x\",\n  \"jsonPayload\": {\n    \"involvedObject\": {\n      \"uid\": \"gke-apps-v1-e65p\",\n      \"name\": \"gke-apps-v1-e65p\",\n      \"kind\": \"Node\"\n    },\n    \"message\": \"System OOM encountered, victim process: python, pid: 585821\",\n    \"reason\": \"SystemOOM\",\n    \"kind\": \"Event\"\n  }\n}\n```\n",
			[]string{"node_oom gke-apps-v1-e65p"}, nil},
		{"kubectl get events -o yaml pasted in a ticket", "```\n- apiVersion: v1\n  involvedObject:\n    apiVersion: v1\n    kind: Pod\n    name: web-5d8f7b9c4d-abcde\n    namespace: shop\n  kind: Event\n  message: 'Liveness probe failed: HTTP probe failed with statuscode: 500'\n  reason: Unhealthy\n```\n",
			[]string{"liveness_probe_failed shop/web-5d8f7b9c4d-abcde"}, nil},
		{"a describe node cut above its Name, its hostname label still shown", "Roles:              <none>\nLabels:             beta.kubernetes.io/arch=amd64\n                    kubernetes.io/hostname=ip-192-168-145-119.ec2.internal\nAnnotations:        node.alpha.kubernetes.io/ttl=0\nTaints:             <none>\nConditions:\n  Type             Status    LastHeartbeatTime                 LastTransitionTime                Reason                    Message\n  ----             ------    -----------------                 ------------------                ------                    -------\n  Ready            Unknown   Tue, 13 Nov 2018 17:26:36 -0500   Tue, 13 Nov 2018 17:27:20 -0500   NodeStatusUnknown         Kubelet stopped posting node status.\n",
			[]string{"node_not_ready ip-192-168-145-119.ec2.internal"}, nil},
		{"an events row quoted whole in an inline code span", "`  Warning  Evicted    <invalid>  kubelet  The node had condition: [DiskPressure].`\n",
			[]string{"node_pressure ", "pod_evicted "}, []string{"node_disk_exhaustion"}},
		{"the 1.x kubelet's log of a pull the image service refused", `Jul 16 19:05:15 test-0 kubelet[3450]: E0716 19:05:15.040853    3450 remote_image.go:108] PullImage "10.0.30.220:9980/test/dp:1.9" from image service failed: rpc error: code = Unknown desc = failed to register layer` + "\n",
			[]string{"image_pull_failed "}, nil}, // the node's own image store failed: no image_unavailable
		{"containerd's log of a pull of an image that does not exist", `Feb 07 13:36:48 master containerd[1191]: time="2024-02-07T13:36:48.024858788Z" level=error msg="PullImage \"registry.k8s.io/kube-apiserver-amd64:v1.30.0-alpha.1\" failed" error="rpc error: code = NotFound desc = failed to pull and unpack image: not found"` + "\n",
			[]string{"image_pull_failed "}, []string{"image_unavailable"}},
		{"cri-containerd's sandbox failure for its pause image", `Sep 11 19:47:37 n-1 cri-containerd[4669]: E0911 19:47:37.280291    4669 instrumented_service.go:38] RunPodSandbox for &PodSandboxMetadata{Name:kube-scheduler-n-1,Uid:4fc47bcf,Namespace:kube-system,Attempt:0,} failed, error: failed to get sandbox image "gcr.io/google_containers/pause:3.0": failed to pull image "gcr.io/google_containers/pause:3.0": locked: unavailable` + "\n",
			[]string{"image_pull_failed kube-system/kube-scheduler-n-1", "pod_stuck_creating kube-system/kube-scheduler-n-1"}, nil}, // the node's own image store failed: no image_unavailable
		{"Calico's IPAM at its node's block limit", "  Warning  FailedCreatePodSandBox  2m  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox \"9f1c\": plugin type=\"calico\" failed (add): cannot allocate new block due to per host block limit\n",
			[]string{"pod_stuck_creating "}, []string{"ip_exhaustion"}},
		{"a describe pod whose container has an empty argument, printed as an indented blank line", "Name:               olm-operator-57b6cf86dd-nljcf\nNamespace:          olm\nNode:               k8s-slave-0/10.15.88.1\nStatus:             Running\nContainers:\n  olm-operator:\n    Image:         quay.io/olm:latest\n    Args:\n      -writeStatusName\n      \n    State:          Waiting\n      Reason:       CrashLoopBackOff\n    Last State:     Terminated\n      Reason:       Completed\n      Exit Code:    0\n    Ready:          False\n    Restart Count:  6\n",
			[]string{"container_restarted olm/olm-operator-57b6cf86dd-nljcf", "crash_loop_backoff olm/olm-operator-57b6cf86dd-nljcf"}, nil},
		{"the AWS VPC CNI plugin's own log of a pod it found no IP for", "2020-03-16T15:02:38.124Z [ERROR] Failed to assign an IP address to pod nginx-5556888458-68h5d, namespace default container 6f3b5c9b7978\n2020-03-16T15:02:38.124Z [ERROR] Failed CNI request: add cmd: failed to assign an IP address to container\n",
			[]string{"pod_stuck_creating default/nginx-5556888458-68h5d"}, []string{"ip_exhaustion"}},
		{"a sandbox failure whose pod Multus names before its delegate's error", "(combined from similar events): Failed to create pod sandbox: rpc error: code = Unknown desc = failed to create pod network sandbox k8s_tekton-54b4f8b94d-fbrhm_pipes_87cb_0(944f): Multus: [pipes/tekton-54b4f8b94d-fbrhm]: error adding container to network \"openshift-sdn\": delegateAdd: error invoking DelegateAdd - \"openshift-sdn\": error in getting result from AddNetwork: CNI request failed with status 400: failed to find netid for namespace: pipes\n",
			[]string{"pod_stuck_creating pipes/tekton-54b4f8b94d-fbrhm"}, []string{"network_setup_failed"}},
		{"an event as JSON inside an application's log line, its involvedObject's apiVersion first", `2020-05-06 22:27:07,750 INFO  cook.kubernetes.api [pool-11-thread-5] - received pod event {:event-reason FailedScheduling, :event {"apiVersion":"v1","count":1,"involvedObject":{"apiVersion":"v1","kind":"Pod","name":"synthetic-2856","namespace":"cook"},"kind":"Event","message":"0/2 nodes are available: 2 Insufficient cpu.","reason":"FailedScheduling"}}` + "\n",
			[]string{"pod_pending cook/synthetic-2856"}, []string{"capacity_exhaustion"}},
		{"dockershim's CNI log line, cut after the network", "E0612 10:01:02.345678    1234 cni.go:364] Error adding kube-system_coredns-6955765f44-8xk2q/4b1d2a9c0e6f to network calico/k8s-pod-network\n",
			[]string{"pod_stuck_creating kube-system/coredns-6955765f44-8xk2q"}, []string{"network_setup_failed"}},
		{"the network plugin's error quoted alone in a sentence's next line", "When I set up calico the pod returns error:\nnetworkPlugin cni failed to set up pod \"calico-kube-controllers-5d9b9bfc74-nxrlq_kube-system\" network: error getting ClusterInformation: connection is unauthorized: Unauthorized\n",
			[]string{"pod_stuck_creating kube-system/calico-kube-controllers-5d9b9bfc74-nxrlq"}, []string{"network_setup_failed"}},
		{"the kubelet's mount timeout quoted alone", "The pod hangs with\n\n    timeout expired waiting for volumes to attach or mount for pod \"data\"/\"pg-0\". list of unmounted volumes=[pgdata]. list of unattached volumes=[pgdata default-token-x2x]\n",
			[]string{"pod_stuck_creating data/pg-0"}, []string{"volume_attach_failure"}},
		{"the e2e framework's event dump in a CI log", "09:01:32 Aug 24 15:46:06.501: INFO: At 2016-08-24 15:46:06 +0000 UTC - event for cadvisor: {kubelet tmp-node-e2e-f170f56a} Evicted: The node was low on compute resources.\n" +
			"I0824 15:46:07.100000 INFO: At 2016-08-24 15:46:07 +0000 UTC - event for web-1: {kubelet tmp-node-e2e-f170f56a} Unhealthy: Liveness probe failed: HTTP probe failed with statuscode: 500\n",
			[]string{"liveness_probe_failed web-1", "pod_evicted cadvisor"}, nil},
		{"the Docker daemon's journal of a pull it refused", "Feb 16 17:13:54 n-1 dockerd[11447]: time=\"2017-02-16T17:13:54.398460686+01:00\" level=error msg=\"Handler for POST /v1.26/images/create returned error: repository kube-aggregator not found: does not exist or no pull access\"\n" +
			"Feb 16 17:14:07 n-1 dockerd[11447]: time=\"2017-02-16T17:14:07.226000709+01:00\" level=error msg=\"Handler for GET /v1.26/images/kube-aggregator:latest/json returned error: No such image: kube-aggregator:latest\"\n",
			[]string{"image_pull_failed "}, []string{"image_unavailable"}},
		{"kubernetes-mixin alerts as a notification renders them", "[FIRING:3] KubePodCrashLooping\nDescription: Pod shop/web-5d8f7b9c4d-abcde (web) is in waiting state (reason: \"CrashLoopBackOff\") on cluster prod.\n" +
			"Description: ip-10-0-3-17.ec2.internal has been unready for more than 15 minutes.\nDescription: Job batch/report-28421 failed to complete. Removing failed job after investigation should clear this alert.\n",
			[]string{"crash_loop_backoff shop/web-5d8f7b9c4d-abcde", "job_failed batch/report-28421", "node_not_ready ip-10-0-3-17.ec2.internal"}, nil},
		{"the rules those alerts come from: templates, not alerts", "- alert: KubePodCrashLooping\n  annotations:\n    description: 'Pod {{ $labels.namespace }}/{{ $labels.pod }} ({{ $labels.container }}) is in waiting state (reason: \"CrashLoopBackOff\").'\n" +
			"- alert: KubeNodeNotReady\n  annotations:\n    description: '{{ $labels.node }} has been unready for more than 15 minutes.'\n",
			nil, nil},
		{"a describe fragment under the sentence that names its pod in inline code", "`pg-cluster-1` never becomes healthy:\n```\n    State:          Running\n      Started:      Fri, 16 May 2025 13:30:42 +0200\n    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n```\n",
			[]string{"oom_killed pg-cluster-1"}, nil},
		{"the same under a sentence that names a Deployment", "`pg-cluster` never becomes healthy:\n```\n    State:          Running\n      Started:      Fri, 16 May 2025 13:30:42 +0200\n    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n```\n",
			[]string{"oom_killed "}, nil},
		{"a Job's events section cut from its describe: the Job its pods are named after", "Job events:\n```\nEvents:\n  Type     Reason                Age                From            Message\n  ----     ------                ----               ----            -------\n" +
			"  Normal   SuccessfulCreate      5m56s              job-controller  Created pod: test-1551540600-kb4lm\n  Normal   SuccessfulDelete      10s                job-controller  Deleted pod: test-1551540600-kb4lm\n" +
			"  Warning  BackoffLimitExceeded  10s (x2 over 10s)  job-controller  Job has reached the specified backoff limit\n```\n",
			[]string{"job_failed test-1551540600"}, nil},
		{"Helm waiting on a hook Job that failed, its name in the debug line before", "```\nclient.go:506: [debug] db-migrate: Jobs active: 1, jobs failed: 1, jobs succeeded: 0\nclient.go:467: [debug] Add/Modify event for db-migrate: MODIFIED\nError: failed pre-install: job failed: BackoffLimitExceeded\n```\n",
			[]string{"job_failed db-migrate"}, nil},
		{"the CRI client's structured log of a pull the registry refused", `May 18 02:37:44 okd-1 kubenswrapper[42587]: E0518 02:37:44.436636   42587 log.go:32] "PullImage from image service failed" err="rpc error: code = Unknown desc = reading manifest sha256:6371 in quay.io/okd/scos-content: manifest unknown" image="quay.io/okd/scos-content@sha256:6371"` + "\n",
			[]string{"image_pull_failed "}, []string{"image_unavailable"}},
		{"the same log of a pull whose runtime did not answer", `E0919 09:32:01.239971   35982 remote_image.go:171] "PullImage from image service failed" err="rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing dial unix /var/run/containerd/containerd.sock: connect: no such file or directory\"" image="registry.k8s.io/kube-apiserver:v1.28.2"` + "\n",
			[]string{"image_pull_failed "}, nil},
		{"the kubelet refusing a pod at admission, before 1.21", "kubelet log:\nPredicate failed on Pod: xihh-b1be980f_default(c8cff343-2abf-11ea-815b-246e9683be48), for reason: Node didn't have enough resource: memory, requested: 2147483648, used: 128849018880, capacity: 130405863424\n",
			[]string{"pod_pending default/xihh-b1be980f"}, []string{"capacity_exhaustion"}},
		{"the kubelet refusing a pod at admission, structured", `I1114 04:15:27.638990    5163 predicate.go:143] "Predicate failed on Pod" pod="istio-system/gw-54f59bb95-x7k2p" err="Node didn't have enough resource: cpu, requested: 2000, used: 15800, capacity: 16000"` + "\n",
			[]string{"pod_pending istio-system/gw-54f59bb95-x7k2p"}, []string{"capacity_exhaustion"}},
		{"a pod a person names before the scheduler's message they quote", "My pod web-0 is stuck with \"0/3 nodes are available: 3 Insufficient cpu.\"\n",
			[]string{"pod_pending web-0"}, []string{"capacity_exhaustion"}},
		{"a Deployment's pod a person names bare", "web-5d8f7b9c4d-abcde is pending, the scheduler says 0/3 nodes are available: 3 Insufficient cpu.\n",
			[]string{"pod_pending web-5d8f7b9c4d-abcde"}, []string{"capacity_exhaustion"}},
		{"two pods a person names: neither", "pod web-0 and pod web-1 both say 0/3 nodes are available: 3 Insufficient memory.\n",
			[]string{"pod_pending "}, []string{"capacity_exhaustion"}},
		{"a Deployment a person names is not a pod", "The deployment web says 0/3 nodes are available: 3 Insufficient memory.\n",
			[]string{"pod_pending "}, []string{"capacity_exhaustion"}},
		{"a sandbox failure whose pod Multus names before its delegate's network", "`Warning  FailedCreatePodSandBox  2s (x7 over 74s)  kubelet  (combined from similar events): Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox \"a1d0567\": [default/nginx-deployment-77cb8f6769-m7nlc:k8s-pod-network]: error adding container to network \"k8s-pod-network\": error getting ClusterInformation: resource does not exist: ClusterInformation(default)`\n",
			[]string{"pod_stuck_creating default/nginx-deployment-77cb8f6769-m7nlc"}, []string{"network_setup_failed"}},
		{"a tool's JSON record of a pod, its name under a key of its own", "```json\n{\n  \"current_pods\": [\n    {\n      \"condition_message\": \"Pod condition is NOT 'PodScheduled': Unschedulable; 0/17 nodes are available: 17 node(s) didn't match Pod's node affinity/selector.\",\n      \"phase\": \"Pending\",\n      \"pod_name\": \"run-9656908a-wtclx\"\n    }\n  ]\n}\n```\n",
			[]string{"pod_pending run-9656908a-wtclx"}, []string{"scheduling_constraints"}},
		{"a setting named pod is no pod", "```yaml\npod: true\nmessage: '0/17 nodes are available: 17 node(s) didn't match Pod's node affinity/selector.'\n```\n",
			[]string{"pod_pending "}, []string{"scheduling_constraints"}},
		{"Helm's --wait seeing a failed Job", "```\nwait.go:53: [debug] beginning wait for 2 resources with timeout of 40s\nwait.go:194: [debug] Job is failed: batch/db-migrate-1.0.3\nError: UPGRADE FAILED: timed out waiting for the condition\n```\n",
			[]string{"job_failed batch/db-migrate-1.0.3"}, nil},
		{"another controller's JSON log quoting the API server's quota refusal of a pod", `{"level":"warning","msg":"Failed to launch job, resource quota exceeded. err: caused by: pods \"wf-n0-0-n5-3\" is forbidden: exceeded quota: memory-cpu-quota, requested: requests.memory=1500M, used: requests.memory=7500M, limited: requests.memory=8Gi","ts":"2025-02-06T06:49:00Z"}` + "\n",
			[]string{"pod_create_failed wf-n0-0-n5-3"}, []string{"quota_exceeded"}},
		{"CRI-O's sandbox error naming the pod by the runtime's name for it", "  Warning  FailedCreatePodSandBox  8h (x71 over 8h)  kubelet, worker-03  Failed to create pod sandbox: rpc error: code = Unknown desc = error creating pod sandbox with name \"k8s_grafana-ff56fd59c-z7hdx_openshift-monitoring_23d28aab-1226-481f-aa3e-b58605370a66_0\": layer not known\n",
			[]string{"pod_stuck_creating openshift-monitoring/grafana-ff56fd59c-z7hdx"}, nil},
		{"dockershim's sandbox start error naming its pod", "> Warning  FailedCreatePodSandBox  3m (x12 over 3m)  kubelet, win-1  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to start sandbox container for pod \"kube-flannel-ds-windows-amd64-wc22r\": Error response from daemon: network host not found\n",
			[]string{"pod_stuck_creating kube-flannel-ds-windows-amd64-wc22r"}, nil},
		{"an alert's labels name the node its message does not", "Kubernetes node alert fires at 22:14 UTC:\nCRITICAL: KubeNodeNotReady\nnode: worker-node-07.prod.internal\ncondition: Ready=False\nmessage: \"Kubelet stopped posting node status\"\n",
			[]string{"node_not_ready worker-node-07.prod.internal"}, nil},
		{"the controller's message naming no node, beside one node's kubelet journal", "The kube-controller logs:\n```\nKubelet stopped posting node status\n```\nAnd the kubelet at the node:\n```\nOct 24 16:40:22 izwz90c5 kubelet[9873]: I1024 16:40:22.860269    9873 kubelet.go:1924] SyncLoop (housekeeping)\n```\n",
			[]string{"node_not_ready izwz90c5"}, nil},
		{"the same beside two nodes' kubelet journals: neither", "```\nKubelet stopped posting node status\nOct 24 16:40:22 node-a kubelet[9873]: I1024 16:40:22.860269    9873 kubelet.go:1924] SyncLoop (housekeeping)\nOct 24 16:40:22 node-b kubelet[9873]: I1024 16:40:22.860269    9873 kubelet.go:1924] SyncLoop (housekeeping)\n```\n",
			[]string{"node_not_ready "}, nil},
		{"the autoscaler's scale-up for a pod, in its log: the pod was pending", `I0413 14:08:12.919440       1 event.go:216] Event(api.ObjectReference{Kind:"Pod", Namespace:"git", Name:"gitlab-1123350407-69jam", UID:"9e27db32", APIVersion:"v1", ResourceVersion:"30546195", FieldPath:""}): type: 'Normal' reason: 'TriggeredScaleUp' pod triggered scale-up, group: ng-1, sizes (current/new): 3/4` + "\n",
			[]string{"pod_pending git/gitlab-1123350407-69jam", "scale_up "}, nil},
		{"Karpenter nominating a pod no row names for the node it launched", "```\n  Normal   Nominated  6m21s  karpenter  Pod should schedule on: nodeclaim/default-mf7bc\n  Normal   Started    1s     kubelet    Started container inflate\n```\n",
			[]string{"pod_pending "}, nil},
		{"the autoscaler refusing itself at its node limit: no scale-up tried, none that failed", "```\nscale_up.go:432] Capping size to max cluster total size (23)\nE0103 10:01:02.000000 1 static_autoscaler.go:275] Failed to scale up: max node total count already reached\n```\n",
			nil, nil},
		{"a node known only by its unreachable taint", "Name:      n-9\nRoles:     <none>\nTaints:    node.kubernetes.io/unreachable:NoExecute\n",
			[]string{"node_not_ready n-9"}, nil},
		{"an issue's title quoting the kubelet's event", "# Failed create pod sandbox: rpc error: code = Unknown desc = NetworkPlugin cni failed to set up pod \"web-1_prod\" network: add cmd: failed to assign an IP address to container\n\nThe pod never starts.\n",
			[]string{"pod_stuck_creating prod/web-1"}, []string{"ip_exhaustion"}},
		{"a describe of a pod not yet placed, cut before its conditions", "Name:           sched-0\nNamespace:      airflow\nNode:           <none>\nStatus:         Pending\nIP:             \nControlled By:  StatefulSet/sched\nContainers:\n  scheduler:\n    Image:      apache/airflow:2.9\n    Port:       <none>\n",
			[]string{"pod_pending airflow/sched-0"}, nil},
		{"a describe of a pod whose container has a state, no node shown", "Name:           sched-0\nNamespace:      airflow\nNode:           <none>\nStatus:         Pending\nContainers:\n  scheduler:\n    Container ID:   \n    Image:          apache/airflow:2.9\n    State:          Waiting\n      Reason:       ContainerCreating\n",
			nil, nil},
		{"the kubelet's structured error cut before its closing quote", `E0211 07:30:45.142216    4510 pod_workers.go:1298] "Error syncing pod, skipping" err="failed to \"CreatePodSandbox\" for \"web-7d9f8_prod(d944aa2c-25b3)\" with CreatePodSandboxError: \"Failed to create sandbox for pod \\\"web-7d9f8_prod(d944aa2c-25b3)\\\": rpc error: code = Unknown desc = failed to setup network for sandbox \\\"d571d03cae45` + "\n",
			[]string{"pod_stuck_creating prod/web-7d9f8"}, nil},
		{"the volume manager's detailed error in a journal, quoted", `Oct 06 18:02:48 minikube kubelet[743]: E1006 18:02:48.167820     743 nestedpendingoperations.go:301] Operation for "{volumeName:kubernetes.io/secret/82bce830-webhook-certs podName:82bce830 nodeName:}" failed. No retries permitted until 2020-10-06 18:03:20.167797176 +0000 UTC m=+81.640929255 (durationBeforeRetry 32s). Error: "MountVolume.SetUp failed for volume \"webhook-certs\" (UniqueName: \"kubernetes.io/secret/82bce830-webhook-certs\") pod \"gcp-auth-5ff8987f65-qh2l5\" (UID: \"82bce830\") : secret \"gcp-auth-certs\" not found"` + "\n",
			[]string{"pod_stuck_creating gcp-auth-5ff8987f65-qh2l5"}, []string{"missing_object"}},
		{"a wide pods table a narrow terminal wrapped, header and rows", "$ kubectl get pods -o wide --all-namespaces\nNAMESPACE     NAME                                 READY   STATUS    RESTARTS\nAGE   IP             NODE           NOMINATED NODE   READINESS GATES\n" +
			"default       workerpod                            0/1     Pending   0\n19m   <none>         <none>         <none>           <none>\n" +
			"kube-system   coredns-5644d7b6d9-f2xbk             1/1     Running   0\n30m   10.40.0.2      worker-node2   <none>           <none>\n",
			[]string{"pod_pending default/workerpod"}, nil},
		{"grep's pods rows a narrow terminal wrapped after READY", "$ kubectl get pods -A -o wide | grep Evict\nbinderhub        binder-7c5df8bbf6-2vqvt                                     0/1\nEvicted    0          38d     <none>           chick18   <none>           <none>\n" +
			"binderhub        hub-644db7d545-5tf5f                                        0/1\nEvicted    0          68d     <none>           chick14   <none>           <none>\n",
			[]string{"pod_evicted binderhub/binder-7c5df8bbf6-2vqvt", "pod_evicted binderhub/hub-644db7d545-5tf5f", "evicted_pods_lingering binderhub/binder-7c5df8bbf6-2vqvt,binderhub/hub-644db7d545-5tf5f"}, nil},
		{"a describe whose container fields lost their depth under the name", "Name:\t\t\t\tleak-1\nNamespace:\t\t\tdefault\nNode:\t\t\t\tminion-1/10.240.216.66\nStatus:\t\t\t\tRunning\nContainers:\n\tleak:\n\tImage:\tsaadali/simmemleak\n\tLimits:\n\tmemory:\t\t50Mi\n\tState:\t\tRunning\n\tReady:\t\tFalse\n\tRestart Count:\t5\n",
			[]string{"container_restarted default/leak-1"}, nil},
		{"a describe that lost all its indentation", "Name:               crawler-79f7cbc6cf-rzck9\nNamespace:          crawl\nNode:               gke-pool-1-mv7w/\nLabels:             app.kubernetes.io/instance=crawler\napp.kubernetes.io/name=crawler\npod-template-hash=3593767279\nAnnotations:        <none>\n" +
			"Status:             Failed\nReason:             Evicted\nMessage:            The node was low on resource: memory. Container crawler was using 9402820Ki, which exceeds its request of 7G.\nIP:\nControlled By:      ReplicaSet/crawler-79f7cbc6cf\nContainers:\ncrawler:\nImage:      crawler:1\nLimits:\nmemory:  10G\nRequests:\nmemory:   7G\n",
			[]string{"evicted_pods_lingering crawl/crawler-79f7cbc6cf-rzck9", "pod_evicted crawl/crawler-79f7cbc6cf-rzck9"}, []string{"memory_over_request"}},
		{"an eviction for a node condition: the node was under that pressure", "$ kubectl describe pods -n kube-system kube-vip-ds-pc4fk\nEvents:\n  Type     Reason     Age   From               Message\n  ----     ------     ----  ----               -------\n" +
			"  Normal   Scheduled  8m1s  default-scheduler  Successfully assigned kube-system/kube-vip-ds-pc4fk to kenasus\n  Warning  Evicted    8m1s  kubelet            The node had condition: [DiskPressure].\n",
			[]string{"pod_evicted kube-system/kube-vip-ds-pc4fk", "node_pressure kenasus"}, []string{"node_disk_exhaustion"}},
		{"a describe whose annotation's value a wrap moved to column 0", "Name:                 pg-6d8858f5b-4khf2\nNamespace:            admin\nNode:                 kaapana/192.168.1.91\nAnnotations:          cni.projectcalico.org/containerID:\n9cfbd81230016eaf2dde17a2254b76ee3963c03a19775d54f899ede25e1cbdce\n" +
			"                      cni.projectcalico.org/podIP:\nStatus:               Failed\nReason:               Evicted\nMessage:              The node was low on resource: ephemeral-storage. Threshold\nquantity: 1Gi, available: 777784Ki.\n",
			[]string{"pod_evicted admin/pg-6d8858f5b-4khf2", "evicted_pods_lingering admin/pg-6d8858f5b-4khf2"}, []string{"node_disk_exhaustion"}},
		{"karpenter v0.x launching instances: the nodes it adds", "karpenter-6b66bfbf8b-kp767 controller 2022-03-25T18:50:48.813Z\tINFO\tcontroller.provisioning\tLaunched instance: i-023b9556d022916f3, hostname: ip-192-168-81-251.us-west-2.compute.internal, type: m5.large, zone: us-west-2a, capacityType: on-demand\t{\"commit\": \"29b803e\", \"provisioner\": \"default\"}\n" +
			"karpenter-6b66bfbf8b-kp767 controller 2022-03-25T18:50:48.815Z\tINFO\tcontroller.provisioning\tLaunched instance: i-0b3d21a1dc14dcf15, hostname: ip-192-168-71-252.us-west-2.compute.internal, type: m5.large, zone: us-west-2a, capacityType: on-demand\t{\"commit\": \"29b803e\", \"provisioner\": \"default\"}\n",
			[]string{"scale_up ip-192-168-71-252.us-west-2.compute.internal,ip-192-168-81-251.us-west-2.compute.internal"}, nil},
		{"a pods row cut after its STATUS, quoted in a sentence", "安装chart时会报错：\n`kubeflow                    training-operator-8569f97489-zkxbt                            0/1     OOMKilled`。\n调整到40Mi就可以啦。\n",
			[]string{"oom_killed kubeflow/training-operator-8569f97489-zkxbt"}, nil},
		{"a healthy pods row cut after its STATUS, quoted", "it shows `web   web-7d9f8-x2x4q   1/1   Running` now\n",
			nil, nil},
		{"0.x get events rows with their times written out", "$ osc get events\nFIRSTSEEN                         LASTSEEN                          COUNT     NAME                KIND                    SUBOBJECT   REASON             SOURCE                      MESSAGE\n" +
			"Mon, 18 May 2015 22:30:32 +0900   Mon, 18 May 2015 22:30:32 +0900   1         router-1            ReplicationController               failedCreate       {replication-controller }   Error creating: Pod \"router-1-\" is forbidden: Namespace default does not exist\n" +
			"Mon, 18 May 2015 22:30:32 +0900   Mon, 18 May 2015 22:30:32 +0900   1         docker-registry-1   ReplicationController               failedCreate       {replication-controller }   Error creating: Pod \"docker-registry-1-\" is forbidden: Namespace default does not exist\n",
			[]string{"pod_create_failed docker-registry-1,router-1"}, nil},
		{"a 0.x get events row without its header", "~$ kubectl get events | tail\nMon, 23 Mar 2015 20:57:08 +0300   Mon, 23 Mar 2015 20:57:08 +0300   1                   verse-controller    Pod                                     failedScheduling    {scheduler }        Error scheduling: failed to find fit for pod: {{ } {verse-controller  default}}\n",
			[]string{"pod_pending verse-controller"}, nil},
		{"the kernel's memory cgroup OOM under the systemd cgroup driver, its paths long", "Jan  5 02:12:02 node-1 kernel: Task in /kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod0330b2c1_a15b_4cdd_b5e5_72d4a90bee82.slice/docker-b27201334a41cd0749d053b18378d7ea65617b8e26277197ea25c974da1a5a8a.scope killed as a result of limit of /kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod0330b2c1_a15b_4cdd_b5e5_72d4a90bee82.slice/docker-b27201334a41cd0749d053b18378d7ea65617b8e26277197ea25c974da1a5a8a.scope\n",
			[]string{"oom_killed "}, nil},
		{"a sentence ending with the describe command whose events follow", "when  kubectl apply -f gpu-job.yaml \n，pod in Pending and then kubectl describe pod gpu-gtx-1050\nEvents:\n Warning FailedScheduling  40s (x2 over 40s)  default-scheduler  0/2 nodes are available: 2 Insufficient nvidia.com/gpu.\n",
			[]string{"pod_pending gpu-gtx-1050"}, []string{"capacity_exhaustion"}},
		{"the 1.3 kubelet could not start a pod's infra container", "E0713 07:03:06.865375    1742 docker_manager.go:1955] Failed to create pod infra container: ImagePullBackOff; Skipping pod \"kube-addon-manager-minikubevm_kube-system(48abed82af93bb0b941173334110923f)\": Back-off pulling image \"gcr.io/google_containers/pause-amd64:3.0\"\n",
			[]string{"image_pull_failed kube-system/kube-addon-manager-minikubevm"}, []string{"image_unavailable"}},
		{"the 1.1 replication manager refused pods by the quota admission", "E0302 15:23:58.002320 1586 replication_controller.go:357] unable to create pods: Pod \"voucher-manager-service-iron-\" is forbidden: unable to admit pod without exceeding quota for resource cpu:\n",
			[]string{"pod_create_failed "}, []string{"quota_exceeded"}},
		{"a claim's events pasted alone, the provisioner's row naming it", "  Warning  ProvisioningFailed    12m (x732 over 47h)     driver.longhorn.io_csi-provisioner-64f66878c7-trzbg_3095ffe4  failed to provision volume with StorageClass \"longhorn\": rpc error: code = Internal desc = context deadline exceeded\n" +
			"  Normal   Provisioning          46s (x748 over 47h)     driver.longhorn.io_csi-provisioner-64f66878c7-trzbg_3095ffe4  External provisioner is provisioning volume for claim \"infra/data-es-0\"\n",
			[]string{"volume_provisioning_failed infra/data-es-0"}, nil},
		{"describes a writer cut with \"...\"", "```\nName:           exit-nonzero\n...\nPods Statuses:  0 Running / 0 Succeeded / 6 Failed\n...\nEvents:\n  Type     Reason                Age    From            Message\n  ----     ------                ----   ----            -------\n" +
			"  Warning  BackoffLimitExceeded  3m51s  job-controller  Job has reached the specified backoff limit\n```\n\n```\nName:         should-be-unschedulable\n...\nStatus:       Pending\nConditions:\n  PodScheduled   False\n...\nEvents:\n" +
			"  Type     Reason            Age                From               Message\n  ----     ------            ----               ----               -------\n  Warning  FailedScheduling  40s (x2 over 40s)  default-scheduler  0/1 nodes are available: 1 Insufficient memory.\n```\n",
			[]string{"job_failed exit-nonzero", "pod_pending should-be-unschedulable"}, []string{"capacity_exhaustion"}},
		{"an Events row whose message a wrap moved to column 0 reads like a field", "Name:         conda-store-7d9f8-x2x4q\nNamespace:    dev\n...\nEvents:\n  Type     Reason                  Age                  From\nMessage\n  ----     ------                  ----                 ----\n-------\n" +
			"  Warning  Evicted                 7s                   kubelet\nThe node was low on resource: memory. Container nfs-server was using 165800Ki,\nwhich exceeds its request of 0.\n",
			[]string{"pod_evicted dev/conda-store-7d9f8-x2x4q"}, []string{"memory_over_request"}},
		{"a 1.2 describe node, its labels on one line joined by commas", "Name:                   ip-172-20-0-99.eu-west-1.compute.internal\n" +
			"Labels:                 beta.kubernetes.io/instance-type=t2.medium,failure-domain.beta.kubernetes.io/region=eu-west-1,failure-domain.beta.kubernetes.io/zone=eu-west-1a,kubernetes.io/hostname=ip-172-20-0-99.eu-west-1.compute.internal\n" +
			"CreationTimestamp:      Thu, 24 Mar 2016 12:57:48 -0400\nPhase:\nConditions:\n" +
			"  Type          Status          LastHeartbeatTime                       LastTransitionTime                      Reason                  Message\n" +
			"  ----          ------          -----------------                       ------------------                      ------                  -------\n" +
			"  Ready         Unknown         Wed, 30 Mar 2016 21:12:46 -0400         Wed, 30 Mar 2016 21:13:30 -0400         NodeStatusUnknown       Kubelet stopped posting node status.\n",
			[]string{"node_not_ready ip-172-20-0-99.eu-west-1.compute.internal"}, nil},
		{"the scheduler counting nodes not ready, naming none", "Name:         docker-registry-1-deploy\nNamespace:    default\nNode:         <none>\nStatus:       Pending\nEvents:\n" +
			"  Type     Reason            Age                From               Message\n  ----     ------            ----               ----               -------\n" +
			"  Warning  FailedScheduling  4m (x701 over 3h)  default-scheduler  0/2 nodes are available: 2 node(s) were not ready.\n",
			[]string{"pod_pending default/docker-registry-1-deploy", "node_not_ready "}, nil},
		{"kubectl get all rows without their header, grepped", "root@master:~# k get all -A -o wide | grep -i rancher\n" +
			"cattle-system               pod/rancher-68d489b6d7-4c2gm                             0/1     Evicted                  0              53m     <none>            kubernetes-worker1-ubuntu   <none>           <none>\n" +
			"cattle-system               pod/rancher-68d489b6d7-62d8n                             0/1     Evicted                  0              17m     <none>            kubernetes-worker3-ubuntu   <none>           <none>\n",
			[]string{"pod_evicted cattle-system/rancher-68d489b6d7-4c2gm,cattle-system/rancher-68d489b6d7-62d8n", "evicted_pods_lingering cattle-system/rancher-68d489b6d7-4c2gm,cattle-system/rancher-68d489b6d7-62d8n"}, nil},
		{"a local volume pinned to another node than the pod's", "Events:\n  Type     Reason       Age                       From                   Message\n  ----     ------       ----                      ----                   -------\n" +
			"  Warning  FailedMount  4m51s (x525488 over 14h)  kubelet, 172.16.4.155  MountVolume.NodeAffinity check failed for volume \"local-pv-284c9de3\" : No matching NodeSelectorTerms\n",
			[]string{"pod_stuck_creating "}, []string{"volume_binding"}},
		{"a pod's status as YAML, the scheduler's message folded over three lines", "    conditions:\n    - lastProbeTime: null\n      lastTransitionTime: \"2021-03-30T01:08:44Z\"\n" +
			"      message: '0/6 nodes are available: 2 node(s) had taint {node.kubernetes.io/unreachable:\n        }, that the pod didn''t tolerate, 4 node(s) didn''t find available persistent\n        volumes to bind.'\n" +
			"      reason: Unschedulable\n      status: \"False\"\n      type: PodScheduled\n    phase: Pending\n",
			[]string{"pod_pending "}, []string{"volume_binding"}},
		{"a claim waiting for its external provisioner for five minutes", "Events:\n Normal  ExternalProvisioning  4s (x22 over 5m19s)  persistentvolume-controller  waiting for a volume to be created, either by external provisioner \"fuseim.pri/ifs\" or manually created by system administrator\n",
			[]string{"volume_provisioning_failed "}, nil},
		{"a claim waiting for its external provisioner for ten minutes, said three times", "apiVersion: v1\nkind: Event\nmetadata:\n  name: data-db-0.17a\n  namespace: prod\ninvolvedObject:\n  kind: PersistentVolumeClaim\n  name: data-db-0\n  namespace: prod\n" +
			"reason: ExternalProvisioning\ntype: Normal\ncount: 3\nfirstTimestamp: \"2024-01-01T10:00:00Z\"\nlastTimestamp: \"2024-01-01T10:10:00Z\"\n" +
			"message: 'waiting for a volume to be created, either by external provisioner \"ebs.csi.aws.com\" or manually created by system administrator'\n",
			[]string{"volume_provisioning_failed prod/data-db-0"}, nil},
		{"a claim waiting for its external provisioner a little while", "Events:\n Normal  ExternalProvisioning  4s (x3 over 30s)  persistentvolume-controller  waiting for a volume to be created, either by external provisioner \"ebs.csi.aws.com\" or manually created by system administrator\n",
			nil, nil},
		{"pods ContainerCreating for hours, and one for seconds", "`kube-system   coredns-576cbf47c7-2zcjc                   0/1     ContainerCreating   0          57m`\n" +
			"`katib-controller-7b784c44dd-jn9zx                           0/1     ContainerCreating   0          3h57m`\n`web-1   0/1   ContainerCreating   0   40s`\n",
			[]string{"pod_stuck_creating kube-system/coredns-576cbf47c7-2zcjc", "pod_stuck_creating katib-controller-7b784c44dd-jn9zx"}, nil},
		{"the kubelet's eviction manager observing its node's disk pressure, quoted in a table", "Time | Component | Event\n------------ | ------------- | -------------\n" +
			"21/05/2019 22:09:02.078 | kubelet | Kubelet determines that it has DiskPressure `eviction manager: node conditions - observed: [DiskPressure]`\n",
			[]string{"node_pressure "}, []string{"node_disk_exhaustion"}},
		{"1.0's quota admission that could not read the quotas refusing a build's pod", "Build failed with error rjarvine/restify-base-1: &errors.errorString{s:\"failed to create pod for build rjarvine/restify-base-1: pods \\\"restify-base-1\\\" is forbidden: Unable to CREATE pods at this time because there was an error enforcing quota\"}\n",
			[]string{"pod_create_failed restify-base-1"}, nil},
		{"a describe pod pasted indented as a whole", "This is the output of the `kubectl describe pods` command:\n```\n  Name:           xyz-v1-5c5b57cf9c-kvjxn\n  Namespace:      default\n  Node:           <none>\n" +
			"  Status:         Pending\n  Controlled By:  ReplicaSet/xyz-v1-5c5b57cf9c\n  Containers:\n    aadhar:\n      Image:      tensorflow/serving:1.11.1-gpu\n      Limits:\n        nvidia.com/gpu:  1\n```\n",
			[]string{"pod_pending default/xyz-v1-5c5b57cf9c-kvjxn"}, nil},
		{"an alerting bot's records, each naming the object above the message it forwards", "```\nv1/nodes error\nError Occurred in Node: ip-10-0-1-54.us-east-2.compute.internal in prod-k8s cluster\nAttempting to reclaim ephemeral-storage\n\n" +
			"v1/pods error\nError Occurred in Pod: actions-runner-system/github-runner-jnp9m-2rwsr in prod-k8s cluster\nThe node was low on resource: ephemeral-storage. Container runner was using 84096Ki, which exceeds its request of 0. \n```\n",
			[]string{"pod_evicted github-runner-jnp9m-2rwsr", "node_pressure ip-10-0-1-54.us-east-2.compute.internal"}, []string{"node_disk_exhaustion"}},
		{"the node lifecycle controller's log of a node whose kubelet went quiet", "I0528 07:44:10.430657 9 node_lifecycle_controller.go:1176] node dynamic.7.220.110.21 hasn't been updated for 40.125415326s. Last Ready is: &NodeCondition{Type:Ready,Status:False,Reason:KubeletNotReady,}\n",
			[]string{"node_not_ready dynamic.7.220.110.21"}, nil},
		{"1.3's kubelet refusing a pod for its node's memory pressure, the conditions printed as an EXTRA", "W0818 03:35:27.856107    2658 eviction_manager.go:110] Failed to admit pod cadvisor_e2e-tests-density-test-43bif(ce5092e5-64f4-11e6-b1e0-42010a800007) - node has conditions: %v%!(EXTRA []api.NodeConditionType=[MemoryPressure])\n",
			[]string{"node_pressure "}, nil},
		{"a describe's events row pasted above the pod's YAML, whose name comes after its labels", "```\n  Warning  FailedScheduling  2m58s (x1447 over 19h)  default-scheduler  0/1 nodes are available: 1 node(s) didn't match pod affinity/anti-affinity, 1 node(s) didn't satisfy existing pods anti-affinity rules.\n```\n\n" +
			"```yaml\napiVersion: v1\nkind: Pod\nmetadata:\n  creationTimestamp: \"2019-06-20T17:35:01Z\"\n  generateName: logical-backup-foo-db-1561052100-\n  labels:\n    application: spilo\n    cluster-name: foo-db\n" +
			"    controller-uid: bb4f76bb-9381-11e9-8f3a-5254005c0982\n    job-name: logical-backup-foo-db-1561052100\n    team: foo\n  name: logical-backup-foo-db-1561052100-x9vdm\n  namespace: foo\n  ownerReferences:\n  - apiVersion: batch/v1\n    kind: Job\n    name: logical-backup-foo-db-1561052100\n",
			[]string{"pod_pending logical-backup-foo-db-1561052100-x9vdm"}, []string{"scheduling_constraints"}},
		{"an OpenShift operator's degraded condition naming master nodes not ready", "ERROR NodeControllerDegraded: The master nodes not ready: node \"okdcluster-6wwm2-master-0\" not ready since 2021-03-04 01:16:28 +0000 UTC because NodeStatusUnknown (Kubelet stopped posting node status.)\n",
			[]string{"node_not_ready okdcluster-6wwm2-master-0"}, nil},
		{"a describe pod cut above its Status, its node <none>, below the scheduler's message quoted", "I see \"0/6 nodes are available: 2 Insufficient cpu, 3 Insufficient memory.\"\n```\nName:                 pg-88cc-2-join-rhwwf\nNamespace:            implentio\nPriority:             10000000\n" +
			"Priority Class Name:  workload-important\nService Account:      pg-88cc\nNode:                 <none>\nLabels:               batch.kubernetes.io/job-name=pg-88cc-2-join\n```\n",
			[]string{"pod_pending implentio/pg-88cc-2-join-rhwwf"}, []string{"capacity_exhaustion"}},
		{"a describe pod whose writer cut lines out with --- and ....", "```console\nkubectl  -n shoot--project-shoot describe pod loki-0\n...\nContainers:\n....\n  loki:\n---\n    State:          Running\n    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n" +
			"    Ready:          True\n    Restart Count:  1\n    Limits:\n      cpu:     450m\n      memory:  3G\n    Requests:\n      cpu:      200m\n      memory:   2G\n```\n",
			[]string{"oom_killed shoot--project-shoot/loki-0"}, []string{"memory_limit_too_low"}},
		{"a node's DiskPressure condition pasted as YAML, its reason and message only", "  - lastHeartbeatTime: 2019-09-18T07:30:26Z\n    lastTransitionTime: 2019-09-18T06:19:48Z\n    message: kubelet has disk pressure\n    reason: KubeletHasDiskPressure\n    status: \"True\"\n    type: DiskPressure\n",
			[]string{"node_pressure "}, []string{"node_disk_exhaustion"}},
		{"a container's fragment whose first line a paste indented less, below a sentence quoting the command", "```shell\nkubectl describe pod gives me: \n\n\n   State:          Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n" +
			"    Ready:          False\n    Restart Count:  0\n    Limits:\n      cpu:     1100m\n      memory:  256Mi\n    Requests:\n      cpu:     10m\n      memory:  1Mi\n```\n",
			[]string{"oom_killed "}, []string{"memory_limit_too_low"}},
		{"the scheduler's diagnosis quoted without its count of nodes, below the pods listed", "```\n$ kubectl get pods\nNAME                   READY   STATUS    RESTARTS   AGE\nweb-6d4cf56db6-x2k9p   0/1     Pending   0          12m\n```\n" +
			"The scheduler keeps saying \"1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient memory.\" for it.\n",
			[]string{"pod_pending web-6d4cf56db6-x2k9p"}, []string{"capacity_exhaustion"}},
		{"the same diagnosis alone in a sentence: a pod the input does not name", "Our pods never start: 1 node(s) didn't have free ports for the requested pod ports, 1 node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate.\n",
			[]string{"pod_pending "}, nil},
		{"Helm's failed hook Job in Terraform's box, named (helm v3.14+)", "│ Error: Helm release error\n│ \n│ failed post-install: 1 error occurred:\n│ \t* job cert-manager-startupapicheck failed: BackoffLimitExceeded\n",
			[]string{"job_failed cert-manager-startupapicheck"}, nil},
		{"Helm 2's hook Job past its deadline", "[debug] CHART PATH: /root/helm/charts/px\n\nError: Job failed: DeadlineExceeded\n",
			[]string{"job_failed "}, nil},
		{"a startup probe failing is its own kind, not a liveness probe's", "  Warning  Unhealthy  1s (x15 over 15s)  kubelet            Startup probe failed: Get \"http://10.0.0.229:9000/health/started\": dial tcp 10.0.0.229:9000: connect: connection refused\n" +
			"  Normal   Killing    1s                 kubelet            Container keycloak failed startup probe, will be restarted\n",
			[]string{"startup_probe_failed "}, nil},
		{"a Deployment's ReplicaFailure condition under the command that described it by name", "$ kubectl describe deployment web\nConditions:\n  Type             Status  Reason\n  ----             ------  ------\n  Available        False   MinimumReplicasUnavailable\n  ReplicaFailure   True    FailedCreate\n",
			[]string{"pod_create_failed web"}, nil},
		{"1.0's quota refusing a pod without a memory limit, in a 2015 events row", "  Thu, 04 Jun 2015 15:40:12 -0400       Thu, 04 Jun 2015 15:40:31 -0400 6       {deployer }                     failedCreate    Error creating deployer pod for sinatra/ruby-example-2: Pod \"ruby-example-2-deploy\" is forbidden: Limited to 512Mi memory, but pod has no specified memory limit\n",
			[]string{"pod_create_failed ruby-example-2-deploy"}, []string{"quota_exceeded"}},
		{"a conditions table whose stale OutOfDisk the node controller marked Unknown, the node Ready", "Conditions:\n  Type                 Status    LastHeartbeatTime                 LastTransitionTime                Reason                       Message\n  ----                 ------    -----------------                 ------------------                ------                       -------\n" +
			"  OutOfDisk            Unknown   Mon, 21 Jan 2019 19:29:36 +0000   Fri, 25 Jan 2019 13:57:23 +0000   NodeStatusUnknown            Kubelet stopped posting node status.\n" +
			"  Ready                True      Mon, 28 Jan 2019 10:06:08 +0000   Mon, 28 Jan 2019 09:25:31 +0000   KubeletReady                 kubelet is posting ready status. AppArmor enabled\n",
			nil, nil},
		{"OpenShift's kubelet's ProbeError event of a startup probe", "  Warning  ProbeError  10m (x22541 over 16h)  kubelet  Startup probe error: HTTP probe failed with statuscode: 500\nbody: [-]backend-http failed: reason withheld\n",
			[]string{"startup_probe_failed "}, nil},
		{"the scheduler's unbound-claim message in a sentence, the claim's describe naming the pod that mounts it", "The pod was pending: 0/5 nodes are available: 5 pod has unbound immediate PersistentVolumeClaims.\n\n```\nName:          nfs-data\nNamespace:     storage\nStorageClass:  longhorn\nStatus:        Pending\n" +
			"Access Modes:  \nVolumeMode:    Filesystem\nMounted By:    nfs-provisioner-76cb977b9f-4slmf\nEvents:\n  Type     Reason              Age                  From                         Message\n  ----     ------              ----                 ----                         -------\n" +
			"  Warning  ProvisioningFailed  108s (x42 over 11m)  persistentvolume-controller  storageclass.storage.k8s.io \"longhorn\" not found\n```\n",
			[]string{"pod_pending nfs-provisioner-76cb977b9f-4slmf", "volume_provisioning_failed storage/nfs-data"}, []string{"volume_binding", "missing_object"}},
		{"Rancher's planner forwarding Cluster API's summary of a node's conditions", "2023/03/17 18:36:58 [INFO] [planner] rkecluster fleet-default/dascrke2: waiting: configuring bootstrap node(s) custom-d953bccd4557: Node condition MemoryPressure is Unknown. Node condition DiskPressure is Unknown. Node condition PIDPressure is Unknown. Node condition Ready is Unknown., waiting for probes: etcd, kubelet\n",
			[]string{"node_not_ready custom-d953bccd4557"}, nil},
		{"old wide events rows without their header, each NAME an event's (its pod's name and an id)", "kube-system     3m          3m           1       canal-5q4ds.158111ce4ba32513                             Pod         spec.containers{calico-node}                Normal    Pulled                    kubelet, 10.150.162.243      Container image \"rancher/calico-node:v3.1.3\" already present on machine\n" +
			"kube-system     3m          3m           1       canal-hgqfr.158111ce45c6fe5f                             Pod         spec.containers{calico-node}                Warning   Unhealthy                 kubelet, 10.150.162.241      Readiness probe failed: Get http://10.150.162.241:9099/readiness: dial tcp 10.150.162.241:9099: connect: connection refused\n" +
			"kube-system     3m          3m           1       canal-5q4ds.158111ce6c40012f                             Pod         spec.containers{calico-node}                Normal    Started                   kubelet, 10.150.162.243      Started container\n",
			[]string{"readiness_probe_failed canal-hgqfr"}, nil},
		{"events with a KIND column and no object's name: a ReplicaSet's refused pods name it by their generateName", "LAST SEEN   TYPE      REASON              KIND         MESSAGE\n50m         Warning   FailedCreate        ReplicaSet   Error creating: pods \"gateway-cdbdbcd54-\" is forbidden: error looking up service account openfaas/faas-controller: serviceaccount \"faas-controller\" not found\n",
			[]string{"pod_create_failed gateway-cdbdbcd54"}, []string{"missing_object"}},
		{"the pod of an API error kubectl printed, above the pod's events", "logs =>> error: You must be logged in to the server (the server has asked for the client to provide credentials ( pods/log calico-node-sn6nh))\ndescribe =>\n" +
			"  Warning  Unhealthy       20m (x8 over 21m)      kubelet  Readiness probe failed: calico/node is not ready: BIRD is not ready: Error querying BIRD\n",
			[]string{"readiness_probe_failed calico-node-sn6nh"}, nil},
		{"the 1.9 node controller's log deleting the pods of a node that stopped answering", "I0213 07:10:19.390380       5 nodecontroller.go:644] Node is unresponsive. Adding Pods on Node ip-172-20-59-148.ec2.internal to eviction queues: 2018-02-13 07:10:19.390366563 +0000 UTC is later than 2018-02-13 07:05:54.806837121 +0000 UTC + 4m20s\n" +
			"I0213 07:10:19.456666       5 controller_utils.go:89] Starting deletion of pod default/maya-apiserver-3053842955-5h0zs\n",
			[]string{"node_not_ready ip-172-20-59-148.ec2.internal", "pod_evicted default/maya-apiserver-3053842955-5h0zs"}, nil},
		{"an exporter's line naming the event (its pod's name and an id) before the message", "Abnormal event detected on 2018-08-04 15:12:40 +0300 EEST openfaas-fn/curl-597fc995ff-grdpv.1547ad45cd809d7b: Failed to pull image \"quay.io/stefanprodan/fn-curl:1.2.1\": rpc error: code = Unknown desc = Tag 1.2.1 not found in repository quay.io/stefanprodan/fn-curl\n",
			[]string{"image_pull_failed openfaas-fn/curl-597fc995ff-grdpv"}, []string{"image_unavailable"}},
		{"a volume plugin's mount error naming the pod it mounted for, in a sentence", "The second and third pod shows the same error:\n\nMountVolume.SetUp failed for volume \"pvc-ed04a6ce\" : mount command failed, status: Failure, reason: Rook: Mount volume failed: failed to attach volume pvc-ed04a6ce for pod default/nginx-deployment-86dfb99868-n82x8. Volume is already attached by pod default/nginx-deployment-86dfb99868-szpkd. Status Running\n",
			[]string{"pod_stuck_creating default/nginx-deployment-86dfb99868-n82x8"}, []string{"volume_attach_failure"}},
		{"a ReplicaSet's FailedCreate row alone, its refused pods' generateName naming it", "  Warning  FailedCreate  19s (x16 over 3m3s)  replicaset-controller  Error creating: pods \"rook-ceph.cephfs.csi.ceph.com-ctrlplugin-6ffb4b774-\" is forbidden: error looking up service account rook-ceph/csi-cephfs-ctrlplugin-sa: serviceaccount \"csi-cephfs-ctrlplugin-sa\" not found\n",
			[]string{"pod_create_failed rook-ceph.cephfs.csi.ceph.com-ctrlplugin-6ffb4b774"}, []string{"missing_object"}},
		{"a Job's FailedCreate rows under Events, the pods' generated names naming it", "Events:\n  Type     Reason        Age                From            Message\n  ----     ------        ----               ----            -------\n" +
			"  Warning  FailedCreate  30m                job-controller  Error creating: pods \"timescaledb-patroni-0u-kf7t9\" is forbidden: failed quota: anais-quota: must specify limits.cpu,limits.memory\n" +
			"  Warning  FailedCreate  29m                job-controller  Error creating: pods \"timescaledb-patroni-0u-swzqt\" is forbidden: failed quota: anais-quota: must specify limits.cpu,limits.memory\n",
			[]string{"pod_create_failed timescaledb-patroni-0u,timescaledb-patroni-0u-kf7t9,timescaledb-patroni-0u-swzqt"}, []string{"quota_exceeded"}},
		{"custom-columns events without their header: the pod's generated name in the cell before the message", "Preempted           victim-daemonset-d-llnjb    Preempted by pod f0215c99-7d4b-4b8e-9a51-1c2f0e3d4a5b on node preempt-victim-repro-worker\n",
			[]string{"preempted victim-daemonset-d-llnjb"}, []string{"preemption"}},
		{"a person's sentence in the everyday words of the OutOfDisk condition's message", "`kubectl describe nodes` shows that none of the nodes are running out of disk space:\n\n```\nNAME                                         STATUS    AGE\nip-172-20-0-130.us-west-1.compute.internal   Ready     48d\n```\n",
			nil, nil},
		{"the OutOfDisk condition's message as its row prints it", "Conditions:\n  Type          Status    LastHeartbeatTime                 LastTransitionTime                Reason              Message\n  ----          ------    -----------------                 ------------------                ------              -------\n" +
			"  OutOfDisk     True      Mon, 12 Sep 2016 23:21:42 +0000   Mon, 12 Sep 2016 23:11:42 +0000   KubeletOutOfDisk    out of disk space\n",
			[]string{"node_pressure "}, nil},
		{"a pods table Ansible's debug task printed as an array of strings", "TASK [Check the registry] ******\nok: [master-0] => {\n    \"msg\": [\n" +
			"        \"NAME                       READY     STATUS             RESTARTS   AGE\",\n" +
			"        \"docker-registry-1-x2bq9    0/1       CrashLoopBackOff   14         48m\",\n" +
			"        \"router-1-deploy            1/1       Running            0          50m\"\n    ]\n}\n",
			[]string{"crash_loop_backoff docker-registry-1-x2bq9", "container_restarted docker-registry-1-x2bq9"}, nil},
		{"a pod's FailedScheduling row under a node's describe cut by egrep", "```\noc describe node gpu-0.example.org | egrep 'Capacity|gpu'\nCapacity:\n nvidia.com/gpu:  2\n```\n\nand then my test pod could not be scheduled\n\n```\n" +
			"  Warning  FailedScheduling  3s (x5 over 9s)  default-scheduler  0/6 nodes are available: 3 node(s) didn't match node selector, 6 Insufficient nvidia.com/gpu.\n```\n",
			[]string{"pod_pending "}, []string{"capacity_exhaustion"}},
		{"a refusal quoted in prose under the generateName of a controller of no kind said", "now the \"agent\" workload says:\n> Error creating: pods \"agent-\" is forbidden: error looking up service account infra/agent: serviceaccount \"agent\" not found\n",
			[]string{"pod_create_failed infra/agent"}, []string{"missing_object"}},
		{"a refusal quoted in prose under the generateName of a ReplicaSet", "the events say:\n> Error creating: pods \"web-7d9f5c6b8-\" is forbidden: error looking up service account prod/web: serviceaccount \"web\" not found\n",
			[]string{"pod_create_failed prod/web-7d9f5c6b8"}, []string{"missing_object"}},
		{"a README's diff whose command selects evicted pods to delete", "````diff\n@@ -0,0 +1,4 @@\n+# Cleanup evicted pods\n+```bash\n" +
			"+kubectl get pods -A -ojson | jq -r '.items[] | select(.status.reason | contains(\"Evicted\")) | .metadata.name'\n+```\n````\n",
			nil, nil},
		{"events a person marked in a diff's colours", "```diff\n  Type     Reason   Age   From     Message\n  ----     ------   ----  ----     -------\n" +
			"- Warning  Evicted  3m    kubelet  The node was low on resource: memory. Container web was using 2924152Ki, which exceeds its request of 0.\n```\n",
			[]string{"pod_evicted "}, []string{"memory_over_request"}},
		{"the runtime manager's error of a pod's container that could not start, 1.19+, its line wrapped by hand", "Oct 29 02:09:51 minikube kubelet[1717]: E1029 02:09:51.827842    1717 kuberuntime_manager.go:804] container &Container{Name:web,Image:registry.example.com/web:1.4,Command:[],} start failed in pod web-6ddfcc9757-t7pmx_default(8ea8c461-b6a8-4c16-9b57-71ba32ae8cba): ErrImagePull: rpc error: code = Unknown desc = Error response from daemon: Get https://registry.example.com/v2/: dial tcp: loo\nkup registry.example.com on 192.168.49.1:53: i/o timeout\n",
			[]string{"image_pull_failed default/web-6ddfcc9757-t7pmx"}, nil},
		{"the runtime manager's error of a container that could not start, 1.5-1.18", "Mar 02 10:01:02 node-1 kubelet[812]: E0302 10:01:02.123456     812 runtime.go:66] container start failed: ErrImagePull: rpc error: code = Unknown desc = Error response from daemon: Get https://registry.example.com/v2/: net/http: TLS handshake timeout\n",
			[]string{"image_pull_failed "}, nil},
		{"claims Pending an hour for a storage class the listing above them does not hold", "$ kubectl get sc\nNAME                          PROVISIONER                     RECLAIMPOLICY   VOLUMEBINDINGMODE      ALLOWVOLUMEEXPANSION   AGE\n" +
			"example-sc                    kubernetes.io/gce-pd            Delete          Immediate              false                  23h\n" +
			"local-path (default)          rancher.io/local-path           Delete          WaitForFirstConsumer   false                  6d1h\n\n" +
			"$ kubectl get pv,pvc -n pg\nNAME                                    STATUS    VOLUME   CAPACITY   ACCESS MODES   STORAGECLASS   AGE\n" +
			"persistentvolumeclaim/crdcluster        Pending                                      standard       59m\n" +
			"persistentvolumeclaim/hippo             Pending                                      fast           4m3s\n",
			[]string{"volume_provisioning_failed pg/crdcluster"}, []string{"missing_object"}},
		{"a claim Pending an hour for a class that waits for its first consumer", "$ kubectl get sc\nNAME                          PROVISIONER                     RECLAIMPOLICY   VOLUMEBINDINGMODE      ALLOWVOLUMEEXPANSION   AGE\n" +
			"example-sc                    kubernetes.io/gce-pd            Delete          Immediate              false                  23h\n" +
			"local-path (default)          rancher.io/local-path           Delete          WaitForFirstConsumer   false                  6d1h\n\n" +
			"$ kubectl get pvc -n pg\nNAME   STATUS    VOLUME   CAPACITY   ACCESS MODES   STORAGECLASS   AGE\n" +
			"data   Pending                                      local-path     59m\n",
			nil, nil},
		{"a claim Pending two hours for a class that binds at once", "$ kubectl get sc\nNAME                          PROVISIONER                     RECLAIMPOLICY   VOLUMEBINDINGMODE      ALLOWVOLUMEEXPANSION   AGE\n" +
			"example-sc                    kubernetes.io/gce-pd            Delete          Immediate              false                  23h\n" +
			"local-path (default)          rancher.io/local-path           Delete          WaitForFirstConsumer   false                  6d1h\n\n" +
			"$ kubectl get pvc -A\nNAMESPACE   NAME   STATUS    VOLUME   CAPACITY   ACCESS MODES   STORAGECLASS   AGE\n" +
			"pg          data   Pending                                      example-sc     2h\n" +
			"pg          logs   Bound     pvc-5c1d2f3a-0b1c-4d2e-9f00-1a2b3c4d5e6f   1Gi        RWO            example-sc     2h\n",
			[]string{"volume_provisioning_failed pg/data"}, nil},
		{"a claims listing its author's editor collapsed, Pending an hour, no class listed", "NAME STATUS VOLUME CAPACITY ACCESS MODES STORAGECLASS AGE\ndata Pending standard 59m\n",
			[]string{"volume_provisioning_failed data"}, nil},
		{"a DaemonSet's pod refused by the namespace's Pod Security level, in get events -A", "NAMESPACE   LAST SEEN   TYPE      REASON         OBJECT             MESSAGE\n" +
			"default     32m         Warning   FailedCreate   daemonset/debug    Error creating: pods \"debug-ghjw9\" is forbidden: violates PodSecurity \"restricted:latest\": host namespaces (hostNetwork=true, hostPID=true), privileged (container \"container-00\" must not set securityContext.privileged=true)\n",
			[]string{"pod_create_failed default/debug,default/debug-ghjw9"}, nil},
		{"a kernel's OOM report cut inside its call trace, a memory cgroup's by its frames", "[26029.151574] prometheus invoked oom-killer: gfp_mask=0xd0, order=0, oom_score_adj=-998\n" +
			"[26029.851401] Call Trace:\n[26029.880650]  [<ffffffff81687063>] dump_stack+0x19/0x1b\n[26029.942166]  [<ffffffff8168200e>] dump_header+0x8e/0x225\n" +
			"[26030.076609]  [<ffffffff81184d3e>] oom_kill_process+0x24e/0x3c0\n[26030.296463]  [<ffffffff811f38d1>] mem_cgroup_oom_synchronize+0x551/0x580\n",
			[]string{"oom_killed "}, nil},
		{"a kernel's whole OOM report of a memory cgroup: one kill", "[ 5011.120931] java invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=936\n[ 5011.121001] Call Trace:\n" +
			"[ 5011.121030]  dump_stack_lvl+0x34/0x48\n[ 5011.121041]  oom_kill_process.cold+0xb/0x10\n[ 5011.121050]  out_of_memory+0x1f0/0x4f0\n" +
			"[ 5011.121062]  mem_cgroup_out_of_memory+0x13e/0x170\n[ 5011.121070]  try_charge_memcg+0x6d0/0x7a0\n" +
			"[ 5011.121200] Memory cgroup out of memory: Killed process 31542 (java) total-vm:8243112kB, anon-rss:3971224kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:8412kB oom_score_adj:936\n",
			[]string{"oom_killed "}, nil},
		{"a kernel's system-wide OOM report: the node's, not a container's limit", "[ 7011.120931] kworker invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0\n[ 7011.121001] Call Trace:\n" +
			"[ 7011.121030]  dump_stack_lvl+0x34/0x48\n[ 7011.121041]  oom_kill_process.cold+0xb/0x10\n[ 7011.121050]  out_of_memory+0x1f0/0x4f0\n" +
			"[ 7011.121062]  __alloc_pages_slowpath.constprop.0+0xc3b/0xd10\n" +
			"[ 7011.121200] Out of memory: Killed process 31542 (java) total-vm:8243112kB, anon-rss:3971224kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:8412kB oom_score_adj:0\n",
			[]string{"node_oom "}, nil},
		{"describe events whose From is blank, the scheduler's message after it", "Events:\n  Type     Reason             Age                 From                Message\n  ----     ------             ----                ----                -------\n" +
			"  Warning  FailedScheduling   60m                                     0/2 nodes are available: 1 Insufficient memory, 2 Insufficient cpu.\n",
			[]string{"pod_pending "}, []string{"capacity_exhaustion"}},
		{"kubectl's report of the API server refusing a custom resource for its webhook: no controller's pods", "# kubectl apply -f cluster.yaml\n" +
			"Error from server (InternalError): error when creating \"cluster.yaml\": Internal error occurred: failed calling webhook \"clusters.example.com\": Post \"https://webhook.example.svc:443/mutate?timeout=30s\": dial tcp 10.0.0.1:443: connect: connection refused\n",
			nil, nil},
		{"the same webhook's failure in a ReplicaSet's FailedCreate: its pods", "Events:\n  Type     Reason        Age   From                   Message\n  ----     ------        ----  ----                   -------\n" +
			"  Warning  FailedCreate  3m    replicaset-controller  Error creating: Internal error occurred: failed calling webhook \"clusters.example.com\": Post \"https://webhook.example.svc:443/mutate?timeout=30s\": dial tcp 10.0.0.1:443: connect: connection refused\n",
			[]string{"pod_create_failed "}, nil},
		{"a pod's event an operator relayed onto its own object, naming the pod first", "```\n  Warning  Unhealthy   9s (x3 over 29s)   event-controller    Pod pulsar-proxy-0: Startup probe failed: Get \"http://10.128.3.91:8080/status.html\": dial tcp 10.128.3.91:8080: connect: connection refused\n```\n",
			[]string{"startup_probe_failed pulsar-proxy-0"}, nil},
		{"1.5-1.12 kubelet's CNI error, naming no pod", "Dec 21 20:21:24 host-1 kubelet[83422]: E1221 20:21:24.150274   83422 cni.go:259] Error adding network: Unable to retreive ReadyFlag from Backend: resource does not exist\n",
			[]string{"pod_stuck_creating "}, []string{"network_setup_failed"}},
		{"a part of the scheduler's message quoted again under its describe: one pod, its volume", "Name: opensearch-0\nNamespace: logs\nStatus: Pending\nEvents:\n  Type     Reason            Age   From               Message\n  ----     ------            ----  ----               -------\n" +
			"  Warning  FailedScheduling  3m2s  default-scheduler  0/4 nodes are available: 1 node(s) did not have enough free storage, 1 node(s) had untolerated taint {k3s-controlplane: true}, 2 node(s) didn't match Pod's node affinity/selector.\n\n" +
			"The `1 node(s) did not have enough free storage` message is not right: the node has 60G free.\n",
			[]string{"pod_pending logs/opensearch-0"}, []string{"volume_binding"}},
		{"oc's deploy log of a controller's refusals under its generateName, the LimitRange's words after", "```console\n" +
			"-->  FailedCreate: rails-ex-1 Error creating: pods \"rails-ex-1-\" is forbidden: [minimum memory usage per Pod is 204Mi, but request is 62914560., minimum cpu usage per Container is 39m, but request is 11m.]\n```\n",
			[]string{"pod_create_failed rails-ex-1"}, []string{"quota_exceeded"}},
		{"1.1's FitError in a 2015 describe's tab-separated events", "Events:\n  FirstSeen\t\t\t\tLastSeen\t\t\tCount\tFrom\t\tSubobjectPath\tReason\t\t\tMessage\n" +
			"  Thu, 09 Jul 2015 23:56:21 -0700\tFri, 10 Jul 2015 00:01:30 -0700\t21\t{scheduler }\t\t\tfailedScheduling\tFailed for reason PodFitsResources and possibly others\n",
			[]string{"pod_pending "}, []string{"capacity_exhaustion"}},
		{"the node lifecycle controller's log of a node healthy again, after its pods' NodeNotReady", "I0828 07:00:00.535153       1 event.go:291] \"Event occurred\" object=\"edge/web-79dd69d57c-g6spv\" kind=\"Pod\" apiVersion=\"v1\" type=\"Warning\" reason=\"NodeNotReady\" message=\"Node is not ready\"\n" +
			"I0828 07:00:31.843751       1 node_lifecycle_controller.go:893] Node vm-node-229-106 is healthy again, removing all taints\n",
			[]string{"node_not_ready vm-node-229-106"}, nil},
		{"gitlab-runner's job log of its build container OOM-killed", "ERROR: Job failed (system failure): Error in container build: exit code: 137, reason: 'OOMKilled'\n",
			[]string{"oom_killed "}, nil},
		{"events a test suite's log printed as flat JSON objects, each naming its object", "20:00:11  {\"reason\":\"Evicted\",\"message\":\"The node had condition: [DiskPressure]. \",\"kind\":\"Pod\",\"name\":\"e2e-y17n6-kvv5n\",\"namespace\":\"e2e\"}\n",
			[]string{"pod_evicted e2e/e2e-y17n6-kvv5n", "node_pressure "}, []string{"node_disk_exhaustion"}},
		{"CRI-O's failure to set up a pod's network, inside the kubelet's FailedCreatePodSandBox", "```\nWarning  FailedCreatePodSandBox  62s   kubelet, worker-1  Failed create pod sandbox: rpc error: code = Unknown desc = failed to create pod network sandbox k8s_op-7d6ddddbf5-4bq6b_kube-system_e99f61c8-ffd4-43e5-952f-d4528da1b7ba_0(b2e63c859ca9): unable to connect to Cilium daemon: dial unix /var/run/cilium/cilium.sock: connect: no such file or directory\n```\n",
			[]string{"pod_stuck_creating kube-system/op-7d6ddddbf5-4bq6b"}, []string{"network_setup_failed"}},
		{"a pod whose STATUS is kubectl's NotReady", "NAMESPACE   NAME                           READY   STATUS     RESTARTS   AGE   IP          NODE       NOMINATED NODE   READINESS GATES\nservices    hms-discovery-29243088-kzhv7   1/2     NotReady   0          73s   10.32.0.4   ncn-w001   <none>           <none>\n",
			nil, nil},
		{"the same row without its header", "services    hms-discovery-29243088-kzhv7   1/2     NotReady   0          73s   10.32.0.4   ncn-w001   <none>           <none>\n",
			nil, nil},
		{"a node whose STATUS is NotReady", "NAME       STATUS     ROLES    AGE   VERSION\nncn-w001   NotReady   <none>   30d   v1.24.1\n",
			[]string{"node_not_ready ncn-w001"}, nil},
		{"2016 describe events pasted alone, a Started event for each container id", "Events:\n  FirstSeen\tLastSeen\tCount\tFrom\t\t\t\tSubobjectPath\t\t\tType\t\tReason\t\t\tMessage\n  ---------\t--------\t-----\t----\t\t\t\t-------------\t\t\t--------\t------\t\t\t-------\n" +
			"  3m\t\t3m\t\t1\t{default-scheduler }\t\t\t\t\tNormal\t\tScheduled\t\tSuccessfully assigned web-m2eoe to host-2\n" +
			"  3m\t\t3m\t\t1\t{kubelet host-2}\tspec.containers{web}\tNormal\t\tStarted\t\t\tStarted container with docker id 7dc6893a5f79\n" +
			"  2m\t\t2m\t\t1\t{kubelet host-2}\tspec.containers{web}\tWarning\t\tUnhealthy\t\tLiveness probe failed: cat: /tmp/web.lock: No such file or directory\n" +
			"  2m\t\t2m\t\t1\t{kubelet host-2}\tspec.containers{web}\tNormal\t\tStarted\t\t\tStarted container with docker id eade5a04a45f\n" +
			"  1m\t\t1m\t\t1\t{kubelet host-2}\tspec.containers{web}\tNormal\t\tStarted\t\t\tStarted container with docker id 95e53548eef4\n",
			[]string{"liveness_probe_failed web-m2eoe", "container_restarted web-m2eoe"}, nil},
		{"describe rows without their header, the pod named only in the network plugin's error", "Pod stuck on ContainerCreating:\n\n```\n  Normal   SandboxChanged          5m (x74 over 8m)    kubelet, agent-0  Pod sandbox changed, it will be killed and re-created.\n" +
			"  Warning  FailedCreatePodSandBox  21s (x204 over 8m)  kubelet, agent-0  Failed create pod sandbox: rpc error: code = Unknown desc = NetworkPlugin cni failed to set up pod \"disk6-56d8dcb746-487td_default\" network: failed to allocate for range 0: no IP addresses available in range set: 10.244.0.1-10.244.0.254\n```\n",
			[]string{"pod_stuck_creating default/disk6-56d8dcb746-487td"}, []string{"ip_exhaustion"}},
		{"an Events section without its describe, the pod named only in the network plugin's error", "Events:\n  Type     Reason                  Age                 From               Message\n  ----     ------                  ----                ----               -------\n" +
			"  Warning  FailedCreatePodSandBox  21s (x204 over 8m)  kubelet, agent-0  Failed create pod sandbox: rpc error: code = Unknown desc = NetworkPlugin cni failed to set up pod \"disk6-56d8dcb746-487td_default\" network: failed to allocate for range 0: no IP addresses available in range set: 10.244.0.1-10.244.0.254\n",
			[]string{"pod_stuck_creating default/disk6-56d8dcb746-487td"}, []string{"ip_exhaustion"}},
		{"an events table a chat ran onto one line", "LAST SEEN TYPE REASON OBJECT MESSAGE 3m Warning FailedScheduling pod/web-1 0/3 nodes are available: 3 Insufficient cpu. 3m Warning Evicted pod/web-2 The node was low on resource: memory. Container web was using 2924152Ki, which exceeds its request of 0.\n",
			[]string{"pod_pending web-1", "pod_evicted web-2"}, []string{"capacity_exhaustion", "memory_over_request"}},
		{"gitlab-runner's wait for a pod, its condition under it", "Waiting for pod ci/runner-abc-project-1-concurrent-0 to be running, status is Pending\n\tUnschedulable: \"0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory.\"\n",
			[]string{"pod_pending ci/runner-abc-project-1-concurrent-0"}, []string{"capacity_exhaustion"}},
		{"a test log's events, kind before name in one cell", "    logger.go:42: 06:03:12 | tmpl | 2022-11-20 05:58:15 +0000 UTC\tWarning\tPod tmpl-1\t\tFailedMount\tMountVolume.SetUp failed for volume \"cert\" : secret \"tmpl-cert\" not found\t\t\n" +
			"    logger.go:42: 06:03:12 | tmpl | 2022-11-20 05:58:16 +0000 UTC\tNormal\tPod tmpl-2\t\tScheduled\tSuccessfully assigned kuttl/tmpl-2 to kind-worker8\t\t\n" +
			"    logger.go:42: 06:03:12 | tmpl | 2022-11-20 05:58:16 +0000 UTC\tWarning\tPod tmpl-2\t\tFailedMount\tMountVolume.SetUp failed for volume \"cert\" : secret \"tmpl-cert\" not found\t\t\n",
			[]string{"pod_stuck_creating tmpl-1,tmpl-2"}, []string{"missing_object"}},
		{"Jenkins' Kubernetes plugin's events, the pod in brackets", "[Normal][ci/agent-x2gp][Scheduled] Successfully assigned ci/agent-x2gp to docker-desktop\n\n[Warning][ci/agent-x2gp][Failed] Failed to pull image \"invalid:image\": rpc error: code = Unknown desc = Error response from daemon: pull access denied for invalid, repository does not exist\n",
			[]string{"image_pull_failed ci/agent-x2gp"}, []string{"image_unavailable"}},
		{"a provisioner's log of the claims it failed", `E0203 20:31:17.244710       1 controller.go:700] error syncing claim "shop/db": failed to provision volume with StorageClass "replica1": rpc error: code = ResourceExhausted desc = No Hosting Volumes available, add more storage` + "\n",
			[]string{"volume_provisioning_failed shop/db"}, nil},
		{"Karpenter launching nodes for the pods it lists", `{"level":"INFO","time":"2025-11-11T12:16:09.218Z","logger":"controller","message":"found provisionable pod(s)","controller":"provisioner","Pods":"ml/train-a, ml/train-b and 80 other(s)","duration":"2.2s"}` + "\n",
			[]string{"pod_pending ml/train-a,ml/train-b"}, nil},
		{"a log line whose pods key is not a list of pods", `{"level":"INFO","message":"found provisionable pod(s)","Pods":"3 of them"}` + "\n",
			[]string{"pod_pending "}, nil},
		{"a node whose Ready row the paste cut, its other conditions Unknown", "Name:     n-7\nConditions:\n  Type      Status    LastHeartbeatTime     LastTransitionTime      Reason      Message\n  ----      ------    -----------------     ------------------      ------      -------\n" +
			"  NetworkUnavailable  False     Fri, 21 Apr 2017 23:38:59 +0300   Fri, 21 Apr 2017 23:38:59 +0300   RouteCreated    RouteController created a route\n" +
			"  OutOfDisk     Unknown   Sun, 23 Apr 2017 07:47:26 +0300   Sun, 23 Apr 2017 07:48:07 +0300   NodeStatusUnknown   Kubelet stopped posting node status.\n",
			[]string{"node_not_ready n-7"}, nil},
		{"a node with a condition Unknown for another reason", "Name:     n-7\nConditions:\n  Type      Status    LastHeartbeatTime     LastTransitionTime      Reason      Message\n" +
			"  NetworkUnavailable  Unknown     Fri, 21 Apr 2017 23:38:59 +0300   Fri, 21 Apr 2017 23:38:59 +0300   NoRouteCreated    RouteController failed to create a route\n",
			nil, nil},
		{"a pod ended by its node's shutdown", "NAME    READY   STATUS       RESTARTS   AGE   IP       NODE\nweb-1   0/1     Terminated   0          1h    <none>   spot-1\n",
			[]string{"preempted web-1"}, []string{"preemption"}},
		{"a container status lost is not a symptom alone", "NAME    READY   STATUS                   RESTARTS   AGE\nweb-1   0/1     ContainerStatusUnknown   0          1h\n",
			nil, nil},
		{"prose is a claim, never a symptom", "# What happened\n\nThe pods were evicted because the disk of the node filled up.\nWe restarted the hub twice.\n",
			nil, nil},
		{"prose names the cause of evictions the output shows", "The EBS volume of the node was 10Gb: it filled up and caused the evictions below.\n\n```\n$ kubectl get pods\nNAME    READY   STATUS    RESTARTS   AGE\nhub-1   0/1     Evicted   0          10h\n```\n",
			[]string{"pod_evicted hub-1", "evicted_pods_lingering hub-1"}, []string{"node_disk_exhaustion"}},
		{"the current state says OOMKilled", "$ kubectl describe pod api-0 -n prod\n    State:          Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n    Restart Count:  4\n    Limits:\n      memory:  256Mi\n    Requests:\n      memory:  256Mi\n",
			[]string{"oom_killed prod/api-0", "container_restarted prod/api-0"}, []string{"memory_limit_too_low"}},
		{"a describe fragment with its limit", "    State:          Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n    Restart Count:  5\n    Limits:\n      memory:  300Mi\n    Requests:\n      memory:  300Mi\n",
			[]string{"oom_killed ", "container_restarted "}, []string{"memory_limit_too_low"}},
		{"the kubelet's eviction log", "May 28 16:05:50 node-1 kubelet[2269]: I0528 16:05:50.514706 2269 eviction_manager.go:366] \"Eviction manager: attempting to reclaim\" resourceName=\"ephemeral-storage\"\n" +
			"May 28 16:05:54 node-1 kubelet[2269]: I0528 16:05:54.802914 2269 eviction_manager.go:627] \"Eviction manager: pod is evicted successfully\" pod=\"sre/logstash-0\"\n",
			[]string{"pod_evicted sre/logstash-0", "node_pressure node-1"}, []string{"node_disk_exhaustion"}},
		{"a 1.2-era scheduler message", "Name:\t\tweb-1\nNamespace:\tdefault\nStatus:\t\tPending\nNode:\t\t/\nEvents:\n" +
			"  FirstSeen\tLastSeen\tCount\tFrom\t\t\tSubobjectPath\tReason\t\t\tMessage\n" +
			"  1m\t\t1m\t\t3\t{default-scheduler }\t\t\tFailedScheduling\tpod (web-1) failed to fit in any node\n" +
			"fit failure summary on nodes : PodFitsResources (3), MatchNodeSelector (2)\n",
			[]string{"pod_pending default/web-1"}, []string{"capacity_exhaustion"}},
		{"a 1.4-era kubelet's sync error carrying a crash loop", "Name:\t\tweb-1\nNamespace:\tdefault\nEvents:\n" + "  FirstSeen\tLastSeen\tCount\tFrom\t\t\tSubobjectPath\tType\t\tReason\t\tMessage\n" +
			"  2m\t\t1s\t\t120\t{kubelet node-a}\t\t\tWarning\t\tFailedSync\tError syncing pod, skipping: failed to \"StartContainer\" for \"app\" with CrashLoopBackOff: \"Back-off 5m0s restarting failed container=app pod=web-1_default(6c1d2f3a)\"\n",
			[]string{"crash_loop_backoff default/web-1"}, nil},
		{"a 1.4-era kubelet's sync error carrying an image pull failure", "Name:\t\tweb-1\nNamespace:\tdefault\nEvents:\n" + "  FirstSeen\tLastSeen\tCount\tFrom\t\t\tSubobjectPath\tType\t\tReason\t\tMessage\n" +
			"  2m\t\t1s\t\t120\t{kubelet node-a}\t\t\tWarning\t\tFailedSync\tError syncing pod, skipping: failed to \"StartContainer\" for \"app\" with ErrImagePull: \"image pull failed for nginx:nope\"\n",
			[]string{"image_pull_failed default/web-1"}, []string{"image_unavailable"}},
		{"a 1.4-era kubelet's sync error carrying a network set-up failure", "Name:\t\tweb-1\nNamespace:\tdefault\nEvents:\n" + "  FirstSeen\tLastSeen\tCount\tFrom\t\t\tSubobjectPath\tType\t\tReason\t\tMessage\n" +
			"  2m\t\t1s\t\t120\t{kubelet node-a}\t\t\tWarning\t\tFailedSync\tError syncing pod, skipping: failed to \"SetupNetwork\" for \"web-1_default\" with SetupNetworkError: \"Failed to setup network for pod \\\"web-1_default(0b1c)\\\" using network plugins \\\"cni\\\": no IP addresses available in network: podnet; Skipping pod\"\n",
			[]string{"pod_stuck_creating default/web-1"}, []string{"network_setup_failed"}},
		{"a sync error that carries no sign is none", "Name:\t\tweb-1\nNamespace:\tdefault\nEvents:\n" + "  FirstSeen\tLastSeen\tCount\tFrom\t\t\tSubobjectPath\tType\t\tReason\t\tMessage\n" +
			"  2m\t\t1s\t\t120\t{kubelet node-a}\t\t\tWarning\t\tFailedSync\tError syncing pod, skipping: failed to \"KillContainer\" for \"app\" with KillContainerError: \"operation timeout\"\n",
			nil, nil},
		{"a StatefulSet's refusal, its Events pasted without the describe above them", "Events:\n  FirstSeen  LastSeen  Count  From         SubObjectPath  Type     Reason            Message\n  ---------  --------  -----  ----         -------------  ----     ------            -------\n" +
			"  4m         4m        1      statefulset                 Warning  FailedCreate      create Pod db-1 in StatefulSet db failed error: The POST operation against Pod could not be completed at this time, please try again.\n",
			[]string{"pod_create_failed db,db-1"}, nil},
		{"a rollout's deadline, named by its ReplicaSet", "Conditions:\n  Type         Status  Reason\n  ----         ------  ------\n  Progressing  False   ProgressDeadlineExceeded  ReplicaSet \"gateway-87bf8b4df\" has timed out progressing.\n",
			[]string{"rollout_stuck gateway"}, nil},
		{"the scheduler's log of a pod it could not place", "E0108 22:07:45.954949       1 factory.go:660] Error scheduling default/kafka-0: pod has unbound immediate PersistentVolumeClaims; retrying\n" +
			"E0108 22:07:45.954750       1 scheduler.go:481] error selecting node for pod: pod has unbound immediate PersistentVolumeClaims\n",
			[]string{"pod_pending default/kafka-0"}, []string{"volume_binding"}},
		{"a claim no volume could be bound to", "$ kubectl describe pvc data -n db\nName:          data\nNamespace:     db\nStorageClass:  \nStatus:        Pending\nEvents:\n  Type    Reason         Age                  From                         Message\n  ----    ------         ----                 ----                         -------\n  Normal  FailedBinding  12s (x17 over 4m3s)  persistentvolume-controller  no persistent volumes available for this claim and no storage class is set\n",
			[]string{"volume_provisioning_failed db/data"}, []string{"volume_binding"}},
		{"the controller-manager's log of a node's pods, in Docker's JSON log", "$ tail kube-controller-manager-minikube.log\n" + `{"log":"I0901 00:25:09.311469       1 event.go:291] \"Event occurred\" object=\"kube-system/coredns-f9fd979d6-w9lb9\" kind=\"Pod\" apiVersion=\"v1\" type=\"Warning\" reason=\"NodeNotReady\" message=\"Node is not ready\"\n","stream":"stderr","time":"2021-09-01T00:25:09.311544102Z"}` + "\n" +
			`{"log":"I0901 00:25:09.317360       1 event.go:291] \"Event occurred\" object=\"kube-system/etcd-minikube\" kind=\"Pod\" apiVersion=\"v1\" type=\"Warning\" reason=\"NodeNotReady\" message=\"Node is not ready\"\n","stream":"stderr","time":"2021-09-01T00:25:09.317460194Z"}` + "\n",
			[]string{"node_not_ready "}, nil},
		{"Karpenter could not place a pod for its zone", "$ kubectl logs -n karpenter deploy/karpenter\n" + `{"level":"ERROR","time":"2024-05-01T10:00:00.000Z","logger":"controller.provisioner","message":"could not schedule pod","pod":"default/nginx-1","error":"incompatible with nodepool \"default\", daemonset overhead={\"cpu\":\"200m\",\"pods\":\"3\"}, incompatible requirements, key topology.kubernetes.io/zone, topology.kubernetes.io/zone In [us-east-1a] not in topology.kubernetes.io/zone In [us-east-1b]"}` + "\n",
			[]string{"pod_pending default/nginx-1"}, []string{"scheduling_constraints"}},
		{"Karpenter found no instance type big enough in the pool the pod may use", "$ kubectl logs -n karpenter deploy/karpenter\n" + `{"level":"ERROR","time":"2024-05-01T10:00:00.000Z","logger":"controller.provisioner","message":"could not schedule pod","pod":"default/big-1","error":"incompatible with nodepool \"gpu\", daemonset overhead={\"cpu\":\"200m\",\"pods\":\"3\"}, did not tolerate nvidia.com/gpu=true:NoSchedule; incompatible with nodepool \"default\", daemonset overhead={\"cpu\":\"200m\",\"pods\":\"3\"}, no instance type satisfied resources {\"cpu\":\"96\",\"pods\":\"4\"} and requirements karpenter.sh/nodepool In [default] (no instance type has enough resources)"}` + "\n",
			[]string{"pod_pending default/big-1"}, []string{"request_exceeds_node"}}, // room, not a rule of placement: no instance type of the pool it may use holds it, Karpenter says
		{"the autoscaler at its maximum is no scale-up", "I1227 10:48:23.118126       1 scale_up.go:116] Skipping node group nodes.pool-a - max size reached\nI1227 10:48:23.118148       1 scale_up.go:186] No expansion options\n",
			nil, nil},
		{"pods the autoscaler could not place, its group at its maximum", "I1227 10:48:22.745330       1 scale_up.go:61] 30 other pods are also unschedulable\n" +
			"I1227 10:48:23.118126       1 scale_up.go:116] Skipping node group nodes.pool-a - max size reached\n",
			[]string{"pod_pending "}, []string{"capacity_exhaustion"}},
		{"a pod that did not trigger a scale-up", "LAST SEEN   TYPE      REASON              OBJECT      MESSAGE\n" +
			"2m          Warning   FailedScheduling    pod/job-1   0/3 nodes are available: 3 Insufficient cpu.\n" +
			"2m          Normal    NotTriggerScaleUp   pod/job-1   pod didn't trigger scale-up: 1 max node group size reached\n",
			[]string{"pod_pending job-1"}, []string{"capacity_exhaustion"}},
		{"a scale-up the cloud refused", "LAST SEEN   TYPE      REASON          OBJECT                               MESSAGE\n" +
			"5m          Warning   ScaleUpFailed   configmap/cluster-autoscaler-status  Failed adding 3 nodes to group gpu-pool due to OutOfResource.QUOTA_EXCEEDED; source errors: quota\n" +
			"5m          Warning   FailedScheduling   pod/train-1   0/4 nodes are available: 4 Insufficient nvidia.com/gpu.\n",
			[]string{"scale_up ", "pod_pending train-1"}, []string{"capacity_exhaustion", "scale_up_not_ready"}},
		{"a scale-up whose nodes never came", "      Name:        pool-b\n      Health:      Healthy (ready=2 unready=0 notStarted=0 longNotStarted=0 registered=2 longUnregistered=0 cloudProviderTarget=6 (minSize=0, maxSize=10))\n" +
			"                   LastProbeTime:      2024-03-01 10:30:00.1 +0000 UTC m=+1.0\n                   LastTransitionTime: 2024-03-01 10:00:00.1 +0000 UTC m=+1.0\n" +
			"      ScaleUp:     InProgress (ready=2 cloudProviderTarget=6)\n                   LastProbeTime:      2024-03-01 10:30:00.1 +0000 UTC m=+1.0\n                   LastTransitionTime: 2024-03-01 10:05:00.1 +0000 UTC m=+1.0\n",
			[]string{"scale_up "}, []string{"scale_up_not_ready"}},
		{"several nodes described, each by its name", "Name:               n-1\nRoles:              <none>\nConditions:\n  Type    Status  LastHeartbeatTime                 LastTransitionTime                Reason             Message\n" +
			"  Ready   False   Mon, 04 Mar 2019 09:52:26 +0100   Mon, 04 Mar 2019 09:52:26 +0100   KubeletNotReady    PLEG is not healthy\n\n" +
			"Name:               n-2\nRoles:              <none>\nConditions:\n  Type    Status  LastHeartbeatTime                 LastTransitionTime                Reason             Message\n" +
			"  Ready   Unknown   Mon, 04 Mar 2019 09:52:26 +0100   Mon, 04 Mar 2019 09:52:26 +0100   NodeStatusUnknown   Kubelet stopped posting node status.\n",
			[]string{"node_not_ready n-1,n-2"}, nil},
		{"a not-ready node with its limits far over its allocatable", describeNode("Ready   False", "cpu                1950m (97%)   15460m (773%)", "memory             3Gi (40%)     21Gi (281%)"),
			[]string{"node_not_ready n-1"}, []string{"node_overcommitted"}},
		{"a not-ready node with its limits a little over", describeNode("Ready   False", "cpu                1950m (97%)   2800m (140%)", "memory             3Gi (40%)     7Gi (95%)"),
			[]string{"node_not_ready n-1"}, nil},
		{"a node under memory pressure with low requests and limits", describeNode("MemoryPressure   True", "cpu                150m (7%)     1500m (75%)", "memory             114Mi (1%)    756Mi (10%)"),
			[]string{"node_pressure n-1"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := Run(model(t, tt.paste), analysis.Options{})
			var syms, causes []string
			for _, s := range rep.Symptoms {
				var objs []string
				for _, o := range s.Objects {
					objs = append(objs, strings.TrimPrefix(o.Namespace+"/"+o.Name, "/"))
				}
				sort.Strings(objs)
				syms = append(syms, s.Kind+" "+strings.Join(objs, ","))
			}
			for _, c := range rep.Causes {
				causes = append(causes, c.Kind)
			}
			sort.Strings(syms)
			want := slices.Clone(tt.symptoms)
			sort.Strings(want)
			if diff := cmp.Diff(want, syms); diff != "" {
				t.Errorf("symptoms (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.causes, causes); diff != "" {
				t.Errorf("causes (-want +got):\n%s", diff)
			}
			checkEvidence(t, rep.Symptoms)
		})
	}
}

// describeNode is a `kubectl describe node` of node n-1 with one condition row and the rows
// of its Allocated resources table.
func describeNode(condition, cpu, memory string) string {
	return "Name:               n-1\nRoles:              <none>\nConditions:\n" +
		"  Type   Status  LastHeartbeatTime                 LastTransitionTime                Reason   Message\n" +
		"  " + condition + "   Tue, 01 Feb 2022 09:44:34 +0100   Thu, 20 Jan 2022 04:54:21 +0100   Kubelet   kubelet says so\n" +
		"Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n  Resource           Requests      Limits\n" +
		"  --------           --------      ------\n  " + cpu + "\n  " + memory + "\n"
}

// TestMixedIncidents checks that a file listing several incidents says so: its output still
// gives symptoms, but no cause is drawn from it with confidence, and the gap says why.
func TestMixedIncidents(t *testing.T) {
	doc := "# Our incidents of 2019\n\n## 2019-01-07 DNS outage\nRoot cause: the CoreDNS memory limit was too small.\n" +
		"```\nNAME                       READY   STATUS      RESTARTS   AGE\ncoredns-5d4b7c9f8-abcde    0/1     OOMKilled   7          1h\n```\n" +
		"## 2019-03-02 Hub down\nRoot cause: the disk of the hub node filled up.\n" +
		"```\nNAME                  READY   STATUS    RESTARTS   AGE\nhub-7c9f8d6b5-x2x7k   0/1     Evicted   0          10h\n```\n" +
		"## 2019-05-05 Pending pods\nRoot cause: the cluster was full.\n"
	rep := Run(model(t, doc), analysis.Options{})
	if len(rep.Symptoms) == 0 {
		t.Fatal("no symptom from the output the file holds")
	}
	for _, c := range rep.Causes {
		if c.Confidence > analysis.ClaimConfidence {
			t.Errorf("cause %s at %.2f from a file of several incidents, want at most %.2f", c.Kind, c.Confidence, analysis.ClaimConfidence)
		}
	}
	found := false
	for _, g := range rep.Gaps {
		found = found || g.Kind == "mixed_incidents" && strings.Contains(g.Summary, "describes 3 incidents")
	}
	if !found {
		t.Errorf("no gap says the file mixes incidents: %+v", rep.Gaps)
	}
	if len(rep.Claims) != 3 {
		t.Errorf("%d claims listed, want the 3 root causes", len(rep.Claims))
	}
}

// TestCallerLineIsNewRecord: a Go program's next log record ("helm.go:75: [debug] …") is never
// the rest of the message on the line before it, however short that line is.
func TestCallerLineIsNewRecord(t *testing.T) {
	rep := Run(model(t, "```\nError: failed pre-install: job failed: BackoffLimitExceeded\nhelm.go:75: [debug] failed pre-install: job failed: BackoffLimitExceeded\n```\n"), analysis.Options{})
	if len(rep.Symptoms) != 1 {
		t.Fatalf("symptoms %q, want one job_failed", sortedLabels(rep.Symptoms))
	}
	for _, e := range rep.Symptoms[0].Evidence {
		if strings.Contains(e.Value, "helm.go") {
			t.Errorf("evidence %q runs into the next record", e.Value)
		}
	}
}

// TestPaddedScreen checks a describe whose line ends were lost when its terminal's screen was
// copied, each line padded to the terminal's width on one long line: it is read as printed.
func TestPaddedScreen(t *testing.T) {
	var b strings.Builder
	for _, l := range []string{"Name:           gpu-test-0", "Namespace:      admin", "Node:           <none>", "Status:         Pending",
		"Events:", "  Type     Reason            Age   From               Message",
		"  Warning  FailedScheduling  2m    default-scheduler  0/1 nodes are available: 1 Insufficient nvidia.com/gpu."} {
		b.WriteString(l + strings.Repeat(" ", 209-len(l)))
	}
	rep := Run(model(t, "```\n"+b.String()+"\n```\n"), analysis.Options{})
	var got []string
	for _, s := range rep.Symptoms {
		for _, o := range s.Objects {
			got = append(got, s.Kind+" "+o.Namespace+"/"+o.Name)
		}
	}
	if want := []string{"pod_pending admin/gpu-test-0"}; !slices.Equal(got, want) {
		t.Errorf("symptoms %q, want %q", got, want)
	}
}
