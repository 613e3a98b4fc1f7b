package e2e

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// timelineViewJS reads the timeline as Chromium lays it out: its rows, the links that expand a
// folded row, the page's width against the window's, the HTTP status the page came with, and
// whether every row's time fits one line.
const timelineViewJS = `(() => {
	const rows = [...document.querySelectorAll('#timeline [data-testid="entry"]')];
	const nav = performance.getEntriesByType('navigation')[0];
	const oneLine = rows.every(r => { const c = r.querySelector('td.tl-time'); return c && c.getClientRects().length === 1 && c.scrollWidth <= c.clientWidth; });
	return {rows: rows.length, expand: [...document.querySelectorAll('#timeline a[data-testid="expand"]')].map(a => a.href),
		expanded: document.querySelector('[data-testid="expanded"]') !== null, scrollWidth: document.documentElement.scrollWidth,
		innerWidth: window.innerWidth, status: nav ? nav.responseStatus : 0, timeOneLine: oneLine,
		heads: [...document.querySelectorAll('#timeline thead th')].map(th => th.textContent)};
})()`

type timelineView struct {
	Rows        int      `json:"rows"`
	Expand      []string `json:"expand"`
	Expanded    bool     `json:"expanded"`
	ScrollWidth int      `json:"scrollWidth"`
	InnerWidth  int      `json:"innerWidth"`
	Status      int      `json:"status"`
	TimeOneLine bool     `json:"timeOneLine"`
	Heads       []string `json:"heads"`
}

// TestTimelineFoldsInTheBrowser uploads the evicted reading of IL-0070 and opens its incident
// page at 1366×768: the timeline has column headers, at most 40 rows (its 96 nodes not ready
// one row under their symptom), each row's time on one line, and the page is no wider than the
// window. Every folded row's link is followed, by default and grouped by node: each leads to
// the rows it stands for (a 200, rows listed, the page no wider). The fold of the nodes not
// ready is also clicked, as a person would. Screenshots of the timeline go to the artifacts.
func TestTimelineFoldsInTheBrowser(t *testing.T) {
	base, _ := startServer(t)
	ctx, log := browser(t)
	step, _ := driver(t, ctx)
	uploadIL0070(t, base, "fold-evicted", "evicted")
	page := base + "/incidents/fold-evicted"
	step("a laptop's screen", chromedp.EmulateViewport(1366, 768))
	read := func(t *testing.T, u string) timelineView {
		t.Helper()
		step("open "+u, chromedp.Navigate(u), chromedp.WaitReady(css(`#timeline`)))
		v, err := chromedp.Run(ctx, chromedp.Evaluate[timelineView](timelineViewJS))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, view := range []string{"", "?group=node", "?group=namespace"} {
		t.Run("view"+view, func(t *testing.T) {
			v := read(t, page+view)
			t.Logf("%q: %d rows, %d folded rows, page %d px wide in a %d px window", view, v.Rows, len(v.Expand), v.ScrollWidth, v.InnerWidth)
			if v.Status != 200 || v.Rows == 0 || v.Rows > 40 {
				t.Errorf("%q: status %d, %d rows: want at most 40", view, v.Status, v.Rows)
			}
			if strings.Join(v.Heads, "|") != "Time|Type|Kind|What happened|Object" {
				t.Errorf("%q: column headers %q", view, v.Heads)
			}
			if v.ScrollWidth > 1366 || !v.TimeOneLine {
				t.Errorf("%q: the page is %d px wide at 1366 (time on one line: %v)", view, v.ScrollWidth, v.TimeOneLine)
			}
			symptomFold := false
			for _, href := range v.Expand {
				u, err := url.Parse(href)
				if err != nil {
					t.Fatal(err)
				}
				ref := u.Query().Get("expand")
				symptomFold = symptomFold || !strings.HasPrefix(ref, "burst-")
				x := read(t, href)
				if x.Status != 200 || !x.Expanded || x.Rows == 0 || x.ScrollWidth > 1366 {
					t.Errorf("%q: %s: status %d, expanded %v, %d rows, %d px wide", view, ref, x.Status, x.Expanded, x.Rows, x.ScrollWidth)
				}
			}
			if !symptomFold {
				t.Errorf("%q: no symptom's evidence folded under it among %d folded rows", view, len(v.Expand))
			}
		})
	}

	// A person clicks the row of the nodes not ready, and sees them.
	dir := artifacts(t)
	step("the timeline's page", chromedp.Navigate(page), chromedp.WaitReady(css(`#timeline`)))
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { document.querySelector('#timeline').scrollIntoView({block: 'start'}); return true })()`)); err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	whole, err := chromedp.Run(ctx, chromedp.Screenshot(css(`#timeline`)))
	if err != nil {
		t.Fatal(err)
	}
	step("open the nodes not ready",
		chromedp.Click(css(`#timeline tr.entry-node a[data-testid="expand"][href*="expand=S"]`)),
		chromedp.WaitVisible(css(`[data-testid="expanded"]`)))
	v, err := chromedp.Run(ctx, chromedp.Evaluate[timelineView](timelineViewJS))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { document.querySelector('#timeline').scrollIntoView({block: 'start'}); return true })()`)); err != nil {
		t.Fatal(err)
	}
	expanded, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if v.Rows < 96 || v.Status != 200 {
		t.Errorf("the nodes not ready: %d rows (status %d), want every one of the 96", v.Rows, v.Status)
	}
	if c := cspViolations(log); len(c) > 0 {
		t.Errorf("Content-Security-Policy violations:\n%s", strings.Join(c, "\n"))
	}
	for name, png := range map[string][]byte{"timeline-fold-1366x768.png": shot, "timeline-fold-section.png": whole,
		"timeline-fold-expanded-1366x768.png": expanded} {
		if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
