package cluster

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestWorkloadName(t *testing.T) {
	yes := true
	pod := func(name string, labels map[string]string, kind, owner string) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}}
		if kind != "" {
			p.OwnerReferences = []metav1.OwnerReference{{Kind: kind, Name: owner, Controller: &yes}}
		}
		return p
	}
	for _, tt := range []struct {
		p    *corev1.Pod
		want string
	}{
		{pod("support-prometheus-server-8vssc48qww-74p85", map[string]string{"pod-template-hash": "8vssc48qww"}, "ReplicaSet", "support-prometheus-server-8vssc48qww"), "support-prometheus-server"},
		{pod("x-abc-1", nil, "ReplicaSet", "x-abc"), "x-abc"}, // no hash label: the ReplicaSet
		{pod("prometheus-k8s-0", nil, "StatefulSet", "prometheus-k8s"), "prometheus-k8s"},
		{pod("fluentd-7xk2p", nil, "DaemonSet", "fluentd"), "fluentd"},
		{pod("debug", nil, "", ""), "debug"},
	} {
		if got := WorkloadName(tt.p); got != tt.want {
			t.Errorf("WorkloadName(%s) = %q, want %q", tt.p.Name, got, tt.want)
		}
	}
}

// TestPrometheusServerOnly: the pods around a Prometheus server are not one.
func TestPrometheusServerOnly(t *testing.T) {
	for name, want := range map[string]string{
		"support-prometheus-server-8vssc48qww-74p85":             ComponentPrometheus,
		"prometheus-k8s-0":                                       ComponentPrometheus,
		"support-prometheus-kube-state-metrics-dh7smclhrq-ctcqf": "",
		"prometheus-node-exporter-x2v9k":                         "",
		"alertmanager-main-0":                                    "",
		"kube-prometheus-stack-operator-6d9f8-abcde":             "",
		"prometheus-adapter-5b9c-xyz":                            "",
	} {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name}}
		if got := PodComponent(p); got != want {
			t.Errorf("PodComponent(%s) = %q, want %q", name, got, want)
		}
	}
	ksm := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "x", Labels: map[string]string{"app.kubernetes.io/name": "kube-state-metrics"}}}
	if !GrowsWithCluster(ksm) || GrowsWithCluster(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "hub-1"}}) {
		t.Error("GrowsWithCluster")
	}
}
