package change

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// raw is an object as ingest keeps one of a kind without a typed field: its JSON.
func raw(t *testing.T, kind, namespace, name string, v any) *cluster.Object {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return &cluster.Object{APIVersion: "v1", Kind: kind, Namespace: namespace, Name: name, Raw: b}
}

func hub(mutate func(d *appsv1.Deployment)) *appsv1.Deployment {
	one := int32(1)
	d := &appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: metav1.ObjectMeta{Name: "hub", Namespace: "prod"},
		Spec: appsv1.DeploymentSpec{Replicas: &one, Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
			PriorityClassName: "core",
			NodeSelector:      map[string]string{"hub.jupyter.org/node-purpose": "core"},
			Containers: []corev1.Container{{
				Name: "hub", Image: "jupyterhub/k8s-hub:3.0.0",
				Env: []corev1.EnvVar{{Name: "CONFIGPROXY_AUTH_TOKEN", Value: "s3cret"}},
				Resources: corev1.ResourceRequirements{
					Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200m"), corev1.ResourceMemory: resource.MustParse("512Mi")},
					Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi")},
				},
				LivenessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/hub/health", Port: intstr.FromInt32(8081)}},
					TimeoutSeconds: 3, PeriodSeconds: 10, FailureThreshold: 30},
			}},
		}}},
		Status: appsv1.DeploymentStatus{ReadyReplicas: 1},
	}
	if mutate != nil {
		mutate(d)
	}
	return d
}

func node(mutate func(n *corev1.Node)) *cluster.Object {
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "core-1", Labels: map[string]string{"cloud.google.com/gke-nodepool": "core"}},
		Status: corev1.NodeStatus{
			Allocatable: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("3920m")},
			Conditions:  []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}},
		}}
	if mutate != nil {
		mutate(n)
	}
	return &cluster.Object{APIVersion: "v1", Kind: cluster.KindNode, Name: n.Name, Node: n}
}

func configMap(data map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Name: "hub", Namespace: "prod"}, Data: data}
}

func TestBetween(t *testing.T) {
	t0, t1 := time.Date(2023, 2, 1, 16, 0, 0, 0, time.UTC), time.Date(2023, 2, 1, 17, 0, 0, 0, time.UTC)
	const c = "spec.template.spec.containers[hub]"
	deploy := func(t *testing.T, mutate func(d *appsv1.Deployment)) *cluster.Object {
		return raw(t, "Deployment", "prod", "hub", hub(mutate))
	}
	for _, tt := range []struct {
		name          string
		before, after func(t *testing.T) []*cluster.Object
		want          []Change // Kind, Namespace and Name of Deployment prod/hub unless given
	}{
		{
			name:   "image changed and memory limit lowered",
			before: func(t *testing.T) []*cluster.Object { return []*cluster.Object{deploy(t, nil)} },
			after: func(t *testing.T) []*cluster.Object {
				return []*cluster.Object{deploy(t, func(d *appsv1.Deployment) {
					ctr := &d.Spec.Template.Spec.Containers[0]
					ctr.Image = "jupyterhub/k8s-hub:3.0.1-missing"
					ctr.Resources.Limits[corev1.ResourceMemory] = resource.MustParse("1Mi")
				})}
			},
			want: []Change{
				{Field: c + ".image", Before: "jupyterhub/k8s-hub:3.0.0", After: "jupyterhub/k8s-hub:3.0.1-missing"},
				{Field: c + ".resources.limits.memory", Before: "1Gi", After: "1Mi"},
			},
		},
		{
			name:   "status churn and an env value are not changes",
			before: func(t *testing.T) []*cluster.Object { return []*cluster.Object{deploy(t, nil), node(nil)} },
			after: func(t *testing.T) []*cluster.Object {
				return []*cluster.Object{deploy(t, func(d *appsv1.Deployment) {
					d.Status.ReadyReplicas = 0
					d.Spec.Template.Spec.Containers[0].Env[0].Value = "rotated"
				}), node(func(n *corev1.Node) {
					n.Status.Conditions[0].Status = corev1.ConditionFalse
				})}
			},
		},
		{
			name:   "a variable added, the probe tightened, a request cut, scaled out, moved to another pool",
			before: func(t *testing.T) []*cluster.Object { return []*cluster.Object{deploy(t, nil)} },
			after: func(t *testing.T) []*cluster.Object {
				return []*cluster.Object{deploy(t, func(d *appsv1.Deployment) {
					three := int32(3)
					d.Spec.Replicas = &three
					s := &d.Spec.Template.Spec
					s.NodeSelector = map[string]string{"hub.jupyter.org/node-purpose": "user"}
					ctr := &s.Containers[0]
					ctr.Env = append(ctr.Env, corev1.EnvVar{Name: "DEBUG", Value: "1"})
					ctr.LivenessProbe.FailureThreshold = 1
					ctr.Resources.Requests[corev1.ResourceCPU] = resource.MustParse("10m")
				})}
			},
			want: []Change{
				{Field: "spec.replicas", Before: "1", After: "3"},
				{Field: c + ".env", Before: "CONFIGPROXY_AUTH_TOKEN", After: "CONFIGPROXY_AUTH_TOKEN, DEBUG"},
				{Field: c + ".livenessProbe", Before: "http-get :8081/hub/health delay=0s timeout=3s period=10s #success=0 #failure=30",
					After: "http-get :8081/hub/health delay=0s timeout=3s period=10s #success=0 #failure=1"},
				{Field: c + ".resources.requests.cpu", Before: "200m", After: "10m"},
				{Field: "spec.template.spec.nodeSelector", Before: "hub.jupyter.org/node-purpose=core", After: "hub.jupyter.org/node-purpose=user"},
			},
		},
		{
			name:   "a node cordoned, tainted and moved to another pool",
			before: func(t *testing.T) []*cluster.Object { return []*cluster.Object{node(nil)} },
			after: func(t *testing.T) []*cluster.Object {
				return []*cluster.Object{node(func(n *corev1.Node) {
					n.Spec.Unschedulable = true
					n.Spec.Taints = []corev1.Taint{{Key: "node.kubernetes.io/unschedulable", Effect: corev1.TaintEffectNoSchedule}}
					n.Labels["cloud.google.com/gke-nodepool"] = "core-v2"
				})}
			},
			want: []Change{
				{Kind: "Node", Name: "core-1", Field: "metadata.labels[cloud.google.com/gke-nodepool]", Before: "core", After: "core-v2"},
				{Kind: "Node", Name: "core-1", Field: "spec.taints", Before: Absent, After: "node.kubernetes.io/unschedulable:NoSchedule"},
				{Kind: "Node", Name: "core-1", Field: "spec.unschedulable", Before: "false", After: "true"},
			},
		},
		{
			name: "a node gone and another added: pool membership",
			before: func(t *testing.T) []*cluster.Object {
				return []*cluster.Object{node(nil)}
			},
			after: func(t *testing.T) []*cluster.Object {
				return []*cluster.Object{node(func(n *corev1.Node) {
					n.Name = "user-1"
					n.Labels["cloud.google.com/gke-nodepool"] = "user"
				})}
			},
			want: []Change{
				{Kind: "Node", Name: "core-1", Before: "present, in pool core", After: Absent},
				{Kind: "Node", Name: "user-1", Before: Absent, After: "present, in pool user"},
			},
		},
		{
			name: "a workload added; a kind one reading lacks says nothing",
			before: func(t *testing.T) []*cluster.Object {
				return []*cluster.Object{deploy(t, nil)}
			},
			after: func(t *testing.T) []*cluster.Object {
				proxy := hub(func(d *appsv1.Deployment) {
					d.Name = "proxy"
					d.Spec.Template.Spec.Containers[0].Image = "jupyterhub/configurable-http-proxy:4.5"
				})
				return []*cluster.Object{deploy(t, nil), raw(t, "Deployment", "prod", "proxy", proxy),
					raw(t, "ConfigMap", "prod", "hub", configMap(map[string]string{"a": "1"}))}
			},
			want: []Change{{Kind: "Deployment", Namespace: "prod", Name: "proxy", Before: Absent, After: "present, running jupyterhub/configurable-http-proxy:4.5"}},
		},
		{
			name: "unreadable JSON is left out",
			before: func(t *testing.T) []*cluster.Object {
				return []*cluster.Object{deploy(t, nil)}
			},
			after: func(t *testing.T) []*cluster.Object {
				return []*cluster.Object{deploy(t, nil), {Kind: "Deployment", Namespace: "prod", Name: "broken", Raw: []byte(`{"spec": 7}`)}}
			},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Between(Reading{Objects: tt.before(t), At: t0}, Reading{Objects: tt.after(t), At: t1})
			for i := range tt.want {
				w := &tt.want[i]
				if w.Kind == "" {
					w.Kind, w.Namespace, w.Name = "Deployment", "prod", "hub"
				}
				w.Since, w.Until = t0, t1
			}
			if diff := cmp.Diff(tt.want, got, textsOnly); diff != "" {
				t.Errorf("Between (-want +got):\n%s", diff)
			}
		})
	}
}

// TestConfigMapValuesNeverShown: a ConfigMap's changed value is told as "a value" changed to
// "another value", never the value nor its hash (which anyone can match against the values
// they guess), and a key added or removed is a change of its own.
func TestConfigMapValuesNeverShown(t *testing.T) {
	before := raw(t, "ConfigMap", "prod", "hub", configMap(map[string]string{"jupyterhub_config.py": "c.Spawner.mem_limit = '2G'", "old": "x"}))
	after := raw(t, "ConfigMap", "prod", "hub", configMap(map[string]string{"jupyterhub_config.py": "c.Spawner.mem_limit = '1G'", "new": "y"}))
	got := Between(Reading{Objects: []*cluster.Object{before}}, Reading{Objects: []*cluster.Object{after}})
	var fields []string
	for _, c := range got {
		fields = append(fields, c.Field)
		for _, v := range []string{c.Before, c.After} {
			if strings.Contains(v, "mem_limit") || v == "x" || v == "y" || strings.Contains(v, "sha256") {
				t.Errorf("%s shows a value or its hash: %q", c.Field, v)
			}
		}
		if c.Field == "data[jupyterhub_config.py]" && (c.Before != ValueBefore || c.After != ValueAfter) {
			t.Errorf("changed value: %q → %q, want %q → %q", c.Before, c.After, ValueBefore, ValueAfter)
		}
		if c.Field == "data[new]" && (c.Before != Absent || c.After != ValueAfter) || c.Field == "data[old]" && (c.Before != ValueBefore || c.After != Absent) {
			t.Errorf("%s: %q → %q", c.Field, c.Before, c.After)
		}
	}
	if diff := cmp.Diff([]string{"data[jupyterhub_config.py]", "data[new]", "data[old]"}, fields); diff != "" {
		t.Errorf("changed fields (-want +got):\n%s", diff)
	}
}

// TestAcross: each reading is compared with the one before; a change's window starts at the
// latest time the earlier reading records (a snapshot is taken no earlier), not at its upload,
// and ends at the later reading's upload.
func TestAcross(t *testing.T) {
	recordedAt := time.Date(2023, 2, 1, 9, 0, 10, 0, time.UTC)
	uploaded1, uploaded2, uploaded3 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 3, 0, 0, 0, 0, time.UTC)
	pod := &cluster.Object{Kind: cluster.KindPod, Namespace: "prod", Name: "hub-1", Pod: cluster.PodOf(&corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{CreationTimestamp: metav1.NewTime(recordedAt.Add(-time.Hour))},
		Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{{State: corev1.ContainerState{
			Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(recordedAt)}}}}}})}
	// A container's last termination is recorded too: the latest time of the first reading.
	finished := recordedAt.Add(5 * time.Second)
	crashed := &cluster.Object{Kind: cluster.KindPod, Namespace: "prod", Name: "hub-2", Pod: cluster.PodOf(&corev1.Pod{
		Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{{LastTerminationState: corev1.ContainerState{
			Terminated: &corev1.ContainerStateTerminated{FinishedAt: metav1.NewTime(finished)}}}}}})}
	d := func(image string) *cluster.Object {
		return raw(t, "Deployment", "prod", "hub", hub(func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = image }))
	}
	got := Across([]Reading{
		{Objects: []*cluster.Object{d("a"), pod, crashed}, At: uploaded1},
		{Objects: []*cluster.Object{d("b")}, At: uploaded2},
		{Objects: []*cluster.Object{d("b")}, At: uploaded3},
	})
	want := []Change{{Kind: "Deployment", Namespace: "prod", Name: "hub", Field: "spec.template.spec.containers[hub].image", Before: "a", After: "b",
		Since: finished, Until: uploaded2}}
	if diff := cmp.Diff(want, got, textsOnly); diff != "" {
		t.Errorf("Across (-want +got):\n%s", diff)
	}
}
