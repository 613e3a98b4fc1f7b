package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// chainGeometryJS measures the causal chain as Chromium draws it, in screen pixels: each text's
// box against its box's rect, and each edge, sampled along its length, against every box it
// does not start or end at. A point within 0.5 px of a rect's edge counts as outside (an
// arrow's tip touches its box).
const chainGeometryJS = `(() => {
	const svg = document.querySelector('[data-testid="chain"] svg');
	const out = {boxes: [], edges: 0, texts: 0, more: svg.querySelectorAll('.chain-more').length, problems: []};
	const boxes = [...svg.querySelectorAll('a.chain-box')].map(a => ({href: a.getAttribute('href'), a: a, r: a.querySelector('rect.chain-rect').getBoundingClientRect()}));
	const within = (p, r, slack) => p.x > r.left - slack && p.x < r.right + slack && p.y > r.top - slack && p.y < r.bottom + slack;
	for (const b of boxes) {
		out.boxes.push(b.href);
		for (const t of b.a.querySelectorAll('text')) {
			out.texts++;
			const tr = t.getBoundingClientRect();
			if (tr.left < b.r.left - 0.5 || tr.right > b.r.right + 0.5 || tr.top < b.r.top - 0.5 || tr.bottom > b.r.bottom + 0.5) {
				out.problems.push('text "' + t.textContent + '" of ' + b.href + ' spans ' + [tr.left, tr.right, tr.top, tr.bottom].map(Math.round) +
					', its box ' + [b.r.left, b.r.right, b.r.top, b.r.bottom].map(Math.round));
			}
		}
	}
	for (const path of svg.querySelectorAll('path.chain-edge')) {
		out.edges++;
		const m = path.getScreenCTM(), len = path.getTotalLength();
		const at = l => { const p = path.getPointAtLength(l); return new DOMPoint(p.x, p.y).matrixTransform(m); };
		const first = at(0), last = at(len);
		const ends = boxes.filter(b => within(first, b.r, 3) || within(last, b.r, 3)).map(b => b.href);
		const title = path.querySelector('title').textContent;
		if (ends.length !== 2) out.problems.push('edge "' + title + '" touches ' + ends.join(' ') + ', want its two boxes');
		for (const b of boxes) {
			if (ends.includes(b.href)) continue;
			for (let i = 0; i <= 200; i++) {
				const p = at(len * i / 200);
				if (within(p, b.r, -0.5)) {
					out.problems.push('edge "' + title + '" passes through ' + b.href + ' at ' + Math.round(p.x) + ',' + Math.round(p.y));
					break;
				}
			}
		}
	}
	return out;
})()`

type chainGeometry struct {
	Boxes    []string `json:"boxes"`
	Edges    int      `json:"edges"`
	Texts    int      `json:"texts"`
	More     int      `json:"more"`
	Problems []string `json:"problems"`
}

// TestChainReadsInTheBrowser opens both IL-0070 variants' incident pages at 1366×768 and
// measures the causal chain Chromium draws: every text inside its box, no edge through a box
// but its own two, every cause and symptom group once, no "more" box, the critical groups
// first; a screenshot of each chain goes to the artifacts folder.
func TestChainReadsInTheBrowser(t *testing.T) {
	base, _ := startServer(t)
	ctx, _ := browser(t)
	step, _ := driver(t, ctx)
	step("a laptop's screen", chromedp.EmulateViewport(1366, 768))
	dir := artifacts(t)
	for _, variant := range []string{"evicted", "liveness"} {
		t.Run(variant, func(t *testing.T) {
			step, _ := driver(t, ctx)
			id := "chain-" + variant
			uploadIL0070(t, base, id, variant)
			step("open the incident", chromedp.Navigate(base+"/incidents/"+id), chromedp.WaitVisible(css(`[data-testid="chain"] svg`)))
			g, err := chromedp.Run(ctx, chromedp.Evaluate[chainGeometry](chainGeometryJS))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d boxes %v, %d edges, %d texts", variant, len(g.Boxes), g.Boxes, g.Edges, g.Texts)
			for _, p := range g.Problems {
				t.Error(p)
			}
			seen := map[string]int{}
			var causes, groups int
			for _, b := range g.Boxes {
				seen[b]++
				switch {
				case strings.HasPrefix(b, "#C"):
					causes++
				case strings.HasPrefix(b, "#S"):
					groups++
				}
			}
			for b, n := range seen {
				if n != 1 {
					t.Errorf("%s drawn %d times", b, n)
				}
			}
			if causes < 4 || groups < 4 || g.Edges < causes || g.Texts != 2*len(g.Boxes) || g.More != 0 {
				t.Errorf("%d causes, %d groups, %d edges, %d texts, %d more boxes: want the whole chain, two texts a box, no more box",
					causes, groups, g.Edges, g.Texts, g.More)
			}
			// The groups' column reads worst first: the critical ones on top.
			order, err := chromedp.Run(ctx, chromedp.Evaluate[[]bool](`[...document.querySelectorAll('[data-testid="chain"] a.chain-symptom')]
				.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top).map(a => a.classList.contains('chain-critical'))`))
			if err != nil {
				t.Fatal(err)
			}
			if len(order) == 0 || !order[0] || strings.Contains(fmt.Sprint(order), "false true") {
				t.Errorf("critical groups from the top: %v, want every critical one above the rest", order)
			}
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { document.querySelector('[data-testid="chain"]').scrollIntoView({block: 'start'}); return true })()`)); err != nil {
				t.Fatal(err)
			}
			png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "chain-"+variant+".png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}
