package cluster

import (
	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
)

// The scheduler's filters for required placement, named as its plugins are: a Placement names
// the one that excluded a node.
const (
	RuleNodeAffinity    = "NodeAffinity"    // the pod's nodeSelector and required node affinity
	RuleTaintToleration = "TaintToleration" // the node's NoSchedule and NoExecute taints
)

// Placement says whether the scheduler's rules for required placement let a pod run on a node:
// the zero Placement lets it; otherwise Rule names the rule that excluded the node and, for
// RuleTaintToleration, Taint is the first taint the pod does not tolerate.
type Placement struct {
	Rule  string
	Taint corev1.Taint
}

// Allowed reports whether no rule excluded the node.
func (p Placement) Allowed() bool { return p.Rule == "" }

func placement(aff nodeaffinity.RequiredNodeAffinity, tolerations []corev1.Toleration, node *corev1.Node, taints func(*corev1.Taint) bool) Placement {
	// A selector the API server would have refused (an unknown operator) matches no node, as
	// in the scheduler, which ignores the error too.
	if ok, _ := aff.Match(node); !ok {
		return Placement{Rule: RuleNodeAffinity}
	}
	// Lt and Gt tolerations are compared as numbers (enableComparisonOperators): a pod that
	// carries them was accepted by an API server that has them on. The logger only hears of
	// values that are not numbers, which such a server refuses.
	if t, found := corev1helpers.FindMatchingUntoleratedTaint(logr.Discard(), node.Spec.Taints, tolerations, taints, true); found {
		return Placement{Rule: RuleTaintToleration, Taint: t}
	}
	return Placement{}
}

// schedulingTaint is the scheduler's TaintToleration filter: NoSchedule and NoExecute taints
// keep pods off; PreferNoSchedule ones only weigh in scoring.
func schedulingTaint(t *corev1.Taint) bool {
	return t.Effect == corev1.TaintEffectNoSchedule || t.Effect == corev1.TaintEffectNoExecute
}

// notReadyTaints are the taints the node lifecycle controller and the cloud provider put on
// nodes that are not ready yet or any more. They say nothing of which pool a pod belongs to.
var notReadyTaints = map[string]bool{
	corev1.TaintNodeNotReady:                         true,
	corev1.TaintNodeUnreachable:                      true,
	corev1.TaintNodeNetworkUnavailable:               true,
	"node.cloudprovider.kubernetes.io/uninitialized": true,
}

// poolTaint is schedulingTaint without the taints of nodes that are not ready.
func poolTaint(t *corev1.Taint) bool { return schedulingTaint(t) && !notReadyTaints[t.Key] }

// PoolFor returns the node pool (NodePool of the node's labels) that a pod's placement rules
// send it to: of the model's nodes that its nodeSelector and required node affinity match and
// whose taints it tolerates (ignoring those of nodes not ready, so that a pool whose nodes are
// all down is still the pod's pool), the pool most of them are in, by name on a tie. It is ""
// for a pod with neither a nodeSelector nor required node affinity, which any pool may take,
// and when no node is left.
func (m *Model) PoolFor(pod *Object) string {
	spec := pod.Pod.Spec
	if len(spec.NodeSelector) == 0 && (spec.Affinity == nil || spec.Affinity.NodeAffinity == nil ||
		spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil) {
		return ""
	}
	aff := pod.Pod.RequiredNodeAffinity()
	count := map[string]int{}
	for _, n := range m.Nodes {
		if placement(aff, spec.Tolerations, n.Node, poolTaint).Allowed() {
			pool, _ := NodePool(n.Node.Labels)
			count[pool]++
		}
	}
	best, most := "", 0
	for p, n := range count {
		if n > most || n == most && p < best {
			best, most = p, n
		}
	}
	return best
}
