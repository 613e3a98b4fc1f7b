package cluster

import (
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const mi = 1 << 20

// ctr is a container with requests and limits; sidecar makes it a restartable init container.
func ctr(name string, req, lim corev1.ResourceList, sidecar bool) corev1.Container {
	c := corev1.Container{Name: name, Resources: corev1.ResourceRequirements{Requests: req, Limits: lim}}
	if sidecar {
		always := corev1.ContainerRestartPolicyAlways
		c.RestartPolicy = &always
	}
	return c
}

// TestPodAmounts holds PodRequests and PodLimits to the scheduler's arithmetic, for the cases
// that a plain sum of the containers gets wrong.
func TestPodAmounts(t *testing.T) {
	tests := []struct {
		name           string
		spec           corev1.PodSpec
		status         corev1.PodStatus
		requests, lims Resources
	}{{
		name:     "containers add up",
		spec:     corev1.PodSpec{Containers: []corev1.Container{ctr("a", res("10m", "512Mi"), res("1", "1Gi"), false), ctr("b", res("100m", ""), res("", "256Mi"), false)}},
		requests: Resources{MilliCPU: 110, Memory: 512 * mi},
		lims:     Resources{MilliCPU: 1000, Memory: 1280 * mi},
	}, {
		name: "a regular init container larger than the containers' sum counts alone",
		spec: corev1.PodSpec{
			InitContainers: []corev1.Container{ctr("init", res("2", "64Mi"), res("3", ""), false)},
			Containers:     []corev1.Container{ctr("a", res("10m", "512Mi"), nil, false), ctr("b", res("100m", ""), nil, false)},
		},
		requests: Resources{MilliCPU: 2000, Memory: 512 * mi},
		lims:     Resources{MilliCPU: 3000},
	}, {
		name: "a sidecar init container runs beside the containers: it adds to them",
		spec: corev1.PodSpec{
			InitContainers: []corev1.Container{ctr("proxy", res("100m", "128Mi"), res("", "128Mi"), true)},
			Containers:     []corev1.Container{ctr("app", res("200m", "256Mi"), res("", "512Mi"), false)},
		},
		requests: Resources{MilliCPU: 300, Memory: 384 * mi},
		lims:     Resources{Memory: 640 * mi},
	}, {
		name: "a regular init container after a sidecar runs beside it",
		spec: corev1.PodSpec{
			InitContainers: []corev1.Container{ctr("proxy", res("100m", "128Mi"), nil, true), ctr("migrate", res("1", "64Mi"), nil, false)},
			Containers:     []corev1.Container{ctr("app", res("200m", "256Mi"), nil, false)},
		},
		// migrate runs with proxy: 1100m; the containers run with proxy: 300m and 384Mi.
		requests: Resources{MilliCPU: 1100, Memory: 384 * mi},
	}, {
		name: "a regular init container before a sidecar runs alone",
		spec: corev1.PodSpec{
			InitContainers: []corev1.Container{ctr("migrate", res("1", "64Mi"), nil, false), ctr("proxy", res("100m", "128Mi"), nil, true)},
			Containers:     []corev1.Container{ctr("app", res("200m", "256Mi"), nil, false)},
		},
		requests: Resources{MilliCPU: 1000, Memory: 384 * mi},
	}, {
		name: "pod overhead adds to requests, and to limits only where they are set",
		spec: corev1.PodSpec{
			Containers: []corev1.Container{ctr("app", res("100m", "128Mi"), res("", "1Gi"), false)},
			Overhead:   res("250m", "120Mi"),
		},
		requests: Resources{MilliCPU: 350, Memory: 248 * mi},
		lims:     Resources{Memory: 1144 * mi},
	}, {
		name: "pod-level resources replace the containers' where set",
		spec: corev1.PodSpec{
			Resources:  &corev1.ResourceRequirements{Requests: res("2", ""), Limits: res("4", "8Gi")},
			Containers: []corev1.Container{ctr("app", res("500m", "1Gi"), nil, false), ctr("log", res("100m", "64Mi"), nil, false)},
		},
		requests: Resources{MilliCPU: 2000, Memory: 1088 * mi},
		lims:     Resources{MilliCPU: 4000, Memory: 8192 * mi},
	}, {
		name: "pod-level resources and overhead",
		spec: corev1.PodSpec{
			Resources:  &corev1.ResourceRequirements{Requests: res("1", "2Gi")},
			Containers: []corev1.Container{ctr("app", res("500m", "1Gi"), nil, false)},
			Overhead:   res("100m", "100Mi"),
		},
		requests: Resources{MilliCPU: 1100, Memory: 2148 * mi},
	}, {
		// The scheduler would count 2 CPU (podResourceOptions says why Rootline does not).
		name: "a pod being resized in place counts by its spec",
		spec: corev1.PodSpec{Containers: []corev1.Container{ctr("app", res("500m", "1Gi"), nil, false)}},
		status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{{Name: "app",
			AllocatedResources: res("2", "512Mi"), Resources: &corev1.ResourceRequirements{Requests: res("2", "512Mi")}}}},
		requests: Resources{MilliCPU: 500, Memory: 1024 * mi},
	}, {
		name:     "nothing requested",
		spec:     corev1.PodSpec{Containers: []corev1.Container{ctr("app", nil, nil, false)}},
		requests: Resources{},
	}}
	var all []*Object
	for i, tt := range tests {
		name := fmt.Sprintf("p%d", i)
		p := &Object{Kind: KindPod, Namespace: "ns", Name: name, Pod: PodOf(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns"}, Spec: tt.spec, Status: tt.status})}
		all = append(all, p)
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.requests, PodRequests(p.Pod)); diff != "" {
				t.Errorf("PodRequests (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.lims, PodLimits(p.Pod)); diff != "" {
				t.Errorf("PodLimits (-want +got):\n%s", diff)
			}
			// The model works them out once, as it takes the pod in, and answers the same.
			m := NewModel(nil, []*Object{p})
			if got := m.PodRequests(p); got != tt.requests {
				t.Errorf("Model.PodRequests = %+v, want %+v", got, tt.requests)
			}
			if got := m.PodLimits(p); got != tt.lims {
				t.Errorf("Model.PodLimits = %+v, want %+v", got, tt.lims)
			}
		})
	}
	// One model of them all: what Add sums for one pod never leaks into the next.
	m := NewModel(nil, all)
	for i, tt := range tests {
		if got := m.PodRequests(all[i]); got != tt.requests {
			t.Errorf("%s: in one model, Model.PodRequests = %+v, want %+v", tt.name, got, tt.requests)
		}
		if got := m.PodLimits(all[i]); got != tt.lims {
			t.Errorf("%s: in one model, Model.PodLimits = %+v, want %+v", tt.name, got, tt.lims)
		}
	}
}

// TestModelAmountsFollowReplacement: when a later sighting of a pod replaces the earlier, the
// model forgets the earlier's amounts and a node's load counts the later's, sidecar included.
func TestModelAmountsFollowReplacement(t *testing.T) {
	node := &Object{Kind: KindNode, Name: "n1", Node: &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"},
		Status: corev1.NodeStatus{Allocatable: res("4", "8Gi")}}}
	first := pod("web-1", "n1", res("1", "1Gi"), nil)
	second := pod("web-1", "n1", res("1", "1Gi"), nil)
	second.Pod.Spec.InitContainers = containersOf([]corev1.Container{ctr("proxy", res("500m", "256Mi"), nil, true)})
	m := NewModel(nil, []*Object{node, first, second})
	if _, kept := m.amounts[first]; kept || len(m.amounts) != 1 {
		t.Errorf("amounts kept for %d pods (the replaced one: %v), want only the later", len(m.amounts), kept)
	}
	want := Resources{MilliCPU: 1500, Memory: 1280 * mi}
	if diff := cmp.Diff(want, m.Load(node).Requests); diff != "" {
		t.Errorf("load requests (-want +got):\n%s", diff)
	}
}

// TestPodRequestsConcurrently: the lists the library sums into are never shared by two calls
// at once (run with -race to see it).
func TestPodRequestsConcurrently(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			p := pod("p", "", res(fmt.Sprintf("%dm", g+1), fmt.Sprintf("%dMi", g+1)), res("", fmt.Sprintf("%dMi", 2*(g+1)))).Pod
			want := amounts{requests: Resources{MilliCPU: int64(g + 1), Memory: int64(g+1) * mi}, limits: Resources{Memory: int64(2*(g+1)) * mi}}
			for range 200 {
				if got := (amounts{PodRequests(p), PodLimits(p)}); got != want {
					t.Errorf("goroutine %d: %+v, want %+v", g, got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestModelReadConcurrently: the server reads one model from many requests at once (the
// pictures ask for the loads of the nodes involved), and the first Load of a node or PodsOn
// fills the model's indexes; run with -race to see that they do so one at a time.
func TestModelReadConcurrently(t *testing.T) {
	var objs []*Object
	for i := range 8 {
		name := fmt.Sprintf("n%d", i)
		objs = append(objs, &Object{Kind: KindNode, Name: name, Node: &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name},
			Status: corev1.NodeStatus{Allocatable: res("4", "8Gi")}}}, pod("p"+name, name, res("1", "1Gi"), nil))
	}
	m := NewModel(nil, objs)
	var wg sync.WaitGroup
	for _, n := range m.Nodes {
		wg.Go(func() {
			if l := m.Load(n); len(l.Pods) != 1 || l.Requests.MilliCPU != 1000 {
				t.Errorf("load of %s: %d pods, %dm CPU; want 1 pod, 1000m", n.Name, len(l.Pods), l.Requests.MilliCPU)
			}
		})
		wg.Go(func() {
			if got := m.PodsOn(n.Name); len(got) != 1 {
				t.Errorf("PodsOn(%s) = %d pods, want 1", n.Name, len(got))
			}
		})
	}
	wg.Wait()
}

// TestModelAmountsOfSharedContainers: pods that share a list of containers (the decoder's
// interner gives the pods of one template one list) are worked out once, yet each pod's
// amounts stay its own where something else of it counts: its init containers, its overhead,
// its pod-level resources.
func TestModelAmountsOfSharedContainers(t *testing.T) {
	shared := pod("web-0", "n1", res("1", "1Gi"), res("2", "2Gi")).Pod.Spec.Containers
	sidecars := containersOf([]corev1.Container{ctr("proxy", res("500m", "256Mi"), res("500m", "256Mi"), true)})
	withInit := containersOf([]corev1.Container{ctr("setup", res("4", "4Gi"), nil, false)})
	podLevel := &corev1.ResourceRequirements{Requests: res("3", "3Gi"), Limits: res("3", "3Gi")}
	specs := map[string]func(*PodSpec){
		"plain":        func(*PodSpec) {},
		"plain-2":      func(*PodSpec) {},
		"sidecar":      func(s *PodSpec) { s.InitContainers = sidecars },
		"sidecar-2":    func(s *PodSpec) { s.InitContainers = sidecars },
		"other-init":   func(s *PodSpec) { s.InitContainers = withInit },
		"fewer":        func(s *PodSpec) { s.Containers = s.Containers[:0] },
		"overhead":     func(s *PodSpec) { s.Overhead = res("250m", "128Mi") },
		"pod-level":    func(s *PodSpec) { s.Resources = podLevel },
		"plain-3":      func(*PodSpec) {},
		"overhead-two": func(s *PodSpec) { s.Overhead = res("100m", "64Mi") },
	}
	var objs []*Object
	for name, set := range specs {
		o := pod(name, "n1", nil, nil)
		o.Pod.Spec.Containers = shared
		set(&o.Pod.Spec)
		objs = append(objs, o)
	}
	m := NewModel(nil, objs)
	for _, o := range objs {
		if got, want := m.PodRequests(o), PodRequests(o.Pod); got != want {
			t.Errorf("%s: requests %+v, want %+v", o.Name, got, want)
		}
		if got, want := m.PodLimits(o), PodLimits(o.Pod); got != want {
			t.Errorf("%s: limits %+v, want %+v", o.Name, got, want)
		}
	}
	// Worked out once: the model's allocations for many pods of one template are about those
	// of one pod's amounts, not those of each pod's.
	many := make([]*Object, 200)
	for i := range many {
		many[i] = pod(fmt.Sprintf("web-%d", i), "n1", nil, nil)
		many[i].Pod.Spec.Containers = shared
	}
	one := testing.AllocsPerRun(5, func() { _, _ = PodRequests(many[0].Pod), PodLimits(many[0].Pod) })
	model := testing.AllocsPerRun(5, func() { NewModel(nil, many) })
	if model > 20*one {
		t.Errorf("NewModel of 200 pods of one template made %.0f allocations; one pod's amounts make %.0f", model, one)
	}
}
