package rules

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/signal"
)

// nodePressureRule finds nodes under memory, disk or PID pressure: the conditions the
// kubelet sets, its NodeHas… events (type Normal, easy to miss), and EvictionThresholdMet.
type nodePressureRule struct{}

func (nodePressureRule) Name() string { return "node-pressure" }

var pressureConditions = map[corev1.NodeConditionType]string{
	corev1.NodeMemoryPressure: "memory", corev1.NodeDiskPressure: "disk", corev1.NodePIDPressure: "pids",
}

// pressureTaint reports whether a taint is one a node under pressure carries (the catalogue's
// taint keys of node_pressure, with their alpha names and the old out-of-disk), and which
// pressure.
func pressureTaint(key string) (string, bool) {
	if !wordSign(key, analysis.NodePressure) {
		return "", false
	}
	switch {
	case strings.Contains(key, "memory"):
		return "memory", true
	case strings.Contains(key, "pid"):
		return "pids", true
	}
	return "disk", true
}

// hasCondition reports whether a node shows the condition of a pressure (memory, disk,
// pids), whatever its status: where it does, the condition says whether the node had it.
func hasCondition(n *corev1.Node, pressure string) bool {
	for _, c := range n.Status.Conditions {
		if r, ok := pressureConditions[c.Type]; ok && r == pressure {
			return true
		}
	}
	return false
}

// pressureEvents are the reasons that say a node is under a pressure, and which: the kubelet's
// events, and its conditions' reasons where a message of theirs is all the input holds.
var pressureEvents = map[string]string{
	"NodeHasInsufficientMemory": "memory", "NodeHasDiskPressure": "disk", "NodeHasInsufficientPID": "pids", "EvictionThresholdMet": "",
	"KubeletHasInsufficientMemory": "memory", "KubeletHasDiskPressure": "disk", "KubeletHasInsufficientPID": "pids",
}

func (nodePressureRule) Symptoms(in analysis.Input) []analysis.Symptom {
	p := pressured{}
	p.fromNodes(in.Model)
	p.fromPressureEvents(in)
	p.fromRefusals(in)
	if len(p) == 0 {
		p.fromScheduler(in.Model)
	}
	return p.symptoms()
}

// pressured are the symptoms of pressure by node ("" for a node the input does not name).
type pressured map[string]*analysis.Symptom

// at is the symptom of a node, made when it has none yet.
func (p pressured) at(node string) *analysis.Symptom {
	if s, ok := p[node]; ok {
		return s
	}
	s := &analysis.Symptom{Kind: analysis.NodePressure, Node: node, Objects: []analysis.ObjectRef{{Kind: cluster.KindNode, Name: node}}}
	p[node] = s
	return s
}

// add records the resources of a pressure ("" says none) and its evidence on a node's symptom.
func (p pressured) add(node string, ev analysis.Evidence, resources ...string) *analysis.Symptom {
	s := p.at(node)
	for _, r := range resources {
		if r != "" && !slices.Contains(s.Details.Resources, r) {
			s.Details.Resources = append(s.Details.Resources, r)
		}
	}
	s.Evidence = append(s.Evidence, ev)
	return s
}

// fromNodes reads the pressure conditions of the nodes, and the taints of a pressure whose
// condition the paste lacks (a describe cut short in its conditions, a node listed with its
// taints): the kubelet's and the node lifecycle controller's taint still says it.
func (p pressured) fromNodes(m *cluster.Model) {
	for _, o := range m.Nodes {
		for _, t := range o.Node.Spec.Taints {
			r, ok := pressureTaint(t.Key)
			if !ok || hasCondition(o.Node, r) {
				continue
			}
			s := p.add(o.Node.Name, cite(o, "spec.taints", t.ToString()), r)
			if t.TimeAdded != nil {
				s.At = earliest(s.At, timePtr(t.TimeAdded.Time))
			}
		}
		for _, c := range o.Node.Status.Conditions {
			r, ok := pressureConditions[c.Type]
			if !ok || c.Status != corev1.ConditionTrue {
				continue
			}
			s := p.add(o.Node.Name, citeCondition(o, string(c.Type), fmt.Sprintf("True: %s %s", c.Reason, c.Message)), r)
			s.At = earliest(s.At, timePtr(c.LastTransitionTime.Time))
		}
	}
}

// fromPressureEvents reads the events of a node's pressure: by their reason, or a message the
// catalogue knows for it, whose reason says which pressure, or the resource it names.
func (p pressured) fromPressureEvents(in analysis.Input) {
	for _, o := range in.Model.Events {
		e := o.Event
		r, ok := pressureEvents[e.Reason]
		if sign := eventSign(in, o, analysis.NodePressure); !ok && sign != nil {
			if r, ok = pressureEvents[sign.Reason]; !ok || r == "" {
				r, ok = pressureOf(signal.EvictionResource(messages(in).message(e.Message).Capture("resource"))), true
			}
		}
		if !ok || !aboutNode(in, o) {
			continue
		}
		if _, rest, ok := strings.Cut(e.Message, "reclaim "); ok && r == "" {
			// "Attempting to reclaim ephemeral-storage": the eviction signal's resource.
			f := strings.Fields(rest)
			if len(f) > 0 {
				r = pressureOf(signal.EvictionResource(strings.Trim(f[0], ".,()")))
			}
		}
		if r == "" {
			r = observedPressure(in, e.Message)
		}
		s := p.add(eventNode(in, o), citeEvent(o), r)
		s.At = earliest(s.At, timePtr(cluster.EventTime(o)))
	}
}

// fromRefusals reads "The node had condition: [DiskPressure]": the kubelet evicted or refused a
// pod for a pressure condition its node had, on the node the pod was on (the pod's message, or
// an event about it).
func (p pressured) fromRefusals(in analysis.Input) {
	m := in.Model
	for _, o := range m.Pods {
		pod := o.Pod
		if !strings.Contains(pod.Status.Message, "Pressure") {
			continue
		}
		if r := conditionPressures(pod.Status.Message); len(r) > 0 {
			p.add(cmp.Or(pod.Spec.NodeName, scheduledNode(in, pod.Namespace, pod.Name)), cite(o, "status.message", pod.Status.Message), r...)
		}
	}
	for _, o := range m.Events {
		e := o.Event
		if !aboutPod(o) || !strings.Contains(e.Message, "Pressure") {
			continue // only a message naming a pressure condition states one
		}
		r := conditionPressures(e.Message)
		if len(r) == 0 {
			continue
		}
		ns, name := podKey(o)
		node := cmp.Or(e.Source.Host, scheduledNode(in, ns, name))
		if node == "" {
			if po := m.Pod(ns, name); po != nil {
				node = po.Pod.Spec.NodeName
			}
		}
		s := p.add(node, citeEvent(o), r...)
		s.At = earliest(s.At, timePtr(cluster.EventTime(o)))
	}
}

// fromScheduler reads, when nothing else says so, the scheduler: "1 node(s) had disk
// pressure", "2 node(s) had taint {node.kubernetes.io/memory-pressure: }" count nodes under
// pressure, without naming them.
func (p pressured) fromScheduler(m *cluster.Model) {
	for _, o := range m.Events {
		if !strings.EqualFold(o.Event.Reason, "FailedScheduling") {
			continue
		}
		rs := slices.DeleteFunc(schedulerConditions(o.Event.Message), func(c string) bool { return c == notReadyCondition })
		if len(rs) == 0 {
			continue
		}
		s := p.add("", citeEvent(o), rs...)
		s.At = earliest(s.At, timePtr(cluster.EventTime(o)))
	}
}

// symptoms are the symptoms by node name, each said in words.
func (p pressured) symptoms() []analysis.Symptom {
	nodes := make([]string, 0, len(p))
	for n := range p {
		nodes = append(nodes, n)
	}
	sort.Strings(nodes)
	out := make([]analysis.Symptom, 0, len(nodes))
	for _, n := range nodes {
		s := p[n]
		rs := s.Details.Resources
		s.Summary = fmt.Sprintf("node %s was under %s pressure", n, strings.Join(rs, " and "))
		if len(rs) == 0 {
			s.Summary = fmt.Sprintf("node %s was under resource pressure (the input does not say which)", n)
		}
		if n == "" {
			s.Summary = strings.Replace(s.Summary, "node  was", "a node the input does not name was", 1)
			s.Objects = []analysis.ObjectRef{}
		}
		out = append(out, *s)
	}
	return out
}

// observedPressure is the first pressure a message of the catalogue names in its conditions
// ("node conditions - observed: [DiskPressure]"), or "".
func observedPressure(in analysis.Input, msg string) string {
	m := messages(in).message(msg)
	if m == nil {
		return ""
	}
	for _, c := range strings.Fields(m.Capture("conditions")) {
		if p, ok := pressureConditions[corev1.NodeConditionType(strings.Trim(c, `[],"`))]; ok {
			return p
		}
	}
	return ""
}

// conditionPressures are the pressures an eviction or admission message says the node had
// ("The node had condition: [DiskPressure MemoryPressure]."), in its order.
func conditionPressures(msg string) []string {
	ev, ok := signal.ParseEviction(msg)
	if !ok || ev.Condition == "" {
		return nil
	}
	var out []string
	for _, c := range strings.Fields(ev.Condition) {
		if r, ok := pressureConditions[corev1.NodeConditionType(strings.Trim(c, "[],"))]; ok {
			out = append(out, r)
		}
	}
	return out
}

// pressureOf names the pressure of an eviction resource as the node conditions do.
func pressureOf(resource string) string {
	switch {
	case resource == "memory":
		return "memory"
	case resource == "pids":
		return "pids"
	case signal.DiskEviction(resource, ""):
		return "disk"
	}
	return resource
}
