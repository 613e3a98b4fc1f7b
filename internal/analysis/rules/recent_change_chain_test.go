package rules

import (
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// appRollout is revision n of Deployment prod/app, rolled out at, its one container (named
// app) running image with the memory limit given.
func appRollout(t *testing.T, app string, n int, at time.Time, image, limit string) *cluster.Object {
	t.Helper()
	return rolloutOf(t, app, n, at, corev1.PodSpec{Containers: []corev1.Container{{Name: app, Image: image,
		Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(limit)}}}}})
}

// poolNode is node name of pool, with the CPU and memory it can give pods.
func poolNode(name, pool, cpu, memory string) *cluster.Object {
	res := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(memory),
		corev1.ResourcePods: resource.MustParse("110")}
	n := &corev1.Node{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"cloud.google.com/gke-nodepool": pool}},
		Status:     corev1.NodeStatus{Capacity: res, Allocatable: res, Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}}}
	return &cluster.Object{APIVersion: "v1", Kind: cluster.KindNode, Name: name, Node: n, Source: cluster.Source{File: "nodes.json", Line: 1}}
}

// crashing is a container that exits as it starts (exit code 127: the shell found no command),
// and is in CrashLoopBackOff.
func crashing(at time.Time) corev1.ContainerStatus {
	return corev1.ContainerStatus{RestartCount: 5,
		State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff", Message: "back-off 5m0s restarting failed container"}},
		LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Error", ExitCode: 127,
			StartedAt: metav1.NewTime(at), FinishedAt: metav1.NewTime(at.Add(time.Second))}}}
}

// rootsReachAll fails the test unless every symptom of the report is reached from a root
// along Explains, and every link of the chain says why and is among its cause's Explains.
func rootsReachAll(t *testing.T, rep analysis.Report) {
	t.Helper()
	var roots []string
	for _, c := range rep.Causes {
		if c.Role == analysis.Root {
			roots = append(roots, c.ID)
		}
		for _, l := range c.Links {
			if l.Why == "" || !slices.Contains(c.Explains, l.To) {
				t.Errorf("%s: a link to %s without a reason or outside its explains", c.ID, l.To)
			}
		}
	}
	for _, s := range rep.Symptoms {
		if !slices.ContainsFunc(roots, func(root string) bool { return rep.Reaches(root, s.ID) }) {
			t.Errorf("symptom %s (%s) is reached from no root", s.ID, s.Kind)
		}
	}
}

// TestRecentChangesApart: two changes to two Deployments (an image on hub, a memory limit on
// proxy), each before its own pods' symptoms, are two recent_change causes, each citing its
// own change and explaining its own pods' symptoms: they are never folded into one.
func TestRecentChangesApart(t *testing.T) {
	t1, t2 := time.Date(2023, 2, 1, 10, 0, 0, 0, time.UTC), time.Date(2023, 2, 1, 16, 50, 0, 0, time.UTC)
	const good, bad = "jupyterhub/k8s-hub:3.0.0", "jupyterhub/k8s-hub:3.0.1-typo"
	const proxy = "jupyterhub/configurable-http-proxy:4.5.6"
	m := cluster.NewModel(nil, []*cluster.Object{
		appRollout(t, "hub", 1, t1, good, "1Gi"), appRollout(t, "hub", 2, t2, bad, "1Gi"),
		appRollout(t, "proxy", 1, t1, proxy, "512Mi"), appRollout(t, "proxy", 2, t2, proxy, "1Mi"),
		appPod("hub", "hub-2-new", "hub-2", t2.Add(time.Minute), bad, "1Gi", pulling(bad)),
		appPod("proxy", "proxy-2-new", "proxy-2", t2.Add(time.Minute), proxy, "1Mi", oomKilled(t2.Add(2*time.Minute))),
	})
	rep := Run(m, analysis.Options{})
	changed := map[string]string{} // the change's field → what its cause explains
	for _, c := range rep.Causes {
		if c.Kind != analysis.RecentChange {
			continue
		}
		if len(c.Changes) != 1 || c.Count != 1 {
			t.Errorf("%s stands on changes %v, for %d causes; want one change, one cause", c.ID, c.Changes, c.Count)
			continue
		}
		var kinds []string
		for _, id := range c.Explains {
			if s, ok := (&rep).SymptomByID(id); ok {
				kinds = append(kinds, s.Kind+" "+s.Objects[0].Name)
			}
		}
		changed[c.Evidence[0].Ref+" "+c.Evidence[0].Field] = strings.Join(kinds, ",")
	}
	want := map[string]string{
		"Deployment prod/hub spec.template.spec.containers[hub].image":                       analysis.ImagePullFailed + " hub-2-new",
		"Deployment prod/proxy spec.template.spec.containers[proxy].resources.limits.memory": analysis.OOMKilled + " proxy-2-new",
	}
	if len(changed) != len(want) {
		t.Errorf("recent_change causes: %v; want %v", changed, want)
	}
	for k, v := range want {
		if changed[k] != v {
			t.Errorf("the cause of %s explains %q; want %q", k, changed[k], v)
		}
	}
	rootsReachAll(t, rep)
}

// TestChainStartsAtChange: a change, and the cause that plainly shows how its workload's
// symptoms came about (the new image could not be pulled or did not start, the containers were
// killed at the lowered limit, the pod starved of the CPU cut, no node matched the new
// selector), are one story that starts at the change: the recent_change cause is the root, the
// other contributing, linked from it with the reason. Where the other cause also explains
// symptoms no change does, it stays a root of its own, and is not linked.
func TestChainStartsAtChange(t *testing.T) {
	t1, t2 := time.Date(2023, 2, 1, 10, 0, 0, 0, time.UTC), time.Date(2023, 2, 1, 16, 50, 0, 0, time.UTC)
	const good, bad = "jupyterhub/k8s-hub:3.0.0", "jupyterhub/k8s-hub:3.0.1-typo"
	after := t2.Add(time.Minute)
	starving := func() []*cluster.Object {
		cpu := func(c *corev1.Container, _ *corev1.PodSpec) {
			c.Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m")}
		}
		spec := func(cut bool) corev1.PodSpec {
			s := corev1.PodSpec{Containers: []corev1.Container{{Name: "hub", Image: good,
				Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m")}}}}}
			if cut {
				cpu(&s.Containers[0], &s)
			}
			return s
		}
		hub := hubPod("hub-2-new", "hub-2", after, good, "1Gi", running())
		hub.Pod.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m")}
		objs := []*cluster.Object{rolloutSpec(t, 1, t1, spec(false)), rolloutSpec(t, 2, t2, spec(true)), hub,
			poolNode("core-1", "core", "4", "16Gi"), unhealthy("hub-2-new", t2.Add(5*time.Minute))}
		for _, name := range []string{"user-a", "user-b", "user-c", "user-d"} {
			u := appPod("notebook", "jupyter-"+name, "", t1, "jupyter/scipy-notebook", "1Gi", running())
			u.Pod.OwnerReferences = nil
			u.Pod.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("800m")}
			objs = append(objs, u)
		}
		return objs
	}
	selector := func(pool string) corev1.PodSpec {
		return corev1.PodSpec{NodeSelector: map[string]string{"cloud.google.com/gke-nodepool": pool}, Containers: []corev1.Container{{Name: "hub", Image: good}}}
	}
	for _, tt := range []struct {
		name string
		objs []*cluster.Object
		led  string // the kind of cause the change leads to
		why  string // in the link's reason; "" for no link, the led cause a root
	}{
		{"image could not be pulled", []*cluster.Object{rollout(t, 1, t1, good, "1Gi"), rollout(t, 2, t2, bad, "1Gi"),
			hubPod("hub-1-old", "hub-1", t1, good, "1Gi", running()), hubPod("hub-2-new", "hub-2", after, bad, "1Gi", pulling(bad))},
			analysis.ImageUnavailable, "the new image " + bad + " could not be pulled"},
		{"image does not start", []*cluster.Object{rollout(t, 1, t1, good, "1Gi"), rollout(t, 2, t2, bad, "1Gi"),
			hubPod("hub-2-new", "hub-2", after, bad, "1Gi", crashing(after.Add(time.Minute)))},
			analysis.ContainerStartFailure, "the new image " + bad + " does not start"},
		{"memory limit lowered", []*cluster.Object{rollout(t, 1, t1, good, "1Gi"), rollout(t, 2, t2, good, "1Mi"),
			hubPod("hub-2-new", "hub-2", after, good, "1Mi", oomKilled(after.Add(time.Minute)))},
			analysis.MemoryLimitTooLow, "OOM-killed at the memory limit the change set (1Mi, was 1Gi)"},
		{"CPU request cut", starving(), analysis.CPUStarvation, "cut the pods' CPU (requests.cpu: 500m → 10m)"},
		{"node selector moved", []*cluster.Object{rolloutSpec(t, 1, t1, selector("core")), rolloutSpec(t, 2, t2, selector("gpu")),
			unschedulable("hub-2-new", "hub-2", after, "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.")},
			analysis.SchedulingConstraints, "the new nodeSelector (cloud.google.com/gke-nodepool=gpu) is matched by no node"},
		{"the old pods could not pull either", []*cluster.Object{rollout(t, 1, t1, good, "1Gi"), rollout(t, 2, t2, bad, "1Gi"),
			hubPod("hub-1-old", "hub-1", t1, good, "1Gi", pulling(good)), hubPod("hub-2-new", "hub-2", after, bad, "1Gi", pulling(bad))},
			analysis.ImageUnavailable, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep := Run(cluster.NewModel(nil, tt.objs), analysis.Options{})
			x, _ := changeCause(t, rep)
			y, ok := causeOf(rep, tt.led)
			if !ok {
				t.Fatalf("no %s cause among %v", tt.led, causeKinds(rep))
			}
			if x.Role != analysis.Root {
				t.Errorf("the change is %s, want root", x.Role)
			}
			i := slices.IndexFunc(x.Links, func(l analysis.Link) bool { return l.To == y.ID })
			switch {
			case tt.why == "" && (i >= 0 || y.Role != analysis.Root):
				t.Errorf("%s is %s, linked from the change (%v), though it explains symptoms no change does", tt.led, y.Role, x.Links)
			case tt.why != "" && y.Role != analysis.Contributing:
				t.Errorf("%s is %s, want contributing under the change", tt.led, y.Role)
			case tt.why != "" && i < 0:
				t.Errorf("the change links to %v, not to %s (%s)", x.Links, y.ID, tt.led)
			case tt.why != "" && !strings.Contains(x.Links[i].Why, tt.why):
				t.Errorf("the link says %q, want %q in it", x.Links[i].Why, tt.why)
			}
			if rep.Causes[0].ID != x.ID && tt.why != "" {
				t.Errorf("the first cause is %s (%s), want the change", rep.Causes[0].ID, rep.Causes[0].Kind)
			}
			rootsReachAll(t, rep)
		})
	}
}
