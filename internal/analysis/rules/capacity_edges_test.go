package rules

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// The capacity rule at the edges of what it reads: the autoscaler's word with no pod short of
// capacity, node metrics of a node whose allocatable CPU is unknown, and a pool short of
// exactly one node. (Their confidences are checked here whatever they are: the table of
// TestCapacityRule takes 0 for "not checked".)

// TestCapacityAutoscalerLimitWeighsOnlyWithPodsShort: the autoscaler saying it could add no
// nodes makes the capacity cause surer only when pods were pending for lack of capacity. With
// the only pending pod waiting on a node selector (a scheduling constraint, not capacity), the
// cause stands on the eviction from a full node alone: 0.4, 0.1 for the full node, 0.15 for
// nodes seen; the autoscaler is neither a part of it nor cited.
func TestCapacityAutoscalerLimitWeighsOnlyWithPodsShort(t *testing.T) {
	atMax := "$ kubectl get events -n prod\nLAST SEEN   TYPE     REASON              OBJECT         MESSAGE\n" +
		"2m          Normal   NotTriggerScaleUp   pod/report-0   pod didn't trigger scale-up: 1 max node group size reached\n"
	onSelector := pendingPod("report-0", "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.")
	rep := Run(model(t, coreNode(8100), evictedWeb, onSelector, atMax), analysis.Options{})
	c := mustCause(t, rep, analysis.CapacityExhaustion)
	if math.Abs(c.Confidence-0.65) > 1e-9 {
		t.Errorf("confidence %.2f, want 0.65: the autoscaler's limit weighed with no pod short of capacity", c.Confidence)
	}
	if got := explained(rep, c); slices.Contains(got, "pod_pending prod/report-0") {
		t.Errorf("the cause explains the pod pending on its node selector: %v", got)
	}
	if strings.Contains(c.Summary, "autoscaler") || slices.ContainsFunc(c.Components, func(p analysis.Component) bool { return p.Kind == cluster.ComponentAutoscaler }) {
		t.Errorf("the autoscaler is part of a cause no pending pod is in: %q, %v", c.Summary, c.Components)
	}
	if _, ok := causeOf(rep, analysis.SchedulingConstraints); !ok {
		t.Errorf("the pod pending on its node selector has no scheduling_constraints cause: %v", causeKinds(rep))
	}
}

// TestCapacityNodeUseWantsItsAllocatable: a full node's CPU in use is cited against its
// allocatable CPU; when the input does not hold that (the node's status.allocatable has memory
// but no cpu), the memory in use is still cited, and the CPU is not, rather than as a share of
// nothing.
func TestCapacityNodeUseWantsItsAllocatable(t *testing.T) {
	m := loadDir(t, filepath.Join("..", "testdata", "il0070", "evicted"), time.Time{})
	for _, n := range m.Nodes {
		delete(n.Node.Status.Allocatable, corev1.ResourceCPU)
	}
	node := map[string]string{"instance": "10.128.0.2:9100", "job": "node-exporter"}
	objs := slices.Concat(m.Pods, m.Nodes, m.Events, m.Others,
		seriesOf(t, "node_memory", node, func(int) float64 { return 27 << 30 }),
		seriesOf(t, "node_cpu", node, func(int) float64 { return 3.5 }))
	c := mustCause(t, Run(cluster.NewModel(m.Files, objs), analysis.Options{}), analysis.CapacityExhaustion)
	if !cites(c, "Metric node_memory", "node gke-leap-core-pool-b3f2e0a1-c7eo had 27Gi of memory in use") {
		t.Errorf("the node's memory in use is not cited: %+v", c.Evidence)
	}
	for _, e := range c.Evidence {
		if strings.HasPrefix(e.Ref, "Metric node_cpu") {
			t.Errorf("the CPU in use of a node of unknown allocatable CPU is cited: %q", e.Value)
		}
	}
}

// TestCapacitySuggestsOneNodeWhenOneIsShort: a pool short of less than one node's CPU (a pod
// asking 2 CPU where core-1, 4 CPU, had 0.9 free) is told to add one node like core-1; short of
// 5.1 CPU (three such pods), two.
func TestCapacitySuggestsOneNodeWhenOneIsShort(t *testing.T) {
	rep := Run(model(t, coreNode(5000), pendingPod("report-0", "0/3 nodes are available: 3 Insufficient cpu.")), analysis.Options{})
	c := mustCause(t, rep, analysis.CapacityExhaustion)
	if !strings.Contains(c.Summary, "pool core lacked 1.1 CPU for 1 pending pods") {
		t.Fatalf("summary %q, want the pool's shortfall of 1.1 CPU", c.Summary)
	}
	if len(c.Suggestions) != 1 {
		t.Fatalf("%d suggestions, want one to add a node: %+v", len(c.Suggestions), c.Suggestions)
	}
	sg := c.Suggestions[0]
	if sg.Action != analysis.ActionAddNodes || sg.Nodes != 1 || !strings.Contains(sg.Change, "pool core needed 1 more node(s) like core-1, with 4 CPU") ||
		!slices.Equal(sg.Targets, []analysis.ObjectRef{{Kind: cluster.ComponentNodePool, Name: "core"}}) {
		t.Errorf("suggestion %+v, want to add 1 node like core-1 to pool core", sg)
	}

	insufficient := "0/3 nodes are available: 3 Insufficient cpu."
	rep = Run(model(t, coreNode(5000), pendingPod("report-0", insufficient), pendingPod("report-1", insufficient), pendingPod("report-2", insufficient)), analysis.Options{})
	if c := mustCause(t, rep, analysis.CapacityExhaustion); len(c.Suggestions) != 1 || c.Suggestions[0].Nodes != 2 {
		t.Errorf("three pods of 2 CPU, 0.9 free: suggestions %+v, want one to add 2 nodes", c.Suggestions)
	}
}
