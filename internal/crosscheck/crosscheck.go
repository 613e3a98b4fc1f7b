// Package crosscheck sets an incident's report, what people wrote, against the analysis of its
// evidence: which symptom and cause kinds both name and which only one does, and the shares
// the report's text gives (of a node's memory, its limits) set beside the analysis' own. The
// report is a claim and the analysis is evidence; the comparison says where they differ and
// never decides for either.
package crosscheck

import (
	"regexp"
	"slices"
	"strings"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/incident"
)

// Comparison is a report set against the analysis of the same incident.
type Comparison struct {
	// Agree are the kinds (symptoms, causes) both name; OnlyReport those only the report
	// names, OnlyEvidence those only the analysis finds.
	Agree, OnlyReport, OnlyEvidence []string
	// RootAgrees says that both name the same root cause; RootReport and RootEvidence are
	// theirs ("" for none).
	RootAgrees               bool
	RootReport, RootEvidence string
	// Numbers are the shares the report's text gives that the analysis also gives.
	Numbers []Number
}

// Number is one figure both give: the words around it in the report and in the analysis, the
// two values, and the analysis' id (a cause or symptom) that gives it.
type Number struct {
	Report, Evidence           string // the figure with its words: "93% of the memory"
	ReportValue, EvidenceValue string // "93%", "91%"
	ID                         string // the cause or symptom of the analysis
}

// Same reports whether both give the same value.
func (n Number) Same() bool { return n.ReportValue == n.EvidenceValue }

// Empty reports whether there is nothing to compare: no kind either names and no figure.
func (c Comparison) Empty() bool {
	return len(c.Agree)+len(c.OnlyReport)+len(c.OnlyEvidence)+len(c.Numbers) == 0 && c.RootReport == "" && c.RootEvidence == ""
}

// Compare sets report r against the analysis rep of the same incident.
func Compare(r incident.Report, rep analysis.Report) Comparison {
	var c Comparison
	named := append(slices.Clone(r.Symptoms), r.Causes...)
	var found []string
	for _, s := range rep.Symptoms {
		found = appendNew(found, s.Kind)
	}
	for _, ca := range rep.Causes {
		found = appendNew(found, ca.Kind)
		if ca.Role == analysis.Root && c.RootEvidence == "" {
			c.RootEvidence = ca.Kind
		}
	}
	for _, k := range named {
		if slices.Contains(found, k) {
			c.Agree = appendNew(c.Agree, k)
		} else {
			c.OnlyReport = appendNew(c.OnlyReport, k)
		}
	}
	for _, k := range found {
		if !slices.Contains(named, k) {
			c.OnlyEvidence = appendNew(c.OnlyEvidence, k)
		}
	}
	c.RootReport = r.RootCause
	c.RootAgrees = c.RootReport != "" && c.RootReport == c.RootEvidence
	c.Numbers = numbers(r.Body, rep)
	return c
}

// figureRe finds the figures compared: shares ("93%"). Sizes and counts are left: the words
// around them say too little of what they measure to pair them safely.
var figureRe = regexp.MustCompile(`\b\d+(?:\.\d+)?%`)

// figure is a figure of a text and the content words around it.
type figure struct {
	value, phrase string
	words         []string
}

// window is how many words before and after a figure say what it is of.
const (
	wordsBefore = 5
	wordsAfter  = 3
	// minShared is how many content words two figures' windows must share to be the same
	// figure: "93% of the memory were requested" and "91% of its memory requested" share
	// memory and requested; a lone shared word ("node") is not enough.
	minShared = 2
)

// numbers pairs the report's figures with the analysis' by the words around them: each report
// figure with the analysis figure that shares the most words, when at least
// minShared and no other shares as many.
func numbers(body string, rep analysis.Report) []Number {
	mine := figures(body)
	if len(mine) == 0 {
		return nil
	}
	type theirs struct {
		figure
		id string
	}
	var all []theirs
	for _, ca := range rep.Causes {
		for _, f := range figures(ca.Summary) {
			all = append(all, theirs{f, ca.ID})
		}
	}
	for _, s := range rep.Symptoms {
		for _, f := range figures(s.Summary) {
			all = append(all, theirs{f, s.ID})
		}
	}
	var out []Number
	for _, f := range mine {
		best, bestN, tie := -1, 0, false
		for i, t := range all {
			n := shared(f.words, t.words)
			switch {
			case n > bestN:
				best, bestN, tie = i, n, false
			case n == bestN && n > 0 && all[best].value != t.value:
				tie = true
			}
		}
		if best < 0 || bestN < minShared || tie {
			continue
		}
		t := all[best]
		out = append(out, Number{Report: f.phrase, Evidence: t.phrase, ReportValue: f.value, EvidenceValue: t.value, ID: t.id})
	}
	return out
}

// figures are a text's figures with the words around them.
func figures(text string) []figure {
	var out []figure
	for _, sentence := range sentenceRe.Split(text, -1) {
		words := strings.Fields(sentence)
		for i, w := range words {
			v := figureRe.FindString(w)
			if v == "" {
				continue
			}
			from, to := max(0, i-wordsBefore), min(len(words), i+1+wordsAfter)
			f := figure{value: v, phrase: strings.Trim(strings.Join(words[from:to], " "), ",;:()")}
			for j := from; j < to; j++ {
				if j == i {
					continue
				}
				if cw := contentWord(words[j]); cw != "" {
					f.words = appendNew(f.words, cw)
				}
			}
			out = append(out, f)
		}
	}
	return out
}

// sentenceRe splits a text into sentences: a figure's words never come from the next one.
var sentenceRe = regexp.MustCompile(`[.;]\s+|\n\s*\n`)

// stopWords carry nothing of what a figure is of.
var stopWords = map[string]bool{"of": true, "the": true, "its": true, "a": true, "an": true, "at": true, "to": true, "and": true,
	"were": true, "was": true, "is": true, "are": true, "on": true, "in": true, "up": true, "by": true, "that": true, "had": true,
	"has": true, "with": true, "for": true, "it": true, "this": true, "their": true, "which": true, "than": true}

// contentWord is a word as compared, lower case without punctuation: "" for a stop word, a
// number or a figure.
func contentWord(w string) string {
	w = strings.ToLower(strings.Trim(w, ".,;:()[]`'\"*_"))
	if w == "" || stopWords[w] || figureRe.MatchString(w) || strings.IndexFunc(w, func(r rune) bool { return r < '0' || r > '9' }) < 0 {
		return ""
	}
	return w
}

func shared(a, b []string) int {
	n := 0
	for _, w := range a {
		if slices.Contains(b, w) {
			n++
		}
	}
	return n
}

func appendNew(ss []string, s string) []string {
	if slices.Contains(ss, s) {
		return ss
	}
	return append(ss, s)
}
