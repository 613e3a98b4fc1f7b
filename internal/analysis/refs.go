package analysis

import (
	"regexp"
	"strings"
)

// Rules name other symptoms and causes in their texts ("the scale-up (S2)") before the report
// has its final ids: symptoms become groups and causes are ordered worst first only after the
// rules ran. A rule writes idRef(id); resolveRefs puts in the final id. The marks are Unicode
// private-use characters, so a quoted message that happens to read "S2" is never renumbered.
const (
	refOpen  = "\uE000"
	refClose = "\uE001"
)

var refRe = regexp.MustCompile(refOpen + `([SC][0-9.]+)` + refClose)

// Mention marks a symptom or cause id in a summary or a suggestion; the finished report says
// it as the id the symptom or cause ends with (its number changes when symptoms are grouped).
func Mention(id string) string { return refOpen + id + refClose }

// resolveRefs replaces the marked ids of a text by their final ids (ids the map does not hold
// stay as they are) and drops the marks.
func resolveRefs(s string, final map[string]string) string {
	if !strings.Contains(s, refOpen) {
		return s
	}
	return refRe.ReplaceAllStringFunc(s, func(m string) string {
		id := m[len(refOpen) : len(m)-len(refClose)]
		if f, ok := final[id]; ok {
			return f
		}
		return id
	})
}

// resolveReport resolves the marked ids of every text of the report the rules wrote.
func resolveReport(rep *Report, final map[string]string) {
	fix := func(ss []string) {
		for i := range ss {
			ss[i] = resolveRefs(ss[i], final)
		}
	}
	var cause func(c *Cause)
	cause = func(c *Cause) {
		c.Summary = resolveRefs(c.Summary, final)
		fix(c.Missing)
		for i := range c.Against {
			c.Against[i].Field = resolveRefs(c.Against[i].Field, final)
			c.Against[i].Value = resolveRefs(c.Against[i].Value, final)
		}
		for i := range c.Links {
			c.Links[i].Why = resolveRefs(c.Links[i].Why, final)
		}
		for i := range c.Suggestions {
			c.Suggestions[i].Change = resolveRefs(c.Suggestions[i].Change, final)
		}
		for i := range c.Members {
			cause(&c.Members[i])
		}
	}
	for i := range rep.Causes {
		cause(&rep.Causes[i])
	}
	for i := range rep.Symptoms {
		rep.Symptoms[i].Summary = resolveRefs(rep.Symptoms[i].Summary, final)
	}
	var gap func(g *Gap)
	gap = func(g *Gap) {
		g.Summary = resolveRefs(g.Summary, final)
		for i := range g.Members {
			gap(&g.Members[i])
		}
	}
	for i := range rep.Gaps {
		gap(&rep.Gaps[i])
	}
}
