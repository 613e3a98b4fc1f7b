package history

import (
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/timeline"
)

// node is a node's lanes: its states as the collector saw them (else as the snapshot shows it
// since the latest transition it records), its taints, each condition since it last changed
// (every lane of states unknown from the node's creation to its first known state), the changes of it
// the analysis read (labels, taints, cordoning), and the events and symptoms about it.
func (b *builder) node(o Object) (Group, bool) {
	g := Group{Object: o}
	var n *corev1.Node
	if b.in.Model != nil {
		if obj := b.in.Model.Node(o.Name); obj != nil {
			n = obj.Node
		}
	}
	var created time.Time
	if n != nil {
		created = n.CreationTimestamp.Time
	}
	states := b.states[Object{Kind: cluster.KindNode, Name: o.Name}]
	switch {
	case len(states) > 0:
		g.Lanes = append(g.Lanes, unknownBefore(statesLane("status (collected)", states), created), unknownBefore(taintsLane(states), created))
	case n != nil && !n.CreationTimestamp.IsZero():
		s := cluster.NodeState(n)
		g.Lanes = append(g.Lanes, unknownBefore(Lane{Name: "status (snapshot)", Spans: []Span{{From: b.nodeSince(n).UTC(), State: s, Tone: stateTone(s)}}}, created))
		var taints []string
		from := n.CreationTimestamp.Time
		for _, t := range n.Spec.Taints {
			taints = append(taints, t.Key+":"+string(t.Effect))
			if t.TimeAdded != nil && t.TimeAdded.After(from) {
				from = t.TimeAdded.Time // the latest taint added: the set is so since
			}
		}
		slices.Sort(taints)
		state, tone := "no taints", ToneOK
		if n.Spec.Unschedulable {
			taints = append(taints, "cordoned")
		}
		if len(taints) > 0 {
			state, tone = strings.Join(taints, ", "), ToneWarning
		}
		g.Lanes = append(g.Lanes, unknownBefore(Lane{Name: "taints (snapshot)", Spans: []Span{{From: from.UTC(), State: state, Tone: tone}}}, created))
	}
	if n != nil {
		for _, c := range n.Status.Conditions {
			if c.LastTransitionTime.IsZero() {
				continue
			}
			state := string(c.Status)
			if c.Reason != "" {
				state += " (" + c.Reason + ")"
			}
			l := Lane{Name: "condition " + string(c.Type), Spans: []Span{{From: c.LastTransitionTime.Time.UTC(), State: state, Tone: nodeConditionTone(c.Type, c.Status)}}}
			g.Lanes = append(g.Lanes, unknownBefore(l, created))
		}
	}
	g.Lanes = append(g.Lanes,
		b.changesLane("changes", func(c analysis.Change) bool { return c.Kind == cluster.KindNode && c.Name == o.Name }),
		Lane{Name: "events", Marks: b.eventMarks(Object{Kind: cluster.KindNode, Name: o.Name})},
		Lane{Name: "symptoms", Marks: b.symptomMarks(func(r analysis.ObjectRef) bool {
			return r.Kind == cluster.KindNode && r.Name == o.Name
		}, o.Name)})
	return g, n != nil || len(states) > 0 || named(g)
}

// taintsLane is a node's taints and cordoning as its collected states tell them
// (cluster.NodeState writes "cordoned" and "taints k:Effect, …").
func taintsLane(states []timeline.Change) Lane {
	ts := make([]timeline.Change, len(states))
	for i, s := range states {
		var parts []string
		for _, p := range strings.Split(s.State, "; ") {
			if p == "cordoned" || strings.HasPrefix(p, "taints ") {
				parts = append(parts, strings.TrimPrefix(p, "taints "))
			}
		}
		s.State = strings.Join(parts, ", ")
		if s.State == "" {
			s.State = "no taints"
		}
		ts[i] = s
	}
	l := statesLane("taints (collected)", ts)
	for i := range l.Spans {
		if l.Spans[i].State == "no taints" {
			l.Spans[i].Tone = ToneOK
		} else {
			l.Spans[i].Tone = ToneWarning
		}
	}
	return l
}
