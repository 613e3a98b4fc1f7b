package cluster

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
)

// Test-only helpers: no production path calls them.

// PodPlacement applies the scheduler's own rules for required placement
// (k8s.io/component-helpers): the pod's nodeSelector and required node affinity must match the
// node's labels (and name, for matchFields), and the pod must tolerate each of the node's
// NoSchedule and NoExecute taints. Preferences, resources, ports and volumes are not looked at.
func PodPlacement(pod *corev1.Pod, node *corev1.Node) Placement {
	return placement(nodeaffinity.GetRequiredNodeAffinity(pod), pod.Spec.Tolerations, node, schedulingTaint)
}

// String says why the node was excluded, in the words of the scheduler's FailedScheduling
// messages; "" when it was not.
func (p Placement) String() string {
	switch p.Rule {
	case RuleNodeAffinity:
		return "node didn't match Pod's node affinity/selector"
	case RuleTaintToleration:
		return "node had untolerated taint " + p.Taint.ToString()
	}
	return ""
}
