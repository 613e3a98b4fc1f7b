package cluster

import (
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// PodState says in one line what matters of a pod's status for an incident: its phase and
// reason, whether it is scheduled (and where) and ready, its containers' restarts and why
// they wait or last stopped. Two states of a pod differ exactly when one of these changed, so
// the collector sends a pod only then, and the timeline shows the line.
func PodState(p *Pod) string {
	parts := []string{string(p.Status.Phase)}
	if p.Status.Phase == "" {
		parts[0] = "Unknown"
	}
	if p.Status.Reason != "" {
		parts[0] += " (" + p.Status.Reason + ")"
	}
	if p.DeletionTimestamp != nil {
		parts = append(parts, "terminating")
	}
	for _, c := range p.Status.Conditions {
		switch {
		case c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse:
			parts = append(parts, "unschedulable: "+firstLine(c.Message))
		case c.Type == corev1.PodReady:
			parts = append(parts, "ready "+strings.ToLower(string(c.Status)))
		case c.Type == corev1.DisruptionTarget && c.Status == corev1.ConditionTrue:
			parts = append(parts, "disruption target ("+c.Reason+")")
		}
	}
	if p.Spec.NodeName != "" {
		parts = append(parts, "on "+p.Spec.NodeName)
	}
	var restarts int32
	var why []string
	for _, list := range [][]ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses} {
		for _, cs := range list {
			restarts += cs.RestartCount
			switch {
			case cs.State.Waiting != nil && cs.State.Waiting.Reason != "":
				why = append(why, cs.Name+" waiting: "+cs.State.Waiting.Reason)
			case cs.State.Terminated != nil:
				why = append(why, fmt.Sprintf("%s terminated: %s (exit %d)", cs.Name, cs.State.Terminated.Reason, cs.State.Terminated.ExitCode))
			}
			if t := cs.LastTerminationState.Terminated; t != nil && t.Reason != "" {
				why = append(why, cs.Name+" last stopped: "+t.Reason)
			}
		}
	}
	if restarts > 0 {
		parts = append(parts, fmt.Sprintf("restarts %d", restarts))
	}
	return strings.Join(append(parts, why...), "; ")
}

// NodeState says in one line what matters of a node's status for an incident: readiness,
// the pressure conditions that hold, whether it is cordoned, and its taints.
func NodeState(n *corev1.Node) string {
	ready := "Ready unknown"
	var pressure []string
	for _, c := range n.Status.Conditions {
		switch {
		case c.Type == corev1.NodeReady:
			ready = "Ready " + strings.ToLower(string(c.Status))
			if c.Status != corev1.ConditionTrue && c.Reason != "" {
				ready += " (" + c.Reason + ")"
			}
		case c.Status == corev1.ConditionTrue && c.Type != corev1.NodeReady:
			pressure = append(pressure, string(c.Type))
		}
	}
	parts := []string{ready}
	sort.Strings(pressure)
	parts = append(parts, pressure...)
	if n.Spec.Unschedulable {
		parts = append(parts, "cordoned")
	}
	var taints []string
	for _, t := range n.Spec.Taints {
		taints = append(taints, t.Key+":"+string(t.Effect))
	}
	sort.Strings(taints)
	if len(taints) > 0 {
		parts = append(parts, "taints "+strings.Join(taints, ", "))
	}
	return strings.Join(parts, "; ")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
