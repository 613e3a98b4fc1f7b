package change

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// textsOnly compares changes as people read them (Field, Before, After); TestValues checks the
// values.
var textsOnly = cmpopts.IgnoreFields(Change{}, "Path", "Was", "Is")

// TestValues: each change carries its place and its before and after as values, the same as its
// text says: a container's limit as a quantity, a node's taints as taints, a cordon as a flag, a
// node gone with its pool, an object added as absent before.
func TestValues(t *testing.T) {
	byField := func(cs []Change) map[string]Change {
		out := map[string]Change{}
		for _, c := range cs {
			out[c.Field] = c
		}
		return out
	}
	qty := func(v Value) string {
		if v.Quantity == nil {
			return "none"
		}
		return v.Quantity.String()
	}

	before := raw(t, "Deployment", "prod", "hub", hub(nil))
	after := raw(t, "Deployment", "prod", "hub", hub(func(d *appsv1.Deployment) {
		c := &d.Spec.Template.Spec.Containers[0]
		c.Image = "jupyterhub/k8s-hub:4.0.0"
		c.Resources.Limits[corev1.ResourceMemory] = resource.MustParse("512Mi")
		c.Resources.Limits[corev1.ResourceCPU] = resource.MustParse("1")
	}))
	got := byField(Between(Reading{Objects: []*cluster.Object{before}}, Reading{Objects: []*cluster.Object{after}}))
	mem := got["spec.template.spec.containers[hub].resources.limits.memory"]
	if want := (Path{Attr: Limits, Template: true, Container: "hub", Resource: corev1.ResourceMemory}); mem.Path != want {
		t.Errorf("memory limit path = %+v, want %+v", mem.Path, want)
	}
	if qty(mem.Was) != "1Gi" || qty(mem.Is) != "512Mi" || !mem.Less() {
		t.Errorf("memory limit %s → %s (less %v), want 1Gi → 512Mi, less", qty(mem.Was), qty(mem.Is), mem.Less())
	}
	cpu := got["spec.template.spec.containers[hub].resources.limits.cpu"]
	if !cpu.Was.Absent || qty(cpu.Is) != "1" || !cpu.Less() || cpu.Path.Short() != "limits.cpu" {
		t.Errorf("cpu limit added: was %+v, is %s, less %v, short %q; want absent, 1, less, limits.cpu", cpu.Was, qty(cpu.Is), cpu.Less(), cpu.Path.Short())
	}
	if img := got["spec.template.spec.containers[hub].image"]; img.Path.Attr != Image || img.Path.Container != "hub" {
		t.Errorf("image path = %+v", img.Path)
	}

	was := node(nil)
	is := node(func(n *corev1.Node) {
		n.Spec.Unschedulable = true
		n.Spec.Taints = []corev1.Taint{{Key: "gpu", Value: "true", Effect: corev1.TaintEffectNoSchedule}}
	})
	got = byField(Between(Reading{Objects: []*cluster.Object{was}}, Reading{Objects: []*cluster.Object{is}}))
	if c := got["spec.unschedulable"]; c.Path.Attr != Unschedulable || c.Was.Set || !c.Is.Set {
		t.Errorf("cordon = %+v, was %+v, is %+v", c.Path, c.Was, c.Is)
	}
	taints := got["spec.taints"]
	if diff := cmp.Diff([]corev1.Taint{{Key: "gpu", Value: "true", Effect: corev1.TaintEffectNoSchedule}}, taints.GainedTaints()); diff != "" || taints.Path.Attr != Taints {
		t.Errorf("gained taints (-want +got):\n%s", diff)
	}

	gone := Between(Reading{Objects: []*cluster.Object{was}}, Reading{Objects: []*cluster.Object{node(func(n *corev1.Node) { n.Name = "core-2" })}})
	for _, c := range gone {
		if c.Name == "core-1" && (!c.Path.Object() || !c.Is.Absent || c.Was.Pool != "core") {
			t.Errorf("node gone: path %+v, was %+v, is %+v; want the object, absent, from pool core", c.Path, c.Was, c.Is)
		}
		if c.Name == "core-2" && (!c.Was.Absent || c.Is.Pool != "core") {
			t.Errorf("node added: was %+v, is %+v", c.Was, c.Is)
		}
	}
}
