// Package timeline puts what happened in an incident on one time axis: the cluster's events
// (repeats collapsed with their count), the symptoms and causes of the analysis (each linked to
// the other), the notes people wrote, and node changes (nodes added, nodes becoming not ready).
// It is pure: the server filters and pages what Build returns, and the pictures bucket it.
//
// Every entry has a real time. A symptom or cause without one of its own takes the time of
// the evidence it came from and says so (AtFrom); what has no time at all is left out. The
// changes the analysis read (to a workload, node or ConfigMap) are rows of their own with their
// diff, linked to the causes that stand on them and the symptoms those explain (changes.go). Apply
// collapses bursts of routine rows (nodes added, pods scheduled and started) into one row
// each, never a symptom or a row cited as evidence (collapse.go).
package timeline

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/incident"
)

// Entry types.
const (
	TypeEvent   = "event"
	TypeSymptom = "symptom"
	TypeCause   = "cause"
	TypeNote    = "note"
	TypeNode    = "node"
	// TypeChange is a change to a workload, node or ConfigMap the analysis read
	// (analysis.Report.Changes): its Diff says what changed, and its Ref is the change's id.
	TypeChange = "change"
)

// Severities, from the least to the most alarming.
const (
	SeverityInfo     = "info"
	SeverityWarning  = "warning"
	SeverityCritical = "critical"
)

// Entry is one thing on the time axis.
type Entry struct {
	At        time.Time  `json:"at"`
	Last      *time.Time `json:"last,omitempty"` // last sighting, for collapsed events; a group's last member
	Type      string     `json:"type"`
	Kind      string     `json:"kind"` // event reason, symptom or cause kind, note kind, node change
	Severity  string     `json:"severity"`
	Summary   string     `json:"summary"`
	Namespace string     `json:"namespace,omitempty"`
	Node      string     `json:"node,omitempty"`
	Pool      string     `json:"pool,omitempty"`   // the node pool of the node
	Object    string     `json:"object,omitempty"` // "Pod prod/hub-7c9": Of, written for people
	// Of is the object the row is about, as a value: zero when it is about none, or about
	// several (a group's "12 objects").
	Of    analysis.ObjectRef `json:"-"`
	Count int                `json:"count,omitempty"` // occurrences, for events; members, for a group
	Ref   string             `json:"ref,omitempty"`   // S1, C2, note-7, or the key of a collapsed row
	// Links are a symptom's causes, a cause's symptoms, a note's cause kinds, and the symptoms
	// and causes an event or node change is evidence of.
	Links  []string `json:"links,omitempty"`
	Source string   `json:"source,omitempty"` // file:line of the evidence
	// AtFrom says where the time came from when the row has none of its own: "evidence
	// FILE:LINE OBJECT" (what a symptom came from), "symptom S3" (the first symptom a cause
	// explains), "member S1.4" (a group's first member), "group S1" (a member's group), or what
	// the analysis says it borrowed the symptom's time from.
	AtFrom string `json:"at_from,omitempty"`
	// Members is how many rows this one stands for: the members of a symptom or cause group,
	// or the routine rows of a collapsed burst. ?expand=Ref lists them.
	Members int `json:"members,omitempty"`
	// Kinds counts a collapsed row's occurrences by kind (event reason, node change).
	Kinds map[string]int `json:"kinds,omitempty"`
	// Parent is the group a member row belongs to (a symptom or cause id): the row is listed
	// when its group is expanded, not in the timeline itself.
	Parent string `json:"parent,omitempty"`
	// Diff is what a change row changed (TypeChange only).
	Diff *Diff `json:"diff,omitempty"`
}

// end is the last time an entry covers.
func (e *Entry) end() time.Time {
	if e.Last != nil && e.Last.After(e.At) {
		return *e.Last
	}
	return e.At
}

// criticalSymptoms are the symptoms users feel directly.
var criticalSymptoms = map[string]bool{analysis.PodEvicted: true, analysis.OOMKilled: true, analysis.CrashLoopBackOff: true,
	analysis.LivenessProbeFailed: true, analysis.NodeNotReady: true}

// Change is a pod or node state the collector saw: when, which object, and its state line
// (cluster.PodState, cluster.NodeState).
type Change struct {
	At                    time.Time
	Kind, Namespace, Name string
	State                 string
}

// Build makes the timeline of an incident, in time order. changes are the pod and node states
// the collector saw during the incident: a pod's become "event" entries of kind PodState, a
// node's "node" entries of kind NodeState. A group's members follow as entries of their own
// with Parent set. Nothing without a real time is returned: a symptom or cause without one
// borrows it (see AtFrom), and one with nothing to borrow from is left out, as is an event
// that carries no timestamp.
func Build(m *cluster.Model, rep analysis.Report, notes []incident.Note, changes ...Change) []Entry {
	cites := citationsOf(rep)
	clock := newClock(m)
	var out []Entry
	out = append(out, events(m, cites, clock)...)
	out = append(out, nodes(m, cites)...)
	out = append(out, stateEntries(changes, clock)...)
	out = append(out, changeEntries(rep)...)
	causesOf := map[string][]string{}
	for _, c := range rep.Causes {
		for _, id := range c.Explains {
			causesOf[id] = append(causesOf[id], c.ID)
		}
	}
	when := map[string]time.Time{} // symptom id → its time on the timeline, members' too
	for _, s := range rep.Symptoms {
		out = append(out, symptomEntries(s, causesOf[s.ID], clock, when)...)
	}
	for _, c := range rep.Causes {
		out = append(out, causeChanges(causeEntries(c, clock, when), c)...)
	}
	for _, n := range notes {
		if n.At.IsZero() {
			continue
		}
		summary := firstLine(n.Body)
		if n.Author != "" {
			summary = n.Author + ": " + summary
		}
		out = append(out, Entry{At: n.At.UTC(), Type: TypeNote, Kind: n.Kind, Severity: SeverityInfo, Summary: summary,
			Ref: fmt.Sprintf("note-%d", n.ID), Links: n.Causes})
	}
	sortEntries(out)
	return out
}

// sortEntries puts entries in time order, and at one instant by typeOrder.
func sortEntries(out []Entry) {
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if !a.At.Equal(b.At) {
			return a.At.Before(b.At)
		}
		return typeOrder[a.Type] < typeOrder[b.Type]
	})
}

// typeOrder puts, at one instant, what happened before what it means; an alert, which fires on
// what happened, with the symptoms.
var typeOrder = map[string]int{TypeChange: 0, TypeNode: 1, TypeEvent: 2, TypeAlert: 3, TypeSymptom: 3, TypeCause: 4, TypeNote: 5}

// symptomEntries is a symptom's row and, for a group, its members' rows. A row without a time of
// its own takes its evidence's; a member without one takes its group's.
func symptomEntries(s analysis.Symptom, causes []string, clock *clock, when map[string]time.Time) []Entry {
	sev := SeverityWarning
	if criticalSymptoms[s.Kind] || s.Critical {
		sev = SeverityCritical
	}
	row := func(s analysis.Symptom) Entry {
		e := Entry{Type: TypeSymptom, Kind: s.Kind, Severity: sev, Summary: clip(s.Summary), Node: s.Node, Ref: s.ID, Links: causes}
		if len(s.Objects) > 0 {
			o := s.Objects[0]
			e.Namespace = o.Namespace
			e.setObject(o.Kind, o.Namespace, o.Name)
		}
		if len(s.Evidence) > 0 {
			e.Source = location(s.Evidence[0])
		}
		e.Pool = clock.pool(e.Node)
		switch {
		case s.At != nil && !s.At.IsZero():
			e.At = s.At.UTC()
			e.AtFrom = s.Details.AtFrom // set when the analysis borrowed it already
		default:
			e.At, e.AtFrom = clock.evidenceTime(s.Evidence)
		}
		if s.Until != nil && s.Until.After(e.At) {
			u := s.Until.UTC()
			e.Last = &u
		}
		return e
	}
	g := row(s)
	members := make([]Entry, 0, len(s.Members))
	for i, ms := range s.Members {
		e := row(ms)
		e.Parent = g.Ref
		if e.Ref == "" {
			e.Ref = fmt.Sprintf("%s.%d", g.Ref, i+1)
		}
		if g.At.IsZero() || (!e.At.IsZero() && e.At.Before(g.At) && g.AtFrom != "") {
			// A group without a time of its own stands where its first dated member does.
			g.At, g.AtFrom = e.At, "member "+e.Ref
		}
		members = append(members, e)
	}
	for i := range members {
		if members[i].At.IsZero() && !g.At.IsZero() {
			members[i].At, members[i].AtFrom = g.At, "group "+g.Ref
		}
		if !members[i].At.IsZero() {
			when[members[i].Ref] = members[i].At
		}
	}
	if len(members) > 0 {
		g.Members, g.Count = len(members), max(s.Count, len(members))
	}
	if g.At.IsZero() {
		return nil // nothing to place it by: the analysis lists it, the timeline cannot
	}
	when[g.Ref] = g.At
	return append([]Entry{borrowed(g)}, borrowedAll(members)...)
}

// causeEntries is a cause's row and its members'. A cause stands where the first symptom it
// explains does (it has no time of its own), else where its first member or its evidence does.
func causeEntries(c analysis.Cause, clock *clock, when map[string]time.Time) []Entry {
	sev := SeverityWarning
	if c.Role == analysis.Root {
		sev = SeverityCritical
	}
	row := func(c analysis.Cause) Entry {
		e := Entry{Type: TypeCause, Kind: c.Kind, Severity: sev, Summary: clip(c.Summary), Ref: c.ID, Links: c.Explains}
		for _, id := range c.Explains {
			if t, ok := when[id]; ok && (e.At.IsZero() || t.Before(e.At)) {
				e.At, e.AtFrom = t, "symptom "+id
			}
		}
		if e.At.IsZero() {
			e.At, e.AtFrom = clock.evidenceTime(c.Evidence)
		}
		if len(c.Evidence) > 0 {
			e.Source = location(c.Evidence[0])
		}
		return e
	}
	g := row(c)
	members := make([]Entry, 0, len(c.Members))
	for i, mc := range c.Members {
		e := row(mc)
		e.Parent, e.Severity = g.Ref, g.Severity
		if e.Ref == "" || e.Ref == g.Ref {
			e.Ref = fmt.Sprintf("%s.%d", g.Ref, i+1)
		}
		if g.At.IsZero() || (!e.At.IsZero() && e.At.Before(g.At)) {
			g.At, g.AtFrom = e.At, "member "+e.Ref
		}
		members = append(members, e)
	}
	for i := range members {
		if members[i].At.IsZero() && !g.At.IsZero() {
			members[i].At, members[i].AtFrom = g.At, "group "+g.Ref
		}
	}
	if len(members) > 0 {
		g.Members, g.Count = len(members), max(c.Count, len(members))
	}
	if g.At.IsZero() {
		return nil
	}
	return append([]Entry{borrowed(g)}, borrowedAll(members)...)
}

// borrowed says in a row's summary where its time came from, when it is not its own, so that
// people reading the page see it as the API's at_from says it.
func borrowed(e Entry) Entry {
	if e.AtFrom != "" {
		e.Summary += " (time from " + e.AtFrom + ")"
	}
	return e
}

func borrowedAll(es []Entry) []Entry {
	out := es[:0]
	for _, e := range es {
		if !e.At.IsZero() {
			out = append(out, borrowed(e))
		}
	}
	return out
}

// events collapses repeats: events about the same object with the same reason and message are
// one entry, with their counts added and the span from the first to the last sighting. An event
// cited as evidence links to the symptoms and causes that cite it. An event with no timestamp
// at all is left out.
func events(m *cluster.Model, cites citations, clock *clock) []Entry {
	by := map[string]*Entry{}
	var order []string
	// An incident has up to some 100,000 events, most of them repeats and cited by nothing: the
	// keys of each are built in buffers, and made strings only for a new row or a citation.
	var at, ref, key []byte
	for _, o := range m.Events {
		e := o.Event
		count, first, last := cluster.EventTimes(e)
		if first.IsZero() { // only a last sighting: that is the time it was seen
			first = last
		}
		if first.IsZero() {
			continue
		}
		at = appendSource(append(at[:0], "at\x00"...), o.Source)
		ref = appendObjectName(append(ref[:0], "ref\x00"...), "Event", e.Namespace, e.Name)
		atIDs, atCited := cites[string(at)]
		refIDs, refCited := cites[string(ref)]
		if atCited {
			clock.sawCited(at, first)
		}
		if refCited {
			clock.sawCited(ref, first)
		}
		ids := union(slices.Clone(atIDs), refIDs)
		io := e.InvolvedObject
		key = append(key[:0], io.Kind...)
		for _, f := range []string{io.Namespace, io.Name, e.Reason, e.Message} {
			key = append(append(key, 0), f...)
		}
		if x, ok := by[string(key)]; ok {
			x.Count += int(count)
			if first.Before(x.At) {
				x.At = first
			}
			if x.Last == nil || last.After(*x.Last) {
				x.Last = &last
			}
			x.Links = union(x.Links, ids)
			continue
		}
		sev := SeverityInfo
		if e.Type == corev1.EventTypeWarning {
			sev = SeverityWarning
		}
		node := e.Source.Host
		if io.Kind == cluster.KindNode {
			node = io.Name
		} else if p := m.Pod(io.Namespace, io.Name); p != nil && p.Pod.Spec.NodeName != "" {
			node = p.Pod.Spec.NodeName
		}
		entry := &Entry{At: first, Type: TypeEvent, Kind: e.Reason, Severity: sev, Summary: e.Message, Namespace: io.Namespace,
			Node: node, Pool: clock.pool(node), Count: int(count), Source: o.Source.String(), Links: ids}
		entry.setObject(io.Kind, io.Namespace, io.Name)
		if last.After(first) {
			entry.Last = &last
		}
		k := string(key)
		by[k] = entry
		order = append(order, k)
	}
	out := make([]Entry, 0, len(order))
	for _, k := range order {
		out = append(out, *by[k])
	}
	return out
}

// appendSource appends what cluster.Source.String returns, without formatting.
func appendSource(b []byte, s cluster.Source) []byte {
	b = append(b, s.File...)
	if s.Line > 0 {
		return strconv.AppendInt(append(b, ':'), int64(s.Line), 10)
	}
	return strconv.AppendInt(append(b, '@'), s.Offset, 10)
}

// appendObjectName appends what objectName returns.
func appendObjectName(b []byte, kind, namespace, name string) []byte {
	if namespace == "" {
		return append(b, objectName(kind, namespace, name)...)
	}
	b = append(append(append(b, kind...), ' '), namespace...)
	return append(append(b, '/'), name...)
}

// nodes records node changes the objects show: creation, and the last change of Ready. A change
// is evidence when the field it shows is cited (metadata.creationTimestamp, the Ready condition).
func nodes(m *cluster.Model, cites citations) []Entry {
	var out []Entry
	for _, o := range m.Nodes {
		n := o.Node
		pool, _ := cluster.NodePool(n.Labels)
		of := analysis.ObjectRef{Kind: cluster.KindNode, Name: n.Name}
		ref := of.String()
		if t := n.CreationTimestamp.Time; !t.IsZero() {
			out = append(out, Entry{At: t.UTC(), Type: TypeNode, Kind: "NodeAdded", Severity: SeverityInfo, Node: n.Name, Pool: pool,
				Summary: fmt.Sprintf("node %s added to pool %s", n.Name, pool), Object: ref, Of: of, Source: o.Source.String(),
				Links: cites.field(ref, "metadata.creationTimestamp")})
		}
		for _, c := range n.Status.Conditions {
			if c.Type != corev1.NodeReady || c.Status == corev1.ConditionTrue || c.LastTransitionTime.IsZero() {
				continue
			}
			out = append(out, Entry{At: c.LastTransitionTime.Time.UTC(), Type: TypeNode, Kind: "NodeNotReady", Severity: SeverityWarning, Node: n.Name, Pool: pool,
				Summary: fmt.Sprintf("node %s not ready: %s %s", n.Name, c.Reason, c.Message), Object: ref, Of: of, Source: o.Source.String(),
				Links: cites.field(ref, "status.conditions[Ready]")})
		}
	}
	return out
}

// setObject names the object the row is about, as a value and for people.
func (e *Entry) setObject(kind, namespace, name string) {
	e.Of = analysis.ObjectRef{Kind: kind, Namespace: namespace, Name: name}
	e.Object = objectName(kind, namespace, name)
}

func objectName(kind, namespace, name string) string {
	if namespace == "" {
		return strings.TrimSpace(kind + " " + name)
	}
	return kind + " " + namespace + "/" + name
}

func location(e analysis.Evidence) string {
	if e.Line > 0 {
		return e.File + ":" + strconv.Itoa(e.Line)
	}
	return e.File
}

// maxSummary bounds the summary of a symptom or cause on the timeline, in characters: a cause
// merged from a hundred nodes can say a hundred things, which the analysis keeps whole (the
// row's ref leads to it) and the timeline, a page of hundreds of rows, cannot.
const maxSummary = 300

// clip shortens a summary to maxSummary characters, at the end of a clause or a word.
func clip(s string) string {
	r := []rune(s)
	if len(r) <= maxSummary {
		return s
	}
	cut := string(r[:maxSummary])
	if i := strings.LastIndex(cut, "; "); i > maxSummary/2 {
		cut = cut[:i]
	} else if i := strings.LastIndex(cut, " "); i > maxSummary/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + " …"
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// troubleWords mark a state line that says something went wrong.
var troubleWords = []string{"Failed", "Evicted", "OOMKilled", "CrashLoopBackOff", "Error", "unschedulable", "Ready false", "Ready unknown",
	"Pressure", "ImagePullBackOff", "ErrImagePull", "terminating", "disruption target"}

func stateEntries(changes []Change, clock *clock) []Entry {
	out := make([]Entry, 0, len(changes))
	for _, c := range changes {
		if c.At.IsZero() {
			continue
		}
		sev := SeverityInfo
		for _, w := range troubleWords {
			if strings.Contains(c.State, w) {
				sev = SeverityWarning
				break
			}
		}
		e := Entry{At: c.At.UTC(), Severity: sev, Summary: c.State, Source: "collected"}
		if c.Kind == cluster.KindNode {
			e.Type, e.Kind, e.Node = TypeNode, "NodeState", c.Name
			e.setObject(c.Kind, "", c.Name)
		} else {
			e.Type, e.Kind, e.Namespace = TypeEvent, "PodState", c.Namespace
			e.setObject(c.Kind, c.Namespace, c.Name)
			e.Node = clock.podNode(c.Namespace, c.Name)
		}
		e.Pool = clock.pool(e.Node)
		out = append(out, e)
	}
	return out
}
