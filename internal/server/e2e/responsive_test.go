package e2e

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/fixtures"
)

// uploadIL0070 creates the incident id and uploads one variant of the IL-0070 evidence to it
// through the API, the way `rootline upload` does.
func uploadIL0070(t *testing.T, base, id, variant string) {
	t.Helper()
	resp, err := http.Post(base+"/api/v1/incidents", "application/json", strings.NewReader(fmt.Sprintf(`{"id": %q, "title": "IL-0070 %s"}`, id, variant)))
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %v %v", err, resp)
	}
	resp.Body.Close()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, name := range fixtures.IL0070Files() {
		b, err := os.ReadFile(filepath.Join(fixtures.IL0070VariantDir(variant), name))
		if err != nil {
			t.Fatal(err)
		}
		w, err := mw.CreateFormFile("files", name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	resp, err = http.Post(base+"/api/v1/incidents/"+id+"/snapshots", mw.FormDataContentType(), &body)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("upload: %d %s", resp.StatusCode, b)
	}
}

// overflowJS measures how wide the document is, and names the elements that reach past the
// viewport's right edge without an ancestor that scrolls or clips them (a picture's figure, a
// table that scrolls inside itself).
const overflowJS = `(() => {
	const w = document.documentElement.clientWidth;
	const contained = el => {
		for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
			const o = getComputedStyle(p).overflowX;
			if (o === 'auto' || o === 'scroll' || o === 'hidden') return true;
		}
		return false;
	};
	const wide = [];
	for (const el of document.body.querySelectorAll('*')) {
		const r = el.getBoundingClientRect();
		if (r.width > 0 && r.right > w + 0.5 && !contained(el)) {
			const cls = typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\s+/).join('.') : '';
			wide.push(el.tagName.toLowerCase() + cls + ' (right ' + Math.round(r.right) + ')');
		}
	}
	return {scrollWidth: document.documentElement.scrollWidth, clientWidth: w, wide: wide.slice(0, 8)};
})()`

type overflow struct {
	ScrollWidth int      `json:"scrollWidth"`
	ClientWidth int      `json:"clientWidth"`
	Wide        []string `json:"wide"`
}

// pictureScaleJS is the smallest scale at which a picture is drawn (its rendered width over its
// viewBox's): below about 0.6 its 11px labels shrink under 7 px and cannot be read.
const pictureScaleJS = `(() => {
	let least = 10;
	for (const svg of document.querySelectorAll('figure svg[viewBox]')) {
		const vb = svg.viewBox.baseVal;
		if (vb && vb.width > 0) least = Math.min(least, svg.getBoundingClientRect().width / vb.width);
	}
	return least;
})()`

// figureContrastJS finds the worst figure of the page: the luminance of its background (the
// pictures are drawn with dark text and light fills, so it must stay light in either scheme)
// and the contrast of its caption's text against it (WCAG's ratio). [2, 21] without figures.
const figureContrastJS = `(() => {
	const rgb = s => (s.match(/[\d.]+/g) || []).slice(0, 3).map(Number);
	const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4 })
		.reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
	let least = [2, 21];
	for (const f of document.querySelectorAll('figure')) {
		const bg = lum(rgb(getComputedStyle(f).backgroundColor));
		least[0] = Math.min(least[0], bg);
		for (const c of f.querySelectorAll('figcaption')) {
			const fg = lum(rgb(getComputedStyle(c).color));
			least[1] = Math.min(least[1], (Math.max(bg, fg) + 0.05) / (Math.min(bg, fg) + 0.05));
		}
	}
	return least;
})()`

// timelineWhatJS is the width of the timeline's first "what happened" cell, -1 without a
// timeline: on a phone the rows reflow, so that the text has the screen's width.
const timelineWhatJS = `(() => { const c = document.querySelector('table.timeline td.tl-what'); return c ? c.getBoundingClientRect().width : -1 })()`

// TestPagesAtPhoneWidthAndInDark opens the incident page of IL-0070's evicted variant, the hub
// pod's history, a symptom group, the related incidents, the upload form, the home page and
// the sign-in page on a 400 px wide phone: no page is wider than the screen (a picture scrolls inside its figure,
// a table inside itself), every picture keeps a scale its labels read at and the timeline's
// rows reflow to give their text the screen's width. In an emulated dark scheme the body's
// background changes, and the pictures stay on light paper with legible captions. Screenshots at 400 px and 1366×768, light and
// dark, go to the artifacts folder.
func TestPagesAtPhoneWidthAndInDark(t *testing.T) {
	base, _ := startServer(t)
	uploadIL0070(t, base, "IL-0070", "evicted")
	ctx, dialogs := browser(t)
	step, _ := driver(t, ctx)
	// The sign-in page shows only where authentication is on.
	signIn, _ := startServerWith(t, func(c *config.Config) { c.Auth = "on" })
	pages := []struct{ name, url, ready string }{
		{"incident", base + "/incidents/IL-0070", `[data-testid="chain"] svg`},
		{"history", base + "/incidents/IL-0070/history?kind=Pod&namespace=prod&name=hub-8sr9zr4gx7-js2fw", `[data-testid="history-picture"] svg`},
		{"group", base + "/incidents/IL-0070/symptoms/S1", `[data-testid="group-member"]`},
		{"related", base + "/incidents/IL-0070/related", `[data-testid="signature"]`},
		{"upload", base + "/upload?incident=IL-0070", `[data-testid="upload-form"]`},
		{"home", base + "/", `[data-testid="incident-list"]`},
		{"sign-in", signIn + "/login", `[data-testid="login-form"]`},
	}
	dir := artifacts(t)
	scheme := func(value string) {
		t.Helper()
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: value}}}); err != nil {
			t.Fatal(err)
		}
	}
	// shoot saves what the screen shows at the top of the page and, where the page has them,
	// with its first picture at the top, its last in the middle and its first table at the top.
	shoot := func(name string) {
		t.Helper()
		for _, at := range []struct{ suffix, js string }{
			{"", `(() => { window.scrollTo(0, 0); return true })()`},
			{"-picture", `(() => { const f = document.querySelector('figure'); if (!f) return false; f.scrollIntoView({block: 'start'}); return true })()`},
			{"-last-picture", `(() => { const f = document.querySelectorAll('figure'); if (f.length < 2) return false; f[f.length-1].scrollIntoView({block: 'center'}); return true })()`},
			{"-table", `(() => { const t = document.querySelector('table'); if (!t) return false; t.scrollIntoView({block: 'start'}); return true })()`},
		} {
			moved, err := chromedp.Run(ctx, chromedp.Evaluate[bool](at.js))
			if err != nil {
				t.Fatal(err)
			}
			if !moved {
				continue
			}
			png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name+at.suffix+".png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}

	background := map[string]map[string]string{}
	for _, colours := range []string{"light", "dark"} {
		scheme(colours)
		for _, screen := range []struct {
			name          string
			width, height int64
			phone         bool
		}{{"phone", 400, 860, true}, {"laptop", 1366, 768, false}} {
			opts := []chromedp.EmulateViewportOption{}
			if screen.phone {
				opts = append(opts, chromedp.EmulateMobile)
			}
			step(fmt.Sprintf("a %s's screen", screen.name), chromedp.EmulateViewport(screen.width, screen.height, opts...))
			for _, p := range pages {
				step(fmt.Sprintf("open the %s page on a %s, %s", p.name, screen.name, colours), chromedp.Navigate(p.url), chromedp.WaitVisible(css(p.ready)))
				shoot(fmt.Sprintf("%s-%s-%s", screen.name, p.name, colours))
				bg, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.body).backgroundColor`))
				if err != nil {
					t.Fatal(err)
				}
				paper, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](figureContrastJS))
				if err != nil {
					t.Fatal(err)
				}
				if paper[0] < 0.6 {
					t.Errorf("%s on a %s, %s: a picture's figure is dark (luminance %.2f), under the pictures' dark text", p.name, screen.name, colours, paper[0])
				}
				if paper[1] < 4.5 {
					t.Errorf("%s on a %s, %s: a picture's caption has a contrast of %.1f with its figure, under 4.5", p.name, screen.name, colours, paper[1])
				}
				if background[p.name] == nil {
					background[p.name] = map[string]string{}
				}
				background[p.name][colours] = bg
				if !screen.phone {
					continue
				}
				o, err := chromedp.Run(ctx, chromedp.Evaluate[overflow](overflowJS))
				if err != nil {
					t.Fatal(err)
				}
				if o.ScrollWidth > 400 || o.ClientWidth > 400 {
					t.Errorf("%s at 400 px, %s: the document is %d px wide (viewport %d); too wide: %s", p.name, colours, o.ScrollWidth, o.ClientWidth, strings.Join(o.Wide, ", "))
				}
				scale, err := chromedp.Run(ctx, chromedp.Evaluate[float64](pictureScaleJS))
				if err != nil {
					t.Fatal(err)
				}
				if scale < 0.6 {
					t.Errorf("%s at 400 px: a picture is drawn at %.2f of its size, its labels too small to read", p.name, scale)
				}
				what, err := chromedp.Run(ctx, chromedp.Evaluate[float64](timelineWhatJS))
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s at 400 px, %s: %d px wide, pictures at %.2f of their size, the timeline's text %.0f px wide", p.name, colours, o.ScrollWidth, scale, what)
				if what >= 0 && what < 300 {
					t.Errorf("%s at 400 px: the timeline's \"what happened\" is %.0f px wide, squeezed between the other columns", p.name, what)
				}
			}
		}
	}
	for _, p := range pages {
		if bg := background[p.name]; bg["light"] == bg["dark"] {
			t.Errorf("%s: the body's background is %s in the light scheme and in the dark one", p.name, bg["light"])
		}
	}
	if c := dialogs.complaints(); len(c) > 0 {
		t.Errorf("the browser complained: %v", c)
	}
}
