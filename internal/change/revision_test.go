package change

import (
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// TestRevisionOf: a ReplicaSet is read with its controlling Deployment (an owner that does not
// control it is not its Deployment), its revision annotation and its creation; a
// ControllerRevision with its StatefulSet and .revision; another kind is none.
func TestRevisionOf(t *testing.T) {
	yes, no := true, false
	at := time.Date(2023, 2, 1, 16, 0, 0, 0, time.UTC)
	rs := func(name string, controller *bool) *cluster.Object {
		return raw(t, "ReplicaSet", "prod", name, &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "prod",
			CreationTimestamp: metav1.NewTime(at), Annotations: map[string]string{revisionAnnotation: "3"},
			OwnerReferences: []metav1.OwnerReference{{Kind: "Deployment", Name: "hub", Controller: controller}}}})
	}
	cr := raw(t, "ControllerRevision", "prod", "web-6c4c8d8d5b", &appsv1.ControllerRevision{ObjectMeta: metav1.ObjectMeta{Name: "web-6c4c8d8d5b",
		Namespace: "prod", OwnerReferences: []metav1.OwnerReference{{Kind: "StatefulSet", Name: "web", Controller: &yes}}}, Revision: 2})
	for _, tt := range []struct {
		obj        *cluster.Object
		ok         bool
		want       Revision
		deployment string
	}{
		{rs("hub-5d8f", &yes), true, Revision{Kind: "ReplicaSet", Namespace: "prod", Name: "hub-5d8f", OwnerKind: "Deployment", Owner: "hub", Number: 3, Created: at}, "hub"},
		{rs("hub-4c2a", &no), true, Revision{Kind: "ReplicaSet", Namespace: "prod", Name: "hub-4c2a", Number: 3, Created: at}, ""},
		{rs("hub-3b1a", nil), true, Revision{Kind: "ReplicaSet", Namespace: "prod", Name: "hub-3b1a", Number: 3, Created: at}, ""},
		{cr, true, Revision{Kind: "ControllerRevision", Namespace: "prod", Name: "web-6c4c8d8d5b", OwnerKind: "StatefulSet", Owner: "web", Number: 2}, ""},
		{raw(t, "Deployment", "prod", "hub", hub(nil)), false, Revision{}, ""},
		{&cluster.Object{Kind: "ReplicaSet", Namespace: "prod", Name: "no-json"}, false, Revision{}, ""},
	} {
		got, ok := RevisionOf(tt.obj)
		if ok != tt.ok || got != tt.want {
			t.Errorf("RevisionOf(%s %s) = %+v, %v; want %+v, %v", tt.obj.Kind, tt.obj.Name, got, ok, tt.want, tt.ok)
		}
		if d := DeploymentOf(tt.obj); d != tt.deployment {
			t.Errorf("DeploymentOf(%s %s) = %q, want %q", tt.obj.Kind, tt.obj.Name, d, tt.deployment)
		}
	}
}
