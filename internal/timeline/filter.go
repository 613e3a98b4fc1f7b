package timeline

import (
	"fmt"
	"slices"
	"time"
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
	// Collapse folds each burst of routine rows into one row (collapse.go); GroupBy, when
	// set, folds instead.
	Collapse bool
	// Expand lists the members of one row instead of the timeline: a symptom or cause group
	// (by its id) or a collapsed burst (by its Ref), the other fields still filtering them.
	Expand string
	Offset int
	Limit  int // 0 means all
}

var severityRank = map[string]int{SeverityInfo: 0, SeverityWarning: 1, SeverityCritical: 2}

// Match reports whether the filter selects an entry (paging aside).
func (f Filter) Match(e Entry) bool { return f.match(&e) }

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
	days := SpansDays(entries)
	page = make([]Entry, 0, min(len(lines), max(f.Limit, 0)))
	for i, l := range lines {
		if i >= f.Offset && (f.Limit == 0 || len(page) < f.Limit) {
			page = append(page, l.entry(days))
		}
	}
	return page, len(lines)
}

// lines is every row the filter selects, before paging.
func (f Filter) lines(entries []Entry) []line {
	var out []line
	if f.Expand != "" && isGroup(entries, f.Expand) {
		for i := range entries {
			if e := &entries[i]; e.Parent == f.Expand && f.match(e) {
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
		for _, l := range collapse(sel) {
			if l.b != nil && l.b.ref() == f.Expand {
				for _, m := range l.b.members {
					out = append(out, line{e: m})
				}
				return out
			}
		}
		return nil
	case f.GroupBy != "":
		grouped := make([]Entry, len(sel))
		for i, e := range sel {
			grouped[i] = *e
		}
		grouped = Group(grouped, f.GroupBy)
		for i := range grouped {
			out = append(out, line{e: &grouped[i]})
		}
		return out
	case f.Collapse:
		return collapse(sel)
	}
	out = make([]line, len(sel))
	for i, e := range sel {
		out[i] = line{e: e}
	}
	return out
}

// isGroup reports whether id names a symptom or cause group of the timeline.
func isGroup(entries []Entry, id string) bool {
	for i := range entries {
		if e := &entries[i]; e.Ref == id && e.Members > 0 && e.Parent == "" {
			return true
		}
	}
	return false
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

// Group folds the event entries that share a reason and a node (by "node") or a namespace (by
// "namespace") into one entry each, counting their occurrences and objects: a hundred pods
// failing to schedule become one line. Other entries pass unchanged; order is kept by the
// first entry of each group.
func Group(entries []Entry, by string) []Entry {
	if by != "node" && by != "namespace" {
		return entries
	}
	out := make([]Entry, 0, len(entries))
	index := map[string]int{}
	objects := map[string]map[string]bool{}
	for _, e := range entries {
		if e.Type != TypeEvent {
			out = append(out, e)
			continue
		}
		where := e.Node
		if by == "namespace" {
			where = e.Namespace
		}
		key := where + "\x00" + e.Kind
		i, ok := index[key]
		if !ok {
			index[key] = len(out)
			objects[key] = map[string]bool{e.Object: true}
			e.Count = max(e.Count, 1)
			out = append(out, e)
			continue
		}
		g := &out[i]
		g.Count += max(e.Count, 1)
		objects[key][e.Object] = true
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
		g.Object = fmt.Sprintf("%d objects", len(objects[key]))
		g.Source = ""
	}
	return out
}
