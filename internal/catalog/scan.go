package catalog

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Match is a message of the catalogue found in a text.
type Match struct {
	Entry *Entry
	// Start and End are the message's bounds in the text searched.
	Start, End int
	// Text is the message as it stands in the text, from its first fixed word to its end.
	Text     string
	captures []string // by the entry's capture order
	tailAt   int      // where the capture that takes the rest of the text starts; -1 without one
}

func newMatch(e *Entry, s string, loc []int) Match {
	m := Match{Entry: e, Start: loc[0], End: loc[1], Text: s[loc[0]:loc[1]], tailAt: -1}
	if n := len(e.captures); e.tail && n > 0 && loc[2*n] >= 0 {
		m.tailAt = loc[2*n]
	}
	for i := range e.captures {
		a, b := loc[2+2*i], loc[3+2*i]
		if a < 0 {
			m.captures = append(m.captures, "")
			continue
		}
		m.captures = append(m.captures, s[a:b])
	}
	return m
}

// Capture returns the text of the named capture, or "" when the entry has none of that name.
func (m Match) Capture(name string) string {
	for i, n := range m.Entry.captures {
		if n == name {
			return m.captures[i]
		}
	}
	return ""
}

// In places m, found in text[off:], in the whole text: its bounds moved by off.
func (m Match) In(off int) Match {
	m.Start += off
	m.End += off
	if m.tailAt >= 0 {
		m.tailAt += off
	}
	return m
}

// Reason is the reason of the event the message is written with: the entry's, but for the
// kubelet's admission refusals, whose reason is "OutOf" and the resource the message names
// (pkg/kubelet/lifecycle/predicate.go: fmt.Sprintf("OutOf%s", re.ResourceName)).
func (m Match) Reason() string {
	if r := m.Capture("resource"); strings.HasPrefix(m.Entry.Reason, "OutOf") && r != "" && !strings.ContainsAny(r, " \t") {
		return "OutOf" + r
	}
	return m.Entry.Reason
}

// Pod returns the pod the message names: from a {podref} ("ns/name"), or a {pod} with the
// {namespace} beside it. Name is "" when the message names no pod.
func (m Match) Pod() (namespace, name string) {
	if ref := m.Capture("podref"); ref != "" {
		namespace, name, _ = strings.Cut(ref, "/")
		return namespace, name
	}
	namespace, name = m.Capture("namespace"), m.Capture("pod")
	if pc := m.Capture("podcontainer"); pc != "" && name == "" {
		// The prober's "<pod>:<container>" (1.2-1.20: format.Pod(pod) + ":" + container.Name).
		if i := strings.LastIndexByte(pc, ':'); i > 0 {
			name = pc[:i]
		}
	}
	if ns, n, ok := podDesc(name); ok && namespace == "" {
		return ns, n
	}
	return namespace, name
}

// podDesc reads the kubelet's way of naming a pod in its messages, "<name>_<namespace>(<uid>)"
// (pkg/kubelet/util/format.Pod), which a {pod:word} capture takes whole. A namespace is a DNS
// label, which holds no underscore: the last one ends the name, which a paste may have
// replaced with one that holds some ("some_pod_default(…)", a name redacted by hand), and
// which is read so only in the whole form, with its uid.
func podDesc(s string) (namespace, name string, ok bool) {
	s, uid, hasUID := strings.Cut(s, "(")
	i := strings.LastIndexByte(s, '_')
	if i < 0 {
		return "", "", false
	}
	name, namespace = s[:i], s[i+1:]
	if name != "" && namespace == "" && hasUID && uid != "" && !strings.Contains(name, "_") {
		return "", name, true // "name_(uid)": a paste that lost the namespace (redacted)
	}
	if name == "" || namespace == "" || strings.Contains(name, "_") && (!hasUID || uid == "") {
		return "", "", false
	}
	return namespace, name, true
}

// workloads are the captures that name a controller of pods.
var workloads = []string{"deployment", "replicaset", "replicationcontroller", "statefulset", "daemonset", "job", "cronjob"}

// Workload returns the controller of pods the message names in a capture of its kind's name
// ("create Pod web-1 in StatefulSet {statefulset:name} failed …"): its Kubernetes kind and its
// name; "" when it names none.
func (m Match) Workload() (kind, name string) {
	for _, w := range workloads {
		if n := m.Capture(w); n != "" {
			return ObjectKind(w), n
		}
	}
	return "", ""
}

// Node returns the node the message names, or "".
func (m Match) Node() string { return m.Capture("node") }

// Count returns the {count} capture as a number; ok is false without one.
func (m Match) Count() (int, bool) {
	n, err := strconv.Atoi(m.Capture("count"))
	return n, err == nil
}

// maxScan bounds the text Find reads: a longer text is read up to it. Messages are short, and
// the scanner is given lines.
const maxScan = 64 << 10

// Find returns the messages of the catalogue that text holds, in order, none overlapping
// another: where two entries match at overlapping places, the one that starts first wins, and
// of two starting together the longer match. Parts of messages (Entry.Part) are not found on
// their own, but in the counted list of an entry's Items (the scheduler's diagnosis quoted
// without its "0/3 nodes are available: "); words (Entry.Word) are, and the caller decides
// whether a program printed them.
//
// Its cost is linear in the text: it looks for each anchor once, and tries an entry's pattern
// only from a little before where its anchor stands.
func (c *Catalogue) Find(text string) []Match {
	return c.find(text, nil)
}

func (c *Catalogue) find(text string, budget *int) []Match {
	if len(text) > maxScan {
		text = text[:maxScan]
	}
	var found []Match
	var hits []hit // where the anchors of list items stand
	c.anchorsAt(c.messages, text, func(a anchor, at int) {
		if budget != nil {
			if *budget <= 0 {
				return
			}
			*budget -= len(a.entries) + len(a.items)
		}
		for _, e := range a.entries {
			if m, ok := e.matchAround(text, at); ok {
				found = append(found, m)
			}
		}
		if len(a.items) > 0 {
			hits = append(hits, hit{items: a.items, at: at})
		}
	})
	found = resolve(found)
	if len(hits) > 0 {
		found = c.quoted(text, found, hits)
	}
	return found
}

// hit is where the anchor of list items stands in a text.
type hit struct {
	items []item
	at    int
}

// quoted adds to found each list of a list entry's parts that stands on its own in text,
// from the hits of its items' anchors: the entry's message quoted without its fixed words. A
// part counts as an item of the list only after its count ("2 Insufficient cpu"), where no
// message found holds it; items follow one another after ", ". The match is the entry's, with
// the list its Items capture and every other capture empty.
func (c *Catalogue) quoted(text string, found []Match, hits []hit) []Match {
	byList := map[int][]Match{}
	for _, h := range hits {
		if slices.ContainsFunc(found, func(f Match) bool { return f.Start <= h.at && h.at < f.End }) {
			continue // inside a message: a part of it, not of a list on its own
		}
		for _, it := range h.items {
			m, ok := it.part.matchAround(text, h.at)
			if !ok {
				continue
			}
			from := countBefore(text, m.Start)
			if from < 0 || slices.ContainsFunc(found, func(f Match) bool { return from < f.End && f.Start < m.End }) {
				continue
			}
			m.Start = from
			byList[it.list] = append(byList[it.list], m)
		}
	}
	for i, l := range c.lists {
		if items := byList[i]; len(items) > 0 {
			found = listed(l, text, found, items)
		}
	}
	sortMatches(found)
	return found
}

// listed adds to found the runs of items of the list entry l, as its matches.
func listed(l *Entry, text string, found, items []Match) []Match {
	sortMatches(items)
	var runs [][2]int // the bounds of each run of items
	for _, m := range items {
		if n := len(runs); n > 0 && m.Start < runs[n-1][1] {
			continue // inside the item before (a part within a longer part)
		}
		if n := len(runs); n > 0 && strings.TrimLeft(text[runs[n-1][1]:m.Start], " ") == ", " {
			runs[n-1][1] = m.End
			continue
		}
		runs = append(runs, [2]int{m.Start, m.End})
	}
	for _, r := range runs {
		loc := make([]int, 2+2*len(l.captures))
		for i := range loc {
			loc[i] = -1
		}
		loc[0], loc[1] = r[0], r[1]
		if i := slices.Index(l.captures, l.Items); i >= 0 {
			loc[2+2*i], loc[3+2*i] = r[0], r[1]
		}
		found = append(found, newMatch(l, text, loc))
	}
	return found
}

// countBefore returns where the count before a list's item at position at starts ("2 " of
// "2 Insufficient cpu"), or -1 when none stands right before it. A count is a number after
// the start of the text, a space, a comma, or an opening quote or bracket: not the "3" of
// "0/3".
func countBefore(text string, at int) int {
	if at < 2 || text[at-1] != ' ' {
		return -1
	}
	i := at - 1
	for i > 0 && i > at-8 && text[i-1] >= '0' && text[i-1] <= '9' {
		i--
	}
	if i == at-1 {
		return -1
	}
	if i > 0 && !strings.ContainsRune(" \t,:;\"'`([*_>", rune(text[i-1])) {
		return -1
	}
	return i
}

// Scanner is Find with a bound on the work of a whole input: each place an anchor stands
// costs a try of each entry that holds it, and past the budget nothing more is tried. A text
// written to be costly (anchors and nothing else, megabytes of it) is read as far as the
// budget goes, and Exhausted says so.
type Scanner struct {
	c      *Catalogue
	budget int
}

// NewScanner returns a Scanner that tries at most budget entries in all.
func (c *Catalogue) NewScanner(budget int) *Scanner {
	return &Scanner{c: c, budget: budget}
}

// Find is Catalogue.Find within the scanner's budget.
func (s *Scanner) Find(text string) []Match {
	return s.c.find(text, &s.budget)
}

// Exhausted reports whether the budget ran out: what came after was not read.
func (s *Scanner) Exhausted() bool { return s.budget <= 0 }

// anchorsAt calls f with every place in text where one of the anchors of the set stands, in
// one pass over the text (an Aho-Corasick automaton of the anchors).
func (c *Catalogue) anchorsAt(set *anchorSet, text string, f func(a anchor, at int)) {
	it := set.automaton(text).IterOverlapping(text)
	for m := it.Next(); m != nil; m = it.Next() {
		f(set.anchors[m.Pattern()], m.Start())
	}
}

// Explain returns every message and part of a message of the catalogue that text holds, the
// parts inside a message included, in order: what a message says in its pieces (the CNI's
// error inside a sandbox failure, each reason of the scheduler's diagnosis), and the lists
// quoted on their own that Find gives as messages.
func (c *Catalogue) Explain(text string) []Match {
	if len(text) > maxScan {
		text = text[:maxScan]
	}
	var found []Match
	c.anchorsAt(c.all, text, func(a anchor, at int) {
		for _, e := range a.entries {
			if m, ok := e.matchAround(text, at); ok && !slices.ContainsFunc(found, func(f Match) bool {
				return f.Entry == m.Entry && f.Start == m.Start
			}) {
				found = append(found, m)
			}
		}
	})
	// The lists quoted on their own, which Find gives as messages: looked for only where an
	// item of one stands after its count, outside every message found.
	alone := func(m Match) bool {
		return c.items[m.Entry] && countBefore(text, m.Start) >= 0 && !slices.ContainsFunc(found, func(f Match) bool {
			return !f.Entry.Part && f.Start <= m.Start && m.Start < f.End
		})
	}
	if slices.ContainsFunc(found, alone) {
		for _, m := range c.find(text, nil) {
			if m.Entry.Items != "" && !slices.ContainsFunc(found, func(f Match) bool { return f.Entry == m.Entry && f.Start == m.Start }) {
				found = append(found, m)
			}
		}
	}
	sortMatches(found)
	return found
}

// lookBehind is how far before its anchor a message may start, and lookAhead how far after it
// a message may run: the fixed words and captures ahead of an anchor are short, and a longer
// message is read as far as lookAhead. They keep the work per anchor found bounded, so that a
// text full of anchors costs time in proportion to its length.
const (
	lookBehind = 160
	lookAhead  = 1024
	// maxBehind bounds an entry's own look-behind (Entry.Behind).
	maxBehind = 1024
)

// matchAround tries the entry's pattern around the anchor at position at, and returns the
// first match that holds the anchor.
func (e *Entry) matchAround(text string, at int) (Match, bool) {
	from := max(0, at-max(lookBehind, e.Behind))
	for from > 0 && from < len(text) && text[from]&0xC0 == 0x80 {
		from++ // start at a rune boundary
	}
	to := min(len(text), at+lookAhead)
	for to < len(text) && text[to]&0xC0 == 0x80 {
		to++
	}
	window := text[:to]
	pos := from
	re := e.re()
	for pos <= at {
		// Where the pattern matches first, cheaply; its captures only when it holds the anchor.
		span := re.FindStringIndex(window[pos:])
		if span == nil || pos+span[0] > at {
			break
		}
		if pos+span[1] <= at {
			pos += max(span[1], span[0]+1)
			continue
		}
		loc := re.FindStringSubmatchIndex(window[pos:])
		if loc == nil {
			break
		}
		for i := range loc {
			if loc[i] >= 0 {
				loc[i] += pos
			}
		}
		if loc[0] > at {
			break
		}
		if at < loc[1] {
			return newMatch(e, text, loc), true
		}
		pos = loc[1]
		if loc[1] == loc[0] {
			pos++
		}
	}
	return Match{}, false
}

// resolve orders matches by start and drops those overlapping an earlier or longer one. A
// message inside another (the CNI's error inside a sandbox failure, the kubelet's inside a
// controller's) is part of the one around it: Explain finds it there.
func resolve(ms []Match) []Match {
	if len(ms) < 2 {
		return ms
	}
	sortMatches(ms)
	out := ms[:0]
	end := -1
	for _, m := range ms {
		if m.Start < end {
			if prev := &out[len(out)-1]; rowBreakBefore(prev, m) {
				prev.cut(m.Start) // rows run together: the next row's message ends this one
				out = append(out, m)
				end = m.End
			}
			continue
		}
		out = append(out, m)
		end = m.End
	}
	return out
}

// rowBreakRe is the start of an events row: its type and reason cells ("Warning  Evicted"),
// and the object cell after them if any.
var rowBreakRe = regexp.MustCompile(`(?:^|\s)(?:Normal|Warning)\s+[A-Z][A-Za-z]+\s+(?:\S+\s+)?$`)

// rowBreakBefore reports whether m starts in the free text that ends prev right after the type
// and reason cells of an events row: a table whose rows a paste ran onto one line, where the
// next row's message is a message of its own, not a part of prev's.
func rowBreakBefore(prev *Match, m Match) bool {
	if prev.tailAt < 0 || m.Start <= prev.tailAt || m.Start > prev.End {
		return false
	}
	gap := prev.Text[prev.tailAt-prev.Start : m.Start-prev.Start]
	if len(gap) > 120 {
		gap = gap[len(gap)-120:]
	}
	return rowBreakRe.MatchString(gap)
}

// cut ends the match at the offset at (of the text searched), inside its last capture.
func (m *Match) cut(at int) {
	m.Text = strings.TrimRight(m.Text[:at-m.Start], " ")
	m.End = m.Start + len(m.Text)
	if n := len(m.captures); n > 0 && m.tailAt >= 0 {
		m.captures[n-1] = strings.TrimRight(m.captures[n-1][:max(0, min(len(m.captures[n-1]), at-m.tailAt))], " ")
	}
}

// sortMatches orders by start, then the more specific first (see matchLess).
func sortMatches(ms []Match) {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && matchLess(ms[j], ms[j-1]); j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}

func matchLess(a, b Match) bool {
	if a.Start != b.Start {
		return a.Start < b.Start
	}
	// Of two messages that start together, the one with more fixed text is the more specific
	// ("Node n status is now: NodeHasDiskPressure" over "Node n status is now: {status}"),
	// then the longer.
	if a.Entry.fixed != b.Entry.fixed {
		return a.Entry.fixed > b.Entry.fixed
	}
	if a.End != b.End {
		return a.End > b.End
	}
	return a.Entry.ID < b.Entry.ID
}

// HasAnchor reports whether text holds the anchor of any message: cheap (one pass of the
// automaton, no pattern tried), to tell a line that may hold the start of a message.
func (c *Catalogue) HasAnchor(text string) bool {
	if len(text) > maxScan {
		text = text[:maxScan]
	}
	it := c.messages.automaton(text).IterOverlapping(text)
	for m := it.Next(); m != nil; m = it.Next() {
		if len(c.messages.anchors[m.Pattern()].entries) > 0 {
			return true // a message's, not only a list item's
		}
	}
	return false
}
