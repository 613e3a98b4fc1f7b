package cluster

import (
	"encoding/json"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func res(cpu, mem string) corev1.ResourceList {
	l := corev1.ResourceList{}
	if cpu != "" {
		l[corev1.ResourceCPU] = resource.MustParse(cpu)
	}
	if mem != "" {
		l[corev1.ResourceMemory] = resource.MustParse(mem)
	}
	return l
}

func pod(name, node string, req, lim corev1.ResourceList) *Object {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns"}, Spec: corev1.PodSpec{NodeName: node,
		Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Requests: req, Limits: lim}}}}}
	return &Object{Kind: KindPod, Namespace: "ns", Name: name, Pod: PodOf(p)}
}

func TestNodeLoadAndPools(t *testing.T) {
	node := &Object{Kind: KindNode, Name: "core-1", Node: &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: "core-1", Labels: map[string]string{"cloud.google.com/gke-nodepool": "core"}},
		Status:     corev1.NodeStatus{Allocatable: res("4", "16Gi"), Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}},
	}}
	done := pod("done", "core-1", res("1", "1Gi"), nil)
	done.Pod.Status.Phase = corev1.PodSucceeded
	m := NewModel(nil, []*Object{node, pod("hub", "core-1", res("10m", "1Gi"), res("", "2Gi")),
		pod("prometheus", "core-1", res("3", "12Gi"), res("", "20Gi")), done})
	l := m.Load(node)
	cpu, mem := l.RequestedFraction()
	_, memLim := l.LimitFraction()
	if l.Pool != "core" || len(l.Pods) != 2 || l.Pods[0].Name != "prometheus" {
		t.Errorf("load = pool %q, pods %v", l.Pool, l.Pods)
	}
	if cpu < 0.75 || cpu > 0.76 || mem != 13.0/16 || memLim != 22.0/16 {
		t.Errorf("fractions = cpu %.3f, mem %.3f, mem limits %.3f", cpu, mem, memLim)
	}
	pools := m.Pools()
	if len(pools) != 1 || pools[0].ReadyNodes != 1 || pools[0].Free().Memory != 3<<30 {
		t.Errorf("pools = %+v", pools)
	}
}

func TestNodePool(t *testing.T) {
	tests := []struct {
		labels map[string]string
		want   string
	}{
		{map[string]string{"cloud.google.com/gke-nodepool": "core-pool"}, "core-pool"},
		{map[string]string{"eks.amazonaws.com/nodegroup": "ng-1"}, "ng-1"},
		{map[string]string{"kubernetes.azure.com/agentpool": "user"}, "user"},
		{map[string]string{"karpenter.sh/nodepool": "default"}, "default"},
		{map[string]string{"node.kubernetes.io/instance-type": "m5.large"}, "instance-type:m5.large"},
		{nil, ""},
	}
	for _, tt := range tests {
		if got, _ := NodePool(tt.labels); got != tt.want {
			t.Errorf("NodePool(%v) = %q, want %q", tt.labels, got, tt.want)
		}
	}
}

func TestPodComponent(t *testing.T) {
	tests := []struct {
		name   string
		labels map[string]string
		image  string
		want   string
	}{
		{"hub-7c9f8d6b5-x2x7k", map[string]string{"component": "hub"}, "quay.io/jupyterhub/k8s-hub", ComponentHub},
		{"proxy-5d8c9f7b6-q1w2e", nil, "jupyterhub/configurable-http-proxy", ComponentProxy},
		{"support-prometheus-server-8vssc", map[string]string{"app": "prometheus", "component": "server"}, "quay.io/prometheus/prometheus", ComponentPrometheus},
		{"coredns-5dd5756b68-2zrhr", map[string]string{"k8s-app": "kube-dns"}, "registry.k8s.io/coredns/coredns", ComponentDNS},
		{"ingress-nginx-controller-7f9", nil, "registry.k8s.io/ingress-nginx/controller", ComponentIngress},
		{"github-runner-1", nil, "ghcr.io/actions/runner", ""},
		{"jupyter-alice", map[string]string{"component": "singleuser-server"}, "pangeo/pangeo-notebook", ""},
	}
	for _, tt := range tests {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: tt.name, Labels: tt.labels}, Spec: corev1.PodSpec{Containers: []corev1.Container{{Image: tt.image}}}}
		if got := PodComponent(PodOf(p)); got != tt.want {
			t.Errorf("PodComponent(%s) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestEventTimes(t *testing.T) {
	t0 := metav1.Date(2023, 2, 1, 17, 0, 0, 0, metav1.Now().Location())
	e := &corev1.Event{EventTime: metav1.NewMicroTime(t0.Time), Series: &corev1.EventSeries{Count: 4, LastObservedTime: metav1.NewMicroTime(t0.Add(180e9))}}
	count, first, last := EventTimes(EventOf(e))
	if count != 4 || !first.Equal(t0.Time) || last.Sub(first) != 180e9 {
		t.Errorf("EventTimes = %d, %s, %s", count, first, last)
	}
	if c, _, _ := EventTimes(EventOf(&corev1.Event{})); c != 1 {
		t.Errorf("count of an event without one = %d, want 1", c)
	}
}

// TestModelReplaces shows that a pod seen twice (a table row, then its describe) is one pod:
// the later object wins and the node's load counts it once.
func TestModelReplaces(t *testing.T) {
	node := &Object{Kind: KindNode, Name: "n1", Node: &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"},
		Status: corev1.NodeStatus{Allocatable: res("4", "8Gi")}}}
	first := pod("web-1", "n1", nil, nil)
	second := pod("web-1", "n1", res("1", "1Gi"), nil)
	m := NewModel(nil, []*Object{node, first, second})
	if len(m.Pods) != 1 || m.Pod("ns", "web-1") != second {
		t.Fatalf("pods = %v, want only the later web-1", m.Pods)
	}
	if l := m.Load(node); len(l.Pods) != 1 || l.Requests.MilliCPU != 1000 {
		t.Errorf("load = %d pods, %dm CPU; want 1 pod, 1000m", len(l.Pods), l.Requests.MilliCPU)
	}
}

// TestUnstoredDropsOnlyATypedObjectsJSON: Raw holds a typed object's stored JSON and all there
// is of an untyped one; what analysis reads (Unstored) drops the first and keeps the second.
func TestUnstoredDropsOnlyATypedObjectsJSON(t *testing.T) {
	t.Parallel()
	raw := json.RawMessage(`{"kind":"Pod"}`)
	pod := &Object{Kind: "Pod", Name: "hub", Pod: &Pod{}, Raw: raw}
	if got := pod.Stored(); string(got) != string(raw) {
		t.Errorf("a pod's stored JSON: %s", got)
	}
	if u := pod.Unstored(); u.Raw != nil || u.Stored() != nil || u.Pod != pod.Pod {
		t.Errorf("a pod unstored: Raw %s, Pod shared %v", u.Raw, u.Pod == pod.Pod)
	}
	if pod.Raw == nil {
		t.Error("Unstored changed the object it copied")
	}
	claim := &Object{Kind: "PersistentVolumeClaim", Name: "data", Raw: json.RawMessage(`{"kind":"PersistentVolumeClaim"}`)}
	if claim.Stored() != nil {
		t.Errorf("an untyped object's Stored: %s", claim.Stored())
	}
	if u := claim.Unstored(); string(u.Raw) != string(claim.Raw) {
		t.Errorf("a claim unstored lost its JSON: %s", u.Raw)
	}
}
