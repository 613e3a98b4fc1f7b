package e2e

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// firstScreenJS says where the summary's parts end on the screen, from the top of the page:
// what happened, why, and the first change of the ranked list, with their texts.
const firstScreenJS = `(() => {
	window.scrollTo(0, 0);
	const part = sel => { const e = document.querySelector(sel); return e ? {bottom: e.getBoundingClientRect().bottom, text: e.textContent} : {bottom: 1e9, text: ''}; };
	return {what: part('[data-testid="summary-what"]'), why: part('[data-testid="summary-why"]'),
		change: part('[data-testid="summary"] [data-testid="change"]'), height: window.innerHeight};
})()`

type screenPart struct {
	Bottom float64 `json:"bottom"`
	Text   string  `json:"text"`
}

type firstScreen struct {
	What   screenPart `json:"what"`
	Why    screenPart `json:"why"`
	Change screenPart `json:"change"`
	Height float64    `json:"height"`
}

// TestSummaryOnTheFirstScreen opens both IL-0070 variants' incident pages at 1366×768: before
// any scroll, the page says what users felt (the hub's pod), the root cause in words, and the
// first change of the incident's one ranked list; the Markdown export leads with the same.
func TestSummaryOnTheFirstScreen(t *testing.T) {
	base, _ := startServer(t)
	ctx, _ := browser(t)
	step, _ := driver(t, ctx)
	step("a laptop's screen", chromedp.EmulateViewport(1366, 768))
	dir := artifacts(t)
	for _, variant := range []string{"evicted", "liveness"} {
		t.Run(variant, func(t *testing.T) {
			step, _ := driver(t, ctx)
			id := "summary-" + variant
			uploadIL0070(t, base, id, variant)
			step("open the incident", chromedp.Navigate(base+"/incidents/"+id), chromedp.WaitVisible(css(`[data-testid="summary"]`)))
			s, err := chromedp.Run(ctx, chromedp.Evaluate[firstScreen](firstScreenJS))
			if err != nil {
				t.Fatal(err)
			}
			if s.Height != 768 {
				t.Fatalf("viewport height %v, want 768", s.Height)
			}
			for name, p := range map[string]screenPart{"what happened": s.What, "why": s.Why, "the first change": s.Change} {
				if p.Bottom > s.Height {
					t.Errorf("%s ends at %.0f px, below the first screen (%v px): %q", name, p.Bottom, s.Height, p.Text)
				}
			}
			if !strings.Contains(s.What.Text, "hub-8sr9zr4gx7-js2fw") {
				t.Errorf("what happened does not name the hub's pod: %q", s.What.Text)
			}
			if !strings.Contains(s.Why.Text, "Root cause: Capacity exhausted") || !strings.Contains(s.Why.Text, "Shared Prometheus") {
				t.Errorf("why does not give the root cause and the chain in words: %q", s.Why.Text)
			}
			if !strings.Contains(s.Change.Text, "support-prometheus") {
				t.Errorf("the first change is not to move Prometheus off the hub's nodes: %q", s.Change.Text)
			}
			png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "summary-"+variant+".png"), png, 0o644); err != nil {
				t.Fatal(err)
			}

			resp, err := http.Get(base + "/api/v1/incidents/" + id + "/export?format=md")
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			md := string(b)
			sum, changes := strings.Index(md, "## Summary"), strings.Index(md, "## What to change")
			if sum < 0 || changes < sum || !strings.Contains(md[changes:], "1. ") || strings.Index(md, "## Causes") < changes {
				t.Errorf("the Markdown export does not lead with the summary and the ranked changes:\n%s", md[:min(len(md), 2000)])
			}
		})
	}
}
