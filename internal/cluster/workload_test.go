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
		if got := WorkloadName(PodOf(tt.p)); got != tt.want {
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
		if got := PodComponent(PodOf(p)); got != want {
			t.Errorf("PodComponent(%s) = %q, want %q", name, got, want)
		}
	}
	ksm := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "x", Labels: map[string]string{"app.kubernetes.io/name": "kube-state-metrics"}}}
	if !GrowsWithCluster(PodOf(ksm)) || GrowsWithCluster(PodOf(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "hub-1"}})) {
		t.Error("GrowsWithCluster")
	}
}

func TestWorkload(t *testing.T) {
	yes := true
	pod := func(name string, labels map[string]string, kind, owner string) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}}
		if kind != "" {
			p.OwnerReferences = []metav1.OwnerReference{{Kind: kind, Name: owner, Controller: &yes}}
		}
		return p
	}
	for _, tt := range []struct {
		p          *corev1.Pod
		kind, name string
	}{
		{pod("hub-8sr9zr4gx7-js2fw", map[string]string{"pod-template-hash": "8sr9zr4gx7"}, "ReplicaSet", "hub-8sr9zr4gx7"), "Deployment", "hub"},
		{pod("hub-7d9f8b6c5-x2x9z", nil, "ReplicaSet", "hub-7d9f8b6c5"), "Deployment", "hub"}, // the hash without its label
		{pod("web-0", nil, "StatefulSet", "web"), "StatefulSet", "web"},
		{pod("backup-28012345-abcde", nil, "Job", "backup-28012345"), "CronJob", "backup"},
		{pod("migrate-x7k2p", nil, "Job", "migrate"), "Job", "migrate"},
		// Pasted pods keep no owners: the stem of the name.
		{pod("hub-8sr9zr4gx7-js2fw", nil, "", ""), "Pod", "hub"},
		{pod("proxy-5b8d8f7c9-wxl2m", nil, "", ""), "Pod", "proxy"},
		{pod("dask-worker-aaafb5959c917b0ec593adf9cdcf5840-03d20", nil, "", ""), "Pod", "dask-worker"},
		{pod("calico-node-qbrdk", nil, "", ""), "Pod", "calico-node"},
		{pod("web-2", nil, "", ""), "Pod", "web"},
		// Words are not generated suffixes.
		{pod("debug", nil, "", ""), "Pod", "debug"},
		{pod("my-nginx", nil, "", ""), "Pod", "my-nginx"},
		{pod("jupyter-alice", nil, "", ""), "Pod", "jupyter-alice"},
		{pod("ingress-nginx-controller", nil, "", ""), "Pod", "ingress-nginx-controller"},
	} {
		kind, name := Workload(PodOf(tt.p))
		if kind != tt.kind || name != tt.name {
			t.Errorf("Workload(%s) = %s %s, want %s %s", tt.p.Name, kind, name, tt.kind, tt.name)
		}
	}
}

// TestDeploymentOf: the Deployment a ReplicaSet's name says it belongs to.
func TestDeploymentOf(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		rs, want string
		ok       bool
	}{
		{"gateway-87bf8b4df", "gateway", true},
		{"support-prometheus-server-8vssc48qww", "support-prometheus-server", true},
		{"www-redirect-1628688456", "www-redirect", true}, // 1.5-1.7: the hash in decimal
		{"web-backend", "web-backend", false},             // a word, not a hash
		{"batch-28401234", "batch-28401234", false},       // eight digits: a CronJob's Job, not a hash
		{"web", "web", false},
	} {
		got, ok := DeploymentOf(tt.rs)
		if got != tt.want || ok != tt.ok {
			t.Errorf("DeploymentOf(%q) = %q, %v; want %q, %v", tt.rs, got, ok, tt.want, tt.ok)
		}
	}
}
