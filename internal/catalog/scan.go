package catalog

import (
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
}

func newMatch(e *Entry, s string, loc []int) Match {
	m := Match{Entry: e, Start: loc[0], End: loc[1], Text: s[loc[0]:loc[1]]}
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

// Pod returns the pod the message names: from a {podref} ("ns/name"), or a {pod} with the
// {namespace} beside it. Name is "" when the message names no pod.
func (m Match) Pod() (namespace, name string) {
	if ref := m.Capture("podref"); ref != "" {
		namespace, name, _ = strings.Cut(ref, "/")
		return namespace, name
	}
	return m.Capture("namespace"), m.Capture("pod")
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
// their own; words (Entry.Word) are, and the caller decides whether a program printed them.
//
// Its cost is linear in the text: it looks for each anchor once, and tries an entry's pattern
// only from a little before where its anchor stands.
func (c *Catalogue) Find(text string) []Match {
	if len(text) > maxScan {
		text = text[:maxScan]
	}
	var found []Match
	for _, a := range c.anchors {
		off := 0
		for off < len(text) {
			i := strings.Index(text[off:], a.text)
			if i < 0 {
				break
			}
			at := off + i
			for _, e := range a.entries {
				if m, ok := e.matchAround(text, at); ok {
					found = append(found, m)
				}
			}
			off = at + len(a.text)
		}
	}
	return resolve(found)
}

// Explain returns every message and part of a message of the catalogue that text holds, the
// parts inside a message included, in order: what a message says in its pieces (the CNI's
// error inside a sandbox failure, each reason of the scheduler's diagnosis).
func (c *Catalogue) Explain(text string) []Match {
	if len(text) > maxScan {
		text = text[:maxScan]
	}
	var found []Match
	for _, a := range c.all {
		off := 0
		for off < len(text) {
			i := strings.Index(text[off:], a.text)
			if i < 0 {
				break
			}
			at := off + i
			for _, e := range a.entries {
				if m, ok := e.matchAround(text, at); ok && !slices.ContainsFunc(found, func(f Match) bool {
					return f.Entry == m.Entry && f.Start == m.Start
				}) {
					found = append(found, m)
				}
			}
			off = at + len(a.text)
		}
	}
	sortMatches(found)
	return found
}

// lookBehind is how far before its anchor a message may start: the fixed words and captures
// ahead of an anchor are short.
const lookBehind = 512

// matchAround tries the entry's pattern on text from lookBehind before the anchor at position
// at, and returns the first match that holds the anchor.
func (e *Entry) matchAround(text string, at int) (Match, bool) {
	from := max(0, at-lookBehind)
	// Start at a rune boundary.
	for from > 0 && from < len(text) && text[from]&0xC0 == 0x80 {
		from++
	}
	sub := text[from:]
	for _, loc := range e.re.FindAllStringSubmatchIndex(sub, -1) {
		if from+loc[0] <= at && at < from+loc[1] {
			for i := range loc {
				if loc[i] >= 0 {
					loc[i] += from
				}
			}
			return newMatch(e, text, loc), true
		}
		if from+loc[0] > at {
			break
		}
	}
	return Match{}, false
}

// resolve orders matches by start and drops those overlapping an earlier or longer one.
func resolve(ms []Match) []Match {
	if len(ms) < 2 {
		return ms
	}
	sortMatches(ms)
	out := ms[:0]
	end := -1
	for _, m := range ms {
		if m.Start < end {
			continue
		}
		out = append(out, m)
		end = m.End
	}
	return out
}

// sortMatches orders by start, longer first, then, for equal spans, the entry with more fixed
// text (the more specific message) first.
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
	if a.End != b.End {
		return a.End > b.End
	}
	if a.Entry.fixed != b.Entry.fixed {
		return a.Entry.fixed > b.Entry.fixed
	}
	return a.Entry.ID < b.Entry.ID
}
