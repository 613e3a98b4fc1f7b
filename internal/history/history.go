// Package history tells the story of one object over an incident, the way Sloop draws its
// swimlanes: for a pod, node or workload, lanes of its states over time (phase and readiness,
// conditions, containers and their restarts, taints, template revisions) and marks of what
// happened to it (changes, events, symptoms). A workload's history holds its pods' lanes too.
//
// It is pure: it reads the model of the incident's snapshots, the states the collector saw,
// and the analysis (its changes and symptoms). internal/picture draws it. Every lane is
// bounded (maxSpans, maxMarks), and so are an object's lanes (maxLanes) and a workload's pods
// (maxPods): a pod that flapped a
// thousand times is drawn in part, and Notes say what was left out.
package history

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/timeline"
)

// The bounds of a history: spans and marks of one lane, pods of a workload.
const (
	maxSpans = 200
	maxMarks = 200
	maxPods  = 12
	maxLanes = 16 // of one object: a pod of fifty containers
)

// Kinds are the kinds of object a history can be made of.
var Kinds = []string{cluster.KindPod, cluster.KindNode, "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "ConfigMap"}

// maxName bounds each part of an object's name: Kubernetes' own limit for names.
const maxName = 253

// Object names the object a history is of.
type Object struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

// String names the object the way the timeline and the evidence do: "Pod prod/hub-7c9",
// "Node gke-core-1".
func (o Object) String() string {
	if o.Namespace == "" {
		return o.Kind + " " + o.Name
	}
	return o.Kind + " " + o.Namespace + "/" + o.Name
}

// Validate says what is wrong with a name asked for: a kind with no history, a missing name, a
// namespace missing (or given to a node), a part too long.
func (o Object) Validate() error {
	switch {
	case !slices.Contains(Kinds, o.Kind):
		return fmt.Errorf("kind %q: use one of %s", o.Kind, strings.Join(Kinds, ", "))
	case o.Name == "":
		return fmt.Errorf("name: required")
	case o.Kind == cluster.KindNode && o.Namespace != "":
		return fmt.Errorf("namespace: a node has none")
	case o.Kind != cluster.KindNode && o.Namespace == "":
		return fmt.Errorf("namespace: required for a %s", o.Kind)
	case len(o.Name) > maxName || len(o.Namespace) > maxName:
		return fmt.Errorf("namespace and name: at most %d bytes each", maxName)
	}
	return nil
}

// Input is what a history is made of.
type Input struct {
	Model  *cluster.Model
	Report analysis.Report
	// States are the pod and node states the collector saw, in any order.
	States []timeline.Change
}

// History is an object's lanes over a window of time.
type History struct {
	Object Object    `json:"object"`
	From   time.Time `json:"from"`
	To     time.Time `json:"to"`
	// Groups are the object's own lanes first, then, for a workload, one group per pod.
	Groups []Group `json:"groups"`
	// Notes say what was left out (lanes or pods beyond the bounds) and what is not known.
	Notes []string `json:"notes,omitempty"`
}

// Group is the lanes of one object.
type Group struct {
	Object Object `json:"object"`
	Lanes  []Lane `json:"lanes"`
}

// Lane is one row of the history: states that last (spans) and things that happened (marks).
type Lane struct {
	Name  string `json:"name"`
	Spans []Span `json:"spans,omitempty"`
	Marks []Mark `json:"marks,omitempty"`
}

// Tones of a span or mark, which the picture colours by. ToneUnknown is a span of time in which
// the evidence does not tell the state (before the first state known of the object, since its
// creation): drawn as unknown, never as the state known later.
const (
	ToneOK      = "ok"
	ToneWarning = "warning"
	ToneBad     = "bad"
	ToneInfo    = "info"
	ToneUnknown = "unknown"
)

// Span is a state from one time to another; To is the window's end for a state that lasts.
type Span struct {
	From  time.Time `json:"from"`
	To    time.Time `json:"to"`
	State string    `json:"state"`
	Tone  string    `json:"tone"`
}

// Mark kinds.
const (
	MarkChange  = "change"
	MarkEvent   = "event"
	MarkSymptom = "symptom"
	MarkRestart = "restart"
)

// Mark is something that happened at one time: a change (Ref X1), an event, a symptom (Ref
// S2), a container's restart.
type Mark struct {
	At    time.Time `json:"at"`
	Kind  string    `json:"kind"`
	Label string    `json:"label"`
	Ref   string    `json:"ref,omitempty"`
	Tone  string    `json:"tone"`
}

// Build makes the history of an object; false when nothing the incident holds names it (no
// object of the model, state, change, event or symptom).
func Build(in Input, o Object) (History, bool) {
	b := newBuilder(in)
	h := History{Object: o}
	var found bool
	switch o.Kind {
	case cluster.KindPod:
		g, ok := b.pod(o)
		h.Groups, found = []Group{g}, ok
	case cluster.KindNode:
		g, ok := b.node(o)
		h.Groups, found = []Group{g}, ok
	default:
		h.Groups, found = b.workload(o, &h.Notes)
	}
	if !found {
		return History{}, false
	}
	h.From, h.To = b.window(h.Groups)
	for gi := range h.Groups {
		g := &h.Groups[gi]
		lanes := g.Lanes[:0]
		for _, l := range g.Lanes {
			l = bound(l, h.From, h.To, g.Object, &h.Notes)
			if len(l.Spans)+len(l.Marks) > 0 {
				lanes = append(lanes, l)
			}
		}
		if len(lanes) > maxLanes {
			h.Notes = append(h.Notes, fmt.Sprintf("%s: %d lanes; the first %d are drawn", g.Object, len(lanes), maxLanes))
			lanes = lanes[:maxLanes]
		}
		g.Lanes = lanes
	}
	return h, true
}

// window is the span a history covers: the incident's (what its evidence records), widened to
// the marks of the history (a change made before the first event), padded by a twentieth.
// States that began earlier are drawn from its start. Zero when nothing of it is dated.
func (b *builder) window(groups []Group) (from, to time.Time) {
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
	if in := b.in.Report.Inputs; in.From != nil && in.To != nil {
		see(*in.From)
		see(*in.To)
	}
	for _, g := range groups {
		for _, l := range g.Lanes {
			for _, m := range l.Marks {
				see(m.At)
			}
			if from.IsZero() { // nothing else dated: the states say when
				for _, s := range l.Spans {
					if s.Tone != ToneUnknown {
						see(s.From)
					}
				}
			}
		}
	}
	if from.IsZero() {
		return time.Time{}, time.Time{} // nothing dated: nothing to draw
	}
	pad := max(to.Sub(from)/20, time.Minute)
	return from.Add(-pad).UTC(), to.Add(pad).UTC()
}

// bound ends a lane's lasting states at the window's end, and keeps at most maxSpans states
// (after the unknown time before the first) and maxMarks marks of it, those of the window first, saying in notes what it left out.
func bound(l Lane, from, to time.Time, o Object, notes *[]string) Lane {
	spans := l.Spans[:0]
	for _, s := range l.Spans {
		if s.To.IsZero() || s.To.After(to) {
			s.To = to
		}
		if s.To.Before(from) || s.From.After(to) {
			continue
		}
		spans = append(spans, s)
	}
	lead := 0 // the time before the first known state, which is no state
	if len(spans) > 0 && spans[0].Tone == ToneUnknown {
		lead = 1
	}
	if n := len(spans) - lead; n > maxSpans {
		*notes = append(*notes, fmt.Sprintf("%s, %s: %d states; the first %d are drawn, from %s", o, l.Name, n, maxSpans,
			spans[lead].From.UTC().Format(time.RFC3339)))
		spans = spans[:lead+maxSpans]
	}
	marks := l.Marks[:0]
	for _, m := range l.Marks {
		if !m.At.Before(from) && !m.At.After(to) {
			marks = append(marks, m)
		}
	}
	if n := len(marks); n > maxMarks {
		*notes = append(*notes, fmt.Sprintf("%s, %s: %d marks; the first %d are drawn", o, l.Name, n, maxMarks))
		marks = marks[:maxMarks]
	}
	l.Spans, l.Marks = spans, marks
	return l
}

// statesLane is the lane of the state lines the collector saw of an object, each lasting until
// the next (in time order).
func statesLane(name string, states []timeline.Change) Lane {
	l := Lane{Name: name}
	slices.SortStableFunc(states, func(a, b timeline.Change) int { return a.At.Compare(b.At) })
	for i, s := range states {
		sp := Span{From: s.At.UTC(), State: s.State, Tone: stateTone(s.State)}
		if i+1 < len(states) {
			sp.To = states[i+1].At.UTC()
		}
		if len(l.Spans) > 0 && l.Spans[len(l.Spans)-1].State == s.State {
			continue // the same line again (a resend): the span goes on
		}
		if len(l.Spans) > 0 {
			l.Spans[len(l.Spans)-1].To = sp.From
		}
		l.Spans = append(l.Spans, sp)
	}
	return l
}

// badWords and warnWords mark a state line that says something went wrong, or may have.
var (
	badWords  = []string{"Failed", "Evicted", "OOMKilled", "CrashLoopBackOff", "Error", "ImagePullBackOff", "ErrImagePull", "Ready false", "Ready unknown", "ready false", "disruption target", "Pressure", "unschedulable"}
	warnWords = []string{"Pending", "terminating", "cordoned", "ready unknown", "waiting", "restarts"}
)

// stateTone is how a state line reads: bad, a warning, or fine. How a container last stopped
// (cluster.PodState's "hub last stopped: Error") is its past, which the restart's mark tells:
// a pod running again after it reads as restarted (a warning), not as failing.
func stateTone(s string) string {
	parts := strings.Split(s, "; ")
	s = strings.Join(slices.DeleteFunc(parts, func(p string) bool { return strings.Contains(p, " last stopped: ") }), "; ")
	for _, w := range badWords {
		if strings.Contains(s, w) {
			return ToneBad
		}
	}
	for _, w := range warnWords {
		if strings.Contains(s, w) {
			return ToneWarning
		}
	}
	return ToneOK
}
