package e2e

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rootline-dev/rootline/internal/access"
	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/fixtures"
)

// cspViolations returns the Content-Security-Policy violations the browser reported so far,
// after giving it a moment to report the last page's.
func cspViolations(d *dialogLog) []string {
	time.Sleep(300 * time.Millisecond)
	var out []string
	for _, c := range d.complaints() {
		if isCSP(c) {
			out = append(out, c)
		}
	}
	return out
}

// TestCSPIsWatched: the check below would see a violation. A page under Rootline's own
// Content-Security-Policy with an inline script and an inline style makes Chromium report both.
func TestCSPIsWatched(t *testing.T) {
	base, _ := startServer(t)
	resp, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	policy := resp.Header.Get("Content-Security-Policy")
	if !strings.Contains(policy, "script-src 'self'") {
		t.Fatalf("Rootline's policy: %q", policy)
	}
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Security-Policy", policy)
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<!DOCTYPE html><html><head><style>body { color: red }</style></head><body><script>document.title = "ran"</script><p>x</p></body></html>`))
	}))
	t.Cleanup(bad.Close)
	ctx, log := browser(t)
	step, _ := driver(t, ctx)
	step("open a page that breaks the policy", chromedp.Navigate(bad.URL+"/"), chromedp.WaitVisible(css("p")))
	var v []string
	for deadline := time.Now().Add(5 * time.Second); len(v) < 2 && time.Now().Before(deadline); {
		v = cspViolations(log)
	}
	if len(v) < 2 {
		t.Fatalf("violations seen: %q, want the inline script's and the inline style's", v)
	}
}

// TestSignInAndCSPInTheBrowser signs in through the sign-in page of a server with
// authentication on, creates an incident, uploads to it and writes a note through the forms
// (each carrying its form token), opens every page, and signs out; Chromium reports no
// Content-Security-Policy violation and no other error on any page.
func TestSignInAndCSPInTheBrowser(t *testing.T) {
	base, st := startServerWith(t, func(c *config.Config) { c.Auth = "on" })
	if _, err := st.CreateAccount(t.Context(), "wanda", access.Write, "a long enough password"); err != nil {
		t.Fatal(err)
	}
	il0070 := fixtures.IL0070Dir()
	ctx, log := browser(t)
	step, text := driver(t, ctx)
	step("be sent to sign in",
		chromedp.Navigate(base+"/upload"),
		chromedp.WaitVisible(css(`[data-testid="login-form"]`)))
	step("a wrong password",
		chromedp.SetValue(css(`input[name="name"]`), "wanda"),
		chromedp.SetValue(css(`input[name="password"]`), "not the password"),
		chromedp.Submit(css(`[data-testid="login-form"]`)),
		chromedp.WaitVisible(css(`[data-testid="login-error"]`)))
	if got := text(`[data-testid="login-error"]`); !strings.Contains(got, "wrong name or password") {
		t.Errorf("login error: %q", got)
	}
	step("sign in",
		chromedp.SetValue(css(`input[name="name"]`), "wanda"),
		chromedp.SetValue(css(`input[name="password"]`), "a long enough password"),
		chromedp.Submit(css(`[data-testid="login-form"]`)),
		chromedp.WaitVisible(css(`[data-testid="upload-form"]`)))
	if got := text(`[data-testid="signed-in-as"]`); got != "wanda" {
		t.Errorf("signed in as %q", got)
	}
	step("create an incident",
		chromedp.Navigate(base+"/"),
		chromedp.SetValue(css(`input[name="title"]`), "Hub restart"),
		chromedp.SetValue(css(`input[name="id"]`), "IL-0070"),
		chromedp.Submit(css(`[data-testid="create-form"]`)),
		chromedp.WaitVisible(css(`[data-testid="incident-title"]`)))
	step("upload",
		chromedp.Navigate(base+"/upload?incident=IL-0070"),
		chromedp.SetUploadFiles(css(`input[type="file"]`), []string{
			filepath.Join(il0070, "nodes.json"), filepath.Join(il0070, "pods.json"), filepath.Join(il0070, "events.json")}),
		chromedp.Submit(css(`[data-testid="upload-form"]`)),
		chromedp.WaitVisible(css(`[data-testid="upload-results"]`)),
		chromedp.Click(css(`[data-testid="open-incident"]`)),
		chromedp.WaitVisible(css(`[data-testid="causes"]`)))
	step("write a note",
		chromedp.SetValue(css(`[data-testid="note-form"] textarea`), "Prometheus filled the node."),
		chromedp.Submit(css(`[data-testid="note-form"]`)),
		chromedp.WaitVisible(css(`[data-testid="note"]`)))
	step("the related page",
		chromedp.Navigate(base+"/incidents/IL-0070/related"),
		chromedp.WaitVisible(css(`[data-testid="signature"]`)))
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(artifacts(t), "signed-in-related.png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}
	step("sign out",
		chromedp.Submit(css(`[data-testid="logout-form"]`)),
		chromedp.WaitVisible(css(`[data-testid="login-form"]`)))
	step("signed out, a page asks to sign in again",
		chromedp.Navigate(base+"/incidents/IL-0070"),
		chromedp.WaitVisible(css(`[data-testid="login-form"]`)))
	if v := cspViolations(log); len(v) > 0 {
		t.Errorf("Content-Security-Policy violations:\n%s", strings.Join(v, "\n"))
	}
	// Other errors the browser logged, but the two refusals the test caused: the wrong
	// password's 401 page.
	others := slices.DeleteFunc(log.complaints(), func(c string) bool { return strings.Contains(c, "401") })
	if len(others) > 0 {
		t.Errorf("the browser logged errors:\n%s", strings.Join(others, "\n"))
	}
}
