package store

import (
	"context"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// Match says why an incident matched a search: where the words were found and a snippet of
// the text around them, with the words marked.
type Match struct {
	In    string     // "title", "report", "note" or "signature"
	Parts []Fragment // the snippet in order; "…" stands for text left out
}

// Fragment is a piece of a snippet: a word that matched (Mark), or the text between.
type Fragment struct {
	Text string
	Mark bool
}

// Text is the snippet as plain text.
func (m Match) Text() string {
	var b strings.Builder
	for _, p := range m.Parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// snippetWords is how many words of text around the first match a snippet shows.
const (
	snippetBefore = 8
	snippetWords  = 28
)

// SearchMatches says why each of the incidents ids matched the search query: the first part
// of its document (title, report, notes, signature) that holds a word of the query, or a way
// of writing a concept it names, with a snippet around it. The databases decide what matches;
// this marks the words again, by a plainer stemming, so that both databases show the same.
// An incident none of whose parts shows a word (the database's stemming went further) has no
// entry. The work is bounded by the query's bounds (searchTerms) times the documents' words,
// and stops with ctx.
func (s *Store) SearchMatches(ctx context.Context, ids []string, query string) (map[string]Match, error) {
	out := map[string]Match{}
	m := newMatcher(searchTerms(query))
	if len(ids) == 0 || m.empty() {
		return out, nil
	}
	for start := 0; start < len(ids); start += importBatch {
		docs, err := searchDocs(s.db.WithContext(ctx), ids[start:min(start+importBatch, len(ids))])
		if err != nil {
			return nil, wrap(err, "search matches")
		}
		for _, d := range docs {
			for _, part := range []struct{ in, text string }{{"title", d.Title}, {"report", d.Report}, {"note", d.Notes}, {"signature", d.Terms}} {
				parts, ok, err := m.snippet(ctx, part.text)
				if err != nil {
					return nil, wrap(err, "search matches")
				}
				if ok {
					out[d.ID] = Match{In: part.in, Parts: parts}
					break
				}
			}
		}
	}
	return out, nil
}

func conceptIndex(word string) int {
	for i, c := range concepts {
		if c.word == word {
			return i
		}
	}
	return -1
}

// token is a word of a text: its byte span.
type token struct{ start, end int }

// matcher marks a query's words in texts: its words stemmed once, and the concepts it names.
type matcher struct {
	stems    []string // the query's words (not concepts), stemmed
	wanted   []int    // indexes of the concepts the query names
	compared int      // comparisons of a text's word with a query's word so far
}

func newMatcher(terms []string) *matcher {
	m := &matcher{}
	for _, t := range terms {
		if i := conceptIndex(t); i >= 0 {
			m.wanted = append(m.wanted, i)
		} else {
			m.stems = append(m.stems, stem(t))
		}
	}
	return m
}

func (m *matcher) empty() bool { return len(m.stems) == 0 && len(m.wanted) == 0 }

// checkEvery is how many words of a text the matcher reads between looks at its context.
const checkEvery = 4096

// snippet marks in text the words of the query and the ways of writing the concepts it names,
// and cuts the text to a window around the first of them; false when none is there. It reads
// the text once, each word compared with each of the query's words, and stops at the end of
// the window.
func (m *matcher) snippet(ctx context.Context, text string) ([]Fragment, bool, error) {
	// The ways of writing the concepts, by start. The offsets in normalized text hold in the
	// text only when both have as many bytes.
	var spans [][]int
	if len(m.wanted) > 0 {
		if n := normalized(text); len(n) == len(text) {
			for _, ci := range m.wanted {
				spans = append(spans, concepts[ci].re.FindAllStringIndex(n, -1)...)
			}
			sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
		}
	}
	var (
		toks    []token // the words read and kept: the last snippetBefore before a match, then the window
		marked  []bool
		dropped int // words read before toks[0]
		first   = -1
		next    int // spans[next:] may touch the next word
		read    int
	)
	add := func(t token) {
		mark := m.isWord(text[t.start:t.end])
		for next < len(spans) && spans[next][1] <= t.start {
			next++
		}
		if next < len(spans) && spans[next][0] < t.end {
			mark = true
		}
		if first < 0 && len(toks) == 2*snippetBefore { // keep only the words a snippet may show
			copy(toks, toks[snippetBefore:])
			copy(marked, marked[snippetBefore:])
			toks, marked = toks[:snippetBefore], marked[:snippetBefore]
			dropped += snippetBefore
		}
		toks, marked = append(toks, t), append(marked, mark)
		if mark && first < 0 {
			first = len(toks) - 1
		}
	}
	done := func() bool { return first >= 0 && len(toks) > max(0, first-snippetBefore)+snippetWords }
	start := -1
	for i, r := range text {
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		if word && start < 0 {
			start = i
		}
		if word || start < 0 {
			continue
		}
		add(token{start, i})
		start = -1
		if done() {
			break
		}
		if read++; read%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, false, err
			}
		}
	}
	if start >= 0 && !done() {
		add(token{start, len(text)})
	}
	if first < 0 {
		return nil, false, nil
	}
	return cut(text, toks, marked, first, dropped > 0), true, nil
}

// cut is the snippet of text: the words toks (marked where they matched) from snippetBefore
// before the first match, toks[first], up to snippetWords of them; earlier says that words of
// the text come before toks.
func cut(text string, toks []token, marked []bool, first int, earlier bool) []Fragment {
	from := max(0, first-snippetBefore)
	to := min(len(toks), from+snippetWords)
	var out []Fragment
	add := func(s string, mark bool) {
		if !mark {
			s = spaces.ReplaceAllString(s, " ") // a snippet is one line
		}
		if s == "" {
			return
		}
		if n := len(out); n > 0 && !mark && !out[n-1].Mark {
			out[n-1].Text += s
			return
		}
		out = append(out, Fragment{Text: s, Mark: mark})
	}
	if from > 0 || earlier {
		add("… ", false)
	}
	pos := toks[from].start
	for i := from; i < to; i++ {
		if t := toks[i]; marked[i] {
			add(text[pos:t.start], false)
			add(text[t.start:t.end], true)
			pos = t.end
		}
	}
	if to < len(toks) {
		add(text[pos:toks[to-1].end]+" …", false)
	} else {
		add(strings.TrimRightFunc(text[pos:], unicode.IsSpace), false) // to the end, its punctuation too
	}
	return out
}

var spaces = regexp.MustCompile(`\s+`)

// stem cuts the common English endings off a word, lower case: enough to mark "evicted" for a
// search for "evicting", as the databases' stemmers match them.
func stem(w string) string {
	for _, suf := range []string{"ations", "ation", "ings", "ing", "ions", "ion", "edly", "ed", "ies", "es", "ly", "s", "e"} {
		if len(w)-len(suf) >= 3 && strings.HasSuffix(w, suf) {
			return w[:len(w)-len(suf)]
		}
	}
	return w
}

// isWord reports whether a word of a text is one of the query's words, stemmed.
func (m *matcher) isWord(w string) bool {
	if len(m.stems) == 0 {
		return false
	}
	a := stem(strings.ToLower(w))
	for _, b := range m.stems {
		m.compared++
		if sameStem(a, b) {
			return true
		}
	}
	return false
}

// sameStem reports whether two stemmed words are one: the same, or one the other with at
// most two more letters, when the shorter has four or more.
func sameStem(a, b string) bool {
	if a == b {
		return true
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	return len(a) >= 4 && len(b)-len(a) <= 2 && strings.HasPrefix(b, a)
}
