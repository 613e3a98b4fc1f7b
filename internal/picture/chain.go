package picture

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/kinds"
)

// The causal chain's limits and measures, in SVG units (points, which the page draws as px).
const (
	chainMaxCauses   = 16  // cause boxes drawn; the rest are one "more causes" box
	chainMaxSymptoms = 12  // symptom boxes drawn, worst first; the rest are one "more groups" box
	chainMaxInput    = 400 // causes and symptoms read at most (the rest are only counted)
	chainWait        = 2 * time.Second
	chainLabel       = 40 // characters of a line at most
	chainTitleSize   = 12.0
	chainIDSize      = 10.0
	chainSubSize     = 11.0
	chainIDGap       = 5.0
	chainPadX        = 10.0
	chainBoxH        = 42.0
	chainTitleBase   = 17.0 // baselines, from a box's top
	chainSubBase     = 33.0
	chainMinBoxW     = 110.0
	chainMargin      = 8.0
	chainMinViewW    = 900.0 // a small chain is not blown up to the page's width
)

// chainNode is a box of the chain: a cause, a symptom group, or the causes or groups folded.
type chainNode struct {
	title, ref, sub, href, class, tip string
	w                                 float64
}

// chainEdge is a direct link between two boxes, with its reason.
type chainEdge struct {
	from, to int
	why      string
}

// chainGraph is the chain before layout: its boxes, its direct links, and the symptom boxes
// (the last rank) in order, worst first.
type chainGraph struct {
	nodes []chainNode
	edges []chainEdge
	sink  []int
}

// Chain draws the causal chain of a report as an SVG laid out by Graphviz's dot: root causes
// on the left, the causes they lead to, and on the right the symptom groups they explain, worst
// first; one arrow for each direct link (a link implied through another cause is not drawn
// again), its reason as a tooltip; every box a link to its card (#C1, #S3). It returns "" for a
// report without causes, and an error when the layout engine fails or stays busy too long.
func (l *Layouter) Chain(ctx context.Context, rep analysis.Report) (string, error) {
	g := buildChain(rep)
	if len(g.nodes) == 0 {
		return "", nil
	}
	boxes := make([]box, len(g.nodes))
	for i, n := range g.nodes {
		boxes[i] = box{w: n.w, h: chainBoxH}
	}
	arcs := make([]arc, 0, len(g.edges)+len(g.sink))
	for _, e := range g.edges {
		arcs = append(arcs, arc{from: e.from, to: e.to})
	}
	for i := 1; i < len(g.sink); i++ { // the worst group on top
		arcs = append(arcs, arc{from: g.sink[i-1], to: g.sink[i], hidden: true})
	}
	ctx, cancel := context.WithTimeout(ctx, chainWait)
	defer cancel()
	p, err := l.dot(ctx, boxes, arcs, g.sink)
	if err != nil {
		return "", err
	}
	return drawChain(g, p), nil
}

// buildChain picks the boxes and the direct links of a report's chain.
func buildChain(rep analysis.Report) chainGraph {
	causes := rep.Causes[:min(len(rep.Causes), chainMaxInput)]
	if len(causes) == 0 {
		return chainGraph{}
	}
	isCause := map[string]bool{}
	for _, c := range causes {
		isCause[c.ID] = true
	}
	syms := map[string]analysis.Symptom{}
	rank := map[string]int{}
	for i, s := range rep.Symptoms[:min(len(rep.Symptoms), chainMaxInput)] {
		syms[s.ID], rank[s.ID] = s, i
	}
	var links [][2]string
	why := map[[2]string]string{}
	for _, c := range causes {
		for _, id := range c.Explains {
			if _, ok := syms[id]; ok || isCause[id] {
				links = append(links, [2]string{c.ID, id})
			}
		}
		for _, ln := range c.Links {
			why[[2]string{c.ID, ln.To}] = ln.Why
		}
	}
	links = directLinks(links)

	// The groups explained, critical first, then by severity, then as the report lists them.
	var shown []analysis.Symptom
	for _, ln := range links {
		if s, ok := syms[ln[1]]; ok && !slices.ContainsFunc(shown, func(o analysis.Symptom) bool { return o.ID == s.ID }) {
			shown = append(shown, s)
		}
	}
	slices.SortStableFunc(shown, func(a, b analysis.Symptom) int {
		if ca, cb := felt(a), felt(b); ca != cb {
			if ca {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(b.Severity, a.Severity), cmp.Compare(rank[a.ID], rank[b.ID]))
	})

	var g chainGraph
	at := map[string]int{} // box of each id, folded ones included
	for i, c := range causes {
		if i == chainMaxCauses {
			rest := causes[i:]
			at[c.ID] = len(g.nodes)
			g.nodes = append(g.nodes, sized(chainNode{title: fmt.Sprintf("+%d more causes", len(rest)), sub: "from " + rest[0].ID,
				href: "#" + rest[0].ID, class: "chain-more", tip: fmt.Sprintf("%d causes not drawn; their cards are below", len(rest))}))
			for _, r := range rest {
				at[r.ID] = at[c.ID]
			}
			break
		}
		at[c.ID] = len(g.nodes)
		g.nodes = append(g.nodes, sized(causeNode(c)))
	}
	for i, s := range shown {
		if i == chainMaxSymptoms {
			rest := shown[i:]
			idx := len(g.nodes)
			g.nodes = append(g.nodes, sized(chainNode{title: fmt.Sprintf("+%d more groups", len(rest)), sub: "less severe, listed below",
				href: "#symptoms", class: "chain-more", tip: fmt.Sprintf("%d symptom groups not drawn; they are listed under Symptoms", len(rest))}))
			g.sink = append(g.sink, idx)
			for _, r := range rest {
				at[r.ID] = idx
			}
			break
		}
		at[s.ID] = len(g.nodes)
		g.sink = append(g.sink, len(g.nodes))
		g.nodes = append(g.nodes, sized(symptomNode(s)))
	}

	// Links between boxes; several folded into one box are one arrow.
	folded := map[[2]int][]string{}
	var order [][2]int
	for _, ln := range links {
		k := [2]int{at[ln[0]], at[ln[1]]}
		if k[0] == k[1] {
			continue
		}
		if _, ok := folded[k]; !ok {
			order = append(order, k)
		}
		reason := why[ln]
		if reason == "" {
			reason = fmt.Sprintf("%s (%s) explains %s (%s)", kindOf(rep, ln[0]), ln[0], kindOf(rep, ln[1]), ln[1])
		}
		folded[k] = append(folded[k], ln[0]+" → "+ln[1]+": "+reason)
	}
	for _, k := range order {
		why := folded[k]
		if len(why) == 1 {
			why[0] = why[0][strings.Index(why[0], ": ")+2:]
		}
		g.edges = append(g.edges, chainEdge{from: k[0], to: k[1], why: strings.Join(why, "\n")})
	}
	return g
}

// kindOf names the kind of a cause or symptom for people.
func kindOf(rep analysis.Report, id string) string {
	for _, c := range rep.Causes {
		if c.ID == id {
			return kinds.Name(c.Kind)
		}
	}
	for _, s := range rep.Symptoms {
		if s.ID == id {
			return kinds.Name(s.Kind)
		}
	}
	return id
}

func causeNode(c analysis.Cause) chainNode {
	role := c.Role
	if c.Count > 1 {
		role = fmt.Sprintf("%s ×%d", c.Role, c.Count)
	}
	class := "chain-contributing"
	if c.Role == "root" {
		class = "chain-root"
	}
	return chainNode{title: kinds.Name(c.Kind), ref: c.ID, sub: fmt.Sprintf("%s · %d%% sure", role, int(math.Round(c.Confidence*100))),
		href: "#" + c.ID, class: class, tip: c.Summary}
}

// felt reports whether a symptom is a critical failure users felt: a critical pod's eviction,
// never the leftover pod object it left behind (analysis.Felt).
func felt(s analysis.Symptom) bool { return s.Critical && analysis.Felt(s.Kind) }

func symptomNode(s analysis.Symptom) chainNode {
	sub := fmt.Sprintf("×%d", max(s.Count, 1))
	if s.At != nil {
		sub += " · " + s.At.UTC().Format("15:04")
	}
	class := "chain-symptom"
	if felt(s) {
		sub = "critical · " + sub
		class += " chain-critical"
	}
	return chainNode{title: kinds.Name(s.Kind), ref: s.ID, sub: sub, href: "#" + s.ID, class: class, tip: s.Summary}
}

// sized clips a box's lines and makes it as wide as its longer line.
func sized(n chainNode) chainNode {
	n.title, n.ref, n.sub = clipLabel(n.title, chainLabel), clipLabel(n.ref, chainLabel/4), clipLabel(n.sub, chainLabel)
	n.w = max(chainMinBoxW, math.Ceil(max(titleWidth(n), textWidth(n.sub, chainSubSize, false))+2*chainPadX))
	return n
}

// titleWidth is the width of a box's first line: its name, then its id, smaller.
func titleWidth(n chainNode) float64 {
	w := textWidth(n.title, chainTitleSize, true)
	if n.ref != "" {
		w += chainIDGap + textWidth(n.ref, chainIDSize, false)
	}
	return w
}

// drawChain writes the laid out chain as SVG.
func drawChain(g chainGraph, p placed) string {
	w, h := max(p.w+2*chainMargin, chainMinViewW), p.h+2*chainMargin
	s := newSVG(int(math.Ceil(w)), int(math.Ceil(h)), "Causal chain: root causes on the left, the causes they lead to, and the symptom groups they explain, worst first")
	s.b.WriteString(`<defs><marker id="chain-arrow" viewBox="0 0 8 8" refX="8" refY="4" markerUnits="userSpaceOnUse" markerWidth="8" markerHeight="8" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#666"/></marker></defs>`)
	for i, e := range g.edges {
		fmt.Fprintf(&s.b, `<path d="%s" class="chain-edge" fill="none" stroke="#666" stroke-width="1.2" marker-end="url(#chain-arrow)"><title>%s</title></path>`,
			pathData(p.paths[i]), esc(e.why))
	}
	fill := map[string]string{"chain-root": "#fde7e7", "chain-contributing": "#fff4e0", "chain-symptom": "#eef2fb", "chain-more": "#f4f4f4"}
	for i, n := range g.nodes {
		x, y := p.at[i][0]+chainMargin, p.at[i][1]+chainMargin
		base, _, _ := strings.Cut(n.class, " ")
		stroke := ` stroke="#999"`
		if strings.Contains(n.class, "chain-critical") {
			stroke = ` stroke="#c62828" stroke-width="1.5"`
		}
		fmt.Fprintf(&s.b, `<a href="%s" class="chain-box %s">`, esc(n.href), n.class)
		s.rect(x, y, n.w, chainBoxH, "chain-rect", fmt.Sprintf(` rx="4" fill="%s"%s`, fill[base], stroke), n.tip)
		fmt.Fprintf(&s.b, `<text x="%.1f" y="%.1f" class="chain-title" font-family="%s" font-size="%g" font-weight="bold" fill="#222">%s`,
			x+chainPadX, y+chainTitleBase, chainFont, chainTitleSize, esc(n.title))
		if n.ref != "" {
			fmt.Fprintf(&s.b, `<tspan class="chain-id" dx="%g" font-size="%g" font-weight="normal" fill="#666">%s</tspan>`, chainIDGap, chainIDSize, esc(n.ref))
		}
		s.b.WriteString(`</text>`)
		fmt.Fprintf(&s.b, `<text x="%.1f" y="%.1f" class="chain-sub" font-family="%s" font-size="%g" fill="#444">%s</text>`,
			x+chainPadX, y+chainSubBase, chainFont, chainSubSize, esc(n.sub))
		s.b.WriteString(`</a>`)
	}
	return s.String()
}

// pathData writes a laid out edge: the B-spline's Bézier pieces, then a line to the arrow's tip.
func pathData(ps [][2]float64) string {
	var b strings.Builder
	pt := func(q [2]float64) string { return fmt.Sprintf("%.1f,%.1f", q[0]+chainMargin, q[1]+chainMargin) }
	b.WriteString("M" + pt(ps[0]))
	last := len(ps) - 1 // the tip
	for i := 1; i+2 < last; i += 3 {
		b.WriteString(" C" + pt(ps[i]) + " " + pt(ps[i+1]) + " " + pt(ps[i+2]))
	}
	b.WriteString(" L" + pt(ps[last]))
	return b.String()
}

// clipLabel keeps a label within n characters.
func clipLabel(t string, n int) string {
	if r := []rune(t); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return t
}
