package analysis

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// nodeNotReadyRule finds nodes whose Ready condition is False or Unknown, and NodeNotReady
// events, one symptom per node pool: a burst of new nodes not yet ready is one fact.
type nodeNotReadyRule struct{}

func (nodeNotReadyRule) Name() string { return "node-not-ready" }

func (nodeNotReadyRule) Symptoms(in Input) []Symptom {
	m := in.Model
	byPool := map[string]*Symptom{}
	seen := map[string]bool{}
	get := func(pool string) *Symptom {
		if s, ok := byPool[pool]; ok {
			return s
		}
		s := &Symptom{Kind: NodeNotReady, Details: Details{NotReadyDetails: NotReadyDetails{Pool: pool}}}
		byPool[pool] = s
		return s
	}
	for _, o := range m.Nodes {
		n := o.Node
		if cluster.NodeCondition(n, corev1.NodeReady) == "" {
			// No Ready condition in the paste (a describe cut short): the node lifecycle
			// controller's taints still tell a node that stopped being ready.
			for _, t := range n.Spec.Taints {
				if !notReadyTaintKeys[t.Key] && !wordSign(t.Key, NodeNotReady) {
					continue
				}
				pool, _ := cluster.NodePool(n.Labels)
				s := get(pool)
				s.Objects = append(s.Objects, ref(o))
				s.Evidence = append(s.Evidence, cite(o, "spec.taints", t.ToString()))
				if t.TimeAdded != nil {
					s.At = earliest(s.At, timePtr(t.TimeAdded.Time))
				}
				seen[n.Name] = true
				break
			}
			// Or its other conditions: the node lifecycle controller sets every condition of
			// a node whose kubelet went silent to Unknown at once, Ready with them, each with
			// "Kubelet stopped posting node status.".
			for _, c := range n.Status.Conditions {
				if seen[n.Name] || c.Status != corev1.ConditionUnknown || in.statusSign(c.Message, NodeNotReady) == nil {
					continue
				}
				pool, _ := cluster.NodePool(n.Labels)
				s := get(pool)
				s.Objects = append(s.Objects, ref(o))
				s.Evidence = append(s.Evidence, citeCondition(o, string(c.Type), fmt.Sprintf("%s: %s %s", c.Status, c.Reason, c.Message)))
				s.At = earliest(s.At, timePtr(c.LastTransitionTime.Time))
				seen[n.Name] = true
			}
		}
		for _, c := range n.Status.Conditions {
			if c.Type != corev1.NodeReady || c.Status == corev1.ConditionTrue {
				continue
			}
			pool, _ := cluster.NodePool(n.Labels)
			s := get(pool)
			s.Objects = append(s.Objects, ref(o))
			s.Evidence = append(s.Evidence, citeCondition(o, "Ready", fmt.Sprintf("%s: %s %s", c.Status, c.Reason, c.Message)))
			s.At = earliest(s.At, timePtr(c.LastTransitionTime.Time))
			seen[n.Name] = true
		}
	}
	var podCopies []*cluster.Object
	for _, o := range m.Events {
		e := o.Event
		if e.Reason != "NodeNotReady" && in.eventSign(o, NodeNotReady) == nil {
			continue
		}
		if e.InvolvedObject.Kind == cluster.KindPod {
			// The pod-level copies ("Node is not ready") repeat the node's event; the node
			// controller records each on a pod it names.
			if e.InvolvedObject.Name != "" {
				podCopies = append(podCopies, o)
			}
			continue
		}
		name := in.eventNode(o)
		pool := ""
		if n := m.Node(name); n != nil {
			pool, _ = cluster.NodePool(n.Node.Labels)
		}
		s := get(pool)
		if !seen[name] && name != "" {
			seen[name] = true
			s.Objects = append(s.Objects, ObjectRef{Kind: cluster.KindNode, Name: name})
		}
		s.Evidence = append(s.Evidence, citeEvent(o))
		s.At = earliest(s.At, timePtr(cluster.EventTime(o)))
	}
	if len(byPool) == 0 {
		// Only the copies on the node's pods are left (a controller-manager's log): the node
		// of each pod the input shows, else a node the input does not name.
		for _, o := range podCopies {
			s := get("")
			e := o.Event
			if p := m.Pod(e.InvolvedObject.Namespace, e.InvolvedObject.Name); p != nil && p.Pod.Spec.NodeName != "" && !seen[p.Pod.Spec.NodeName] {
				seen[p.Pod.Spec.NodeName] = true
				s.Objects = append(s.Objects, ObjectRef{Kind: cluster.KindNode, Name: p.Pod.Spec.NodeName})
			}
			s.Evidence = append(s.Evidence, citeEvent(o))
			s.At = earliest(s.At, timePtr(cluster.EventTime(o)))
		}
	}
	if len(byPool) == 0 {
		// Nothing else says so, but the scheduler does: "0/2 nodes are available: 2 node(s) were
		// not ready." counts nodes it found not ready, without naming them.
		for _, o := range m.Events {
			if !strings.EqualFold(o.Event.Reason, "FailedScheduling") || !slices.Contains(schedulerConditions(o.Event.Message), notReadyCondition) {
				continue
			}
			s := get("")
			s.Evidence = append(s.Evidence, citeEvent(o))
			s.At = earliest(s.At, timePtr(cluster.EventTime(o)))
		}
	}
	pools := make([]string, 0, len(byPool))
	for p := range byPool {
		pools = append(pools, p)
	}
	sort.Strings(pools)
	out := make([]Symptom, 0, len(pools))
	for _, p := range pools {
		s := byPool[p]
		where := ""
		if p != "" {
			where = " in pool " + p
		}
		switch len(s.Objects) {
		case 0:
			s.Objects = []ObjectRef{}
			s.Summary = fmt.Sprintf("nodes%s were not ready (the input does not name them)", where)
		case 1:
			s.Node = s.Objects[0].Name
			s.Summary = fmt.Sprintf("node %s%s was not ready", s.Node, where)
		default:
			s.Summary = fmt.Sprintf("%d nodes%s were not ready", len(s.Objects), where)
		}
		out = append(out, *s)
	}
	return out
}

// notReadyTaintKeys are the taints the node lifecycle controller puts on a node that is not
// ready or unreachable, with their alpha names of 1.6–1.12.
var notReadyTaintKeys = map[string]bool{"node.kubernetes.io/not-ready": true, "node.kubernetes.io/unreachable": true,
	"node.alpha.kubernetes.io/notReady": true, "node.alpha.kubernetes.io/unreachable": true}
