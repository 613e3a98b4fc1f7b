package store

import (
	"context"
	"regexp"
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
// entry.
func (s *Store) SearchMatches(ctx context.Context, ids []string, query string) (map[string]Match, error) {
	out := map[string]Match{}
	terms := searchTerms(query)
	if len(ids) == 0 || len(terms) == 0 {
		return out, nil
	}
	var words []string
	var wanted []int // indexes of the concepts the query names
	for _, t := range terms {
		if i := conceptIndex(t); i >= 0 {
			wanted = append(wanted, i)
		} else {
			words = append(words, t)
		}
	}
	for start := 0; start < len(ids); start += importBatch {
		docs, err := searchDocs(s.db.WithContext(ctx), ids[start:min(start+importBatch, len(ids))])
		if err != nil {
			return nil, wrap(err, "search matches")
		}
		for _, d := range docs {
			for _, part := range []struct{ in, text string }{{"title", d.Title}, {"report", d.Report}, {"note", d.Notes}, {"signature", d.Terms}} {
				if parts, ok := snippet(part.text, words, wanted); ok {
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

// snippet marks in text the words of the query and the ways of writing the concepts it names,
// and cuts the text to a window around the first of them; false when none is there.
func snippet(text string, words []string, wanted []int) ([]Fragment, bool) {
	var toks []token
	start := -1
	for i, r := range text {
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			toks = append(toks, token{start, i})
			start = -1
		}
	}
	if start >= 0 {
		toks = append(toks, token{start, len(text)})
	}
	marked := make([]bool, len(toks))
	any := false
	for i, t := range toks {
		w := strings.ToLower(text[t.start:t.end])
		for _, q := range words {
			if sameWord(w, q) {
				marked[i], any = true, true
			}
		}
	}
	if n := normalized(text); len(wanted) > 0 && len(n) == len(text) { // offsets hold only then
		for _, ci := range wanted {
			for _, span := range concepts[ci].re.FindAllStringIndex(n, -1) {
				for i, t := range toks {
					if t.start < span[1] && t.end > span[0] {
						marked[i], any = true, true
					}
				}
			}
		}
	}
	if !any {
		return nil, false
	}
	first := 0
	for !marked[first] {
		first++
	}
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
	if from > 0 {
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
	return out, true
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

// sameWord reports whether a word of a text is a query word, stemmed.
func sameWord(text, query string) bool {
	a, b := stem(text), stem(query)
	if a == b {
		return true
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	return len(a) >= 4 && len(b)-len(a) <= 2 && strings.HasPrefix(b, a)
}
