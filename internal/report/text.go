// Package report writes an analysis for people: as text for a terminal (WriteText, what
// `rootline analyze` prints) and as the Markdown text of a library report (Markdown, what an
// export writes for an incident without a text of its own), with the signature the analysis
// gives (Signature). It renders; it reads and stores nothing.
package report

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/timeline"
)

// TextOptions tune WriteText.
type TextOptions struct {
	Color    bool // ANSI colour, for terminals only
	Evidence int  // evidence items shown per symptom or cause; 0 means 3 (1 for a large report)
	// All lists every symptom group with every member, and every gap; without it a large
	// report shows the worst groups and says how many more there are, so that it fits on a
	// screen or two.
	All bool
}

// Limits of the default text report of a large incident.
const (
	shownGroups   = 15 // symptom groups listed
	shownChildren = 6  // symptoms under one cause in the chain
	shownGaps     = 8  // missing-evidence items
	shownChanges  = 5  // changes of the summary's list
	largeReport   = 8  // symptom groups above which evidence is cut to one item
)

// WriteText writes a report for people: the summary (what happened, why, how sure, and what
// to change, ranked); the causal chain from the root cause to the symptoms; the causes, root
// first, with what they explain, the evidence quoted and what is missing; the symptom groups,
// worst first; then the evidence that is missing.
func WriteText(w io.Writer, rep analysis.Report, o TextOptions) error {
	if o.Evidence == 0 {
		o.Evidence = 3
		if len(rep.Symptoms) > largeReport && !o.All {
			o.Evidence = 1
		}
	}
	p := &printer{w: w, o: o}
	in := rep.Inputs
	p.f("%s %d file(s): %d nodes, %d pods, %d events", p.bold("Read"), in.Files, in.Nodes, in.Pods, in.Events)
	if in.From != nil {
		p.f(", from %s to %s", in.From.Format("2006-01-02 15:04:05Z"), in.To.Format("2006-01-02 15:04:05Z"))
	}
	p.f("\n")
	p.summary(rep.Summary)
	p.chain(rep)
	p.causes(rep)
	p.symptoms(rep)
	if len(rep.Context) > 0 {
		p.f("\n%s (%d)\n", p.bold("Context, not symptoms"), len(rep.Context))
		for _, c := range p.some(contextSummaries(rep.Context), 5) {
			p.f("  - %s\n", c)
		}
	}
	p.gaps(rep.Gaps)
	p.claims(rep.Claims)
	return p.err
}

// causes lists the root causes, then the contributing ones: what each explains, its evidence,
// what speaks against it and what is missing.
func (p *printer) causes(rep analysis.Report) {
	kinds := map[string]string{}
	for _, s := range rep.Symptoms {
		kinds[s.ID] = s.Kind
	}
	for _, c := range rep.Causes {
		kinds[c.ID] = c.Kind
	}
	for _, role := range []string{analysis.Root, analysis.Contributing} {
		var cs []analysis.Cause
		for _, c := range rep.Causes {
			if c.Role == role {
				cs = append(cs, c)
			}
		}
		if len(cs) == 0 {
			continue
		}
		title := "Root causes"
		if role == analysis.Contributing {
			title = "Contributing causes"
		}
		p.f("\n%s\n", p.bold(title))
		for _, c := range cs {
			name := c.Kind
			if role == analysis.Root {
				name = p.red(name)
			} else {
				name = p.yellow(name)
			}
			count := ""
			if c.Count > 1 {
				count = fmt.Sprintf(" ×%d", c.Count)
			}
			p.f("  %s %s%s (confidence %.2f): %s\n", c.ID, name, count, c.Confidence, clip(c.Summary, p.width(300)))
			var ex []string
			for _, id := range c.Explains {
				ex = append(ex, id+" "+kinds[id])
			}
			p.f("     explains: %s\n", p.list(ex, 8))
			p.evidence(c.Evidence)
			for _, a := range c.Against {
				p.f("     %s %s %s\n", p.dim("against:"), a.Ref, clip(a.Value, 200))
			}
			for _, m := range p.some(c.Missing, 1) {
				p.f("     %s %s\n", p.dim("missing:"), m)
			}
		}
	}
}

// gaps lists the evidence that is missing: the first shownGaps, or every one (and its
// members) with All.
func (p *printer) gaps(gaps []analysis.Gap) {
	p.f("\n%s (%d)\n", p.bold("Missing evidence"), len(gaps))
	for i, g := range gaps {
		if i == shownGaps && !p.o.All {
			p.f("  %s\n", p.dim(fmt.Sprintf("… and %d more (--all lists them)", len(gaps)-i)))
			break
		}
		p.f("  - %s\n", clip(g.Summary, p.width(400)))
		if p.o.All {
			for _, m := range g.Members[min(len(g.Members), 1):] {
				p.f("    - %s\n", m.Summary)
			}
		}
	}
}

// claims lists what the authors of the notes claim, which nothing observed.
func (p *printer) claims(claims []analysis.ClaimRef) {
	if len(claims) == 0 {
		return
	}
	p.f("\n%s (%d)\n", p.bold("What the authors claim, not observed"), len(claims))
	for i, c := range claims {
		if i == 10 && !p.o.All {
			p.f("  %s\n", p.dim(fmt.Sprintf("… and %d more", len(claims)-i)))
			break
		}
		loc := filepath.Base(c.File)
		if c.Line > 0 {
			loc = fmt.Sprintf("%s:%d", loc, c.Line)
		}
		names := ""
		if len(c.Symptoms) > 0 {
			names = " reports " + strings.Join(c.Symptoms, ", ")
		}
		if len(c.Causes) > 0 {
			names += " → " + strings.Join(c.Causes, ", ")
		}
		p.f("  %s “%s”%s\n", p.dim(loc), clip(c.Text, 160), names)
	}
}

// symptoms lists the symptom groups, worst first: the worst shownGroups of a large report, or
// every group with its members.
func (p *printer) symptoms(rep analysis.Report) {
	p.f("\n%s (%d)\n", p.bold("Symptoms, worst first"), len(rep.Symptoms))
	for i, s := range rep.Symptoms {
		if i == shownGroups && !p.o.All {
			p.f("  %s\n", p.dim(fmt.Sprintf("… and %d more groups (--all lists every group and member)", len(rep.Symptoms)-i)))
			break
		}
		p.f("  %-4s %s  %-22s %s\n", s.ID, when(s), s.Kind+countMark(s), clip(s.Summary, p.width(300)))
		p.evidence(s.Evidence)
		if p.o.All {
			for _, m := range s.Members {
				p.f("     %-6s %s  %s\n", m.ID, when(m), m.Summary)
			}
		}
	}
}

// chain draws the causal chain from each root cause: the causes it leads to and the symptom
// groups they explain, each edge with its reason. A node reached twice is drawn once.
func (p *printer) chain(rep analysis.Report) {
	var roots []analysis.Cause
	for _, c := range rep.Causes {
		if c.Role == analysis.Root {
			roots = append(roots, c)
		}
	}
	if len(roots) == 0 {
		return
	}
	causes, syms := map[string]analysis.Cause{}, map[string]analysis.Symptom{}
	for _, c := range rep.Causes {
		causes[c.ID] = c
	}
	for _, s := range rep.Symptoms {
		syms[s.ID] = s
	}
	p.f("\n%s\n", p.bold("Causal chain"))
	drawn := map[string]bool{}
	var node func(id, why, indent string, last bool)
	node = func(id, why, indent string, last bool) {
		branch, next := "├─ ", "│  "
		if last {
			branch, next = "└─ ", "   "
		}
		label := id
		if c, ok := causes[id]; ok {
			label += " " + c.Kind
		} else if s, ok := syms[id]; ok {
			label += " " + s.Kind + countMark(s)
		}
		if why != "" {
			label += ": " + why
		}
		if drawn[id] {
			p.f("  %s%s%s %s\n", indent, branch, id, p.dim("(above)"))
			return
		}
		drawn[id] = true
		p.f("  %s%s%s\n", indent, branch, clip(label, p.width(220)))
		p.children(causes[id], causes, indent+next, node)
	}
	for _, r := range roots {
		drawn[r.ID] = true
		p.f("  %s %s (%.2f): %s\n", r.ID, p.red(r.Kind), r.Confidence, clip(r.Summary, p.width(200)))
		p.children(r, causes, "", node)
	}
}

// children draws what a cause leads to: first the symptoms its links reach (the scale-up the
// pods triggered), then the causes it leads to, then the symptom groups it explains itself that
// none of those causes explains too (each symptom is drawn at its deepest explanation), the
// worst shownChildren of them unless all are asked for.
func (p *printer) children(c analysis.Cause, causes map[string]analysis.Cause, indent string, node func(id, why, indent string, last bool)) {
	why := map[string]string{}
	for _, l := range c.Links {
		why[l.To] = l.Why
	}
	var linked, sub, direct []string
	deeper := map[string]bool{}
	for _, id := range c.Explains {
		switch {
		case strings.HasPrefix(id, "C"):
			sub = append(sub, id)
			for _, s := range causes[id].Explains {
				deeper[s] = true
			}
		case why[id] != "":
			linked = append(linked, id)
		}
	}
	more := 0
	for _, id := range c.Explains {
		if !strings.HasPrefix(id, "S") || why[id] != "" || deeper[id] {
			continue
		}
		if len(direct) == shownChildren && !p.o.All {
			more++
			continue
		}
		direct = append(direct, id)
	}
	ids := append(append(linked, sub...), direct...)
	for i, id := range ids {
		node(id, why[id], indent, i == len(ids)-1 && more == 0)
	}
	if more > 0 {
		p.f("  %s└─ %s\n", indent, p.dim(fmt.Sprintf("… and %d more symptom groups", more)))
	}
}

// countMark is " ×89" for a symptom standing for several pods or nodes.
func countMark(s analysis.Symptom) string {
	if s.Count > 1 {
		return fmt.Sprintf(" ×%s", timeline.Thousands(s.Count))
	}
	return ""
}

// when is a symptom's time, or its span as a group.
func when(s analysis.Symptom) string {
	switch {
	case s.At == nil:
		return "        "
	case s.Until != nil && s.Until.Format("2006-01-02") != s.At.Format("2006-01-02"):
		return s.At.Format("15:04:05") + "–" + s.Until.Format("Jan 2 15:04")
	case s.Until != nil:
		return s.At.Format("15:04:05") + "–" + s.Until.Format("15:04")
	}
	return s.At.Format("15:04:05")
}

func contextSummaries(cs []analysis.ContextNote) []string {
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, c.Summary)
	}
	return out
}

// some is the first n items, the last saying how many more there are, unless all are asked
// for.
func (p *printer) some(ss []string, n int) []string {
	if p.o.All || len(ss) <= n {
		return ss
	}
	out := append([]string(nil), ss[:n]...)
	out[n-1] += p.dim(fmt.Sprintf(" (and %d more)", len(ss)-n))
	return out
}

// summary leads the report: what users felt, why, how sure, and the one ranked list of
// changes, with the suggestions other evidence contradicts said apart.
func (p *printer) summary(s *analysis.Summary) {
	if s == nil {
		return
	}
	p.f("\n%s\n  %s\n", p.bold("What happened"), s.WhatHappened)
	p.f("\n%s\n  %s\n  %s\n", p.bold("Why"), s.Why, s.Sure)
	if len(s.Changes) == 0 && len(s.Dropped) == 0 {
		return
	}
	p.f("\n%s\n", p.bold("What to change, the most preventive first"))
	for i, c := range s.Changes {
		if i == shownChanges && !p.o.All {
			p.f("  %s\n", p.dim(fmt.Sprintf("… and %d more (--all lists them)", len(s.Changes)-i+s.MoreChanges)))
			break
		}
		p.f("  %d. %s\n", i+1, c.Change)
		p.f("     %s\n", p.dim(changeAnswers(c)))
		if p.o.Evidence > 1 || p.o.All { // a large report's changes cite their causes only
			p.evidence(c.Evidence[:min(len(c.Evidence), 1)])
		}
	}
	if p.o.All && s.MoreChanges > 0 {
		p.f("  %s\n", p.dim(fmt.Sprintf("… and %d more, less preventive: each cause's suggestions in --format json", s.MoreChanges)))
	}
	for _, c := range s.Dropped {
		p.f("  %s %s\n     %s\n", p.dim("not suggested:"), c.Change, p.dim("because "+c.Why))
	}
}

// changeAnswers says what a ranked change answers: "answers C2, C3; would have prevented S1, S6".
func changeAnswers(c analysis.RankedChange) string {
	t := "answers " + strings.Join(c.Causes, ", ")
	if len(c.Prevents) > 0 {
		t += "; would have prevented " + strings.Join(c.Prevents, ", ")
	}
	return t
}

// list joins items, the first n of them unless all are asked for.
func (p *printer) list(ss []string, n int) string {
	if p.o.All || len(ss) <= n {
		return strings.Join(ss, ", ")
	}
	return strings.Join(ss[:n], ", ") + fmt.Sprintf(" and %d more", len(ss)-n)
}

// width is how much of a long text a line shows: all of it with --all.
func (p *printer) width(n int) int {
	if p.o.All {
		return 1 << 20
	}
	return n
}

type printer struct {
	w   io.Writer
	o   TextOptions
	err error
}

func (p *printer) f(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

// evidence quotes the first evidence items, the last saying how many more there are.
func (p *printer) evidence(es []analysis.Evidence) {
	for i, e := range es {
		if i == p.o.Evidence && !p.o.All {
			return
		}
		loc := filepath.Base(e.File)
		if e.Line > 0 {
			loc = fmt.Sprintf("%s:%d", loc, e.Line)
		}
		more := ""
		if i == p.o.Evidence-1 && len(es) > p.o.Evidence && !p.o.All {
			more = p.dim(fmt.Sprintf(" (and %d more)", len(es)-p.o.Evidence))
		}
		p.f("     %s %s %s “%s”%s\n", p.dim(loc), e.Ref, e.Field, clip(e.Value, 160), more)
	}
}

func (p *printer) paint(code, s string) string {
	if !p.o.Color {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (p *printer) bold(s string) string   { return p.paint("1", s) }
func (p *printer) dim(s string) string    { return p.paint("2", s) }
func (p *printer) red(s string) string    { return p.paint("1;31", s) }
func (p *printer) yellow(s string) string { return p.paint("33", s) }

// clip shortens s to n runes, its runs of white space made one space, marking the cut with "…".
// The analysis has its own for the quotes in its summaries.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len([]rune(s)) > n {
		return string([]rune(s)[:n-1]) + "…"
	}
	return s
}
