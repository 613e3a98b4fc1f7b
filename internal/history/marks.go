package history

import (
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/timeline"
)

// builder reads the input once for the lanes of one history: the states and events by the
// object they are about.
type builder struct {
	in     Input
	states map[Object][]timeline.Change
	events map[Object][]*cluster.Event
}

func newBuilder(in Input) *builder {
	b := &builder{in: in, states: map[Object][]timeline.Change{}, events: map[Object][]*cluster.Event{}}
	for _, s := range in.States {
		o := Object{Kind: s.Kind, Namespace: s.Namespace, Name: s.Name}
		b.states[o] = append(b.states[o], s)
	}
	if in.Model != nil {
		for _, e := range in.Model.Events {
			io := e.Event.InvolvedObject
			o := Object{Kind: io.Kind, Namespace: io.Namespace, Name: io.Name}
			if o.Kind == cluster.KindNode {
				o.Namespace = ""
			}
			b.events[o] = append(b.events[o], e.Event)
		}
	}
	return b
}

// eventMarks are the events about the objects, one mark each at its first sighting, with its
// count; events of no time are left out.
func (b *builder) eventMarks(objs ...Object) []Mark {
	var out []Mark
	for _, o := range objs {
		for _, e := range b.events[o] {
			count, first, last := cluster.EventTimes(e)
			if first.IsZero() {
				first = last
			}
			if first.IsZero() {
				continue
			}
			label := e.Reason
			if count > 1 {
				label += fmt.Sprintf(" ×%d (to %s)", count, last.UTC().Format(time.RFC3339))
			}
			if len(objs) > 1 {
				label += " · " + o.String()
			}
			tone := ToneInfo
			if e.Type == corev1.EventTypeWarning {
				tone = ToneWarning
			}
			out = append(out, Mark{At: first.UTC(), Kind: MarkEvent, Label: label + ": " + firstLine(e.Message), Tone: tone})
		}
	}
	sortMarks(out)
	return out
}

// symptomMarks are the symptoms (a group's members one by one) that name an object of which,
// or whose node is, at their time; the ref is the group's, which the incident's page shows.
func (b *builder) symptomMarks(which func(analysis.ObjectRef) bool, node string) []Mark {
	var out []Mark
	var visit func(id string, s analysis.Symptom)
	visit = func(id string, s analysis.Symptom) {
		if len(s.Members) > 0 {
			for _, m := range s.Members {
				visit(id, m)
			}
			return
		}
		if s.At == nil || s.At.IsZero() {
			return
		}
		named := node != "" && s.Node == node
		for _, r := range s.Objects {
			named = named || which(r)
		}
		if named {
			out = append(out, Mark{At: s.At.UTC(), Kind: MarkSymptom, Label: s.Kind + ": " + firstLine(s.Summary), Ref: id, Tone: ToneBad})
		}
	}
	for _, s := range b.in.Report.Symptoms {
		visit(s.ID, s)
	}
	sortMarks(out)
	return out
}

// changesLane is the lane of the changes the analysis read of an object: each a mark at when
// it was made by, and its window as a span where it is known to have happened between two
// times. of picks the changes.
func (b *builder) changesLane(name string, of func(analysis.Change) bool) Lane {
	l := Lane{Name: name}
	for _, c := range b.in.Report.Changes {
		if !of(c) {
			continue
		}
		at := c.Until
		if at.IsZero() {
			at = c.Since
		}
		if at.IsZero() {
			continue
		}
		label := c.ID + " " + timeline.ChangeKind(c.Change) + ": " + c.Before + " → " + c.After
		if c.Field != "" {
			label += " (" + c.Field + ")"
		}
		l.Marks = append(l.Marks, Mark{At: at.UTC(), Kind: MarkChange, Label: label, Ref: c.ID, Tone: ToneWarning})
		if !c.Since.IsZero() && c.Until.After(c.Since) {
			l.Spans = append(l.Spans, Span{From: c.Since.UTC(), To: c.Until.UTC(), State: c.ID + " made in this window", Tone: ToneInfo})
		}
	}
	sortMarks(l.Marks)
	return l
}

func sortMarks(ms []Mark) {
	for i := 1; i < len(ms); i++ { // insertion sort: stable, and the lists are short or sorted
		for j := i; j > 0 && ms[j].At.Before(ms[j-1].At); j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(line); len(r) > 200 {
		line = string(r[:200]) + "…"
	}
	return line
}
