package change

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// replicaSet is revision n of Deployment prod/hub, created at, running the template mutate makes
// of the hub's.
func replicaSet(t *testing.T, n int, at time.Time, mutate func(d *appsv1.Deployment)) *cluster.Object {
	t.Helper()
	d := hub(mutate)
	yes := true
	name := fmt.Sprintf("hub-%d", n)
	rs := &appsv1.ReplicaSet{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "prod", CreationTimestamp: metav1.NewTime(at),
			Annotations:     map[string]string{revisionAnnotation: fmt.Sprint(n)},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "hub", Controller: &yes}}},
		Spec: appsv1.ReplicaSetSpec{Replicas: d.Spec.Replicas, Template: d.Spec.Template}}
	return raw(t, "ReplicaSet", "prod", name, rs)
}

// TestHistory: a Deployment's ReplicaSets, read from one snapshot, tell its rollouts: each
// revision's template against the one before, at the time its ReplicaSet was made; scaling a
// ReplicaSet down is not a change, and ReplicaSets without a revision or an owning Deployment
// tell nothing.
func TestHistory(t *testing.T) {
	t1, t2, t3 := time.Date(2023, 2, 1, 10, 0, 0, 0, time.UTC), time.Date(2023, 2, 1, 16, 50, 0, 0, time.UTC), time.Date(2023, 2, 1, 17, 5, 0, 0, time.UTC)
	zero := int32(0)
	objs := []*cluster.Object{
		// Out of order, as a list may give them.
		replicaSet(t, 3, t3, func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.Containers[0].Image = "jupyterhub/k8s-hub:3.0.1"
			d.Spec.Template.Spec.Containers[0].Resources.Limits[corev1.ResourceMemory] = resource.MustParse("512Mi")
		}),
		replicaSet(t, 1, t1, func(d *appsv1.Deployment) { d.Spec.Replicas = &zero }),
		replicaSet(t, 2, t2, func(d *appsv1.Deployment) {
			d.Spec.Replicas = &zero
			d.Spec.Template.Spec.Containers[0].Image = "jupyterhub/k8s-hub:3.0.1"
		}),
		raw(t, "ReplicaSet", "prod", "orphan", &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "orphan", Namespace: "prod",
			Annotations: map[string]string{revisionAnnotation: "9"}}}),
	}
	const c = "spec.template.spec.containers[hub]"
	want := []Change{
		{Kind: "Deployment", Namespace: "prod", Name: "hub", Field: c + ".image", Before: "jupyterhub/k8s-hub:3.0.0", After: "jupyterhub/k8s-hub:3.0.1",
			Since: t2, Until: t2, Revision: 2, Evidence: "ReplicaSet prod/hub-2", ReplicaSet: "hub-2"},
		{Kind: "Deployment", Namespace: "prod", Name: "hub", Field: c + ".resources.limits.memory", Before: "1Gi", After: "512Mi",
			Since: t3, Until: t3, Revision: 3, Evidence: "ReplicaSet prod/hub-3", ReplicaSet: "hub-3"},
	}
	if diff := cmp.Diff(want, History(objs), textsOnly); diff != "" {
		t.Errorf("History (-want +got):\n%s", diff)
	}
}
