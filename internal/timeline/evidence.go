package timeline

import (
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// citations says which symptoms and causes cite a piece of evidence, so that the rows showing
// it are never collapsed away and link back to what they prove. A piece is known by its place
// in the input (file:line), by its object (an Event's own name), or, for an object the timeline
// shows several changes of (a node), by the object and the field cited.
type citations map[string][]string

// Keys of citations: an object is keyed by its name as objectName writes it, which is how the
// rows of the timeline build theirs (events, nodes).
func atKey(loc string) string           { return "at\x00" + loc }
func refKey(ref string) string          { return "ref\x00" + ref }
func fieldKey(ref, field string) string { return "field\x00" + ref + "\x00" + field }

// objectKey is the name of the object a piece of evidence shows, as objectName writes it; ""
// when it shows none (a metric, the author's claim).
func objectKey(ev analysis.Evidence) string {
	o := ev.Object
	if o.Kind == "" && o.Name == "" {
		return ""
	}
	return objectName(o.Kind, o.Namespace, o.Name)
}

// citationsOf indexes the evidence of every symptom and cause and of their members, each piece
// under the id of the top-level symptom or cause: the row the timeline shows.
func citationsOf(rep analysis.Report) citations {
	c := citations{}
	add := func(id string, evs []analysis.Evidence) {
		for _, ev := range evs {
			if ev.Line > 0 {
				c.add(atKey(location(ev)), id)
			}
			if ref := objectKey(ev); ref != "" {
				c.add(refKey(ref), id)
				if ev.Field != "" {
					c.add(fieldKey(ref, ev.Field), id)
				}
			}
		}
	}
	var symptom func(id string, s analysis.Symptom)
	symptom = func(id string, s analysis.Symptom) {
		add(id, s.Evidence)
		for _, m := range s.Members {
			symptom(id, m)
		}
	}
	var cause func(id string, k analysis.Cause)
	cause = func(id string, k analysis.Cause) {
		add(id, k.Evidence)
		for _, m := range k.Members {
			cause(id, m)
		}
	}
	for _, s := range rep.Symptoms {
		symptom(s.ID, s)
	}
	for _, k := range rep.Causes {
		cause(k.ID, k)
	}
	return c
}

func (c citations) add(key, id string) {
	ids := c[key]
	if len(ids) > 0 && ids[len(ids)-1] == id { // a group's evidence comes in a row
		return
	}
	if !slices.Contains(ids, id) {
		c[key] = append(ids, id)
	}
}

// field returns the ids citing a field of an object.
func (c citations) field(ref, field string) []string {
	return slices.Clone(c[fieldKey(ref, field)])
}

// union appends to a the ids of b it lacks.
func union(a, b []string) []string {
	for _, id := range b {
		if !slices.Contains(a, id) {
			a = append(a, id)
		}
	}
	return a
}

// clock knows the times of the evidence, for the symptoms and causes that have none of their own:
// the events on the timeline, by their place in the input and their name, and the timestamps of
// the pods and nodes of the model. It also names the pool of a node.
type clock struct {
	m     *cluster.Model
	seen  map[string]time.Time // atKey or refKey of a cited event → its first time
	pools map[string]string    // node → pool
}

func newClock(m *cluster.Model) *clock {
	return &clock{m: m, seen: map[string]time.Time{}, pools: map[string]string{}}
}

// sawCited records an event's time under one of its keys (atKey of its place, refKey of its
// name) that a symptom or cause cites: evidenceTime looks up nothing else.
func (c *clock) sawCited(key []byte, at time.Time) {
	if t, ok := c.seen[string(key)]; !ok || at.Before(t) {
		c.seen[string(key)] = at
	}
}

// pool returns the node pool of a node the model holds ("" when it holds none).
func (c *clock) pool(node string) string {
	if node == "" || c.m == nil {
		return ""
	}
	p, ok := c.pools[node]
	if !ok {
		if n := c.m.Node(node); n != nil {
			p, _ = cluster.NodePool(n.Node.Labels)
		}
		c.pools[node] = p
	}
	return p
}

// podNode returns the node a pod of the model is bound to.
func (c *clock) podNode(namespace, name string) string {
	if c.m == nil {
		return ""
	}
	if p := c.m.Pod(namespace, name); p != nil {
		return p.Pod.Spec.NodeName
	}
	return ""
}

// evidenceTime is the earliest time of a list of evidence, and where it came from: an event the
// evidence points at (by place or name) first, else the timestamp of the field or object it
// cites. The zero time means the evidence carries no time at all.
func (c *clock) evidenceTime(evs []analysis.Evidence) (time.Time, string) {
	var at time.Time
	var from string
	take := func(t time.Time, ev analysis.Evidence) {
		if !t.IsZero() && (at.IsZero() || t.Before(at)) {
			at, from = t, "evidence "+strings.TrimSpace(location(ev)+" "+ev.Ref)
		}
	}
	for _, ev := range evs {
		t, ok := c.seen[atKey(location(ev))]
		if !ok || ev.Line == 0 {
			t = c.seen[refKey(objectKey(ev))]
		}
		take(t, ev)
	}
	if !at.IsZero() {
		return at, from
	}
	for _, ev := range evs {
		take(c.objectTime(ev), ev)
	}
	return at, from
}

// objectTime is the time a cited pod or node shows for the field cited: a condition's last
// transition, else the latest change its status records, else its creation.
func (c *clock) objectTime(ev analysis.Evidence) time.Time {
	if c.m == nil {
		return time.Time{}
	}
	o, cond, field := ev.Object, ev.Condition, ev.Field
	switch o.Kind {
	case cluster.KindPod:
		p := c.m.Pod(o.Namespace, o.Name)
		if p == nil {
			return time.Time{}
		}
		return podTime(p.Pod, cond, field)
	case cluster.KindNode:
		n := c.m.Node(o.Name)
		if n == nil {
			return time.Time{}
		}
		return nodeTime(n.Node, cond, field)
	}
	return time.Time{}
}

func podTime(p *cluster.Pod, cond, field string) time.Time {
	var latest time.Time
	see := func(t time.Time) {
		if t.After(latest) {
			latest = t
		}
	}
	for _, c := range p.Status.Conditions {
		if cond != "" && string(c.Type) == cond && !c.LastTransitionTime.IsZero() {
			return c.LastTransitionTime.Time()
		}
		see(c.LastTransitionTime.Time())
	}
	if field == "metadata.creationTimestamp" {
		return p.CreationTimestamp.UTC()
	}
	for _, s := range slices.Concat(p.Status.InitContainerStatuses, p.Status.ContainerStatuses) {
		if t := s.State.Terminated; t != nil {
			see(t.FinishedAt.Time)
		}
		if r := s.State.Running; r != nil {
			see(r.StartedAt.Time)
		}
		if t := s.LastTerminationState.Terminated; t != nil {
			see(t.FinishedAt.Time)
		}
	}
	if p.Status.StartTime != nil {
		see(p.Status.StartTime.Time)
	}
	if latest.IsZero() {
		latest = p.CreationTimestamp.Time
	}
	return latest.UTC()
}

func nodeTime(n *corev1.Node, cond, field string) time.Time {
	var latest time.Time
	for _, c := range n.Status.Conditions {
		if cond != "" && string(c.Type) == cond && !c.LastTransitionTime.IsZero() {
			return c.LastTransitionTime.UTC()
		}
		if c.LastTransitionTime.After(latest) {
			latest = c.LastTransitionTime.Time
		}
	}
	if latest.IsZero() || field == "metadata.creationTimestamp" {
		latest = n.CreationTimestamp.Time
	}
	return latest.UTC()
}
