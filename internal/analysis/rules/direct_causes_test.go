package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// TestImageUnavailableRule: image_unavailable is the cause of image_pull_failed symptoms, five
// pods named and the rest counted: at 0.8 where the evidence holds the registry's answer (the
// kubelet's Failed event, a waiting reason that is one: InvalidImageName), at 0.5 and naming
// that answer as missing where the input holds no answer at all (a back-off, an ErrImagePull
// without its message); crash loops, pulls that succeeded and pulls that failed only on the
// node's own errors (its disk, its network to the registry) are not.
func TestImageUnavailableRule(t *testing.T) {
	pods := func(rows ...string) string {
		return "$ kubectl get pods -n prod\nNAME                      READY   STATUS             RESTARTS   AGE\n" + strings.Join(rows, "\n") + "\n"
	}
	events := func(msgs ...string) string {
		out := "$ kubectl get events -n prod\nLAST SEEN   TYPE      REASON   OBJECT      MESSAGE\n"
		for _, m := range msgs {
			out += "2m          Warning   Failed   pod/web-1   " + m + "\n"
		}
		return out
	}
	var six []string
	var sixPulls []string
	for i := range 6 {
		six = append(six, fmt.Sprintf("etl-%d                     0/1     InvalidImageName   0          2m", i))
		sixPulls = append(sixPulls, fmt.Sprintf("image_pull_failed prod/etl-%d", i))
	}
	tests := []causeCase{
		{name: "ErrImagePull in a pods table, without the registry's answer", docs: []string{pods("web-1                     0/1     ErrImagePull       0          2m")},
			symptoms: []string{"image_pull_failed prod/web-1"}, kinds: []string{analysis.ImageUnavailable},
			want: causeWant{role: analysis.Root, confidence: 0.5, explains: []string{"image_pull_failed prod/web-1"},
				summary: []string{"1 pod(s) could not pull their image: pod prod/web-1"}, missing: []string{"the registry's answer to the pull"}}},
		{name: "a back-off alone", docs: []string{pods("web-1                     0/1     ImagePullBackOff   0          2m")},
			symptoms: []string{"image_pull_failed prod/web-1"}, kinds: []string{analysis.ImageUnavailable},
			want: causeWant{role: analysis.Root, confidence: 0.5, explains: []string{"image_pull_failed prod/web-1"}, missing: []string{"the registry's answer to the pull"}}},
		{name: "a back-off beside another pod's refused pull", docs: []string{pods("web-1                     0/1     ImagePullBackOff   0          2m",
			"web-2                     0/1     InvalidImageName   0          2m")},
			symptoms: []string{"image_pull_failed prod/web-1", "image_pull_failed prod/web-2"}, kinds: []string{analysis.ImageUnavailable},
			want: causeWant{role: analysis.Root, confidence: 0.8, explains: []string{"image_pull_failed prod/web-1", "image_pull_failed prod/web-2"}}},
		{name: "InvalidImageName in a pods table", docs: []string{pods("web-1                     0/1     InvalidImageName   0          2m")},
			symptoms: []string{"image_pull_failed prod/web-1"}, kinds: []string{analysis.ImageUnavailable},
			want: causeWant{role: analysis.Root, confidence: 0.8, explains: []string{"image_pull_failed prod/web-1"},
				summary: []string{"1 pod(s) could not pull their image: pod prod/web-1"}}},
		{name: "ImagePullBackOff in a describe, with its events", docs: []string{`$ kubectl describe pod web-1 -n prod
Name:             web-1
Namespace:        prod
Node:             node-2/10.128.0.5
Status:           Pending
Containers:
  web:
    Image:          registry.example.com/web:1.4.0-rc1
    Image ID:       
    State:          Waiting
      Reason:       ImagePullBackOff
    Ready:          False
    Restart Count:  0
Events:
  Type     Reason     Age                From               Message
  ----     ------     ----               ----               -------
  Normal   Scheduled  3m                 default-scheduler  Successfully assigned prod/web-1 to node-2
  Normal   Pulling    90s (x4 over 3m)   kubelet            Pulling image "registry.example.com/web:1.4.0-rc1"
  Warning  Failed     89s (x4 over 3m)   kubelet            Failed to pull image "registry.example.com/web:1.4.0-rc1": rpc error: code = NotFound desc = failed to pull and unpack image "registry.example.com/web:1.4.0-rc1": not found
  Warning  Failed     89s (x4 over 3m)   kubelet            Error: ErrImagePull
  Normal   BackOff    60s (x6 over 3m)   kubelet            Back-off pulling image "registry.example.com/web:1.4.0-rc1"
`}, symptoms: []string{"image_pull_failed prod/web-1"}, kinds: []string{analysis.ImageUnavailable},
			want: causeWant{role: analysis.Root, confidence: 0.8, explains: []string{"image_pull_failed prod/web-1"},
				summary: []string{"pod prod/web-1"}, evidence: []string{"ImagePullBackOff"}}},
		{name: "six pods", docs: []string{pods(six...)}, symptoms: sixPulls, kinds: []string{analysis.ImageUnavailable},
			want: causeWant{role: analysis.Root, confidence: 0.8, explains: sixPulls,
				summary: []string{"6 pod(s) could not pull their image: pod prod/etl-0, pod prod/etl-1, pod prod/etl-2, pod prod/etl-3, pod prod/etl-4, and 1 more"}}},
		{name: "the node's disk full while pulling", docs: []string{events(`Failed to pull image "registry.example.com/web:1.4.0": rpc error: code = Unknown desc = failed to pull and unpack image "registry.example.com/web:1.4.0": failed to extract layer sha256:9f1c: write /var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/212/fs/usr/lib/libz.so: no space left on device`)},
			symptoms: []string{"image_pull_failed prod/web-1"}, kinds: []string{}},
		{name: "the node's network to the registry timing out", docs: []string{events(`Failed to pull image "registry.example.com/web:1.4.0": rpc error: code = Unknown desc = failed to pull and unpack image "registry.example.com/web:1.4.0": failed to resolve reference "registry.example.com/web:1.4.0": failed to do request: Head "https://registry.example.com/v2/web/manifests/1.4.0": dial tcp 10.2.0.8:443: i/o timeout`)},
			symptoms: []string{"image_pull_failed prod/web-1"}, kinds: []string{}},
		{name: "the node's resolver failing", docs: []string{events(`Failed to pull image "kubernetesui/dashboard:v2.7.0": rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/kubernetesui/dashboard:v2.7.0": failed to resolve reference "docker.io/kubernetesui/dashboard:v2.7.0": failed to do request: Head "https://registry-1.docker.io/v2/kubernetesui/dashboard/manifests/v2.7.0": dial tcp: lookup registry-1.docker.io: Temporary failure in name resolution`)},
			symptoms: []string{"image_pull_failed prod/web-1"}, kinds: []string{}},
		{name: "the node's DNS server misbehaving", docs: []string{events(`Failed to pull image "registry.example.com/web:1.4.0": rpc error: code = Unknown desc = Error response from daemon: Get "https://registry.example.com/v2/": dial tcp: lookup registry.example.com on 10.0.0.2:53: server misbehaving`)},
			symptoms: []string{"image_pull_failed prod/web-1"}, kinds: []string{}},
		{name: "the node's DNS denying a public registry", docs: []string{events(`Failed to pull image "registry.k8s.io/pause:3.10": failed to get sandbox image "registry.k8s.io/pause:3.10": failed to pull image "registry.k8s.io/pause:3.10": failed to resolve reference "registry.k8s.io/pause:3.10": failed to do request: Head "https://registry.k8s.io/v2/pause/manifests/3.10": dial tcp: lookup registry.k8s.io on 127.0.0.53:53: no such host`)},
			symptoms: []string{"image_pull_failed prod/web-1"}, kinds: []string{}},
		{name: "a pull stopped with no progress", docs: []string{events(`Failed to pull image "registry.example.com/ml/trainer:2.3": rpc error: code = Canceled desc = failed to pull and unpack image "registry.example.com/ml/trainer:2.3": failed to copy: httpReadSeeker: failed open: failed to do request: Get "https://registry.example.com/v2/ml/trainer/blobs/sha256:5d41": context canceled`)},
			symptoms: []string{"image_pull_failed prod/web-1"}, kinds: []string{}},
		{name: "a pull stopped, then the registry's answer", docs: []string{events(`Failed to pull image "registry.example.com/web:1.4.0": rpc error: code = Canceled desc = context canceled`,
			`Failed to pull image "registry.example.com/web:1.4.0": rpc error: code = NotFound desc = failed to pull and unpack image "registry.example.com/web:1.4.0": failed to resolve reference "registry.example.com/web:1.4.0": registry.example.com/web:1.4.0: not found`)},
			symptoms: []string{"image_pull_failed prod/web-1"}, kinds: []string{analysis.ImageUnavailable},
			want: causeWant{role: analysis.Root, confidence: 0.8, explains: []string{"image_pull_failed prod/web-1"}, summary: []string{"pod prod/web-1"}}},
		{name: "the registry failing, Docker's old words", docs: []string{events(`Failed to pull image "nginx": Error pulling image (latest) from docker.io/library/nginx, Server error: 500 trying to fetch remote history for library/nginx`)},
			symptoms: []string{"image_pull_failed prod/web-1"}, kinds: []string{}},
		{name: "the registry failing, containerd's words", docs: []string{events(`Failed to pull image "registry.example.com/web:1.4.0": rpc error: code = Unknown desc = failed to pull and unpack image "registry.example.com/web:1.4.0": failed to resolve reference "registry.example.com/web:1.4.0": unexpected status from HEAD request to https://registry.example.com/v2/web/manifests/1.4.0: 503 Service Unavailable`)},
			symptoms: []string{"image_pull_failed prod/web-1"}, kinds: []string{}},
		{name: "no such registry", docs: []string{events(`Failed to pull image "registy.example.com/web:1.4.0": rpc error: code = Unknown desc = failed to pull and unpack image "registy.example.com/web:1.4.0": failed to resolve reference "registy.example.com/web:1.4.0": failed to do request: Head "https://registy.example.com/v2/web/manifests/1.4.0": dial tcp: lookup registy.example.com on 10.0.0.2:53: no such host`)},
			symptoms: []string{"image_pull_failed prod/web-1"}, kinds: []string{analysis.ImageUnavailable},
			want: causeWant{role: analysis.Root, confidence: 0.8, explains: []string{"image_pull_failed prod/web-1"}, summary: []string{"pod prod/web-1"}}},
		{name: "a timeout and then the registry's answer", docs: []string{events(`Failed to pull image "registry.example.com/web:1.4.0": rpc error: code = Unknown desc = Error response from daemon: Get https://registry.example.com/v2/: net/http: TLS handshake timeout`,
			`Failed to pull image "registry.example.com/web:1.4.0": rpc error: code = Unknown desc = Error response from daemon: pull access denied for registry.example.com/web, repository does not exist or may require 'docker login'`)},
			symptoms: []string{"image_pull_failed prod/web-1"}, kinds: []string{analysis.ImageUnavailable},
			want: causeWant{role: analysis.Root, confidence: 0.8, explains: []string{"image_pull_failed prod/web-1"}, summary: []string{"pod prod/web-1"}}},
		{name: "a crash loop", docs: []string{pods("web-1                     0/1     CrashLoopBackOff   7          12m")},
			symptoms: []string{"container_restarted prod/web-1", "crash_loop_backoff prod/web-1"}, kinds: []string{}},
		{name: "a pull that succeeded", docs: []string{"$ kubectl get events -n prod\nLAST SEEN   TYPE     REASON   OBJECT      MESSAGE\n" +
			`2m          Normal   Pulled   pod/web-1   Successfully pulled image "registry.example.com/web:1.4.0" in 3.2s (3.2s including waiting). Image size: 48213117 bytes.` + "\n"},
			symptoms: nil, kinds: []string{}},
	}
	runCauseCases(t, analysis.ImageUnavailable, tests)
}

// TestPreemptionRule: preemption is the cause of every preempted symptom: the scheduler's
// Preempted event and DisruptionTarget, the kubelet preempting a pod for a critical one, a spot
// node's shutdown; evictions and plain restarts are not.
func TestPreemptionRule(t *testing.T) {
	preempted := func(pod, summary string) causeWant {
		return causeWant{role: analysis.Root, confidence: 0.8, explains: []string{"preempted " + pod},
			summary: []string{"1 pod(s) were preempted, for other pods or with their node: " + summary}}
	}
	tests := []causeCase{
		{name: "the scheduler's Preempted event", docs: []string{"$ kubectl get events -n batch\nLAST SEEN   TYPE     REASON      OBJECT                  MESSAGE\n" +
			"7m          Normal   Preempted   pod/spark-exec-17       Preempted by pod 3f2a9c1e-5b7d-4e8f-a0b1-c2d3e4f5a6b7 on node n-4\n"},
			symptoms: []string{"preempted batch/spark-exec-17"}, kinds: []string{analysis.Preemption}, want: preempted("batch/spark-exec-17", "pod batch/spark-exec-17")},
		{name: "DisruptionTarget PreemptionByScheduler", docs: []string{`apiVersion: v1
kind: Pod
metadata:
  name: spark-exec-18
  namespace: batch
spec:
  nodeName: n-4
  priorityClassName: batch-low
  containers:
  - name: executor
    image: apache/spark:3.5.3
status:
  phase: Failed
  conditions:
  - type: DisruptionTarget
    status: "True"
    reason: PreemptionByScheduler
    message: 'batch/spark-exec-18 is preempted by pod 3f2a9c1e-5b7d-4e8f-a0b1-c2d3e4f5a6b7 on node n-4'
    lastTransitionTime: "2025-02-05T10:03:00Z"
`}, symptoms: []string{"preempted batch/spark-exec-18"}, kinds: []string{analysis.Preemption}, want: preempted("batch/spark-exec-18", "pod batch/spark-exec-18")},
		{name: "the kubelet preempting for a critical pod", docs: []string{"$ kubectl get pods -n batch\nNAME      READY   STATUS       RESTARTS   AGE\nbatch-1   0/1     Preempting   0          5m\n"},
			symptoms: []string{"preempted batch/batch-1"}, kinds: []string{analysis.Preemption}, want: preempted("batch/batch-1", "pod batch/batch-1")},
		{name: "a node's shutdown", docs: []string{"$ kubectl get pods -n batch -o wide\nNAME      READY   STATUS       RESTARTS   AGE   IP       NODE\nbatch-2   0/1     Terminated   0          1h    <none>   spot-1\n"},
			symptoms: []string{"preempted batch/batch-2"}, kinds: []string{analysis.Preemption}, want: preempted("batch/batch-2", "pod batch/batch-2")},
		{name: "an eviction", docs: []string{"$ kubectl get pods -n batch\nNAME      READY   STATUS    RESTARTS   AGE\nbatch-3   0/1     Evicted   0          5m\n"},
			symptoms: []string{"evicted_pods_lingering batch/batch-3", "pod_evicted batch/batch-3"}, kinds: []string{}},
		{name: "a container killed and restarted", docs: []string{"$ kubectl get events -n batch\nLAST SEEN   TYPE     REASON    OBJECT            MESSAGE\n" +
			"7m          Normal   Killing   pod/batch-4       Stopping container worker\n"},
			symptoms: nil, kinds: []string{}},
	}
	runCauseCases(t, analysis.Preemption, tests)
}
