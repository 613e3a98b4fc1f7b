package picture

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// maxPools bounds the lines of the nodes picture; smaller pools are drawn as one.
const maxPools = 7

// NodesPerPool draws the number of nodes of each pool against time, from the nodes' creation
// times, one line a pool, with a legend of how many each had at the start and at the end: a
// burst scale-up is a cliff in its pool's line.
func NodesPerPool(m *cluster.Model, from, to time.Time) string {
	created := map[string][]time.Time{}
	for _, n := range m.Nodes {
		t := n.Node.CreationTimestamp.Time
		if t.IsZero() || t.After(to) {
			continue
		}
		pool, _ := cluster.NodePool(n.Node.Labels)
		if pool == "" {
			pool = "no pool"
		}
		created[pool] = append(created[pool], t.UTC())
	}
	pools := make([]string, 0, len(created))
	for p := range created {
		pools = append(pools, p)
	}
	slices.SortFunc(pools, func(a, b string) int {
		return cmp.Or(cmp.Compare(len(created[b]), len(created[a])), strings.Compare(a, b))
	})
	if len(pools) > maxPools {
		other := "other pools"
		for _, p := range pools[maxPools-1:] {
			created[other] = append(created[other], created[p]...)
		}
		pools = append(pools[:maxPools-1], other)
	}
	if len(pools) == 0 || !to.After(from) {
		s := newSVG(width, height, "Nodes of each pool over time")
		s.text(width/2, height/2, "middle", "empty", "no node creation times")
		return s.String()
	}
	// The legend first, as its lines push the plot down.
	type item struct {
		text, tip string
		x, y      float64
	}
	items := make([]item, len(pools))
	starts := make([]int, len(pools))
	most, lx, lines := 1, float64(margin), 1
	for i, p := range pools {
		ts := created[p]
		slices.SortFunc(ts, func(a, b time.Time) int { return a.Compare(b) })
		for starts[i] < len(ts) && !ts[starts[i]].After(from) {
			starts[i]++
		}
		most = max(most, len(ts))
		text := fmt.Sprintf("%s %d", p, starts[i])
		if len(ts) != starts[i] {
			text += fmt.Sprintf(" → %d", len(ts))
		}
		w := 16 + charW*float64(len([]rune(text))) + 18
		if lx+w > width-margin && lx > margin {
			lx, lines = margin, lines+1
		}
		items[i] = item{text: text, x: lx, y: float64(margin - 14 + 14*lines),
			tip: fmt.Sprintf("pool %s: %d nodes at %s, %d at the end", p, starts[i], clock(from, to)(from), len(ts))}
		lx += w
	}
	top := float64(margin + 14*lines)
	h := int(top) + height - 2*margin + margin
	s := newSVG(width, h, "Nodes of each pool over time")
	bottom := float64(h - margin)
	x := timeX(from, to)
	y := func(n int) float64 { return bottom - (bottom-top)*float64(n)/float64(most) }
	for i, p := range pools {
		ts, start := created[p], starts[i]
		colour := palette[i%len(palette)]
		var d strings.Builder
		fmt.Fprintf(&d, "M %.1f %.1f", x(from), y(start))
		for n, t := range ts[start:] {
			fmt.Fprintf(&d, " H %.1f V %.1f", x(t), y(start+n+1))
		}
		fmt.Fprintf(&d, " H %.1f", x(to))
		s.path(d.String(), fmt.Sprintf("pool-line pool-%d", i), fmt.Sprintf(` fill="none" stroke="%s" stroke-width="2"`, colour))
		it := items[i]
		s.line(it.x, it.y-4, it.x+12, it.y-4, "legend", fmt.Sprintf(` stroke="%s" stroke-width="3"`, colour))
		s.textTip(it.x+16, it.y, "start", "label pool-label", "", it.text, it.tip)
	}
	axis(s, top, bottom, from, to, most, "")
	return s.String()
}
