package k8stest

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// TestStart starts a stack, writes a namespace, a node, an evicted pod and its event with
// client-go, reads them back, and reads the pods with kubectl when it is installed.
func TestStart(t *testing.T) {
	t0 := time.Now()
	c := Start(t)
	t.Logf("Start took %s", time.Since(t0).Round(10*time.Millisecond))
	logMemory(t, c)

	cs, err := kubernetes.NewForConfig(c.Config)
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()

	ns, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "ml"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create namespace: %v", err)
	}

	node, err := cs.CoreV1().Nodes().Create(ctx, &corev1.Node{ObjectMeta: metav1.ObjectMeta{
		Name:   "gpu-node-1",
		Labels: map[string]string{"node.kubernetes.io/instance-type": "n2-highmem-4"},
	}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create node: %v", err)
	}
	now := metav1.NewTime(time.Now().Truncate(time.Second))
	node.Status = corev1.NodeStatus{
		Capacity: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("32Gi"), corev1.ResourceCPU: resource.MustParse("4")},
		Conditions: []corev1.NodeCondition{
			{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady", LastHeartbeatTime: now, LastTransitionTime: now},
			{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionTrue, Reason: "KubeletHasInsufficientMemory", LastHeartbeatTime: now, LastTransitionTime: now},
		},
	}
	if _, err := cs.CoreV1().Nodes().UpdateStatus(ctx, node, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("update node status: %v", err)
	}

	pod, err := cs.CoreV1().Pods(ns.Name).Create(ctx, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "notebook-7d9f", Labels: map[string]string{"app": "notebook"}},
		Spec: corev1.PodSpec{
			NodeName:   node.Name,
			Containers: []corev1.Container{{Name: "main", Image: "jupyter/base-notebook:latest"}},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create pod: %v", err)
	}
	if pod.Status.Phase != corev1.PodPending {
		t.Errorf("new pod phase = %q, want Pending", pod.Status.Phase)
	}
	const msg = "The node was low on resource: memory. Threshold quantity: 100Mi, available: 51200Ki."
	pod.Status = corev1.PodStatus{Phase: corev1.PodFailed, Reason: "Evicted", Message: msg, StartTime: &now}
	if _, err := cs.CoreV1().Pods(ns.Name).UpdateStatus(ctx, pod, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("update pod status: %v", err)
	}

	ev := &corev1.Event{
		ObjectMeta: metav1.ObjectMeta{Name: pod.Name + ".17f0a1b2c3d4e5f6", Namespace: ns.Name},
		InvolvedObject: corev1.ObjectReference{
			Kind: "Pod", Namespace: ns.Name, Name: pod.Name, UID: pod.UID, APIVersion: "v1",
		},
		Reason:         "Evicted",
		Message:        msg,
		Type:           corev1.EventTypeWarning,
		Source:         corev1.EventSource{Component: "kubelet", Host: node.Name},
		FirstTimestamp: now,
		LastTimestamp:  now,
		Count:          3,
	}
	if _, err := cs.CoreV1().Events(ns.Name).Create(ctx, ev, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create event: %v", err)
	}

	pods, err := cs.CoreV1().Pods("").List(ctx, metav1.ListOptions{FieldSelector: "status.phase=Failed"})
	if err != nil {
		t.Fatalf("list pods: %v", err)
	}
	if len(pods.Items) != 1 {
		t.Fatalf("failed pods: got %d, want 1", len(pods.Items))
	}
	got := pods.Items[0]
	if got.Namespace != "ml" || got.Name != "notebook-7d9f" || got.Spec.NodeName != "gpu-node-1" ||
		got.Status.Reason != "Evicted" || got.Status.Message != msg || got.Labels["app"] != "notebook" {
		t.Errorf("pod read back: %s/%s node=%q reason=%q message=%q labels=%v",
			got.Namespace, got.Name, got.Spec.NodeName, got.Status.Reason, got.Status.Message, got.Labels)
	}

	gotNode, err := cs.CoreV1().Nodes().Get(ctx, node.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get node: %v", err)
	}
	pressure := false
	for _, cond := range gotNode.Status.Conditions {
		if cond.Type == corev1.NodeMemoryPressure && cond.Status == corev1.ConditionTrue {
			pressure = true
		}
	}
	if !pressure || gotNode.Status.Capacity.Memory().String() != "32Gi" {
		t.Errorf("node read back: conditions %v, memory %s", gotNode.Status.Conditions, gotNode.Status.Capacity.Memory())
	}

	events, err := cs.CoreV1().Events(ns.Name).List(ctx, metav1.ListOptions{FieldSelector: "involvedObject.name=" + pod.Name})
	if err != nil {
		t.Fatalf("list events: %v", err)
	}
	if len(events.Items) != 1 {
		t.Fatalf("events: got %d, want 1", len(events.Items))
	}
	e := events.Items[0]
	if e.Reason != "Evicted" || e.Type != corev1.EventTypeWarning || e.Count != 3 || e.Source.Component != "kubelet" ||
		!e.FirstTimestamp.Equal(&now) || e.InvolvedObject.UID != pod.UID {
		t.Errorf("event read back: reason=%q type=%q count=%d source=%v first=%v uid=%v",
			e.Reason, e.Type, e.Count, e.Source, e.FirstTimestamp, e.InvolvedObject.UID)
	}

	t.Run("kubectl", func(t *testing.T) {
		kubectl := Kubectl(t)
		var stdout, stderr bytes.Buffer
		cmd := exec.CommandContext(t.Context(), kubectl, "--kubeconfig", c.Kubeconfig, "get", "pods", "-A", "-o", "json")
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("kubectl get pods: %v\n%s", err, stderr.String())
		}
		var list corev1.PodList
		if err := json.Unmarshal(stdout.Bytes(), &list); err != nil {
			t.Fatalf("kubectl output does not parse: %v", err)
		}
		if len(list.Items) != 1 || list.Items[0].Name != "notebook-7d9f" || list.Items[0].Status.Reason != "Evicted" {
			t.Errorf("kubectl get pods: %d items: %s", len(list.Items), stdout.String())
		}
	})

	// Stop early, twice: the API server is gone afterwards, and the cleanup's Stop is a no-op.
	c.Stop()
	c.Stop()
	if _, err := cs.CoreV1().Namespaces().Get(ctx, "ml", metav1.GetOptions{}); err == nil {
		t.Error("the API server still answers after Stop")
	}
}

// logMemory logs the resident memory of etcd and kube-apiserver, read from /proc (Linux only).
func logMemory(t *testing.T, c *Cluster) {
	t.Helper()
	var parts []string
	for _, p := range []*process{c.etcd, c.apiserver} {
		status, err := os.ReadFile("/proc/" + strconv.Itoa(p.cmd.Process.Pid) + "/status")
		if err != nil {
			return
		}
		for line := range strings.SplitSeq(string(status), "\n") {
			if rss, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				parts = append(parts, p.name+" "+strings.TrimSpace(rss))
			}
		}
	}
	t.Logf("resident memory: %s", strings.Join(parts, ", "))
}
