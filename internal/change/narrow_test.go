package change

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

func markEvent(kind, namespace, object, reason, message string, at time.Time) *cluster.Object {
	e := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: object + "." + reason, Namespace: namespace},
		InvolvedObject: corev1.ObjectReference{Kind: kind, Namespace: namespace, Name: object},
		Reason:         reason, Message: message, FirstTimestamp: metav1.NewTime(at), LastTimestamp: metav1.NewTime(at)}
	if kind == cluster.KindNode {
		e.InvolvedObject.Namespace, e.Namespace = "", "default"
	}
	return &cluster.Object{Kind: cluster.KindEvent, Namespace: e.Namespace, Name: e.Name, Event: cluster.EventOf(e)}
}

// TestNarrow: the events that mark a change date it within its window: a rollout's first scale-up
// of a ReplicaSet no earlier event scaled up (in both message forms), a cordon, a node removed.
// Events outside the window, of other objects, or of the old ReplicaSet date nothing.
func TestNarrow(t *testing.T) {
	t0 := time.Date(2023, 2, 1, 16, 0, 0, 0, time.UTC)
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	image := Change{Kind: "Deployment", Namespace: "prod", Name: "hub", Field: "spec.template.spec.containers[hub].image",
		Path: Path{Attr: Image, Template: true, Container: "hub"}, Before: "hub:1", After: "hub:2", Since: at(0), Until: at(60)}
	replicas := Change{Kind: "Deployment", Namespace: "prod", Name: "hub", Field: "spec.replicas", Path: Path{Attr: Replicas}, Before: "1", After: "2", Since: at(0), Until: at(60)}
	cordon := Change{Kind: "Node", Name: "core-1", Field: "spec.unschedulable", Path: Path{Attr: Unschedulable}, Is: Value{Set: true}, Before: "false", After: "true", Since: at(0), Until: at(60)}
	gone := Change{Kind: "Node", Name: "core-2", Before: "present, in pool core", After: Absent, Was: Value{Pool: "core"}, Is: Value{Absent: true}, Since: at(0), Until: at(60)}
	scaledDown := Change{Kind: "Node", Name: "pool-7", Before: "present, in pool user", After: Absent, Was: Value{Pool: "user"}, Is: Value{Absent: true}, Since: at(0), Until: at(60)}
	tainted := Change{Kind: "Node", Name: "pool-8", Field: "spec.taints", Path: Path{Attr: Taints}, Before: Absent, After: "ToBeDeletedByClusterAutoscaler=1675267200:NoSchedule",
		Was: Value{Absent: true}, Is: Value{Taints: []corev1.Taint{{Key: autoscalerTaint, Value: "1675267200", Effect: corev1.TaintEffectNoSchedule}}}, Since: at(0), Until: at(60)}
	unmarked := Change{Kind: "Node", Name: "core-3", Field: "spec.unschedulable", Path: Path{Attr: Unschedulable}, Is: Value{Set: true}, Before: "false", After: "true", Since: at(0), Until: at(60)}
	events := []*cluster.Object{
		markEvent("Deployment", "prod", "hub", "ScalingReplicaSet", "Scaled up replica set hub-4c2a to 1", at(-30)),       // the old one, before
		markEvent("Deployment", "prod", "hub", "ScalingReplicaSet", "Scaled up replica set hub-4c2a to 2 from 1", at(10)), // the old one scaled: not the rollout
		markEvent("Deployment", "prod", "hub", "ScalingReplicaSet", "Scaled up replica set hub-5d8f to 1 from 0", at(20)),
		markEvent("Deployment", "prod", "hub", "ScalingReplicaSet", "Scaled down replica set hub-4c2a to 1 from 2", at(21)),
		markEvent("Deployment", "prod", "other", "ScalingReplicaSet", "Scaled up replica set other-1 to 1", at(5)),
		markEvent(cluster.KindNode, "", "core-1", "NodeNotSchedulable", "Node core-1 status is now: NodeNotSchedulable", at(30)),
		markEvent(cluster.KindNode, "", "core-2", "RemovingNode", "Node core-2 event: Removing Node core-2 from Controller", at(40)),
		markEvent(cluster.KindNode, "", "pool-7", "ScaleDown", "marked the node as toBeDeleted/unschedulable", at(45)),
		markEvent(cluster.KindNode, "", "pool-8", "ScaleDown", "marked the node as toBeDeleted/unschedulable", at(50)),
		markEvent(cluster.KindNode, "", "core-3", "NodeNotSchedulable", "Node core-3 status is now: NodeNotSchedulable", at(90)), // after the window
	}
	got := Narrow([]Change{image, replicas, cordon, gone, scaledDown, tainted, unmarked}, events)
	wantImage := image
	wantImage.Since, wantImage.Until, wantImage.ReplicaSet, wantImage.Evidence = at(20), at(20), "hub-5d8f", "Event prod/hub.ScalingReplicaSet (ScalingReplicaSet)"
	wantCordon := cordon
	wantCordon.Since, wantCordon.Until, wantCordon.Evidence = at(30), at(30), "Event default/core-1.NodeNotSchedulable (NodeNotSchedulable)"
	wantGone := gone
	wantGone.Since, wantGone.Until, wantGone.Evidence = at(40), at(40), "Event default/core-2.RemovingNode (RemovingNode)"
	wantScaledDown := scaledDown
	wantScaledDown.Since, wantScaledDown.Until, wantScaledDown.Evidence = at(45), at(45), "Event default/pool-7.ScaleDown (ScaleDown)"
	wantTainted := tainted
	wantTainted.Since, wantTainted.Until, wantTainted.Evidence = at(50), at(50), "Event default/pool-8.ScaleDown (ScaleDown)"
	want := []Change{wantImage, replicas, wantCordon, wantGone, wantScaledDown, wantTainted, unmarked}
	if d := cmp.Diff(want, got, textsOnly); d != "" {
		t.Errorf("Narrow (-want +got):\n%s", d)
	}
	if image.ReplicaSet != "" || !image.Until.Equal(at(60)) {
		t.Error("Narrow changed the changes it was given")
	}
}
