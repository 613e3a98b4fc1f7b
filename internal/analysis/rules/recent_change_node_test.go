package rules

import (
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/change"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// nodeChanges are the changes between two readings of pool core's nodes core-1 and core-2,
// the earlier at t1, the later at t2: the later's core-2 as change makes it (nil: core-2 went).
func nodeChanges(t1, t2 time.Time, change2 func(n *corev1.Node)) ([]change.Change, []*cluster.Object) {
	before := []*cluster.Object{poolNode("core-1", "core", "4", "16Gi"), poolNode("core-2", "core", "4", "16Gi")}
	after := []*cluster.Object{poolNode("core-1", "core", "4", "16Gi")}
	if change2 != nil {
		n := poolNode("core-2", "core", "4", "16Gi")
		change2(n.Node)
		after = append(after, n)
	}
	return change.Between(change.Reading{Objects: before, At: t1}, change.Reading{Objects: after, At: t2}), after
}

// waiting is pod prod/name pending since at with the scheduler's message, its node selector
// sending it to pool (none for "").
func waiting(name string, at time.Time, pool, msg string) *cluster.Object {
	o := unschedulable(name, "hub-2", at, msg)
	if pool != "" {
		o.Pod.Spec.NodeSelector = map[string]string{"cloud.google.com/gke-nodepool": pool}
	}
	return o
}

// ownedBy makes a pod one of ReplicaSet rs (pods pending of one owner are one symptom).
func ownedBy(o *cluster.Object, rs string) *cluster.Object {
	o.Pod.OwnerReferences[0].Name = rs
	return o
}

// evictedOff is pod prod/name, evicted from node at for reason (a DisruptionTarget reason:
// EvictionByEvictionAPI for a drain, DeletionByTaintManager for a NoExecute taint), tolerating
// the tolerations given.
func evictedOff(name, node string, at time.Time, reason string, tolerations ...corev1.Toleration) *cluster.Object {
	o := hubPod(name, "hub-2", at.Add(-time.Hour), "jupyterhub/k8s-hub:3.0.0", "1Gi", running())
	o.Pod.Spec.NodeName, o.Pod.Spec.Tolerations = node, tolerations
	o.Pod.Status = cluster.PodStatus{Phase: corev1.PodFailed, Conditions: []cluster.PodCondition{{Type: corev1.DisruptionTarget,
		Status: corev1.ConditionTrue, Reason: reason, Message: "evicted", LastTransitionTime: cluster.InstantOf(at)}}}
	return o
}

// TestRecentChangeNodes: a node cordoned, tainted or removed, between two readings, is the
// recent_change of the pods that then could not be placed for that reason (the scheduler's
// message says it, and the pod could have run on the node or in its pool), and of the pods on
// it evicted by it; not of pods pending or evicted for other reasons, nor of pods that tolerate
// the taint; a taint the node's condition put on it is not a change. Where the scheduler's own
// cause (scheduling_constraints, capacity_exhaustion) explains the same pods, the change leads
// to it.
func TestRecentChangeNodes(t *testing.T) {
	t1, t2 := time.Date(2023, 2, 1, 10, 0, 0, 0, time.UTC), time.Date(2023, 2, 1, 16, 50, 0, 0, time.UTC)
	after := t2.Add(time.Minute)
	cordon := func(n *corev1.Node) { n.Spec.Unschedulable = true }
	taint := func(key, value string, effect corev1.TaintEffect) func(n *corev1.Node) {
		return func(n *corev1.Node) {
			n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: key, Value: value, Effect: effect})
		}
	}
	const cordoned = "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod."
	for _, tt := range []struct {
		name     string
		change2  func(n *corev1.Node) // nil: core-2 went
		objs     []*cluster.Object
		field    string   // of the change cited; "" for no recent_change
		explains []string // the symptoms it explains, as symptomLabel gives them, sorted
		against  bool     // something speaks against it
		led      string   // a cause the change leads to, "" for none
		why      string   // the link's reason
	}{
		{name: "cordoned", change2: cordon, objs: []*cluster.Object{waiting("hub-2-a", after, "", cordoned)},
			field: "spec.unschedulable", explains: []string{"pod_pending prod/hub-2-a"},
			led: analysis.CapacityExhaustion, why: "node core-2 was cordoned, and the nodes left had no room"},
		{name: "cordoned, and a pod pending since before", change2: cordon,
			objs:  []*cluster.Object{waiting("hub-2-a", after, "", cordoned), ownedBy(waiting("web-1-b", t1.Add(-time.Hour), "", cordoned), "web-1")},
			field: "spec.unschedulable", explains: []string{"pod_pending prod/hub-2-a"}, against: true},
		{name: "cordoned, a pod pending for CPU alone", change2: cordon,
			objs: []*cluster.Object{waiting("hub-2-a", after, "", "0/2 nodes are available: 2 Insufficient cpu.")}},
		{name: "cordoned, a pod pending that may not run there", change2: cordon,
			objs: []*cluster.Object{waiting("hub-2-a", after, "gpu", cordoned)}},
		{name: "drained", change2: cordon, objs: []*cluster.Object{evictedOff("hub-2-a", "core-2", after, "EvictionByEvictionAPI")},
			field: "spec.unschedulable", explains: []string{"pod_evicted prod/hub-2-a"}},
		{name: "drained elsewhere", change2: cordon, objs: []*cluster.Object{evictedOff("hub-2-a", "core-1", after, "EvictionByEvictionAPI")}},
		{name: "tainted", change2: taint("dedicated", "gpu", corev1.TaintEffectNoSchedule),
			objs:  []*cluster.Object{waiting("hub-2-a", after, "core", "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {dedicated: gpu}.")},
			field: "spec.taints", explains: []string{"pod_pending prod/hub-2-a"}},
		{name: "tainted, where the pods may run no more", change2: taint("dedicated", "gpu", corev1.TaintEffectNoSchedule),
			objs:  []*cluster.Object{waiting("hub-2-a", after, "core", "0/2 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) had untolerated taint {team: data}.")},
			field: "spec.taints", explains: []string{"pod_pending prod/hub-2-a"},
			led: analysis.SchedulingConstraints, why: "node core-2 gained the taint dedicated=gpu:NoSchedule, which the pods do not tolerate"},
		{name: "tainted, a pod pending for another taint", change2: taint("dedicated", "gpu", corev1.TaintEffectNoSchedule),
			objs: []*cluster.Object{waiting("hub-2-a", after, "core", "0/2 nodes are available: 2 node(s) had untolerated taint {team: data}.")}},
		{name: "tainted PreferNoSchedule", change2: taint("dedicated", "gpu", corev1.TaintEffectPreferNoSchedule),
			objs: []*cluster.Object{waiting("hub-2-a", after, "core", "0/2 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}.")}},
		{name: "tainted NoExecute", change2: taint("dedicated", "gpu", corev1.TaintEffectNoExecute),
			objs:  []*cluster.Object{evictedOff("hub-2-a", "core-2", after, "DeletionByTaintManager")},
			field: "spec.taints", explains: []string{"pod_evicted prod/hub-2-a"}},
		{name: "tainted NoExecute, the pod tolerating it", change2: taint("dedicated", "gpu", corev1.TaintEffectNoExecute),
			objs: []*cluster.Object{evictedOff("hub-2-a", "core-2", after, "DeletionByTaintManager",
				corev1.Toleration{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "gpu", Effect: corev1.TaintEffectNoExecute})}},
		{name: "not ready: the node's condition, not a change", change2: taint(corev1.TaintNodeNotReady, "", corev1.TaintEffectNoExecute),
			objs: []*cluster.Object{evictedOff("hub-2-a", "core-2", after, "DeletionByTaintManager")}},
		{name: "removed", objs: []*cluster.Object{waiting("hub-2-a", after, "core", "0/1 nodes are available: 1 Insufficient memory.")},
			field: "", explains: []string{"pod_pending prod/hub-2-a"},
			led: analysis.CapacityExhaustion, why: "node core-2 went (it was in pool core), and what was left had no room"},
		{name: "removed, a pod on it evicted", objs: []*cluster.Object{evictedOff("hub-2-a", "core-2", after, "DeletionByTaintManager")},
			field: "", explains: []string{"pod_evicted prod/hub-2-a"}},
		{name: "removed, a pod on another node evicted", objs: []*cluster.Object{evictedOff("hub-2-a", "core-1", after, "DeletionByTaintManager")}},
		{name: "removed, a pod waiting for another pool", objs: []*cluster.Object{waiting("hub-2-a", after, "gpu", "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 Insufficient memory.")}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			changes, nodes := nodeChanges(t1, t2, tt.change2)
			rep := Run(cluster.NewModel(nil, append(nodes, tt.objs...)), analysis.Options{Changes: changes})
			var found []analysis.Cause
			for _, c := range rep.Causes {
				if c.Kind == analysis.RecentChange {
					found = append(found, c)
				}
			}
			if tt.explains == nil {
				for _, c := range found {
					t.Errorf("a recent_change where none fits: %s", c.Summary)
				}
				return
			}
			if len(found) != 1 {
				t.Fatalf("%d recent_change causes, want 1; causes %v, symptoms %q", len(found), causeKinds(rep), sortedLabels(rep.Symptoms))
			}
			c := found[0]
			ev := c.Evidence[0]
			if ev.Ref != "Node core-2" || ev.Field != tt.field {
				t.Errorf("the change cited is %+v; want node core-2's %q", ev, tt.field)
			}
			if got := explained(rep, c); !slices.Equal(got, tt.explains) {
				t.Errorf("explains %q; want %q", got, tt.explains)
			}
			if a := len(c.Against) > 0 && strings.Contains(c.Against[0].Value, "began before the change"); a != tt.against || tt.against && c.Confidence > 0.4 {
				t.Errorf("against %+v at %.2f; want something against it: %v", c.Against, c.Confidence, tt.against)
			}
			if tt.led != "" {
				y, ok := causeOf(rep, tt.led)
				i := slices.IndexFunc(c.Links, func(l analysis.Link) bool { return l.To == y.ID })
				if !ok || i < 0 || y.Role != analysis.Contributing || !strings.Contains(c.Links[i].Why, tt.why) {
					t.Errorf("the change links %+v, and %s is %s (found %v); want a contributing %s linked because %q", c.Links, y.ID, y.Role, ok, tt.led, tt.why)
				}
			}
			rootsReachAll(t, rep)
		})
	}
}

// TestRecentChangePoolGone: the last node of pool gpu went, then a pod whose node selector names
// that pool could not be scheduled, no node left matching it: the node's going is its
// recent_change. A pod whose selector names a pool that still has nodes is not.
func TestRecentChangePoolGone(t *testing.T) {
	t1, t2 := time.Date(2023, 2, 1, 10, 0, 0, 0, time.UTC), time.Date(2023, 2, 1, 16, 50, 0, 0, time.UTC)
	core := poolNode("core-1", "core", "4", "16Gi")
	changes := change.Between(change.Reading{Objects: []*cluster.Object{core, poolNode("gpu-1", "gpu", "8", "64Gi")}, At: t1},
		change.Reading{Objects: []*cluster.Object{core}, At: t2})
	const noMatch = "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
	for _, tt := range []struct {
		pool     string
		explains []string
	}{{"gpu", []string{"pod_pending prod/hub-2-a"}}, {"core", nil}} {
		t.Run(tt.pool, func(t *testing.T) {
			rep := Run(cluster.NewModel(nil, []*cluster.Object{core, waiting("hub-2-a", t2.Add(time.Minute), tt.pool, noMatch)}), analysis.Options{Changes: changes})
			var got []string
			for _, c := range rep.Causes {
				if c.Kind == analysis.RecentChange {
					got = append(got, c.Evidence[0].Ref+": "+strings.Join(explained(rep, c), ", "))
				}
			}
			var want []string
			if tt.explains != nil {
				want = []string{"Node gpu-1: " + strings.Join(tt.explains, ", ")}
			}
			if !slices.Equal(got, want) {
				t.Errorf("recent_change causes %q; want %q", got, want)
			}
		})
	}
}
