package timeline

// Test-only helpers: no production path calls them.

// Match reports whether the filter selects an entry (paging aside).
func (f Filter) Match(e Entry) bool { return f.match(&e) }

// Group folds the event entries that share a reason and a node (by "node") or a namespace (by
// "namespace") into one entry each, counting their occurrences and objects: a hundred pods
// failing to schedule become one line. Other entries pass unchanged; order is kept by the
// first entry of each group.
func Group(entries []Entry, by string) []Entry {
	if by != "node" && by != "namespace" {
		return entries
	}
	g := newGrouper(by)
	rows := make([]*Entry, 0, len(entries))
	for _, e := range entries {
		if x := g.add(e); x != nil {
			rows = append(rows, x)
		}
	}
	out := make([]Entry, len(rows))
	for i, e := range rows {
		out[i] = *e
	}
	return out
}
