package cluster

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// TestModelKeepsAnEventOnce: the same event listed twice (core/v1 and events.k8s.io/v1, or
// two snapshots) counts once, with its highest count; events without a uid are all kept.
func TestModelKeepsAnEventOnce(t *testing.T) {
	ev := func(uid string, count int32) *Object {
		return &Object{Event: EventOf(&corev1.Event{ObjectMeta: metav1.ObjectMeta{UID: types.UID(uid)}, Count: count})}
	}
	m := NewModel(nil, []*Object{ev("a", 3), ev("b", 1), ev("a", 5), ev("a", 4), ev("", 1), ev("", 1)})
	if len(m.Events) != 4 {
		t.Fatalf("%d events, want 4 (a, b and two without uid)", len(m.Events))
	}
	if got := m.Events[0].Event.Count; got != 5 {
		t.Errorf("event a kept with count %d, want 5", got)
	}
}

func TestStates(t *testing.T) {
	p := &corev1.Pod{Spec: corev1.PodSpec{NodeName: "core-1"}, Status: corev1.PodStatus{Phase: corev1.PodFailed, Reason: "Evicted",
		Conditions: []corev1.PodCondition{{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue, Reason: "TerminationByKubelet"}},
		ContainerStatuses: []corev1.ContainerStatus{{Name: "hub", RestartCount: 2,
			State:                corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Error", ExitCode: 137}},
			LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "OOMKilled"}}}}}}
	if got, want := PodState(PodOf(p)), "Failed (Evicted); disruption target (TerminationByKubelet); on core-1; restarts 2; hub terminated: Error (exit 137); hub last stopped: OOMKilled"; got != want {
		t.Errorf("PodState = %q, want %q", got, want)
	}
	pending := &corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodPending, Conditions: []corev1.PodCondition{{Type: corev1.PodScheduled,
		Status: corev1.ConditionFalse, Message: "0/126 nodes are available: 96 node(s) had untolerated taint.\nmore"}}}}
	if got, want := PodState(PodOf(pending)), "Pending; unschedulable: 0/126 nodes are available: 96 node(s) had untolerated taint."; got != want {
		t.Errorf("PodState = %q, want %q", got, want)
	}
	n := &corev1.Node{Spec: corev1.NodeSpec{Unschedulable: true, Taints: []corev1.Taint{{Key: "node.kubernetes.io/memory-pressure", Effect: corev1.TaintEffectNoSchedule}}},
		Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue},
			{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionTrue}, {Type: corev1.NodeDiskPressure, Status: corev1.ConditionFalse}}}}
	if got, want := NodeState(n), "Ready true; MemoryPressure; cordoned; taints node.kubernetes.io/memory-pressure:NoSchedule"; got != want {
		t.Errorf("NodeState = %q, want %q", got, want)
	}
}

// TestModelKeepsPodsByNamespace: pods of one name in two namespaces are two pods, each found
// by its namespace; the same pod seen twice is one.
func TestModelKeepsPodsByNamespace(t *testing.T) {
	mk := func(ns, name string) *Object {
		return &Object{Kind: KindPod, Namespace: ns, Name: name, Pod: PodOf(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}})}
	}
	prod, staging, again := mk("prod", "hub-0"), mk("staging", "hub-0"), mk("prod", "hub-0")
	m := NewModel(nil, []*Object{prod, staging, again})
	if len(m.Pods) != 2 {
		t.Fatalf("%d pods, want 2", len(m.Pods))
	}
	if got := m.Pod("staging", "hub-0"); got != staging {
		t.Errorf("Pod(staging, hub-0) = %v, want the staging pod", got)
	}
	if got := m.Pod("prod", "hub-0"); got != again {
		t.Errorf("Pod(prod, hub-0) = %v, want the later sighting", got)
	}
	if got := m.Pod("dev", "hub-0"); got != nil {
		t.Errorf("Pod(dev, hub-0) = %v, want none", got)
	}
}
