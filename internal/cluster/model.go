package cluster

import (
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

	// The indexes, all made by NewModel: a model never changes once made, so that the server
	// can read one from many requests at once.
	pods       map[podKey]int       // namespace and name → index in Pods
	nodes      map[string]int       // name → index in Nodes
	amounts    map[*Object]amounts  // pod → its requests and limits
	podsByNode map[string][]*Object // node name → pods bound to it
	loads      map[string]NodeLoad  // node name → the load of the node of that name in Nodes
}

// amounts are a pod's requests and limits. Kubernetes' arithmetic costs some microseconds a
// pod, and rules ask for the same pods' again and again, so the model works them out once, as
// it takes the pod in (not on first use, so that reading them writes nothing).
type amounts struct{ requests, limits Resources }

// NewModel indexes objects. When the same pod or node appears twice (two files of one
// incident, a table and a describe of the same pod), the later one replaces the earlier; pods
// and nodes without a name (fragments of a paste) are each their own. An
// event seen twice (the same uid, as core/v1 and events.k8s.io/v1 list it, or in two
// snapshots) is kept once: the sighting with the higher count, else the later.
func NewModel(files []string, objs []*Object) *Model {
	// The indexes are made at their size, rather than grown (each growth leaves the smaller
	// table behind as garbage).
	var npods, nnodes, nevents int
	for _, o := range objs {
		switch {
		case o.Pod != nil:
			npods++
		case o.Node != nil:
			nnodes++
		case o.Event != nil:
			nevents++
		}
	}
	m := &Model{Files: files, pods: make(map[podKey]int, npods), nodes: make(map[string]int, nnodes),
		amounts: make(map[*Object]amounts, npods)}
	// The events' index by uid is needed only to keep each event once: it is not kept, so
	// that the rules do not run beside it (50,000 entries at the scale snapshot).
	events := make(map[string]int, nevents)
	memo := amountsMemo{}
	for _, o := range objs {
		m.add(o, events, memo)
	}
	m.podsByNode = map[string][]*Object{}
	for _, p := range m.Pods {
		if n := p.Pod.Spec.NodeName; n != "" {
			m.podsByNode[n] = append(m.podsByNode[n], p)
		}
	}
	m.loads = make(map[string]NodeLoad, len(m.nodes))
	for name, i := range m.nodes {
		m.loads[name] = m.computeLoad(m.Nodes[i])
	}
	return m
}

// add puts one more object into the model, as NewModel builds it; events are the indexes in
// Events of the events seen so far, by uid, and memo the amounts worked out so far.
func (m *Model) add(o *Object, events map[string]int, memo amountsMemo) {
	switch {
	case o.Pod != nil:
		key := podKey{o.Pod.Namespace, o.Pod.Name}
		m.amounts[o] = memo.of(o.Pod)
		if o.Pod.Name == "" {
			// A pod a paste did not name (a describe fragment): one of its own, never the
			// same as another unnamed one.
			m.Pods = append(m.Pods, o)
			return
		}
		if i, seen := m.pods[key]; seen {
			if m.Pods[i] != o {
				delete(m.amounts, m.Pods[i])
			}
			m.Pods[i] = o
		} else {
			m.pods[key] = len(m.Pods)
			m.Pods = append(m.Pods, o)
		}
	case o.Node != nil:
		if o.Node.Name == "" {
			m.Nodes = append(m.Nodes, o) // a node a paste did not name
			return
		}
		if i, seen := m.nodes[o.Node.Name]; seen {
			m.Nodes[i] = o
		} else {
			m.nodes[o.Node.Name] = len(m.Nodes)
			m.Nodes = append(m.Nodes, o)
		}
	case o.Event != nil:
		uid := string(o.Event.UID)
		if i, seen := events[uid]; seen && uid != "" {
			if o.Event.Count >= m.Events[i].Event.Count {
				m.Events[i] = o
			}
			return
		}
		if uid != "" {
			events[uid] = len(m.Events)
		}
		m.Events = append(m.Events, o)
	default:
		m.Others = append(m.Others, o)
	}
}

// podKey is a pod's namespace and name: a key made of the pod's own strings, so that neither
// indexing a pod nor looking one up allocates one.
type podKey struct{ namespace, name string }

// amountsMemo holds the amounts worked out for the container lists of the pods taken in so far.
// The pods of one template share one list of containers (the decoder's interner), so the
// model works out the amounts of such a list once, not once a pod: at 20,000 pods the library's
// arithmetic had been a fifth of the garbage the analysis made. Only pods with no overhead and
// no pod-level resources are remembered, since nothing else of a pod changes its amounts.
type amountsMemo map[amountsKey]amounts

// amountsKey is a pod's init containers and containers, as the lists they are.
type amountsKey struct {
	init, regular *Container
	ninit, n      int
}

func (memo amountsMemo) of(p *Pod) amounts {
	s := &p.Spec
	if s.Overhead != nil || s.Resources != nil || len(s.Containers) == 0 {
		return amounts{requests: PodRequests(p), limits: PodLimits(p)}
	}
	k := amountsKey{regular: &s.Containers[0], n: len(s.Containers), ninit: len(s.InitContainers)}
	if k.ninit > 0 {
		k.init = &s.InitContainers[0]
	}
	if a, ok := memo[k]; ok {
		return a
	}
	a := amounts{requests: PodRequests(p), limits: PodLimits(p)}
	memo[k] = a
	return a
}

// Pod returns the pod of that namespace and name, or nil.
func (m *Model) Pod(namespace, name string) *Object {
	if i, ok := m.pods[podKey{namespace, name}]; ok {
		return m.Pods[i]
	}
	return nil
}

// Node returns the node of that name, or nil.
func (m *Model) Node(name string) *Object {
	if i, ok := m.nodes[name]; ok {
		return m.Nodes[i]
	}
	return nil
}

// PodsOn returns the pods bound to a node.
func (m *Model) PodsOn(node string) []*Object {
	return m.podsByNode[node]
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
