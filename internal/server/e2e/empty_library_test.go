package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestEmptyLibraryInTheBrowser: a newcomer's first page, the empty library, names the server
// they reached (not a hard-coded localhost:8080) in the commands that give it its first
// incident, the example evidence among them, and leads to the upload page (issue 27).
func TestEmptyLibraryInTheBrowser(t *testing.T) {
	base, _ := startServer(t)
	ctx, _ := browser(t)
	step, text := driver(t, ctx)
	step("open the library",
		chromedp.EmulateViewport(1366, 768),
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(css(`[data-testid="empty-hint"]`)))
	hint := text(`[data-testid="empty-hint"]`)
	for _, want := range []string{
		"rootline upload --server " + base + " --cluster NAME incident-folder/",
		"go run ./cmd/rootline upload --server " + base + " --cluster leap internal/analysis/testdata/il0070/evicted",
		"'" + base + "/api/v1/incidents/IL-1/snapshots?create=true'",
	} {
		if !strings.Contains(hint, want) {
			t.Errorf("the empty library's commands lack %q:\n%s", want, hint)
		}
	}
	if strings.Contains(hint, "localhost:8080") {
		t.Errorf("the empty library names localhost:8080, not the server reached at %s:\n%s", base, hint)
	}
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(artifacts(t), "empty-library.png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}
	step("go to the upload page",
		chromedp.Click(css(`[data-testid="empty-library"] a`)),
		chromedp.WaitVisible(css(`[data-testid="upload-form"]`)))
}
