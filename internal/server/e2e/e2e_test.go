// Package e2e drives Rootline's pages in a real headless Chromium (Debian's chromium), the
// way a person uses them. Without a Chromium the tests skip, unless CI is set: then they fail.
// Screenshots go to $ROOTLINE_ARTIFACTS (default: the test's temporary folder).
package e2e

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/server"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/testenv"
)

func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	testenv.Missing(t, "no Chromium on this machine (.ci/run installs Debian's chromium)")
	return ""
}

// startServer runs Rootline on a fresh SQLite file, without authentication.
func startServer(t *testing.T) (string, *store.Store) {
	return startServerWith(t, func(*config.Config) {})
}

// startServerWith runs Rootline on a fresh SQLite file, configured by change.
func startServerWith(t *testing.T, change func(*config.Config)) (string, *store.Store) {
	t.Helper()
	ctx := context.Background()
	tg, err := store.ParseTarget(filepath.Join(t.TempDir(), "rootline.db"))
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := store.Open(ctx, tg, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	cfg, _ := config.Default(func(string) string { return "" })
	cfg.Auth = "off"
	change(&cfg)
	srv := server.New(cfg, server.StoreDeps(st, log))
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return ts.URL, st
}

// dialogLog records the dialogs pages open, and the browser's complaints: Content-Security-
// Policy violations and other errors it logs (failed loads, script errors).
type dialogLog struct {
	mu     sync.Mutex
	seen   []string
	errors []string
}

func (d *dialogLog) complaints() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.errors...)
}

// isCSP reports whether a complaint is a Content-Security-Policy violation.
func isCSP(msg string) bool { return strings.Contains(msg, "Content Security Policy") }

func (d *dialogLog) list() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.seen...)
}

func browser(t *testing.T) (context.Context, *dialogLog) {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1400, 1000))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	ctx, cancel3 := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(cancel3)
	// Any dialog a page opens (alert from injected script) is recorded and dismissed.
	dialogs := &dialogLog{}
	err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *page.EventJavascriptDialogOpening:
			dialogs.mu.Lock()
			dialogs.seen = append(dialogs.seen, ev.Message)
			dialogs.mu.Unlock()
			go chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{}) //nolint:errcheck // best effort: the test fails on the dialog anyway
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.EntryLevelError {
				dialogs.mu.Lock()
				dialogs.errors = append(dialogs.errors, fmt.Sprintf("%s: %s (%s)", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
				dialogs.mu.Unlock()
			}
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				dialogs.mu.Lock()
				dialogs.errors = append(dialogs.errors, fmt.Sprintf("console: %v", ev.Args))
				dialogs.mu.Unlock()
			}
		case *runtime.EventExceptionThrown:
			dialogs.mu.Lock()
			dialogs.errors = append(dialogs.errors, "exception: "+ev.ExceptionDetails.Text)
			dialogs.mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	return ctx, dialogs
}

func css(s string) chromedp.CSS { return chromedp.CSS(s) }

// driver returns step, which runs browser actions and stops the test if one fails, and text,
// which reads an element's text.
func driver(t *testing.T, ctx context.Context) (step func(string, ...chromedp.Action[chromedp.Void]), text func(string) string) {
	step = func(name string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	text = func(sel string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Text(css(sel)))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return v
	}
	return step, text
}

func artifacts(t *testing.T) string {
	dir := os.Getenv("ROOTLINE_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestIL0070InTheBrowser creates an incident, uploads the IL-0070 files through the upload
// page, opens the incident, finds the symptoms, the causes and the links between them, adds a
// hypothesis note and sees the analysis beside it, and saves a screenshot. A note and an event
// carrying <script> and javascript: links stay inert in the browser.
func TestIL0070InTheBrowser(t *testing.T) {
	base, _ := startServer(t)
	ctx, dialogs := browser(t)
	il0070 := fixtures.IL0070Dir()
	hostile := filepath.Join(t.TempDir(), "hostile-events.json")
	err := os.WriteFile(hostile, []byte(`{"apiVersion": "v1", "kind": "Event", "metadata": {"name": "x.1", "namespace": "prod", "uid": "hostile-1"},
		"involvedObject": {"kind": "Pod", "namespace": "prod", "name": "x"}, "reason": "Evicted", "type": "Warning",
		"message": "<script>alert('event')</script><img src=x onerror=alert('img')>", "lastTimestamp": "2023-02-01T17:06:30Z"}`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	step, text := driver(t, ctx)
	step("create the incident",
		chromedp.Navigate(base+"/"),
		chromedp.SetValue(css(`input[name="title"]`), "Hub restart during a large node scale-up"),
		chromedp.SetValue(css(`input[name="id"]`), "IL-0070"),
		chromedp.SetValue(css(`input[name="cluster"]`), "leap"),
		chromedp.Submit(css(`[data-testid="create-form"]`)),
		chromedp.WaitVisible(css(`[data-testid="incident-title"]`)))
	step("upload the files",
		chromedp.Navigate(base+"/upload?incident=IL-0070"),
		chromedp.SetUploadFiles(css(`input[type="file"]`), []string{
			filepath.Join(il0070, "nodes.json"), filepath.Join(il0070, "pods.json"), filepath.Join(il0070, "events.json"), hostile,
		}),
		chromedp.Submit(css(`[data-testid="upload-form"]`)),
		chromedp.WaitVisible(css(`[data-testid="upload-results"]`)),
		chromedp.Click(css(`[data-testid="open-incident"]`)),
		chromedp.WaitVisible(css(`[data-testid="causes"]`)))
	causes := text(`[data-testid="causes"]`)
	attr, err := chromedp.Run(ctx, chromedp.AttributeValue(css(`article[data-testid="symptom"] a[data-testid="caused-by"]`), "href"))
	if err != nil {
		t.Fatal(err)
	}
	link := attr.Value
	step("add a hypothesis",
		chromedp.SetValue(css(`[data-testid="note-form"] select[name="kind"]`), "hypothesis"),
		chromedp.SetValue(css(`[data-testid="note-form"] input[name="at"]`), "2023-02-01T17:20:00Z"),
		chromedp.SetValue(css(`[data-testid="note-form"] select[name="causes"]`), "capacity_exhaustion"),
		chromedp.SetValue(css(`[data-testid="note-form"] textarea`), "Evicted under memory pressure? <script>alert('note')</script> [x](javascript:alert(2))"),
		chromedp.Submit(css(`[data-testid="note-form"]`)),
		chromedp.WaitVisible(css(`[data-testid="hypothesis-evidence"]`)))
	hyp := text(`[data-testid="hypothesis-evidence"]`)
	evidence := text(`[data-testid="symptoms"]`)
	// Follow the note's link, if the renderer kept one: it must not run anything.
	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	_ = chromedp.Do(cctx, chromedp.Click(css(`[data-testid="note"] a`)), chromedp.Sleep(300*time.Millisecond))
	cancel()
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // quality 100 gives a PNG
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"capacity_exhaustion", "shared_prometheus", "shared_node_pool"} {
		if !strings.Contains(causes, want) {
			t.Errorf("causes lack %s", want)
		}
	}
	if !strings.HasPrefix(link, "#C") {
		t.Errorf("a symptom's cause link = %q", link)
	}
	if !strings.Contains(hyp, "for: C1 capacity_exhaustion") {
		t.Errorf("the hypothesis shows no evidence: %q", hyp)
	}
	if !strings.Contains(evidence, "pods.json:") {
		t.Errorf("symptoms quote no evidence")
	}
	if d := dialogs.list(); len(d) > 0 {
		t.Errorf("injected script ran in the browser: dialogs %q", d)
	}
	if v := cspViolations(dialogs); len(v) > 0 {
		t.Errorf("Content-Security-Policy violations:\n%s", strings.Join(v, "\n"))
	}
	path := filepath.Join(artifacts(t), "il0070-incident.png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// TestLibraryInTheBrowser imports the example library, searches it from the library page,
// opens IL-0070's related incidents (the ones sharing capacity exhaustion first, with the
// shared components in words), and sets IL-0070's signature through the form, which then
// shows as set by a person.
func TestLibraryInTheBrowser(t *testing.T) {
	base, st := startServer(t)
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "examples", "incidents", "IL-*.md"))
	if err != nil || len(files) < 12 {
		t.Fatalf("example library: %d files, %v", len(files), err)
	}
	var reports []incident.Report
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r, err := incident.ParseReport(f, data, analysis.SymptomKinds, analysis.CauseKinds)
		if err != nil {
			t.Fatal(err)
		}
		reports = append(reports, r)
	}
	if _, err := st.ImportReports(context.Background(), reports, nil); err != nil {
		t.Fatal(err)
	}
	ctx, dialogs := browser(t)
	step, text := driver(t, ctx)
	step("open the library",
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(css(`[data-testid="cause-counts"]`)))
	counts := text(`[data-testid="cause-counts"]`) // of the whole library; after a search, of what it found
	step("search the library",
		chromedp.SetValue(css(`[data-testid="search-form"] input[name="q"]`), "coredns"),
		chromedp.Submit(css(`[data-testid="search-form"]`)),
		chromedp.WaitVisible(css(`[data-testid="incident-list"]`)))
	found := text(`[data-testid="incident-list"] tbody tr:first-child`)
	step("open IL-0070's related incidents",
		chromedp.Navigate(base+"/incidents/IL-0070/related"),
		chromedp.WaitVisible(css(`[data-testid="related-row"]`)))
	first := text(`[data-testid="related-row"]:first-child`)
	all := text(`[data-testid="related"]`)
	origin := text(`[data-testid="signature-origin"]`)
	step("set the signature",
		chromedp.Click(css(`[data-testid="signature"] summary`)),
		chromedp.SetValue(css(`[data-testid="signature-form"] input[name="causes"]`), "capacity_exhaustion, shared_prometheus, cpu_starvation"),
		chromedp.Click(css(`[data-testid="signature-form"] button[value="save"]`)),
		chromedp.WaitVisible(css(`[data-testid="signature-clear"]`)))
	edited := text(`[data-testid="signature"]`)
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(counts, "capacity exhaustion: 9 incidents") {
		t.Errorf("cause counts: %q", counts)
	}
	if !strings.Contains(found, "IL-0014") {
		t.Errorf("searching coredns: first row %q", found)
	}
	if !strings.Contains(first, "same root cause · shared Node pool (same role: core), Prometheus") {
		t.Errorf("first related incident: %q", first)
	}
	if i, j := strings.LastIndex(all, "same root cause"), strings.Index(all, "\nshared "); i < 0 || j < 0 || j < i {
		t.Errorf("incidents sharing only a component should follow those sharing the root cause:\n%s", all)
	}
	if !strings.Contains(origin, "from the report") || !strings.Contains(edited, "set by a person") || !strings.Contains(edited, "cpu_starvation") {
		t.Errorf("signature before %q, after %q", origin, edited)
	}
	if d := dialogs.list(); len(d) > 0 {
		t.Errorf("dialogs: %q", d)
	}
	if v := cspViolations(dialogs); len(v) > 0 {
		t.Errorf("Content-Security-Policy violations:\n%s", strings.Join(v, "\n"))
	}
	path := filepath.Join(artifacts(t), "library-related.png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}
