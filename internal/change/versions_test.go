package change

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

func TestOver(t *testing.T) {
	t0 := time.Date(2023, 2, 1, 16, 0, 0, 0, time.UTC)
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	deploy := func(mutate func(d *appsv1.Deployment)) *cluster.Object {
		return raw(t, "Deployment", "prod", "hub", hub(mutate))
	}
	churn := deploy(func(d *appsv1.Deployment) { d.Status.ReadyReplicas = 0; d.Status.UnavailableReplicas = 1 })
	newImage := deploy(func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "jupyterhub/k8s-hub:4.0.0" })
	tainted := node(func(n *corev1.Node) {
		n.Spec.Taints = []corev1.Taint{{Key: "node.kubernetes.io/unschedulable", Effect: corev1.TaintEffectNoSchedule}}
		n.Spec.Unschedulable = true
	})
	gone := func() *cluster.Object {
		return node(func(n *corev1.Node) {
			n.Name, n.Labels = "user-9", map[string]string{"cloud.google.com/gke-nodepool": "user"}
		})
	}
	otherCondition := node(func(n *corev1.Node) { n.Status.Conditions[0].Status = corev1.ConditionFalse })
	got := Over([]Version{
		// out of order on purpose: Over sorts each object's versions by when they were seen
		{Object: newImage, At: at(30)},
		{Object: deploy(nil), At: at(0)},
		{Object: churn, At: at(10)},
		{Object: node(nil), At: at(0)},
		{Object: otherCondition, At: at(5)},
		{Object: tainted, At: at(20)},
		{Object: raw(t, "ConfigMap", "prod", "hub", configMap(map[string]string{"a": "1"})), At: at(1)},
		{Object: gone(), At: at(2)},
		{Object: gone(), At: at(25), Deleted: true},
		{Object: gone(), At: at(26), Deleted: true}, // seen deleted twice: gone once
	})
	want := []Change{
		{Kind: "Node", Name: "core-1", Field: "spec.taints", Before: Absent, After: "node.kubernetes.io/unschedulable:NoSchedule", Since: at(5), Until: at(20)},
		{Kind: "Node", Name: "core-1", Field: "spec.unschedulable", Before: "false", After: "true", Since: at(5), Until: at(20)},
		{Kind: "Node", Name: "user-9", Before: "present, in pool user", After: Absent, Since: at(2), Until: at(25)},
		{Kind: "Deployment", Namespace: "prod", Name: "hub", Field: "spec.template.spec.containers[hub].image",
			Before: "jupyterhub/k8s-hub:3.0.0", After: "jupyterhub/k8s-hub:4.0.0", Since: at(10), Until: at(30)},
	}
	if d := cmp.Diff(want, got, cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Source" }, cmp.Ignore()), textsOnly); d != "" {
		t.Errorf("Over (-want +got):\n%s", d)
	}
}

// TestFieldsMatchBetween: the fields the collector compares, read off client-go's types, are
// those Between reads off the JSON, so that the collector sends an object exactly when the
// server will find a change in it.
func TestFieldsMatchBetween(t *testing.T) {
	d := hub(func(d *appsv1.Deployment) {
		d.Spec.Template.Spec.Containers[0].Resources.Limits[corev1.ResourceMemory] = resource.MustParse("1Mi")
	})
	n := node(nil).Node
	cm := configMap(map[string]string{"jupyterhub_config.py": "c.JupyterHub.log_level = 'DEBUG'"})
	for _, tt := range []struct {
		typed any
		obj   *cluster.Object
	}{
		{d, raw(t, "Deployment", "prod", "hub", d)},
		{n, &cluster.Object{Kind: cluster.KindNode, Name: n.Name, Node: n}},
		{cm, raw(t, "ConfigMap", "prod", "hub", cm)},
	} {
		typed, ok := Fields(tt.typed)
		if !ok {
			t.Fatalf("Fields(%T): not compared", tt.typed)
		}
		fromJSON, ok := read(tt.obj)
		if !ok {
			t.Fatalf("read(%s): not compared", tt.obj.Kind)
		}
		if d := cmp.Diff(fromJSON.fields.texts(), typed); d != "" {
			t.Errorf("%s: Fields and read differ (-read +Fields):\n%s", tt.obj.Kind, d)
		}
	}
	if _, ok := Fields(&corev1.Pod{}); ok {
		t.Error("Fields(Pod): a pod's changes are its states, not compared")
	}
}

// TestHashValues: a ConfigMap whose values were hashed (by the collector) compares equal to the
// same ConfigMap with its values (from an upload), hashing twice changes nothing, and no value
// is left in it.
func TestHashValues(t *testing.T) {
	const secretish = "c.GenericOAuthenticator.client_secret = 'hunter2'"
	plain := configMap(map[string]string{"jupyterhub_config.py": secretish, "empty": ""})
	plain.BinaryData = map[string][]byte{"logo.png": {0x89, 'P', 'N', 'G'}}
	hashed := plain.DeepCopy()
	HashValues(hashed)
	if hashed.Data["jupyterhub_config.py"] == secretish || string(hashed.BinaryData["logo.png"]) == "\x89PNG" {
		t.Fatalf("a value is left after HashValues: %v", hashed)
	}
	twice := hashed.DeepCopy()
	HashValues(twice)
	if d := cmp.Diff(hashed, twice); d != "" {
		t.Errorf("hashing again changed the ConfigMap (-once +twice):\n%s", d)
	}
	if got := Between(Reading{Objects: []*cluster.Object{raw(t, "ConfigMap", "prod", "hub", plain)}},
		Reading{Objects: []*cluster.Object{raw(t, "ConfigMap", "prod", "hub", hashed)}}); len(got) != 0 {
		t.Errorf("a ConfigMap and its hashed self differ: %+v", got)
	}
	changed := plain.DeepCopy()
	changed.Data["jupyterhub_config.py"] += "\n"
	HashValues(changed)
	if got := Between(Reading{Objects: []*cluster.Object{raw(t, "ConfigMap", "prod", "hub", hashed)}},
		Reading{Objects: []*cluster.Object{raw(t, "ConfigMap", "prod", "hub", changed)}}); len(got) != 1 || got[0].Field != "data[jupyterhub_config.py]" {
		t.Errorf("a changed value, hashed, is not one change of its key: %+v", got)
	}
}

// TestDeploymentReplicaSetScaling: a Deployment's ReplicaSet scaled by the rollout is no change
// (the collector does not send it, Between finds nothing); a ReplicaSet of its own scaled is.
func TestDeploymentReplicaSetScaling(t *testing.T) {
	yes := true
	rs := func(replicas int32, owned bool) *appsv1.ReplicaSet {
		r := &appsv1.ReplicaSet{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
			ObjectMeta: metav1.ObjectMeta{Name: "hub-7c9", Namespace: "prod"},
			Spec: appsv1.ReplicaSetSpec{Replicas: &replicas, Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				Containers: []corev1.Container{{Name: "hub", Image: "hub:1"}}}}}}
		if owned {
			r.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "hub", Controller: &yes}}
		}
		return r
	}
	for _, owned := range []bool{true, false} {
		got := Between(Reading{Objects: []*cluster.Object{raw(t, "ReplicaSet", "prod", "hub-7c9", rs(3, owned))}},
			Reading{Objects: []*cluster.Object{raw(t, "ReplicaSet", "prod", "hub-7c9", rs(0, owned))}})
		if owned && len(got) != 0 {
			t.Errorf("a Deployment's ReplicaSet scaled: %+v, want no change", got)
		}
		if !owned && (len(got) != 1 || got[0].Field != "spec.replicas") {
			t.Errorf("a ReplicaSet of its own scaled: %+v, want its replicas", got)
		}
	}
}

// TestJoin: a snapshot is compared with the version the collector saw last before the time it
// records and the first after its upload; one seen in between is compared with nothing.
func TestJoin(t *testing.T) {
	t0 := time.Date(2023, 2, 1, 16, 0, 0, 0, time.UTC)
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	deploy := func(image string) *cluster.Object {
		return raw(t, "Deployment", "prod", "hub", hub(func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = image }))
	}
	// The snapshot records a pod started at 16:30 and was uploaded at 17:00: it was taken then.
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "hub-1", Namespace: "prod", CreationTimestamp: metav1.NewTime(at(30))}}
	snapshot := Reading{Objects: []*cluster.Object{deploy("hub:2"), {Kind: cluster.KindPod, Namespace: "prod", Name: "hub-1", Pod: cluster.PodOf(pod)}}, At: at(60)}
	got := Join([]Reading{snapshot}, []Version{
		{Object: deploy("hub:0"), At: at(0)},
		{Object: deploy("hub:1"), At: at(10)}, // the last before the snapshot
		{Object: deploy("hub:9"), At: at(45)}, // while it may have been taken: compared with nothing
		{Object: deploy("hub:3"), At: at(70)}, // the first after it
		{Object: deploy("hub:4"), At: at(80)},
	})
	var lines []string
	for _, c := range got {
		lines = append(lines, c.Before+" → "+c.After+" "+c.Since.Format("15:04")+"–"+c.Until.Format("15:04"))
	}
	want := []string{"hub:1 → hub:2 16:10–17:00", "hub:2 → hub:3 16:30–17:10"}
	if d := cmp.Diff(want, lines); d != "" {
		t.Errorf("Join (-want +got):\n%s", d)
	}
	if got := Join([]Reading{snapshot}, nil); got != nil {
		t.Errorf("Join without versions: %+v", got)
	}
}
