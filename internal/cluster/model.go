package cluster

import (
	"sort"
	"time"
)

// Model is a cluster as the inputs show it: every object, with indexes for the questions the
// analysis asks (which pods ran on this node, what happened to this object, when).
type Model struct {
	Files  []string  // the inputs, in the order they were read
	Pods   []*Object // objects with Pod set
	Nodes  []*Object // objects with Node set
	Events []*Object // objects with Event set
	Others []*Object // kept as raw JSON (workloads, priority classes, …)

	pods       map[string]*Object   // namespace/name
	nodes      map[string]*Object   // name
	podsByNode map[string][]*Object // node name → pods bound to it
	eventsFor  map[string][]*Object // kind/namespace/name of the involved object → events
	loads      map[string]NodeLoad  // node name → load, computed on first use
}

// NewModel indexes objects. When the same pod or node appears twice (two files of one
// incident), the later one wins in the indexes; both stay in the lists.
func NewModel(files []string, objs []*Object) *Model {
	m := &Model{Files: files, pods: map[string]*Object{}, nodes: map[string]*Object{},
		podsByNode: map[string][]*Object{}, eventsFor: map[string][]*Object{}}
	for _, o := range objs {
		m.Add(o)
	}
	return m
}

// Add puts one more object into the model.
func (m *Model) Add(o *Object) {
	m.loads = nil // loads depend on every pod and node
	switch {
	case o.Pod != nil:
		key := o.Pod.Namespace + "/" + o.Pod.Name
		if _, seen := m.pods[key]; !seen {
			m.Pods = append(m.Pods, o)
		}
		m.pods[key] = o
		if n := o.Pod.Spec.NodeName; n != "" {
			m.podsByNode[n] = append(m.podsByNode[n], o)
		}
	case o.Node != nil:
		if _, seen := m.nodes[o.Node.Name]; !seen {
			m.Nodes = append(m.Nodes, o)
		}
		m.nodes[o.Node.Name] = o
	case o.Event != nil:
		m.Events = append(m.Events, o)
		io := o.Event.InvolvedObject
		key := io.Kind + "/" + io.Namespace + "/" + io.Name
		m.eventsFor[key] = append(m.eventsFor[key], o)
	default:
		m.Others = append(m.Others, o)
	}
}

// Pod returns the pod of that namespace and name, or nil.
func (m *Model) Pod(namespace, name string) *Object { return m.pods[namespace+"/"+name] }

// Node returns the node of that name, or nil.
func (m *Model) Node(name string) *Object { return m.nodes[name] }

// PodsOn returns the pods bound to a node.
func (m *Model) PodsOn(node string) []*Object { return m.podsByNode[node] }

// EventsFor returns the events about one object ("Pod", "prod", "hub-7c9"), oldest first.
func (m *Model) EventsFor(kind, namespace, name string) []*Object {
	evs := m.eventsFor[kind+"/"+namespace+"/"+name]
	sort.SliceStable(evs, func(i, j int) bool { return EventTime(evs[i]).Before(EventTime(evs[j])) })
	return evs
}

// EventTime is when an event object was last seen.
func EventTime(o *Object) time.Time {
	_, _, last := EventTimes(o.Event)
	return last
}

// TimeRange is the span the events record, from the first sighting to the last; without
// events, the span of the pods' start times. Zero times when nothing is dated.
func (m *Model) TimeRange() (from, to time.Time) {
	see := func(t time.Time) {
		if t.IsZero() {
			return
		}
		if from.IsZero() || t.Before(from) {
			from = t
		}
		if t.After(to) {
			to = t
		}
	}
	for _, e := range m.Events {
		_, first, last := EventTimes(e.Event)
		see(first)
		see(last)
	}
	if from.IsZero() {
		for _, p := range m.Pods {
			if p.Pod.Status.StartTime != nil {
				see(p.Pod.Status.StartTime.Time.UTC())
			}
		}
	}
	return from, to
}
