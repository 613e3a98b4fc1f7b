package rules

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// rollout is revision n of Deployment prod/hub, rolled out at, its container running image with
// the memory limit given: the ReplicaSet kubectl get rs -o json shows.
func rollout(t *testing.T, n int, at time.Time, image, limit string) *cluster.Object {
	t.Helper()
	return rolloutSpec(t, n, at, corev1.PodSpec{Containers: []corev1.Container{{Name: "hub", Image: image,
		Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(limit)}}}}})
}

// rolloutSpec is revision n of Deployment prod/hub, rolled out at, running spec.
func rolloutSpec(t *testing.T, n int, at time.Time, spec corev1.PodSpec) *cluster.Object {
	t.Helper()
	return rolloutOf(t, "hub", n, at, spec)
}

// rolloutOf is revision n of Deployment prod/app (its ReplicaSet app-n), rolled out at, running
// spec.
func rolloutOf(t *testing.T, app string, n int, at time.Time, spec corev1.PodSpec) *cluster.Object {
	t.Helper()
	yes := true
	rs := appsv1.ReplicaSet{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", app, n), Namespace: "prod", CreationTimestamp: metav1.NewTime(at),
			Annotations:     map[string]string{"deployment.kubernetes.io/revision": fmt.Sprint(n)},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: app, Controller: &yes}}},
		Spec: appsv1.ReplicaSetSpec{Template: corev1.PodTemplateSpec{Spec: spec}}}
	b, err := json.Marshal(rs)
	if err != nil {
		t.Fatal(err)
	}
	return &cluster.Object{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "prod", Name: rs.Name, Raw: b,
		Source: cluster.Source{File: "rs.json", Line: int32(10 * n)}}
}

// hubPod is a pod of ReplicaSet rs, created at, with the container status given.
func hubPod(name, rs string, at time.Time, image, limit string, status corev1.ContainerStatus) *cluster.Object {
	return appPod("hub", name, rs, at, image, limit, status)
}

// appPod is a pod of ReplicaSet rs whose one container is named app, created at, with the
// container status given.
func appPod(app, name, rs string, at time.Time, image, limit string, status corev1.ContainerStatus) *cluster.Object {
	yes := true
	status.Name = app
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "prod", CreationTimestamp: metav1.NewTime(at),
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs, Controller: &yes}}},
		Spec: corev1.PodSpec{NodeName: "core-1", Containers: []corev1.Container{{Name: app, Image: image,
			Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(limit)}}}}},
		Status: corev1.PodStatus{Phase: corev1.PodPending, StartTime: &metav1.Time{Time: at}, ContainerStatuses: []corev1.ContainerStatus{status}}}
	return &cluster.Object{APIVersion: "v1", Kind: cluster.KindPod, Namespace: "prod", Name: name, Pod: cluster.PodOf(p), Source: cluster.Source{File: "pods.json", Line: 1}}
}

func pulling(image string) corev1.ContainerStatus {
	return corev1.ContainerStatus{Image: image, State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ErrImagePull",
		Message: fmt.Sprintf("rpc error: code = NotFound desc = failed to pull and unpack image %q: failed to resolve reference %q: %s: not found", image, image, image)}}}
}

func running() corev1.ContainerStatus {
	return corev1.ContainerStatus{Ready: true, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}
}

func oomKilled(at time.Time) corev1.ContainerStatus {
	return corev1.ContainerStatus{RestartCount: 2, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}},
		LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "OOMKilled", ExitCode: 137,
			FinishedAt: metav1.NewTime(at)}}}
}

// changeCause is the recent_change cause of a report, and the symptoms it explains by kind
// (not the causes the chain links it to).
func changeCause(t *testing.T, rep analysis.Report) (analysis.Cause, []string) {
	t.Helper()
	kinds := map[string]string{}
	for _, s := range rep.Symptoms {
		kinds[s.ID] = s.Kind
	}
	for _, c := range rep.Causes {
		if c.Kind == analysis.RecentChange {
			var explained []string
			for _, id := range c.Explains {
				if k, ok := kinds[id]; ok {
					explained = append(explained, k)
				}
			}
			return c, explained
		}
	}
	t.Fatalf("no recent_change cause among %v", causeKinds(rep))
	return analysis.Cause{}, nil
}

// TestRecentChangeFromRollouts: a Deployment's ReplicaSets in one snapshot tell that its image
// changed, then the new pods could not pull it; and, in another, that its memory limit was
// lowered, then its containers were OOM-killed. Each is a recent_change cause citing the
// change; a pod of the earlier template failing the same way speaks against it.
func TestRecentChangeFromRollouts(t *testing.T) {
	t1, t2 := time.Date(2023, 2, 1, 10, 0, 0, 0, time.UTC), time.Date(2023, 2, 1, 16, 50, 0, 0, time.UTC)
	const good, bad = "jupyterhub/k8s-hub:3.0.0", "jupyterhub/k8s-hub:3.0.1-typo"

	t.Run("image", func(t *testing.T) {
		m := cluster.NewModel(nil, []*cluster.Object{
			rollout(t, 1, t1, good, "1Gi"), rollout(t, 2, t2, bad, "1Gi"),
			hubPod("hub-1-old", "hub-1", t1, good, "1Gi", running()),
			hubPod("hub-2-new", "hub-2", t2.Add(time.Minute), bad, "1Gi", pulling(bad)),
		})
		rep := Run(m, analysis.Options{})
		c, explained := changeCause(t, rep)
		if strings.Join(explained, ",") != analysis.ImagePullFailed || c.Role != analysis.Root || c.Confidence < 0.7 {
			t.Errorf("recent_change explains %v as %s at %.2f; want the image pull, root, confident", explained, c.Role, c.Confidence)
		}
		ev := c.Evidence[0]
		if ev.Ref != "Deployment prod/hub" || ev.Field != "spec.template.spec.containers[hub].image" || ev.File != "rs.json" ||
			!strings.Contains(ev.Value, good+" → "+bad) || !strings.Contains(ev.Value, "revision 2") {
			t.Errorf("the change cited as %+v", ev)
		}
	})

	t.Run("image, the old pods failing too", func(t *testing.T) {
		m := cluster.NewModel(nil, []*cluster.Object{
			rollout(t, 1, t1, good, "1Gi"), rollout(t, 2, t2, bad, "1Gi"),
			hubPod("hub-1-old", "hub-1", t1, good, "1Gi", pulling(good)),
			hubPod("hub-2-new", "hub-2", t2.Add(time.Minute), bad, "1Gi", pulling(bad)),
		})
		c, explained := changeCause(t, Run(m, analysis.Options{}))
		if len(explained) != 1 || c.Confidence > 0.4 || len(c.Against) == 0 || c.Against[0].Ref != "Pod prod/hub-1-old" {
			t.Errorf("with the old pod failing too: explains %v at %.2f, against %+v; want one symptom, little confidence, the old pod against it",
				explained, c.Confidence, c.Against)
		}
	})

	t.Run("memory limit", func(t *testing.T) {
		m := cluster.NewModel(nil, []*cluster.Object{
			rollout(t, 1, t1, good, "1Gi"), rollout(t, 2, t2, good, "1Mi"),
			hubPod("hub-2-new", "hub-2", t2.Add(time.Minute), good, "1Mi", oomKilled(t2.Add(2*time.Minute))),
		})
		c, explained := changeCause(t, Run(m, analysis.Options{}))
		if strings.Join(explained, ",") != analysis.OOMKilled || c.Evidence[0].Field != "spec.template.spec.containers[hub].resources.limits.memory" ||
			!strings.Contains(c.Evidence[0].Value, "1Gi → 1Mi") {
			t.Errorf("recent_change explains %v citing %+v; want the OOM kill and the limit lowered", explained, c.Evidence[0])
		}
	})

	t.Run("a memory limit raised explains nothing", func(t *testing.T) {
		m := cluster.NewModel(nil, []*cluster.Object{
			rollout(t, 1, t1, good, "1Mi"), rollout(t, 2, t2, good, "1Gi"),
			hubPod("hub-2-new", "hub-2", t2.Add(time.Minute), good, "1Gi", oomKilled(t2.Add(2*time.Minute))),
		})
		for _, c := range Run(m, analysis.Options{}).Causes {
			if c.Kind == analysis.RecentChange {
				t.Errorf("a raised limit is given as the cause: %s", c.Summary)
			}
		}
	})
}

// unhealthy is the kubelet's event of a failed liveness probe of pod prod/name at.
func unhealthy(name string, at time.Time) *cluster.Object {
	e := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: name + ".1", Namespace: "prod"},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "prod", Name: name, FieldPath: "spec.containers{hub}"},
		Reason:         "Unhealthy", Type: "Warning", Message: "Liveness probe failed: Get \"http://10.0.0.5:8081/hub/health\": context deadline exceeded",
		Count: 4, FirstTimestamp: metav1.NewTime(at), LastTimestamp: metav1.NewTime(at.Add(time.Minute)), Source: corev1.EventSource{Component: "kubelet", Host: "core-1"}}
	return &cluster.Object{APIVersion: "v1", Kind: cluster.KindEvent, Namespace: "prod", Name: e.Name, Event: cluster.EventOf(e), Source: cluster.Source{File: "events.json", Line: 1}}
}

// unschedulable is pod prod/name of ReplicaSet rs, pending at with the scheduler's message.
func unschedulable(name, rs string, at time.Time, msg string) *cluster.Object {
	o := hubPod(name, rs, at, "jupyterhub/k8s-hub:3.0.0", "1Gi", corev1.ContainerStatus{})
	o.Pod.Spec.NodeName = ""
	o.Pod.Status = cluster.PodStatus{Phase: corev1.PodPending, Conditions: []cluster.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse,
		Reason: "Unschedulable", Message: msg, LastTransitionTime: cluster.InstantOf(at)}}}
	return o
}

// TestRecentChangeMechanisms: a CPU request cut, a probe tightened and a node selector moved,
// each before the symptoms it leads to, is the recent_change that explains them; a pod pending
// for want of CPU is not explained by a selector's change.
func TestRecentChangeMechanisms(t *testing.T) {
	t1, t2 := time.Date(2023, 2, 1, 10, 0, 0, 0, time.UTC), time.Date(2023, 2, 1, 16, 50, 0, 0, time.UTC)
	hubSpec := func(mutate func(c *corev1.Container, s *corev1.PodSpec)) corev1.PodSpec {
		s := corev1.PodSpec{NodeSelector: map[string]string{"pool": "core"}, Containers: []corev1.Container{{Name: "hub", Image: "jupyterhub/k8s-hub:3.0.0",
			Resources:     corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200m")}},
			LivenessProbe: &corev1.Probe{TimeoutSeconds: 3, PeriodSeconds: 10, FailureThreshold: 30}}}}
		if mutate != nil {
			mutate(&s.Containers[0], &s)
		}
		return s
	}
	running := hubPod("hub-2-new", "hub-2", t2.Add(time.Minute), "jupyterhub/k8s-hub:3.0.0", "1Gi", running())
	for _, tt := range []struct {
		name   string
		mutate func(c *corev1.Container, s *corev1.PodSpec)
		objs   []*cluster.Object
		field  string // of the change cited; "" for no recent_change
		kind   string // of the symptom explained
	}{
		{"CPU request cut", func(c *corev1.Container, _ *corev1.PodSpec) {
			c.Resources.Requests[corev1.ResourceCPU] = resource.MustParse("10m")
		},
			[]*cluster.Object{running, unhealthy("hub-2-new", t2.Add(5*time.Minute))}, "spec.template.spec.containers[hub].resources.requests.cpu", analysis.LivenessProbeFailed},
		{"CPU request raised", func(c *corev1.Container, _ *corev1.PodSpec) {
			c.Resources.Requests[corev1.ResourceCPU] = resource.MustParse("1")
		},
			[]*cluster.Object{running, unhealthy("hub-2-new", t2.Add(5*time.Minute))}, "", ""},
		{"probe tightened", func(c *corev1.Container, _ *corev1.PodSpec) { c.LivenessProbe.FailureThreshold = 1 },
			[]*cluster.Object{running, unhealthy("hub-2-new", t2.Add(5*time.Minute))}, "spec.template.spec.containers[hub].livenessProbe", analysis.LivenessProbeFailed},
		{"node selector moved", func(_ *corev1.Container, s *corev1.PodSpec) { s.NodeSelector = map[string]string{"pool": "gpu"} },
			[]*cluster.Object{unschedulable("hub-2-new", "hub-2", t2.Add(time.Minute), "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.")},
			"spec.template.spec.nodeSelector", analysis.PodPending},
		{"node selector moved, but the pod lacks CPU", func(_ *corev1.Container, s *corev1.PodSpec) { s.NodeSelector = map[string]string{"pool": "gpu"} },
			[]*cluster.Object{unschedulable("hub-2-new", "hub-2", t2.Add(time.Minute), "0/3 nodes are available: 3 Insufficient cpu.")}, "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			objs := append([]*cluster.Object{rolloutSpec(t, 1, t1, hubSpec(nil)), rolloutSpec(t, 2, t2, hubSpec(tt.mutate))}, tt.objs...)
			rep := Run(cluster.NewModel(nil, objs), analysis.Options{})
			if tt.field == "" {
				for _, c := range rep.Causes {
					if c.Kind == analysis.RecentChange {
						t.Errorf("a recent_change where none fits: %s", c.Summary)
					}
				}
				return
			}
			c, explained := changeCause(t, rep)
			if strings.Join(explained, ",") != tt.kind || c.Evidence[0].Field != tt.field {
				t.Errorf("recent_change explains %v citing %s; want %s citing %s", explained, c.Evidence[0].Field, tt.kind, tt.field)
			}
		})
	}
}
