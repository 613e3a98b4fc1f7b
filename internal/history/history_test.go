package history

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/rules"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/timeline"
)

var (
	t1 = time.Date(2023, 2, 1, 10, 0, 0, 0, time.UTC)
	t2 = time.Date(2023, 2, 1, 16, 50, 0, 0, time.UTC)
)

const good, bad = "jupyterhub/k8s-hub:3.0.0", "jupyterhub/k8s-hub:3.0.1-typo"

// rollout is revision n of Deployment prod/hub, rolled out at, running image.
func rollout(t *testing.T, n int, at time.Time, image string) *cluster.Object {
	t.Helper()
	yes := true
	rs := appsv1.ReplicaSet{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("hub-%d", n), Namespace: "prod", CreationTimestamp: metav1.NewTime(at),
			Annotations:     map[string]string{"deployment.kubernetes.io/revision": fmt.Sprint(n)},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "hub", Controller: &yes}}},
		Spec: appsv1.ReplicaSetSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "hub", Image: image}}}}}}
	b, err := json.Marshal(rs)
	if err != nil {
		t.Fatal(err)
	}
	return &cluster.Object{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "prod", Name: rs.Name, Raw: b, Source: cluster.Source{File: "rs.json", Line: int32(10 * n)}}
}

// hubPod is a pod of ReplicaSet rs on core-1, created at, with the container status given.
func hubPod(name, rs string, at time.Time, image string, status corev1.ContainerStatus) *cluster.Object {
	yes := true
	status.Name = "hub"
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "prod", CreationTimestamp: metav1.NewTime(at),
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs, Controller: &yes}}},
		Spec: corev1.PodSpec{NodeName: "core-1", Containers: []corev1.Container{{Name: "hub", Image: image}}},
		Status: corev1.PodStatus{Phase: corev1.PodPending, StartTime: &metav1.Time{Time: at}, ContainerStatuses: []corev1.ContainerStatus{status},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse, Reason: "ContainersNotReady", LastTransitionTime: metav1.NewTime(at)}}}}
	return &cluster.Object{APIVersion: "v1", Kind: cluster.KindPod, Namespace: "prod", Name: name, Pod: cluster.PodOf(p), Source: cluster.Source{File: "pods.json", Line: 1}}
}

func backOff(pod string, at time.Time) *cluster.Object {
	e := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: pod + ".1", Namespace: "prod", UID: types.UID("e-" + pod)},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "prod", Name: pod}, Reason: "BackOff", Type: "Warning",
		Message: "Back-off pulling image", Count: 7, FirstTimestamp: metav1.NewTime(at), LastTimestamp: metav1.NewTime(at.Add(5 * time.Minute))}
	return &cluster.Object{APIVersion: "v1", Kind: cluster.KindEvent, Namespace: "prod", Name: e.Name, Event: cluster.EventOf(e), Source: cluster.Source{File: "events.json", Line: 1}}
}

func coreNode() *cluster.Object {
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "core-1", CreationTimestamp: metav1.NewTime(t1)},
		Spec:   corev1.NodeSpec{Taints: []corev1.Taint{{Key: "dedicated", Effect: corev1.TaintEffectNoSchedule}}},
		Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(t1)}}}}
	return &cluster.Object{APIVersion: "v1", Kind: cluster.KindNode, Name: "core-1", Node: n, Source: cluster.Source{File: "nodes.json", Line: 1}}
}

// rolloutInput is a Deployment whose image changed at t2, the new pod unable to pull it, the
// old one running, as analysed.
func rolloutInput(t *testing.T) Input {
	t.Helper()
	m := cluster.NewModel(nil, []*cluster.Object{
		rollout(t, 1, t1, good), rollout(t, 2, t2, bad), coreNode(),
		hubPod("hub-1-old", "hub-1", t1, good, corev1.ContainerStatus{Ready: true, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(t1)}}}),
		hubPod("hub-2-new", "hub-2", t2.Add(time.Minute), bad, corev1.ContainerStatus{State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{
			Reason: "ImagePullBackOff", Message: fmt.Sprintf("Back-off pulling image %q", bad)}}}),
		backOff("hub-2-new", t2.Add(2*time.Minute)),
	})
	return Input{Model: m, Report: rules.Run(m, analysis.Options{})}
}

// lanes are a group's lanes as "name: spans/marks" lines.
func lanes(g Group) []string {
	var out []string
	for _, l := range g.Lanes {
		var parts []string
		for _, s := range l.Spans {
			parts = append(parts, s.Tone+" "+s.State)
		}
		for _, m := range l.Marks {
			parts = append(parts, m.Kind+" "+m.Ref)
		}
		out = append(out, l.Name+": "+strings.Join(parts, " | "))
	}
	return out
}

func TestBuild(t *testing.T) {
	in := rolloutInput(t)
	var imagePull, change string
	for _, s := range in.Report.Symptoms {
		if s.Kind == analysis.ImagePullFailed {
			imagePull = s.ID
		}
	}
	for _, c := range in.Report.Changes {
		change = c.ID
	}
	if imagePull == "" || change == "" {
		t.Fatalf("the input gives no image pull symptom or no change: %+v", in.Report)
	}
	for _, tt := range []struct {
		name   string
		o      Object
		groups []string // the objects of the groups
		lanes  []string // of the first group
		notes  int
	}{
		{"deployment", Object{"Deployment", "prod", "hub"}, []string{"Deployment prod/hub", "Pod prod/hub-2-new", "Pod prod/hub-1-old"}, []string{
			"template revisions: info revision 1: ReplicaSet hub-1 | ok revision 2: ReplicaSet hub-2",
			"changes: change " + change,
			"symptoms of its pods: symptom " + imagePull,
		}, 0},
		{"pod", Object{"Pod", "prod", "hub-2-new"}, []string{"Pod prod/hub-2-new"}, []string{
			// Why the container waits, and so the pod's line, is known from the BackOff event.
			"status (snapshot): unknown unknown: nothing the evidence holds tells this state before 2023-02-01 16:52:00Z | bad Pending; ready false; on core-1; hub waiting: ImagePullBackOff",
			"condition Ready: bad False (ContainersNotReady)",
			`container hub · restarts 0: warning waiting | bad waiting: ImagePullBackOff: Back-off pulling image "` + bad + `"`,
			"events: event ",
			"symptoms: symptom " + imagePull,
		}, 0},
		{"node", Object{"Node", "", "core-1"}, []string{"Node core-1"}, []string{
			"status (snapshot): ok Ready true; taints dedicated:NoSchedule",
			"taints (snapshot): warning dedicated:NoSchedule",
			"condition Ready: ok True",
			"symptoms: symptom " + imagePull, // of a pod on the node
		}, 0},
		{"replica set", Object{"ReplicaSet", "prod", "hub-2"}, []string{"ReplicaSet prod/hub-2", "Pod prod/hub-2-new"}, []string{
			"changes: change " + change,
			"symptoms of its pods: symptom " + imagePull,
		}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h, ok := Build(in, tt.o)
			if !ok {
				t.Fatalf("no history of %s", tt.o)
			}
			var groups []string
			for _, g := range h.Groups {
				groups = append(groups, g.Object.String())
			}
			if d := cmp.Diff(tt.groups, groups); d != "" {
				t.Errorf("groups (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.lanes, lanes(h.Groups[0])); d != "" {
				t.Errorf("lanes (-want +got):\n%s", d)
			}
			if len(h.Notes) != tt.notes {
				t.Errorf("notes %q", h.Notes)
			}
			if h.From.After(t2.Add(time.Minute)) || !h.To.After(t2.Add(2*time.Minute)) || tt.o.Kind == "Deployment" && !h.From.Before(t2) {
				t.Errorf("window %s–%s does not hold the symptom, or a Deployment's change", h.From, h.To)
			}
		})
	}
	for _, o := range []Object{{"Pod", "prod", "nothing"}, {"Node", "", "core-2"}, {"Deployment", "other", "hub"}, {"ConfigMap", "prod", "hub"}} {
		if _, ok := Build(in, o); ok {
			t.Errorf("a history of %s, which nothing names", o)
		}
	}
}

// TestBuildBounds: a pod that flapped a thousand times has a bounded lane, and a note says so;
// a node's taints follow its collected states; a Deployment of many pods draws maxPods.
func TestBuildBounds(t *testing.T) {
	in := rolloutInput(t)
	for i := range 1000 {
		state := "Running; ready true; on core-1"
		if i%2 == 1 {
			state = "Running; ready false; on core-1; hub waiting: CrashLoopBackOff; restarts 3"
		}
		in.States = append(in.States, timeline.Change{At: t2.Add(2*time.Minute + time.Duration(i)*100*time.Millisecond), Kind: "Pod", Namespace: "prod", Name: "hub-1-old", State: state})
	}
	in.States = append(in.States,
		timeline.Change{At: t2, Kind: "Node", Name: "core-1", State: "Ready true"},
		timeline.Change{At: t2.Add(time.Minute), Kind: "Node", Name: "core-1", State: "Ready true; cordoned; taints gpu:NoSchedule"})
	h, ok := Build(in, Object{"Pod", "prod", "hub-1-old"})
	if !ok {
		t.Fatal("no history")
	}
	// Unknown from the pod's creation to the first state collected, then 200 states.
	if l := h.Groups[0].Lanes[0]; l.Name != "status (collected)" || len(l.Spans) != 1+maxSpans || l.Spans[0].Tone != ToneUnknown || l.Spans[2].Tone != ToneBad {
		t.Errorf("the collected lane %s has %d spans, the first two %+v", l.Name, len(l.Spans), l.Spans[:2])
	}
	if len(h.Notes) != 1 || !strings.Contains(h.Notes[0], "1000 states; the first 200 are drawn") {
		t.Errorf("notes %q", h.Notes)
	}
	n, _ := Build(in, Object{"Node", "", "core-1"})
	if got := lanes(n.Groups[0])[1]; got != "taints (collected): ok no taints | warning cordoned, gpu:NoSchedule" {
		t.Errorf("taints lane %q", got)
	}

	var objs []*cluster.Object
	for i := range 30 {
		objs = append(objs, hubPod(fmt.Sprintf("hub-2-p%02d", i), "hub-2", t2, good, corev1.ContainerStatus{}))
	}
	objs = append(objs, rollout(t, 2, t2, good))
	many, ok := Build(Input{Model: cluster.NewModel(nil, objs)}, Object{"Deployment", "prod", "hub"})
	if !ok || len(many.Groups) != 1+maxPods || len(many.Notes) != 1 || !strings.Contains(many.Notes[0], "has 30 pods; 12 are drawn") {
		t.Errorf("%d groups, notes %q", len(many.Groups), many.Notes)
	}
}

func TestRelated(t *testing.T) {
	in := rolloutInput(t)
	got := Related(in.Model, Object{"Pod", "prod", "hub-2-new"})
	want := []Object{{"ReplicaSet", "prod", "hub-2"}, {"Deployment", "prod", "hub"}, {"Node", "", "core-1"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("related (-want +got):\n%s", d)
	}
	if got := Related(in.Model, Object{"Deployment", "prod", "hub"}); got != nil {
		t.Errorf("a Deployment's related: %v", got)
	}
}

// TestBuildUndated: an object the input holds with nothing dated (a pod of a paste) has a
// history with no window and no lanes, not one of 1970.
func TestBuildUndated(t *testing.T) {
	p := hubPod("bare", "hub-1", time.Time{}, good, corev1.ContainerStatus{})
	p.Pod.Status.StartTime, p.Pod.Status.Conditions = nil, nil
	h, ok := Build(Input{Model: cluster.NewModel(nil, []*cluster.Object{p})}, Object{"Pod", "prod", "bare"})
	if !ok || !h.From.IsZero() || !h.To.IsZero() {
		t.Errorf("found %v, window %s–%s", ok, h.From, h.To)
	}
	for _, g := range h.Groups {
		if len(g.Lanes) != 0 {
			t.Errorf("lanes of nothing dated: %v", lanes(g))
		}
	}
}

// TestBuildStatefulSet: a StatefulSet's ControllerRevisions are its template revisions, and
// its pods (owned by it directly) have lanes of their own.
func TestBuildStatefulSet(t *testing.T) {
	cr := func(n int, at time.Time) *cluster.Object {
		raw := fmt.Sprintf(`{"apiVersion": "apps/v1", "kind": "ControllerRevision", "revision": %d,
			"metadata": {"name": "db-%d", "namespace": "prod", "creationTimestamp": %q,
			"ownerReferences": [{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "db", "controller": true}]}}`, n, n, at.Format(time.RFC3339))
		return &cluster.Object{APIVersion: "apps/v1", Kind: "ControllerRevision", Namespace: "prod", Name: fmt.Sprintf("db-%d", n), Raw: []byte(raw)}
	}
	pod := hubPod("db-0", "db", t2, good, corev1.ContainerStatus{})
	pod.Pod.OwnerReferences[0].Kind = "StatefulSet"
	h, ok := Build(Input{Model: cluster.NewModel(nil, []*cluster.Object{cr(2, t2), cr(1, t1), pod})}, Object{"StatefulSet", "prod", "db"})
	if !ok || len(h.Groups) != 2 || h.Groups[1].Object.Name != "db-0" {
		t.Fatalf("found %v, groups %+v", ok, h.Groups)
	}
	if got := lanes(h.Groups[0])[0]; got != "template revisions: info revision 1: ControllerRevision db-1 | ok revision 2: ControllerRevision db-2" {
		t.Errorf("revisions lane %q", got)
	}
}
