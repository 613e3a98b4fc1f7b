package analysis

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
)

// TextOptions tune WriteText.
type TextOptions struct {
	Color    bool // ANSI colour, for terminals only
	Evidence int  // evidence items shown per symptom or cause; 0 means 3
}

// WriteText writes a report for people: the causes, root first, with what they explain and
// the evidence quoted; the symptoms, worst first; then the evidence that is missing.
func WriteText(w io.Writer, rep Report, o TextOptions) error {
	if o.Evidence == 0 {
		o.Evidence = 3
	}
	p := &printer{w: w, o: o}
	in := rep.Inputs
	p.f("%s %d file(s): %d nodes, %d pods, %d events", p.bold("Read"), in.Files, in.Nodes, in.Pods, in.Events)
	if in.From != nil {
		p.f(", from %s to %s", in.From.Format("2006-01-02 15:04:05Z"), in.To.Format("2006-01-02 15:04:05Z"))
	}
	p.f("\n")
	kinds := map[string]string{}
	for _, s := range rep.Symptoms {
		kinds[s.ID] = s.Kind
	}
	for _, role := range []string{Root, Contributing} {
		var cs []Cause
		for _, c := range rep.Causes {
			if c.Role == role {
				cs = append(cs, c)
			}
		}
		if len(cs) == 0 {
			continue
		}
		title := "Root causes"
		if role == Contributing {
			title = "Contributing causes"
		}
		p.f("\n%s\n", p.bold(title))
		for _, c := range cs {
			name := c.Kind
			if role == Root {
				name = p.red(name)
			} else {
				name = p.yellow(name)
			}
			p.f("  %s %s (confidence %.2f): %s\n", c.ID, name, c.Confidence, c.Summary)
			var ex []string
			for _, id := range c.Explains {
				ex = append(ex, id+" "+kinds[id])
			}
			p.f("     explains: %s\n", strings.Join(ex, ", "))
			p.evidence(c.Evidence)
			for _, m := range c.Missing {
				p.f("     %s %s\n", p.dim("missing:"), m)
			}
		}
	}
	p.f("\n%s (%d)\n", p.bold("Symptoms, worst first"), len(rep.Symptoms))
	syms := append([]Symptom(nil), rep.Symptoms...)
	rank := map[string]int{}
	for i, k := range severity {
		rank[k] = i
	}
	sort.SliceStable(syms, func(i, j int) bool { return rank[syms[i].Kind] < rank[syms[j].Kind] })
	for _, s := range syms {
		at := "        "
		if s.At != nil {
			at = s.At.Format("15:04:05")
		}
		p.f("  %-4s %s  %-22s %s\n", s.ID, at, s.Kind, s.Summary)
		p.evidence(s.Evidence)
	}
	if len(rep.Context) > 0 {
		p.f("\n%s (%d)\n", p.bold("Context, not symptoms"), len(rep.Context))
		for _, c := range rep.Context {
			p.f("  - %s\n", c.Summary)
		}
	}
	p.f("\n%s (%d)\n", p.bold("Missing evidence"), len(rep.Gaps))
	for _, g := range rep.Gaps {
		p.f("  - %s\n", g.Summary)
	}
	if len(rep.Claims) > 0 {
		p.f("\n%s (%d)\n", p.bold("What the authors claim, not observed"), len(rep.Claims))
		for i, c := range rep.Claims {
			if i == 10 {
				p.f("  %s\n", p.dim(fmt.Sprintf("… and %d more", len(rep.Claims)-i)))
				break
			}
			loc := filepath.Base(c.File)
			if c.Line > 0 {
				loc = fmt.Sprintf("%s:%d", loc, c.Line)
			}
			names := ""
			if len(c.Causes) > 0 {
				names = " → " + strings.Join(c.Causes, ", ")
			}
			p.f("  %s “%s”%s\n", p.dim(loc), clip(c.Text, 160), names)
		}
	}
	return p.err
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

func (p *printer) evidence(es []Evidence) {
	for i, e := range es {
		if i == p.o.Evidence {
			p.f("     %s\n", p.dim(fmt.Sprintf("… and %d more", len(es)-i)))
			return
		}
		loc := filepath.Base(e.File)
		if e.Line > 0 {
			loc = fmt.Sprintf("%s:%d", loc, e.Line)
		}
		p.f("     %s %s %s “%s”\n", p.dim(loc), e.Ref, e.Field, clip(e.Value, 160))
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

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len([]rune(s)) > n {
		return string([]rune(s)[:n-1]) + "…"
	}
	return s
}
