package catalog

import (
	"os"
	"slices"
	"strings"
	"testing"

	ahocorasick "github.com/petar-dambovaliev/aho-corasick"

	"github.com/rootline-dev/rootline/internal/corpustest"
)

// found is what an automaton finds in a text: each anchor's index and where it stands.
func found(ac ahocorasick.AhoCorasick, text string) [][3]int {
	var out [][3]int
	it := ac.IterOverlapping(text)
	for m := it.Next(); m != nil; m = it.Next() {
		out = append(out, [3]int{m.Pattern(), m.Start(), m.End()})
	}
	return out
}

// TestAutomataAgree: the non-deterministic automaton a set starts with and the deterministic
// one it moves to find the same anchors in the same order, on every example of the catalogue
// and every file of the corpus, so that when a set changes automaton nothing read changes.
func TestAutomataAgree(t *testing.T) {
	t.Parallel()
	c := Default()
	texts := []string{}
	for _, e := range c.Entries {
		texts = append(texts, e.Example)
	}
	for _, f := range corpustest.Files(t, "*") {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(data))
	}
	for name, set := range map[string]*anchorSet{"messages": c.messages, "all": c.all} {
		dfa := set.dfa()
		n := 0
		for _, text := range texts {
			want, got := found(dfa, text), found(set.nfa, text)
			n += len(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s: on %.60q… the NFA found %d anchors, the DFA %d", name, text, len(got), len(want))
			}
		}
		if n < 1000 {
			t.Errorf("%s: the automata found only %d anchors in all", name, n)
		}
	}
}

// TestAutomatonBecomesDeterministic: a set reads with its non-deterministic automaton, and
// builds the deterministic one only once it has read more than dfaAfter bytes.
func TestAutomatonBecomesDeterministic(t *testing.T) {
	t.Parallel()
	c, err := Parse(messagesYAML)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("nothing the catalogue knows ", maxScan/28)
	read := 0
	for read+len(text) <= dfaAfter {
		c.Find(text)
		read += len(text)
	}
	if c.messages.built.Load() || c.all.built.Load() {
		t.Fatalf("a deterministic automaton was built after %d bytes, not above %d", read, dfaAfter)
	}
	c.Find(text)
	if !c.messages.built.Load() {
		t.Errorf("no deterministic automaton after %d bytes", read+len(text))
	}
}

// BenchmarkAutomaton: building each automaton of the catalogue's anchors, and reading the
// corpus with it (for dfaAfter).
func BenchmarkAutomaton(b *testing.B) {
	c := Default()
	texts := make([]string, len(c.all.anchors))
	for i, a := range c.all.anchors {
		texts[i] = a.text
	}
	var corpus strings.Builder
	for _, f := range corpustest.Files(b, "*") {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		corpus.Write(data)
	}
	for _, dfa := range []bool{false, true} {
		name := map[bool]string{false: "nfa", true: "dfa"}[dfa]
		b.Run(name+"/build", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				buildAutomaton(texts, dfa)
			}
		})
		ac := buildAutomaton(texts, dfa)
		b.Run(name+"/read", func(b *testing.B) {
			b.SetBytes(int64(corpus.Len()))
			for b.Loop() {
				found(ac, corpus.String())
			}
		})
	}
}
