package rules

import (
	"fmt"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/signal"
)

// pendingRule finds pods the scheduler could not place: Pending with PodScheduled=False
// (reason Unschedulable), and FailedScheduling events. Pods already bound to a node
// (ContainerCreating) are not unschedulable. Pods of one owner are one symptom: a hundred
// dask workers waiting for nodes are one fact, not a hundred.
type pendingRule struct{}

func (pendingRule) Name() string { return "pod-pending" }

func (pendingRule) Symptoms(in analysis.Input) []analysis.Symptom {
	g := &pendingGroups{in: in, groups: map[string]*analysis.Symptom{}, seen: map[string]bool{}, named: map[string]bool{}}
	g.fromPods()
	g.fromStuck()
	g.fromEvents()
	return g.symptoms()
}

// pendingGroups are the symptoms of pods waiting to be placed, one per namespace and owner, in
// the order they were first seen.
type pendingGroups struct {
	in     analysis.Input
	groups map[string]*analysis.Symptom
	order  []string
	seen   map[string]bool // group key + pod: the pods a group names
	named  map[string]bool // the pods a symptom names
}

// add records a pod (name "" for one the input does not name) of an owner waiting, what the
// scheduler said of it (msg) and the evidence, and returns its group.
func (g *pendingGroups) add(namespace, name, owner, msg string, ev analysis.Evidence) *analysis.Symptom {
	key := namespace + "/" + owner
	s, ok := g.groups[key]
	if !ok {
		s = &analysis.Symptom{Kind: analysis.PodPending, Objects: []analysis.ObjectRef{}}
		g.groups[key] = s
		g.order = append(g.order, key)
	}
	if schedulingOf(g.in).better(msg, s.Details.Message) {
		s.Details.Message = msg // the fullest diagnosis read; rules that need all of them read the evidence
	}
	pod := namespace + "/" + name
	g.named[pod] = true
	if !g.seen[key+pod] && name != "" {
		g.seen[key+pod] = true
		s.Objects = append(s.Objects, analysis.ObjectRef{Kind: cluster.KindPod, Namespace: namespace, Name: name})
	}
	s.Evidence = append(s.Evidence, ev)
	return s
}

// podOwner is the owner a pod is grouped under; a pod the input does not name is one of its own.
func podOwner(o *cluster.Object) string {
	if o.Name == "" {
		return "\x00" + o.Source.String()
	}
	return ownerName(o)
}

// fromPods reads the pods: refused by the kubelet of the node they were placed on, or not
// placed.
func (g *pendingGroups) fromPods() {
	m := g.in.Model
	for _, o := range m.Pods {
		p := o.Pod
		if f, ok := refused(p); ok && !replaced(m, o) {
			// Placed on a node whose kubelet would not run it (OutOfcpu, NodeAffinity): the
			// pod waits to be placed again, if a controller makes a new one.
			s := g.add(p.Namespace, p.Name, podOwner(o), "", cite(o, "status.reason", strings.TrimSpace(p.Status.Reason+": "+p.Status.Message)))
			s.Details.Refused = p.Status.Reason
			s.Details.RefusedResource = f.Resource
			if s.Node == "" {
				s.Node = p.Spec.NodeName
			}
			continue
		}
		c := scheduledCondition(p)
		if !unscheduled(p, c) {
			continue
		}
		var ev analysis.Evidence
		switch {
		case c == nil:
			// Pending with no node and no word from the scheduler yet (a pod just made, or a
			// status cut short): waiting to be placed.
			ev = cite(o, "status.phase", "Pending, not on a node, no PodScheduled condition")
			c = &cluster.PodCondition{}
		case c.Reason == "" && c.Message == "":
			// A pods table says only Pending, with no node.
			ev = cite(o, "status.phase", "Pending, not on a node (STATUS Pending in kubectl get pods)")
		default:
			ev = citeCondition(o, "PodScheduled", c.Reason+": "+c.Message)
		}
		s := g.add(p.Namespace, p.Name, podOwner(o), c.Message, ev)
		s.At = earliest(s.At, timePtr(c.LastTransitionTime.Time()))
	}
}

// fromStuck reads the pods stuck creating. A pod stuck creating is pod_stuck_creating's; it is
// pending too only where its own object shows it Pending on no node (a status written before it
// was bound, or cut short): the pod waits to be placed as far as its object says.
func (g *pendingGroups) fromStuck() {
	for _, st := range (stuckCreatingRule{}).Symptoms(g.in) {
		if len(st.Objects) == 0 {
			continue
		}
		ns, name := st.Objects[0].Namespace, st.Objects[0].Name
		pod := g.in.Model.Pod(ns, name)
		if pod == nil || pod.Pod.Status.Phase != corev1.PodPending || pod.Pod.Spec.NodeName != "" || placed(pod.Pod) {
			continue
		}
		s := g.add(ns, name, ownerName(pod), "", st.Evidence[0])
		s.Evidence = append(s.Evidence, st.Evidence[1:]...)
		if s.Details.Stuck == "" {
			s.Details.Stuck = st.Details.Message
		}
		if s.Node == "" {
			s.Node = st.Node
		}
		s.At = earliest(s.At, st.At)
	}
}

// event adds what an event says of a pod waiting to be placed; weak marks a sign that is no
// diagnosis (the autoscaler's and Karpenter's), whose message is not one.
func (g *pendingGroups) event(o *cluster.Object, weak bool) {
	m, e := g.in.Model, o.Event
	pod := m.Pod(e.InvolvedObject.Namespace, e.InvolvedObject.Name)
	if pod != nil && pod.Pod.Spec.NodeName != "" && pod.Pod.Status.Phase != corev1.PodPending {
		return // it was placed later; the failure is still a symptom only while it lasted
	}
	owner := ""
	if pod != nil {
		owner = ownerName(pod)
	}
	ns, name := podKey(o)
	if name == "" {
		owner = "\x00" + o.Source.File // the events of a paste that names no pod: one pod
	}
	msg := e.Message
	if weak {
		msg = "" // the autoscaler's reasons, not the scheduler's
	}
	s := g.add(ns, name, owner, msg, citeEvent(o))
	_, first, _ := cluster.EventTimes(e)
	s.At = earliest(s.At, timePtr(first))
	if f := signal.ClassifyPodFailure(e.Reason, e.Message); !strings.EqualFold(e.Reason, "FailedScheduling") && f.Class == signal.FailureAdmission && f.Resource != "" {
		// The kubelet's refusal (OutOfmemory: "Node didn't have enough resource: memory,
		// …"): the node it was placed on was short, as a pod's status says it (refused).
		s.Details.Refused, s.Details.RefusedResource = e.Reason, f.Resource
	}
}

// fromEvents reads the events about pods. cluster-autoscaler writes TriggeredScaleUp only on
// pods the scheduler could not place, and Karpenter nominates for the node it launches ("Pod
// should schedule on: nodeclaim/x") only a pod not yet placed: signs of a pending pod that
// nothing else says was, read after the rest.
func (g *pendingGroups) fromEvents() {
	var triggered []*cluster.Object
	for _, o := range g.in.Model.Events {
		e := o.Event
		if !aboutPod(o) {
			continue
		}
		switch {
		case e.Reason == "NotTriggerScaleUp" && e.InvolvedObject.Kind == cluster.KindPod:
			g.event(o, true) // cluster-autoscaler writes it only on pods the scheduler could not place
		case strings.EqualFold(e.Reason, "FailedScheduling") || eventSign(g.in, o, analysis.PodPending) != nil:
			g.event(o, false)
		case e.Reason == "TriggeredScaleUp" && e.InvolvedObject.Kind == cluster.KindPod,
			e.Reason == "Nominated" && strings.HasPrefix(e.Message, "Pod should schedule on: "):
			triggered = append(triggered, o)
		}
	}
	for _, o := range triggered {
		if ns, name := podKey(o); g.named[ns+"/"+name] || name == "" && len(g.order) > 0 {
			continue // said already; a pod no event names, where another said a pod was pending
		}
		g.event(o, true)
	}
}

// symptoms are the groups, each with the scheduler's breakdown and said in words.
func (g *pendingGroups) symptoms() []analysis.Symptom {
	out := make([]analysis.Symptom, 0, len(g.order))
	for _, key := range g.order {
		s := g.groups[key]
		if sch, _, ok := (*s).Scheduling(); ok && len(sch.Reasons) > 0 {
			s.Details.Nodes = sch.Total
			s.Details.Reasons = breakdown(sch)
		}
		s.Summary = pendingSummary(s)
		out = append(out, *s)
	}
	return out
}

// pendingSummary says a group of pods waiting in words: which pods, and what held them.
func pendingSummary(s *analysis.Symptom) string {
	var sum string
	switch {
	case len(s.Objects) == 0:
		sum = analysis.UnnamedPod + " could not be scheduled"
		s.Details.Object = analysis.UnnamedPod
	case len(s.Objects) == 1:
		sum = podPhrase(s.Objects[0].Namespace+"/"+s.Objects[0].Name) + " could not be scheduled"
	case s.Objects[0].Namespace == "":
		sum = fmt.Sprintf("%d pods could not be scheduled", len(s.Objects))
	default:
		sum = fmt.Sprintf("%d pods in %s could not be scheduled", len(s.Objects), s.Objects[0].Namespace)
	}
	if msg := s.Details.Message; msg != "" {
		return sum + ": " + firstLine(msg)
	} else if st := s.Details.Stuck; st != "" {
		return strings.Replace(sum, "could not be scheduled", "could not start on its node", 1) + ": " + phrase.Clip(st, 160)
	} else if r := s.Details.Refused; r != "" {
		return strings.Replace(sum, "could not be scheduled", "could not run", 1) +
			fmt.Sprintf(": the kubelet of the node it was placed on refused it (%s)", r)
	}
	return sum
}

// unscheduled reports whether a pod waits to be placed: Pending (or with no phase, as a status
// cut short leaves it) on no node, its PodScheduled condition not True. The scheduler's
// condition says False; a status written by hand may leave it empty beside its reason.
func unscheduled(p *cluster.Pod, c *cluster.PodCondition) bool {
	if p.Spec.NodeName != "" || (p.Status.Phase != corev1.PodPending && (p.Status.Phase != "" || c == nil)) {
		return false
	}
	switch {
	case c == nil:
		// No word from the scheduler: waiting to be placed, unless its containers are there
		// already (a pods table shows no node, but ErrImagePull is the kubelet's).
		return p.Status.Phase == corev1.PodPending && len(p.Status.ContainerStatuses) == 0 && len(p.Status.InitContainerStatuses) == 0
	case c.Status == corev1.ConditionFalse:
		return true
	case c.Status == "":
		return c.Reason == corev1.PodReasonUnschedulable || c.Reason == corev1.PodReasonSchedulingGated
	}
	return false
}

// replaced reports whether a pod its node refused has been replaced: a pod of the same owner
// (by its ownerReferences, or by the name its controller generated it with) runs. What is left
// of the refused one is a leftover, not a pod still waiting (kubernetes#109663).
func replaced(m *cluster.Model, o *cluster.Object) bool {
	kind, owner := cluster.Owner(o.Pod)
	prefix := ""
	if kind == "" {
		i := strings.LastIndexByte(o.Name, '-')
		if i <= 0 || len(o.Name)-i-1 != 5 {
			return false
		}
		prefix = o.Name[:i+1]
	}
	for _, q := range m.Pods {
		if q == o || q.Namespace != o.Namespace || q.Pod.Status.Phase != corev1.PodRunning {
			continue
		}
		if k, n := cluster.Owner(q.Pod); kind != "" && k == kind && n == owner || prefix != "" && strings.HasPrefix(q.Name, prefix) && len(q.Name) == len(o.Name) {
			return true
		}
	}
	return false
}

func scheduledCondition(p *cluster.Pod) *cluster.PodCondition {
	for i, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

// ownerName is "Kind/name" of the pod's controller, or the pod's own name without one.
func ownerName(o *cluster.Object) string {
	kind, name := cluster.Owner(o.Pod)
	if kind == "" {
		return o.Name
	}
	return kind + "/" + name
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(line)
}

// breakdown is the scheduler's count of nodes per reason, for people and JSON readers:
// {"Insufficient cpu": 23, "node(s) had untolerated taint {node.kubernetes.io/not-ready: }": 96}.
func breakdown(sch signal.Scheduling) map[string]int {
	out := make(map[string]int, len(sch.Reasons))
	for _, r := range sch.Reasons {
		out[r.Reason] += r.Count
	}
	return out
}

// better reports whether a scheduler message tells more than the one kept: it parses where the
// kept one does not, or it parses with more reasons and is not cut where the kept one is. A
// pending pod's events repeat the same few messages thousands of times: each is parsed once a run.
func (c *schedulingCache) better(msg, old string) bool {
	if msg == "" {
		return false
	}
	if old == "" {
		return true
	}
	a, b := c.scheduling(msg), c.scheduling(old)
	switch {
	case a.ok != b.ok:
		return a.ok
	case !a.ok:
		return len(msg) > len(old)
	case a.truncated != b.truncated:
		return !a.truncated
	}
	return a.reasons > b.reasons
}

// parsedScheduling is what better reads of signal.ParseFailedScheduling.
type parsedScheduling struct {
	ok, truncated bool
	reasons       int
}

// schedulingCache holds the scheduler messages of a run, parsed (see better). The rules that
// read them run at once.
type schedulingCache struct {
	mu     sync.Mutex
	parsed map[string]parsedScheduling
}

// schedulingKey is the key of a run's schedulingCache (analysis.Once).
type schedulingKey struct{}

// schedulingOf is the run's schedulingCache.
func schedulingOf(in analysis.Input) *schedulingCache {
	return analysis.Once(in, schedulingKey{}, func() *schedulingCache {
		return &schedulingCache{parsed: map[string]parsedScheduling{}}
	})
}

// scheduling parses a scheduler message once a run (twice at worst, when two rules ask at once).
func (c *schedulingCache) scheduling(msg string) parsedScheduling {
	c.mu.Lock()
	p, ok := c.parsed[msg]
	c.mu.Unlock()
	if ok {
		return p
	}
	sch, ok := signal.ParseFailedScheduling(msg)
	p = parsedScheduling{ok: ok, truncated: sch.Truncated, reasons: len(sch.Reasons)}
	c.mu.Lock()
	c.parsed[msg] = p
	c.mu.Unlock()
	return p
}

// refused reports a failed pod the kubelet of its node would not run: refused at admission for
// lack of a resource (OutOfcpu, OutOfmemory, OutOfpods), because its node affinity or selector
// no longer matched the node (NodeAffinity), or for a taint it does not tolerate. kubectl shows
// the reason as the pod's STATUS. Like a pod the scheduler cannot place, it did not run.
func refused(p *cluster.Pod) (signal.PodFailure, bool) {
	if p.Status.Phase != corev1.PodFailed || p.Status.Reason == "" || p.Status.Reason == "Evicted" {
		return signal.PodFailure{}, false
	}
	f := signal.ClassifyPodFailure(p.Status.Reason, p.Status.Message)
	switch f.Class {
	case signal.FailureAdmission, signal.FailureNodeAffinity, signal.FailureTaintEviction:
		return f, true
	}
	return f, false
}

// placed reports whether a pod's PodScheduled condition is True: on a node, though its object
// may not say which (a pods table without a NODE column whose STATUS is a reason only the
// kubelet writes).
func placed(p *cluster.Pod) bool {
	c := scheduledCondition(p)
	return c != nil && c.Status == corev1.ConditionTrue
}
