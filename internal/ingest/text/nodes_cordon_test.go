package text

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// TestNodesTableReadsTheCordon: in a pasted `kubectl get nodes`, SchedulingDisabled is the
// cordon (spec.unschedulable) whatever the Ready state beside it, and STATUS gives the Ready
// condition (with where it was read when not Ready); ROLES become role labels and the kubelet version is kept.
func TestNodesTableReadsTheCordon(t *testing.T) {
	paste := "NAME     STATUS                        ROLES           AGE   VERSION\n" +
		"node-a   Ready                         control-plane   7d    v1.29.3\n" +
		"node-b   Ready,SchedulingDisabled      <none>          41d   v1.29.3\n" +
		"node-c   NotReady,SchedulingDisabled   worker          41d   v1.28.1\n" +
		"node-d   Unknown                       worker          2d    v1.28.1\n"
	nodes := map[string]*corev1.Node{}
	_, err := Parse(context.Background(), "nodes.txt", strings.NewReader(paste), time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC), func(o *cluster.Object) error {
		if n, ok := o.Typed().(*corev1.Node); ok {
			nodes[n.Name] = n
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct {
		name     string
		cordoned bool
		ready    corev1.ConditionStatus
		role     string
		version  string
	}{
		{"node-a", false, corev1.ConditionTrue, "control-plane", "v1.29.3"},
		{"node-b", true, corev1.ConditionTrue, "", "v1.29.3"},
		{"node-c", true, corev1.ConditionFalse, "worker", "v1.28.1"},
		{"node-d", false, corev1.ConditionUnknown, "worker", "v1.28.1"},
	} {
		n := nodes[want.name]
		if n == nil {
			t.Errorf("%s: not read", want.name)
			continue
		}
		if n.Spec.Unschedulable != want.cordoned {
			t.Errorf("%s: cordoned %v, want %v", want.name, n.Spec.Unschedulable, want.cordoned)
		}
		var ready corev1.ConditionStatus
		for _, c := range n.Status.Conditions {
			if c.Type == corev1.NodeReady {
				ready = c.Status
			}
		}
		if ready != want.ready {
			t.Errorf("%s: Ready %q, want %q", want.name, ready, want.ready)
		}
		// A node not Ready says where that was read; a Ready one has nothing to say.
		if msg := n.Status.Conditions[0].Message; (ready == corev1.ConditionTrue) != (msg == "") {
			t.Errorf("%s: Ready %s with message %q", want.name, ready, msg)
		}
		if _, ok := n.Labels["node-role.kubernetes.io/"+want.role]; want.role != "" && !ok {
			t.Errorf("%s: labels %v, want the role %s", want.name, n.Labels, want.role)
		}
		if want.role == "" && len(n.Labels) != 0 {
			t.Errorf("%s: labels %v, want none for <none>", want.name, n.Labels)
		}
		if n.Status.NodeInfo.KubeletVersion != want.version {
			t.Errorf("%s: kubelet %q, want %q", want.name, n.Status.NodeInfo.KubeletVersion, want.version)
		}
	}
}
