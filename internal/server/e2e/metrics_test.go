package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rootline-dev/rootline/internal/fixtures"
)

// savedAnswers writes the IL-0070 liveness fixture and two saved range answers beside it, as a
// person who ran curl against Prometheus would upload them: the hub's throttling and the
// Prometheus's memory, both rising from 16:55.
func savedAnswers(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for name, b := range fixtures.IL0070VariantBytes(t, "liveness") {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	start := time.Date(2023, 2, 1, 16, 30, 0, 0, time.UTC)
	answer := func(labels string, f func(minute int) float64) string {
		var vs []string
		for i := range 60 {
			vs = append(vs, fmt.Sprintf(`[%d,"%g"]`, start.Add(time.Duration(i)*time.Minute).Unix(), f(i)))
		}
		return `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{` + labels + `},"values":[` + strings.Join(vs, ",") + `]}]}}`
	}
	saved := map[string]string{
		"container_throttling.json": answer(`"namespace":"prod","pod":"hub-8sr9zr4gx7-js2fw","container":"hub"`, func(i int) float64 {
			return map[bool]float64{true: 0.8, false: 0}[i >= 25]
		}),
		"prometheus_memory.json": answer(`"job":"prometheus","pod":"support-prometheus-server-8vssc48qww-74p85"`, func(i int) float64 { return 8e9 + float64(max(0, i-25))*4e8 }),
	}
	for name, body := range saved {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// TestMetricsInTheBrowser uploads IL-0070 with two saved Prometheus answers through the upload
// page; the incident page draws each metric beside the events per minute, on the same time
// axis, with the symptom groups shaded over it, the causes cite the metrics, and Chromium reports
// no Content-Security-Policy violation.
func TestMetricsInTheBrowser(t *testing.T) {
	base, _ := startServer(t)
	ctx, log := browser(t)
	step, text := driver(t, ctx)
	step("create the incident",
		chromedp.Navigate(base+"/"),
		chromedp.SetValue(css(`input[name="title"]`), "Hub restarted during the scale-up"),
		chromedp.SetValue(css(`input[name="id"]`), "metrics"),
		chromedp.Submit(css(`[data-testid="create-form"]`)),
		chromedp.WaitVisible(css(`[data-testid="incident-title"]`)))
	step("upload the evidence and the saved answers",
		chromedp.Navigate(base+"/upload?incident=metrics"),
		chromedp.SetUploadFiles(css(`input[type="file"]`), savedAnswers(t)),
		chromedp.Submit(css(`[data-testid="upload-form"]`)),
		chromedp.WaitVisible(css(`[data-testid="upload-results"]`)),
		chromedp.Click(css(`[data-testid="open-incident"]`)),
		chromedp.WaitVisible(css(`[data-testid="pictures"] svg`)))
	pictures := text(`[data-testid="pictures"]`)
	count := func(js string) int {
		t.Helper()
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return n
	}
	metricPictures := count(`[...document.querySelectorAll('[data-testid="pictures"] svg')].filter(s => s.getAttribute('aria-label').includes('over the incident')).length`)
	lines := count(`document.querySelectorAll('[data-testid="pictures"] svg path.series').length`)
	bands := count(`document.querySelectorAll('[data-testid="pictures"] svg rect.mark-band').length`)
	causes, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
	if err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if metricPictures != 2 || lines != 2 || bands < 2 {
		t.Errorf("%d metric pictures, %d lines, %d symptom bands; want 2, 2 and the symptoms shaded in each", metricPictures, lines, bands)
	}
	for _, want := range []string{"Metric container_throttling on the same time axis", "Metric prometheus_memory on the same time axis"} {
		if !strings.Contains(pictures, want) {
			t.Errorf("the pictures lack %q", want)
		}
	}
	if !strings.Contains(causes, "throttled in 80% of its CFS periods") || !strings.Contains(causes, "metrics show its memory grew") {
		t.Errorf("the causes do not tell the metrics")
	}
	if v := cspViolations(log); len(v) > 0 {
		t.Errorf("Content-Security-Policy violations:\n%s", strings.Join(v, "\n"))
	}
	if c := log.complaints(); len(c) > 0 {
		t.Errorf("the browser logged errors:\n%s", strings.Join(c, "\n"))
	}
	path := filepath.Join(artifacts(t), "metrics-incident.png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}
