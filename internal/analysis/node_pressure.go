package analysis

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"

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
	if !wordSign(key, NodePressure) {
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

func (nodePressureRule) Symptoms(in Input) []Symptom {
	m := in.Model
	byNode := map[string]*Symptom{}
	get := func(node string) *Symptom {
		if s, ok := byNode[node]; ok {
			return s
		}
		s := &Symptom{Kind: NodePressure, Node: node, Objects: []ObjectRef{{Kind: cluster.KindNode, Name: node}}}
		byNode[node] = s
		return s
	}
	addResource := func(s *Symptom, r string) {
		if r == "" {
			return
		}
		if !slices.Contains(s.Details.Resources, r) {
			s.Details.Resources = append(s.Details.Resources, r)
		}
	}
	for _, o := range m.Nodes {
		// A pressure whose condition the paste lacks (a describe cut short in its conditions, a
		// node listed with its taints): the kubelet's and the node lifecycle controller's
		// taint still says it.
		for _, t := range o.Node.Spec.Taints {
			r, ok := pressureTaint(t.Key)
			if !ok || hasCondition(o.Node, r) {
				continue
			}
			s := get(o.Node.Name)
			addResource(s, r)
			s.Evidence = append(s.Evidence, cite(o, "spec.taints", t.ToString()))
			if t.TimeAdded != nil {
				s.At = earliest(s.At, timePtr(t.TimeAdded.Time))
			}
		}
		for _, c := range o.Node.Status.Conditions {
			r, ok := pressureConditions[c.Type]
			if !ok || c.Status != corev1.ConditionTrue {
				continue
			}
			s := get(o.Node.Name)
			addResource(s, r)
			s.Evidence = append(s.Evidence, citeCondition(o, string(c.Type), fmt.Sprintf("True: %s %s", c.Reason, c.Message)))
			s.At = earliest(s.At, timePtr(c.LastTransitionTime.Time))
		}
	}
	for _, o := range m.Events {
		e := o.Event
		r, ok := pressureEvents[e.Reason]
		if sign := in.eventSign(o, NodePressure); !ok && sign != nil {
			// A message the catalogue knows for it: its reason says which pressure, or the
			// resource it names.
			ok = true
			if r, ok = pressureEvents[sign.Reason]; !ok || r == "" {
				r, ok = pressureOf(signal.EvictionResource(in.messages().message(e.Message).Capture("resource"))), true
			}
		}
		if !ok || !in.aboutNode(o) {
			continue
		}
		s := get(in.eventNode(o))
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
		addResource(s, r)
		s.Evidence = append(s.Evidence, citeEvent(o))
		s.At = earliest(s.At, timePtr(cluster.EventTime(o)))
	}
	// "The node had condition: [DiskPressure]": the kubelet evicted or refused a pod for a
	// pressure condition its node had, on the node the pod was on.
	for _, o := range m.Pods {
		p := o.Pod
		if !strings.Contains(p.Status.Message, "Pressure") {
			continue
		}
		if r := conditionPressures(p.Status.Message); len(r) > 0 {
			s := get(cmp.Or(p.Spec.NodeName, in.scheduledNode(p.Namespace, p.Name)))
			for _, x := range r {
				addResource(s, x)
			}
			s.Evidence = append(s.Evidence, cite(o, "status.message", p.Status.Message))
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
		node := cmp.Or(e.Source.Host, in.scheduledNode(ns, name))
		if node == "" {
			if po := m.Pod(ns, name); po != nil {
				node = po.Pod.Spec.NodeName
			}
		}
		s := get(node)
		for _, x := range r {
			addResource(s, x)
		}
		s.Evidence = append(s.Evidence, citeEvent(o))
		s.At = earliest(s.At, timePtr(cluster.EventTime(o)))
	}
	if len(byNode) == 0 {
		// Nothing else says so, but the scheduler does: "1 node(s) had disk pressure", "2
		// node(s) had taint {node.kubernetes.io/memory-pressure: }" count nodes under
		// pressure, without naming them.
		for _, o := range m.Events {
			if !strings.EqualFold(o.Event.Reason, "FailedScheduling") {
				continue
			}
			rs := slices.DeleteFunc(schedulerConditions(o.Event.Message), func(c string) bool { return c == notReadyCondition })
			if len(rs) == 0 {
				continue
			}
			s := get("")
			for _, r := range rs {
				addResource(s, r)
			}
			s.Evidence = append(s.Evidence, citeEvent(o))
			s.At = earliest(s.At, timePtr(cluster.EventTime(o)))
		}
	}
	nodes := make([]string, 0, len(byNode))
	for n := range byNode {
		nodes = append(nodes, n)
	}
	sort.Strings(nodes)
	out := make([]Symptom, 0, len(nodes))
	for _, n := range nodes {
		s := byNode[n]
		rs := s.Details.Resources
		s.Summary = fmt.Sprintf("node %s was under %s pressure", n, strings.Join(rs, " and "))
		if len(rs) == 0 {
			s.Summary = fmt.Sprintf("node %s was under resource pressure (the input does not say which)", n)
		}
		if n == "" {
			s.Summary = strings.Replace(s.Summary, "node  was", "a node the input does not name was", 1)
			s.Objects = []ObjectRef{}
		}
		out = append(out, *s)
	}
	return out
}

// observedPressure is the first pressure a message of the catalogue names in its conditions
// ("node conditions - observed: [DiskPressure]"), or "".
func observedPressure(in Input, msg string) string {
	m := in.messages().message(msg)
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
	case diskResources[resource]:
		return "disk"
	}
	return resource
}
