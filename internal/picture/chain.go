package picture

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// Layout of the causal chain: one column per depth, root causes on the left, symptom groups
// on the right.
const (
	chainBoxW    = 210.0
	chainBoxH    = 38.0
	chainColGap  = 70.0
	chainRowGap  = 12.0
	chainPad     = 10.0
	chainSymptom = 4  // symptom groups drawn under one cause; the rest are one "more" box
	chainLabel   = 32 // characters of a box's line
)

// chainNode is a box of the chain: a cause, a symptom group, or the rest of a cause's groups.
type chainNode struct {
	id, line1, line2, href, class, tip string
	col                                int
	row                                float64
	parents                            []string
}

// Chain draws the causal chain of a report as a graph: root causes, the causes they lead to,
// and the symptom groups each explains, an arrow for each link with its reason as a tooltip,
// every box a link to the cause's or the group's card (#C1, #S3). It returns "" for a report
// without causes.
func Chain(rep analysis.Report) string {
	if len(rep.Causes) == 0 {
		return ""
	}
	causes := map[string]analysis.Cause{}
	for _, c := range rep.Causes {
		causes[c.ID] = c
	}
	syms := map[string]analysis.Symptom{}
	for _, s := range rep.Symptoms {
		syms[s.ID] = s
	}
	// The depth of a cause: 0 with no cause leading to it, else one more than its parents'.
	parents := map[string][]string{}
	for _, c := range rep.Causes {
		for _, id := range c.Explains {
			if _, ok := causes[id]; ok {
				parents[id] = append(parents[id], c.ID)
			}
		}
	}
	depth := map[string]int{}
	var depthOf func(id string, seen map[string]bool) int
	depthOf = func(id string, seen map[string]bool) int {
		if d, ok := depth[id]; ok {
			return d
		}
		if seen[id] { // never a loop, but never hang on one either
			return 0
		}
		seen[id] = true
		d := 0
		for _, p := range parents[id] {
			d = max(d, depthOf(p, seen)+1)
		}
		depth[id] = d
		return d
	}
	nodes := map[string]*chainNode{}
	var order []string
	add := func(n *chainNode) {
		nodes[n.id] = n
		order = append(order, n.id)
	}
	why := map[[2]string]string{}
	for _, c := range rep.Causes {
		for _, l := range c.Links {
			why[[2]string{c.ID, l.To}] = l.Why
		}
		n := &chainNode{id: c.ID, line1: c.ID + " " + c.Kind, href: "#" + c.ID, class: "chain-" + c.Role, tip: c.Summary,
			col: depthOf(c.ID, map[string]bool{}), parents: parents[c.ID]}
		n.line2 = fmt.Sprintf("%s · confidence %.2f", c.Role, c.Confidence)
		if c.Count > 1 {
			n.line2 = fmt.Sprintf("%s ×%d · confidence %.2f", c.Role, c.Count, c.Confidence)
		}
		add(n)
	}
	maxCause := 0
	for _, c := range rep.Causes {
		maxCause = max(maxCause, nodes[c.ID].col)
	}
	// Each symptom group once, right of the deepest cause that explains it directly; a cause's
	// groups beyond the first chainSymptom are one box.
	placed := map[string]*chainNode{}
	for _, c := range rep.Causes {
		shown, more := 0, 0
		for _, id := range c.Explains {
			s, ok := syms[id]
			if !ok {
				continue
			}
			if n, ok := placed[id]; ok {
				n.parents = append(n.parents, c.ID)
				n.col = max(n.col, nodes[c.ID].col+1)
				continue
			}
			if shown == chainSymptom {
				more++
				continue
			}
			shown++
			n := &chainNode{id: id, line1: id + " " + s.Kind, href: "#" + id, class: "chain-symptom", tip: s.Summary,
				col: nodes[c.ID].col + 1, parents: []string{c.ID}}
			n.line2 = fmt.Sprintf("×%d", max(s.Count, 1))
			if s.At != nil {
				n.line2 += " · " + s.At.UTC().Format("15:04")
			}
			placed[id] = n
			add(n)
		}
		if more > 0 {
			add(&chainNode{id: c.ID + "+", line1: fmt.Sprintf("+%d more groups", more), line2: "explained by " + c.ID, href: "#symptoms",
				class: "chain-more", col: nodes[c.ID].col + 1, parents: []string{c.ID}})
		}
	}
	// Symptoms sit in the column after every cause.
	cols := maxCause + 2
	for _, n := range nodes {
		if n.class == "chain-symptom" || n.class == "chain-more" {
			n.col = maxCause + 1
		}
	}
	// Rows: in each column, boxes in the order of their parents' rows.
	byCol := make([][]*chainNode, cols)
	for _, id := range order {
		n := nodes[id]
		byCol[n.col] = append(byCol[n.col], n)
	}
	tallest := 0
	for col := range byCol {
		for _, n := range byCol[col] {
			if len(n.parents) == 0 {
				continue
			}
			sum := 0.0
			for _, p := range n.parents {
				sum += nodes[p].row
			}
			n.row = sum / float64(len(n.parents))
		}
		sort.SliceStable(byCol[col], func(i, j int) bool { return byCol[col][i].row < byCol[col][j].row })
		for i, n := range byCol[col] {
			n.row = float64(i)
		}
		tallest = max(tallest, len(byCol[col]))
	}
	w := int(2*chainPad + float64(cols)*chainBoxW + float64(cols-1)*chainColGap)
	h := int(2*chainPad + float64(tallest)*(chainBoxH+chainRowGap))
	s := newSVG(w, h, "Causal chain: root causes on the left, the causes they lead to, and the symptom groups they explain")
	pos := func(n *chainNode) (x, y float64) {
		return chainPad + float64(n.col)*(chainBoxW+chainColGap), chainPad + n.row*(chainBoxH+chainRowGap)
	}
	s.b.WriteString(`<defs><marker id="chain-arrow" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#666"/></marker></defs>`)
	for _, id := range order {
		n := nodes[id]
		x2, y2 := pos(n)
		for _, p := range n.parents {
			x1, y1 := pos(nodes[p])
			x1 += chainBoxW
			y1 += chainBoxH / 2
			mid := (x1 + x2) / 2
			reason := why[[2]string{p, strings.TrimSuffix(id, "+")}]
			if reason == "" {
				reason = p + " explains " + id
			}
			fmt.Fprintf(&s.b, `<path d="M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f" class="chain-edge" fill="none" stroke="#666" marker-end="url(#chain-arrow)"><title>%s</title></path>`,
				x1, y1, mid, y1, mid, y2+chainBoxH/2, x2, y2+chainBoxH/2, esc(reason))
		}
	}
	fill := map[string]string{"chain-root": "#fde7e7", "chain-contributing": "#fff4e0", "chain-symptom": "#eef2fb", "chain-more": "#f4f4f4"}
	for _, id := range order {
		n := nodes[id]
		x, y := pos(n)
		fmt.Fprintf(&s.b, `<a href="%s" class="chain-box %s">`, esc(n.href), n.class)
		s.rect(x, y, chainBoxW, chainBoxH, "chain-rect", fmt.Sprintf(` rx="4" fill="%s" stroke="#999"`, fill[n.class]), n.tip)
		s.text(x+8, y+15, "start", "chain-title", clipLabel(n.line1, chainLabel))
		s.text(x+8, y+30, "start", "chain-sub", clipLabel(n.line2, chainLabel))
		s.b.WriteString(`</a>`)
	}
	return s.String()
}

// clipLabel keeps a label within n characters.
func clipLabel(t string, n int) string {
	if r := []rune(t); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return t
}
