package rules

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// nodeNotReadyRule finds nodes whose Ready condition is False or Unknown, and NodeNotReady
// events, one symptom per node pool: a burst of new nodes not yet ready is one fact.
type nodeNotReadyRule struct{}

func (nodeNotReadyRule) Name() string { return "node-not-ready" }

func (nodeNotReadyRule) Symptoms(in analysis.Input) []analysis.Symptom {
	r := &notReady{in: in, byPool: map[string]*analysis.Symptom{}, seen: map[string]bool{}}
	for _, o := range in.Model.Nodes {
		r.fromNode(o)
	}
	podCopies := r.fromEvents()
	if len(r.byPool) == 0 {
		r.fromPodCopies(podCopies)
	}
	if len(r.byPool) == 0 {
		r.fromScheduler()
	}
	return r.symptoms()
}

// notReady are the symptoms of nodes not ready by node pool, and the nodes they name.
type notReady struct {
	in     analysis.Input
	byPool map[string]*analysis.Symptom
	seen   map[string]bool
}

func (r *notReady) get(pool string) *analysis.Symptom {
	if s, ok := r.byPool[pool]; ok {
		return s
	}
	s := &analysis.Symptom{Kind: analysis.NodeNotReady, Details: analysis.Details{NotReadyDetails: analysis.NotReadyDetails{Pool: pool}}}
	r.byPool[pool] = s
	return s
}

// node records a node of the input not ready, with the evidence.
func (r *notReady) node(o *cluster.Object, ev analysis.Evidence) *analysis.Symptom {
	pool, _ := cluster.NodePool(o.Node.Labels)
	s := r.get(pool)
	if o.Node.Name != "" { // a describe's fragment that lost its Name: line names no node
		s.Objects = append(s.Objects, ref(o))
	}
	s.Evidence = append(s.Evidence, ev)
	r.seen[o.Node.Name] = true
	return s
}

// fromNode reads a node: its Ready condition, and when the paste has none (a describe cut
// short), the node lifecycle controller's taints, which still tell a node that stopped being
// ready, or its other conditions: the controller sets every condition of a node whose kubelet
// went silent to Unknown at once, Ready with them, each with "Kubelet stopped posting node
// status.".
func (r *notReady) fromNode(o *cluster.Object) {
	n := o.Node
	if cluster.NodeCondition(n, corev1.NodeReady) == "" {
		for _, t := range n.Spec.Taints {
			if !notReadyTaintKeys[t.Key] && !wordSign(t.Key, analysis.NodeNotReady) {
				continue
			}
			s := r.node(o, cite(o, "spec.taints", t.ToString()))
			if t.TimeAdded != nil {
				s.At = earliest(s.At, timePtr(t.TimeAdded.Time))
			}
			break
		}
		for _, c := range n.Status.Conditions {
			if r.seen[n.Name] || c.Status != corev1.ConditionUnknown || statusSign(r.in, c.Message, analysis.NodeNotReady) == nil {
				continue
			}
			s := r.node(o, citeCondition(o, string(c.Type), fmt.Sprintf("%s: %s %s", c.Status, c.Reason, c.Message)))
			s.At = earliest(s.At, timePtr(c.LastTransitionTime.Time))
		}
	}
	for _, c := range n.Status.Conditions {
		if c.Type != corev1.NodeReady || c.Status == corev1.ConditionTrue {
			continue
		}
		s := r.node(o, citeCondition(o, "Ready", fmt.Sprintf("%s: %s %s", c.Status, c.Reason, c.Message)))
		s.At = earliest(s.At, timePtr(c.LastTransitionTime.Time))
	}
}

// fromEvents reads the NodeNotReady events of nodes, and returns their copies on pods ("Node is
// not ready"), which repeat the node's event: the node controller records each on a pod it
// names.
func (r *notReady) fromEvents() (podCopies []*cluster.Object) {
	in, m := r.in, r.in.Model
	for _, o := range m.Events {
		e := o.Event
		if e.Reason != "NodeNotReady" && eventSign(in, o, analysis.NodeNotReady) == nil {
			continue
		}
		if e.InvolvedObject.Kind == cluster.KindPod {
			if e.InvolvedObject.Name != "" {
				podCopies = append(podCopies, o)
			}
			continue
		}
		name := eventNode(in, o)
		pool := ""
		if n := m.Node(name); n != nil {
			pool, _ = cluster.NodePool(n.Node.Labels)
		}
		s := r.get(pool)
		if !r.seen[name] && name != "" {
			r.seen[name] = true
			s.Objects = append(s.Objects, analysis.ObjectRef{Kind: cluster.KindNode, Name: name})
		}
		s.Evidence = append(s.Evidence, citeEvent(o))
		s.At = earliest(s.At, timePtr(cluster.EventTime(o)))
	}
	return podCopies
}

// fromPodCopies reads the copies on the node's pods when only they are left (a
// controller-manager's log): the node of each pod the input shows, else a node the input does
// not name.
func (r *notReady) fromPodCopies(podCopies []*cluster.Object) {
	for _, o := range podCopies {
		s := r.get("")
		e := o.Event
		if p := r.in.Model.Pod(e.InvolvedObject.Namespace, e.InvolvedObject.Name); p != nil && p.Pod.Spec.NodeName != "" && !r.seen[p.Pod.Spec.NodeName] {
			r.seen[p.Pod.Spec.NodeName] = true
			s.Objects = append(s.Objects, analysis.ObjectRef{Kind: cluster.KindNode, Name: p.Pod.Spec.NodeName})
		}
		s.Evidence = append(s.Evidence, citeEvent(o))
		s.At = earliest(s.At, timePtr(cluster.EventTime(o)))
	}
}

// fromScheduler reads, when nothing else says so, the scheduler: "0/2 nodes are available: 2
// node(s) were not ready." counts nodes it found not ready, without naming them.
func (r *notReady) fromScheduler() {
	for _, o := range r.in.Model.Events {
		if !strings.EqualFold(o.Event.Reason, "FailedScheduling") || !slices.Contains(schedulerConditions(o.Event.Message), notReadyCondition) {
			continue
		}
		s := r.get("")
		s.Evidence = append(s.Evidence, citeEvent(o))
		s.At = earliest(s.At, timePtr(cluster.EventTime(o)))
	}
}

// symptoms are the symptoms by pool name, each said in words.
func (r *notReady) symptoms() []analysis.Symptom {
	pools := make([]string, 0, len(r.byPool))
	for p := range r.byPool {
		pools = append(pools, p)
	}
	sort.Strings(pools)
	out := make([]analysis.Symptom, 0, len(pools))
	for _, p := range pools {
		s := r.byPool[p]
		where := ""
		if p != "" {
			where = " in pool " + p
		}
		switch len(s.Objects) {
		case 0:
			s.Objects = []analysis.ObjectRef{}
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
