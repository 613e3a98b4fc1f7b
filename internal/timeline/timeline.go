// Package timeline puts what happened in an incident on one time axis: the cluster's events
// (repeats collapsed with their count), the symptoms and causes of the analysis (each linked to
// the other), the notes people wrote, and node changes (nodes added, nodes becoming not ready).
// It is pure: the server filters and pages what Build returns, and the pictures bucket it.
package timeline

import (
	"fmt"
	"sort"
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
	Last      *time.Time `json:"last,omitempty"` // last sighting, for collapsed events
	Type      string     `json:"type"`
	Kind      string     `json:"kind"` // event reason, symptom or cause kind, note kind, node change
	Severity  string     `json:"severity"`
	Summary   string     `json:"summary"`
	Namespace string     `json:"namespace,omitempty"`
	Node      string     `json:"node,omitempty"`
	Object    string     `json:"object,omitempty"` // "Pod prod/hub-7c9"
	Count     int        `json:"count,omitempty"`  // occurrences, for events
	Ref       string     `json:"ref,omitempty"`    // S1, C2, note-7
	Links     []string   `json:"links,omitempty"`  // a symptom's causes, a cause's symptoms
	Source    string     `json:"source,omitempty"` // file:line of the evidence
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

// Build makes the timeline of an incident, in time order (undated entries last). changes
// are the pod and node states the collector saw during the incident: a pod's become "event"
// entries of kind PodState, a node's "node" entries of kind NodeState.
func Build(m *cluster.Model, rep analysis.Report, notes []incident.Note, changes ...Change) []Entry {
	var out []Entry
	out = append(out, events(m)...)
	out = append(out, nodes(m)...)
	out = append(out, stateEntries(changes)...)
	causesOf := map[string][]string{}
	for _, c := range rep.Causes {
		for _, id := range c.Explains {
			causesOf[id] = append(causesOf[id], c.ID)
		}
	}
	when := map[string]*time.Time{}
	for _, s := range rep.Symptoms {
		when[s.ID] = s.At
		e := Entry{Type: TypeSymptom, Kind: s.Kind, Severity: SeverityWarning, Summary: s.Summary, Node: s.Node, Ref: s.ID, Links: causesOf[s.ID]}
		if criticalSymptoms[s.Kind] {
			e.Severity = SeverityCritical
		}
		if s.At != nil {
			e.At = *s.At
		}
		if len(s.Objects) > 0 {
			o := s.Objects[0]
			e.Namespace, e.Object = o.Namespace, objectName(o.Kind, o.Namespace, o.Name)
		}
		if len(s.Evidence) > 0 {
			e.Source = location(s.Evidence[0])
		}
		out = append(out, e)
	}
	for _, c := range rep.Causes {
		e := Entry{Type: TypeCause, Kind: c.Kind, Severity: SeverityWarning, Summary: c.Summary, Ref: c.ID, Links: c.Explains}
		if c.Role == analysis.Root {
			e.Severity = SeverityCritical
		}
		for _, id := range c.Explains { // a cause stands where the first symptom it explains does
			if t := when[id]; t != nil && (e.At.IsZero() || t.Before(e.At)) {
				e.At = *t
			}
		}
		if len(c.Evidence) > 0 {
			e.Source = location(c.Evidence[0])
		}
		out = append(out, e)
	}
	for _, n := range notes {
		summary := firstLine(n.Body)
		if n.Author != "" {
			summary = n.Author + ": " + summary
		}
		out = append(out, Entry{At: n.At, Type: TypeNote, Kind: n.Kind, Severity: SeverityInfo, Summary: summary,
			Ref: fmt.Sprintf("note-%d", n.ID), Links: n.Causes})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.At.IsZero() != b.At.IsZero() {
			return !a.At.IsZero()
		}
		if !a.At.Equal(b.At) {
			return a.At.Before(b.At)
		}
		return typeOrder[a.Type] < typeOrder[b.Type]
	})
	return out
}

// typeOrder puts, at one instant, what happened before what it means.
var typeOrder = map[string]int{TypeNode: 0, TypeEvent: 1, TypeSymptom: 2, TypeCause: 3, TypeNote: 4}

// events collapses repeats: events about the same object with the same reason and message are
// one entry, with their counts added and the span from the first to the last sighting.
func events(m *cluster.Model) []Entry {
	by := map[string]*Entry{}
	var order []string
	for _, o := range m.Events {
		e := o.Event
		count, first, last := cluster.EventTimes(e)
		io := e.InvolvedObject
		key := strings.Join([]string{io.Kind, io.Namespace, io.Name, e.Reason, e.Message}, "\x00")
		if x, ok := by[key]; ok {
			x.Count += int(count)
			if first.Before(x.At) {
				x.At = first
			}
			if x.Last == nil || last.After(*x.Last) {
				x.Last = &last
			}
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
			Node: node, Object: objectName(io.Kind, io.Namespace, io.Name), Count: int(count), Source: o.Source.String()}
		if last.After(first) {
			entry.Last = &last
		}
		by[key] = entry
		order = append(order, key)
	}
	out := make([]Entry, 0, len(order))
	for _, k := range order {
		out = append(out, *by[k])
	}
	return out
}

// nodes records node changes the objects show: creation, and the last change of Ready.
func nodes(m *cluster.Model) []Entry {
	var out []Entry
	for _, o := range m.Nodes {
		n := o.Node
		pool, _ := cluster.NodePool(n.Labels)
		if t := n.CreationTimestamp.Time; !t.IsZero() {
			out = append(out, Entry{At: t.UTC(), Type: TypeNode, Kind: "NodeAdded", Severity: SeverityInfo, Node: n.Name,
				Summary: fmt.Sprintf("node %s added to pool %s", n.Name, pool), Object: "Node " + n.Name, Source: o.Source.String()})
		}
		for _, c := range n.Status.Conditions {
			if c.Type != corev1.NodeReady || c.Status == corev1.ConditionTrue || c.LastTransitionTime.IsZero() {
				continue
			}
			out = append(out, Entry{At: c.LastTransitionTime.Time.UTC(), Type: TypeNode, Kind: "NodeNotReady", Severity: SeverityWarning, Node: n.Name,
				Summary: fmt.Sprintf("node %s not ready: %s %s", n.Name, c.Reason, c.Message), Object: "Node " + n.Name, Source: o.Source.String()})
		}
	}
	return out
}

func objectName(kind, namespace, name string) string {
	if namespace == "" {
		return strings.TrimSpace(kind + " " + name)
	}
	return kind + " " + namespace + "/" + name
}

func location(e analysis.Evidence) string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	return e.File
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// troubleWords mark a state line that says something went wrong.
var troubleWords = []string{"Failed", "Evicted", "OOMKilled", "CrashLoopBackOff", "Error", "unschedulable", "Ready false", "Ready unknown",
	"Pressure", "ImagePullBackOff", "ErrImagePull", "terminating", "disruption target"}

func stateEntries(changes []Change) []Entry {
	out := make([]Entry, 0, len(changes))
	for _, c := range changes {
		sev := SeverityInfo
		for _, w := range troubleWords {
			if strings.Contains(c.State, w) {
				sev = SeverityWarning
				break
			}
		}
		e := Entry{At: c.At.UTC(), Severity: sev, Summary: c.State, Source: "collected"}
		if c.Kind == cluster.KindNode {
			e.Type, e.Kind, e.Node, e.Object = TypeNode, "NodeState", c.Name, objectName(c.Kind, "", c.Name)
		} else {
			e.Type, e.Kind, e.Namespace, e.Object = TypeEvent, "PodState", c.Namespace, objectName(c.Kind, c.Namespace, c.Name)
		}
		out = append(out, e)
	}
	return out
}
