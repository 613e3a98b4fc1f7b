package text

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// The text readers where a paste repeats itself: a node's describe pasted in pieces, a
// `kubectl get nodes` table printed twice under one command, and a table run on by the next
// command's output.

// parseObjects reads a paste as the readers do (at a fixed time) and returns what it holds.
func parseObjects(t *testing.T, paste string) []*cluster.Object {
	t.Helper()
	var objs []*cluster.Object
	_, err := Parse(context.Background(), "paste.txt", strings.NewReader(paste), time.Date(2025, 3, 3, 10, 20, 0, 0, time.UTC), func(o *cluster.Object) error {
		objs = append(objs, o)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

// TestDescribeNodePiecesMakeOneNode: a `kubectl describe node` pasted in pieces without its
// Name line (the condition row that worried someone, then, after a sentence, the node's
// Capacity and Allocatable) is one node, with the condition of the first piece and the
// capacity and allocatable of the second: what the capacity rule weighs requests against.
func TestDescribeNodePiecesMakeOneNode(t *testing.T) {
	paste := "The node shows memory pressure:\n\n" +
		"  MemoryPressure   True    Mon, 03 Mar 2025 10:14:02 +0000   Mon, 03 Mar 2025 09:58:40 +0000   KubeletHasInsufficientMemory   kubelet has insufficient memory available\n" +
		"\nthough its capacity is:\n\n" +
		"Capacity:\n" +
		"  cpu:                4\n" +
		"  ephemeral-storage:  101430960Ki\n" +
		"  memory:             16393540Ki\n" +
		"  pods:               110\n" +
		"Allocatable:\n" +
		"  cpu:                3920m\n" +
		"  ephemeral-storage:  93478772582\n" +
		"  memory:             13742916Ki\n" +
		"  pods:               110\n"
	var nodes []*corev1.Node
	for _, o := range parseObjects(t, paste) {
		if o.Kind == cluster.KindNode {
			nodes = append(nodes, o.Node)
		}
	}
	if len(nodes) != 1 {
		t.Fatalf("%d nodes read, want the pieces as one", len(nodes))
	}
	n := nodes[0]
	pressure := false
	for _, c := range n.Status.Conditions {
		pressure = pressure || c.Type == corev1.NodeMemoryPressure && c.Status == corev1.ConditionTrue
	}
	if !pressure {
		t.Errorf("the node lost the MemoryPressure row of the first piece: %+v", n.Status.Conditions)
	}
	for _, want := range []struct {
		what  string
		of    corev1.ResourceList
		name  corev1.ResourceName
		value string
	}{
		{"allocatable", n.Status.Allocatable, corev1.ResourceCPU, "3920m"},
		{"allocatable", n.Status.Allocatable, corev1.ResourceMemory, "13742916Ki"},
		{"capacity", n.Status.Capacity, corev1.ResourceMemory, "16393540Ki"},
	} {
		got, ok := want.of[want.name]
		if !ok || got.Cmp(resource.MustParse(want.value)) != 0 {
			t.Errorf("%s %s %v (read: %v), want %s", want.what, want.name, got.String(), ok, want.value)
		}
	}
}

// TestNodesTableReadPastARepeatedHeader: a `kubectl get nodes` printed twice under one command
// (a loop over two contexts) repeats its header: the nodes of both tables are read, and their
// state.
func TestNodesTableReadPastARepeatedHeader(t *testing.T) {
	paste := "$ for c in blue green; do kubectl --context $c get nodes; done\n" +
		"NAME     STATUS     ROLES    AGE   VERSION\n" +
		"blue-1   Ready      <none>   40d   v1.29.3\n" +
		"blue-2   NotReady   <none>   40d   v1.29.3\n" +
		"NAME      STATUS                     ROLES    AGE   VERSION\n" +
		"green-1   Ready,SchedulingDisabled   <none>   3d    v1.30.1\n"
	got := map[string]*corev1.Node{}
	for _, o := range parseObjects(t, paste) {
		if o.Kind == cluster.KindNode {
			got[o.Name] = o.Node
		}
	}
	for _, name := range []string{"blue-1", "blue-2", "green-1"} {
		if got[name] == nil {
			t.Errorf("node %s not read (read: %v)", name, slices.Sorted(maps.Keys(got)))
		}
	}
	if n := got["green-1"]; n != nil && !n.Spec.Unschedulable {
		t.Error("green-1, after the repeated header, lost its cordon")
	}
	if len(got) != 3 {
		t.Errorf("read nodes %v, want blue-1, blue-2 and green-1", slices.Sorted(maps.Keys(got)))
	}
}

// TestNodesTableEndsWhereTheNextTableStarts: a `kubectl get nodes` table run on by the
// next command's output (two commands on one prompt, no blank line between) ends at the other
// table's header: the events below it are read as the events table says them (their type and
// when they were seen), not swallowed as rows of nodes.
func TestNodesTableEndsWhereTheNextTableStarts(t *testing.T) {
	paste := "$ kubectl get nodes; kubectl get events --field-selector involvedObject.kind=Node\n" +
		"NAME     STATUS     ROLES    AGE   VERSION\n" +
		"node-a   Ready      <none>   12d   v1.29.3\n" +
		"node-b   NotReady   <none>   12d   v1.29.3\n" +
		"LAST SEEN   TYPE     REASON         OBJECT        MESSAGE\n" +
		"3m          Normal   NodeNotReady   node/node-b   Node node-b status is now: NodeNotReady\n"
	nodes, events := 0, 0
	for _, o := range parseObjects(t, paste) {
		switch o.Kind {
		case cluster.KindNode:
			nodes++
		case cluster.KindEvent:
			events++
			e := o.Event
			if e.Reason != "NodeNotReady" || e.InvolvedObject.Kind != "Node" || e.InvolvedObject.Name != "node-b" {
				t.Errorf("event %s of %s/%s, want NodeNotReady of Node node-b", e.Reason, e.InvolvedObject.Kind, e.InvolvedObject.Name)
			}
			// As its row says: a Normal event seen 3m before the paste (10:20), not only its
			// message recognised without its time.
			if at := time.Date(2025, 3, 3, 10, 17, 0, 0, time.UTC); e.Type != corev1.EventTypeNormal || !e.LastTimestamp.Time().Equal(at) {
				t.Errorf("event %s %s last seen %v, want the row's Normal at %v", e.Type, e.Reason, e.LastTimestamp.Time(), at)
			}
		}
	}
	if nodes != 2 || events != 1 {
		t.Errorf("%d nodes and %d events read, want 2 and 1", nodes, events)
	}
}
