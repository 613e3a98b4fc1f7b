package cluster

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestKeptObjectsMarshalAsTheirKubernetesTypes: an object kept lean with no Stored JSON (an
// event or a pod the text reader made, holding only fields the lean types have) marshals to
// the bytes its Kubernetes type did, kind and apiVersion included: what the store kept of it
// before the types were lean.
func TestKeptObjectsMarshalAsTheirKubernetesTypes(t *testing.T) {
	t.Parallel()
	at := metav1.NewTime(time.Date(2023, 2, 1, 17, 6, 0, 0, time.UTC))
	ev := &corev1.Event{TypeMeta: metav1.TypeMeta{Kind: KindEvent, APIVersion: "v1"},
		ObjectMeta:     metav1.ObjectMeta{Name: "hub.1", Namespace: "prod", Annotations: map[string]string{"source": "kubelet"}},
		InvolvedObject: corev1.ObjectReference{Kind: KindPod, Namespace: "prod", Name: "hub", APIVersion: "v1", FieldPath: "spec.containers{hub}"},
		Reason:         "Evicted", Message: "The node was low on resource: memory.", Type: corev1.EventTypeWarning,
		Source: corev1.EventSource{Component: "kubelet", Host: "core-1"}, Count: 2, FirstTimestamp: at, LastTimestamp: at}
	pod := &corev1.Pod{TypeMeta: metav1.TypeMeta{Kind: KindPod, APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: "hub", Namespace: "prod", DeletionTimestamp: &at},
		Spec: corev1.PodSpec{NodeName: "core-1", Containers: []corev1.Container{{Name: "hub", Image: "jupyterhub/k8s-hub:3.0.0",
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("512Mi")}}}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "10.0.0.7", StartTime: &at,
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: at}},
			ContainerStatuses: []corev1.ContainerStatus{{Name: "hub", Ready: true, RestartCount: 3, Image: "jupyterhub/k8s-hub:3.0.0",
				State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: at}}}}}}
	for name, c := range map[string]struct {
		kept *Object
		core any
	}{
		"event": {&Object{Kind: KindEvent, APIVersion: "v1", Event: EventOf(ev)}, ev},
		"pod":   {&Object{Kind: KindPod, APIVersion: "v1", Pod: PodOf(pod)}, pod},
	} {
		got, err := c.kept.JSON()
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(c.core)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s: kept, it marshals to\n%s\nas its Kubernetes type to\n%s", name, got, want)
		}
	}
}

// TestKeptPodHoldsNothingUnread: what Rootline keeps of a pod, made from the Kubernetes type
// or decoded straight from the JSON, holds none of the parts of it that nothing reads: its
// volumes, the largest part of a real pod's spec (the projected service-account volume every
// pod has is about a kilobyte in memory), its conditions' probe times and generations (a pod
// has four conditions), its scheduler, host network, grace period, spread constraints and its
// containers' started flags. The stored JSON keeps them.
func TestKeptPodHoldsNothingUnread(t *testing.T) {
	t.Parallel()
	probed := metav1.NewTime(time.Date(2023, 2, 1, 17, 6, 0, 0, time.UTC))
	grace, started := int64(30), true
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "hub", Namespace: "prod"},
		Status: corev1.PodStatus{Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue,
			ObservedGeneration: 3, LastProbeTime: probed}},
			ContainerStatuses: []corev1.ContainerStatus{{Name: "hub", Started: &started}}},
		Spec: corev1.PodSpec{NodeName: "core-1", Containers: []corev1.Container{{Name: "hub"}},
			SchedulerName: "default-scheduler", HostNetwork: true, TerminationGracePeriodSeconds: &grace,
			TopologySpreadConstraints: []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "zone"}},
			Volumes: []corev1.Volume{{Name: "kube-api-access-x2k9q", VolumeSource: corev1.VolumeSource{
				Projected: &corev1.ProjectedVolumeSource{Sources: []corev1.VolumeProjection{
					{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"}}}}}}}}}}
	for how, kept := range map[string]*Pod{"PodOf": PodOf(pod), "decoded": decodedAs[Pod](t, pod)} {
		if kept.Spec.NodeName != "core-1" {
			t.Fatalf("%s: node %q: the pod was not kept", how, kept.Spec.NodeName)
		}
		holdsNone(t, how+": the kept pod", kept, "volumes", "lastProbeTime", "observedGeneration", "schedulerName",
			"hostNetwork", "terminationGracePeriodSeconds", "topologySpreadConstraints", "started")
		if c := kept.Status.Conditions; len(c) != 1 || c[0].Type != corev1.PodReady {
			t.Errorf("%s: the kept pod has conditions %+v", how, c)
		}
	}
}

// TestKeptEventHoldsNothingUnread is the same for an event: no labels, owners, deletion or
// resource versions (its own and its object's), which nothing reads of an event; its names,
// annotations (an eviction's offending containers) and object are kept.
func TestKeptEventHoldsNothingUnread(t *testing.T) {
	t.Parallel()
	grace := int64(30)
	ev := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: "hub.1", Namespace: "prod", UID: "e-1", ResourceVersion: "530086127",
		Labels: map[string]string{"team": "hub"}, Annotations: map[string]string{"offending_containers": "hub"},
		OwnerReferences: []metav1.OwnerReference{{Kind: "Pod", Name: "hub"}}, DeletionGracePeriodSeconds: &grace},
		InvolvedObject: corev1.ObjectReference{Kind: KindPod, Namespace: "prod", Name: "hub", ResourceVersion: "623661090"},
		Reason:         "Evicted"}
	for how, kept := range map[string]*Event{"EventOf": EventOf(ev), "decoded": decodedAs[Event](t, ev)} {
		if kept.UID != "e-1" || kept.InvolvedObject.Name != "hub" || kept.Annotations["offending_containers"] != "hub" {
			t.Fatalf("%s: the event was not kept: %+v", how, kept)
		}
		holdsNone(t, how+": the kept event", kept, "resourceVersion", "labels", "ownerReferences", "deletionGracePeriodSeconds")
	}
}

// decodedAs is what the straight decode keeps of v: its JSON decoded into a T.
func decodedAs[T any](t *testing.T, v any) *T {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	out := new(T)
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatal(err)
	}
	return out
}

// holdsNone fails when the JSON of kept has any of the fields.
func holdsNone(t *testing.T, what string, kept any, fields ...string) {
	t.Helper()
	b, err := json.Marshal(kept)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fields {
		if strings.Contains(string(b), `"`+f+`"`) {
			t.Errorf("%s holds %s: %s", what, f, b)
		}
	}
}

// TestEventsAPIOnlyWhenWritten: an event keeps its series and its action, each without the
// other, and one with neither holds no EventsAPI (the 32 bytes the pointer saves every event
// of a kubelet) yet answers Series and Action.
func TestEventsAPIOnlyWhenWritten(t *testing.T) {
	t.Parallel()
	series := &corev1.EventSeries{Count: 3}
	for _, tc := range []struct {
		name   string
		series *corev1.EventSeries
		action string
		held   bool
	}{
		{name: "neither"},
		{name: "action", action: "Scheduling", held: true},
		{name: "series", series: series, held: true},
		{name: "both", series: series, action: "Binding", held: true},
	} {
		e := EventOf(&corev1.Event{Reason: "FailedScheduling", Series: tc.series, Action: tc.action})
		if held := e.EventsAPI != nil; held != tc.held {
			t.Errorf("%s: EventsAPI held %v, want %v", tc.name, held, tc.held)
		}
		if e.Series() != tc.series || e.Action() != tc.action {
			t.Errorf("%s: Series %v, Action %q; want %v, %q", tc.name, e.Series(), e.Action(), tc.series, tc.action)
		}
		if c := e.Core(); c.Series != tc.series || c.Action != tc.action {
			t.Errorf("%s: Core has Series %v, Action %q", tc.name, c.Series, c.Action)
		}
	}
}
