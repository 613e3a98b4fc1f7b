package timeline

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// Filter selects entries; zero fields select everything. It maps one to one onto the URL of a
// timeline view, so that a view can be shared as a link.
type Filter struct {
	From, To  time.Time
	Namespace string
	Node      string
	Types     []string // event, symptom, cause, note, node
	Kind      string   // event reason or symptom, cause, note kind
	Severity  string   // the least severity shown: info, warning or critical
	GroupBy   string   // "node" or "namespace": events of one reason there are one entry
	// Collapse folds each burst of routine rows into one row, and the rows cited as evidence
	// by a symptom or cause into one row under it (collapse.go); GroupBy then groups the
	// events left unfolded.
	Collapse bool
	// Expand lists the rows one row stands for instead of the timeline: a symptom's or cause's
	// members and the rows cited as its evidence (by its id), or a collapsed burst's (by its
	// Ref), the other fields still filtering them.
	Expand string
	Offset int
	Limit  int // 0 means all
}

var severityRank = map[string]int{SeverityInfo: 0, SeverityWarning: 1, SeverityCritical: 2}

func (f Filter) match(e *Entry) bool {
	switch {
	case !f.From.IsZero() && e.At.Before(f.From) && (e.Last == nil || e.Last.Before(f.From)):
		return false
	case !f.To.IsZero() && e.At.After(f.To):
		return false
	case f.Namespace != "" && e.Namespace != f.Namespace:
		return false
	case f.Node != "" && e.Node != f.Node:
		return false
	case len(f.Types) > 0 && !slices.Contains(f.Types, e.Type):
		return false
	case f.Kind != "" && e.Kind != f.Kind:
		return false
	case f.Severity != "" && severityRank[e.Severity] < severityRank[f.Severity]:
		return false
	}
	return true
}

// Apply returns the page of rows the filter selects (grouped or collapsed when asked, or the
// members of the row it expands), and how many it selects in all. The rows of the API and of the
// page are the same, as both call it with the same filter.
func Apply(entries []Entry, f Filter) (page []Entry, total int) {
	lines := f.lines(entries)
	page = make([]Entry, 0, min(len(lines), max(f.Limit, 0)))
	for i, l := range lines {
		if i >= f.Offset && (f.Limit == 0 || len(page) < f.Limit) {
			page = append(page, l.entry())
		}
	}
	return page, len(lines)
}

// lines is every row the filter selects, before paging.
func (f Filter) lines(entries []Entry) []line {
	var out []line
	if f.Expand != "" && !strings.HasPrefix(f.Expand, BurstPrefix) {
		// A symptom or cause: its members, and the rows cited as its evidence that fold under it.
		for i := range entries {
			if e := &entries[i]; (e.Parent == f.Expand || (e.Parent == "" && owner(e) == f.Expand)) && f.match(e) {
				out = append(out, line{e: e})
			}
		}
		return out
	}
	// A group is selected when it matches, or when one of its members does: a group of pods on
	// many nodes is on the timeline of each.
	viaMember := map[string]bool{}
	for i := range entries {
		if e := &entries[i]; e.Parent != "" && !viaMember[e.Parent] && f.match(e) {
			viaMember[e.Parent] = true
		}
	}
	var sel []*Entry
	for i := range entries {
		e := &entries[i]
		if e.Parent == "" && (f.match(e) || (e.Members > 0 && viaMember[e.Ref])) {
			sel = append(sel, e)
		}
	}
	switch {
	case f.Expand != "":
		for _, l := range collapse(sel, kindsOf(entries)) {
			if l.b != nil && l.b.ref() == f.Expand {
				for _, m := range l.b.members {
					out = append(out, line{e: m})
				}
				return out
			}
		}
		return nil
	case f.Collapse:
		// Bursts and evidence stay folded under a grouping too: it groups the rows left.
		lines := collapse(sel, kindsOf(entries))
		if f.GroupBy != "" {
			return groupLines(lines, f.GroupBy)
		}
		return lines
	case f.GroupBy != "":
		return groupLines(asLines(sel), f.GroupBy)
	}
	return asLines(sel)
}

func asLines(sel []*Entry) []line {
	out := make([]line, len(sel))
	for i, e := range sel {
		out[i] = line{e: e}
	}
	return out
}

// kindsOf is the kind of each symptom and cause of the timeline, by id.
func kindsOf(entries []Entry) map[string]string {
	out := map[string]string{}
	for i := range entries {
		if e := &entries[i]; e.Parent == "" && (e.Type == TypeSymptom || e.Type == TypeCause) && e.Ref != "" {
			out[e.Ref] = e.Kind
		}
	}
	return out
}

// Bucket counts the events of one interval, for the events-per-minute picture.
type Bucket struct {
	At       time.Time `json:"at"`
	Events   int       `json:"events"`
	Warnings int       `json:"warnings"`
}

// Buckets counts event occurrences per interval of width between from and to, a collapsed
// event counting its occurrences at its first sighting.
func Buckets(entries []Entry, from, to time.Time, width time.Duration) []Bucket {
	if width <= 0 || !to.After(from) {
		return nil
	}
	n := int(to.Sub(from)/width) + 1
	out := make([]Bucket, n)
	for i := range out {
		out[i].At = from.Add(time.Duration(i) * width)
	}
	for _, e := range entries {
		if e.Type != TypeEvent || e.At.Before(from) || e.At.After(to) {
			continue
		}
		b := &out[int(e.At.Sub(from)/width)]
		c := max(e.Count, 1)
		b.Events += c
		if e.Severity != SeverityInfo {
			b.Warnings += c
		}
	}
	return out
}

// groupLines groups the event rows of a view that are not folded (Group), leaving folded
// rows where they are.
func groupLines(lines []line, by string) []line {
	if by != "node" && by != "namespace" {
		return lines
	}
	g := newGrouper(by)
	out := lines[:0:0]
	for _, l := range lines {
		if l.b != nil {
			out = append(out, l)
		} else if x := g.add(*l.e); x != nil {
			out = append(out, line{e: x})
		}
	}
	return out
}

// grouper merges event entries of one reason and place (a node or a namespace).
type grouper struct {
	by      string
	index   map[string]*Entry
	objects map[string]map[string]bool
}

func newGrouper(by string) *grouper {
	return &grouper{by: by, index: map[string]*Entry{}, objects: map[string]map[string]bool{}}
}

// add takes an entry: it returns the row to show for it when it starts one (a copy), or nil
// when it was merged into an earlier row.
func (gr *grouper) add(e Entry) *Entry {
	if e.Type != TypeEvent {
		return &e
	}
	where := e.Node
	if gr.by == "namespace" {
		where = e.Namespace
	}
	key := where + "\x00" + e.Kind
	g, ok := gr.index[key]
	if !ok {
		gr.objects[key] = map[string]bool{e.Object: true}
		e.Count = max(e.Count, 1)
		gr.index[key] = &e
		return &e
	}
	g.Count += max(e.Count, 1)
	gr.objects[key][e.Object] = true
	last := e.At
	if e.Last != nil {
		last = *e.Last
	}
	if g.Last == nil || last.After(*g.Last) {
		g.Last = &last
	}
	if severityRank[e.Severity] > severityRank[g.Severity] {
		g.Severity = e.Severity
	}
	g.Links = union(slices.Clip(g.Links), e.Links) // the first entry's links are the timeline's: never append to them
	g.Object, g.Of = fmt.Sprintf("%d objects", len(gr.objects[key])), analysis.ObjectRef{}
	g.Source = ""
	return nil
}
