package report

import (
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/markdown"
)

// TestAlertLinesAreText: what an alert's sender chose (its name, labels and summary) is written
// into the report as text: rendered, it makes no link of its own choosing (a bare http URL is
// linked as every text's is, javascript: never), no image, emphasis, code, heading or HTML, and
// reads as it was sent.
func TestAlertLinesAreText(t *testing.T) {
	t.Parallel()
	a := alert.Alert{Fingerprint: "ab", Status: alert.Firing, StartsAt: time.Date(2023, 2, 1, 17, 5, 0, 0, time.UTC),
		Labels:      map[string]string{"alertname": "Hub*Down*", "namespace": "prod_ns", "pod": "[x](http://evil.example)"},
		Annotations: map[string]string{"summary": "see [the runbook](javascript:alert(1)) ![i](http://evil.example/i.png) <script>x()</script> `code` &amp; | ~~gone~~\n# heading"}}
	md := Markdown("Hub down", analysis.Report{}, []alert.Alert{a})
	html, err := markdown.New().HTML(md)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(html), "<h1>"); n != 1 {
		t.Errorf("%d headings of the first level, want the title's alone", n)
	}
	for _, bad := range []string{`href="javascript`, ">the runbook</a>", ">x</a>", "<img", "<script", "<em>", "<code>", "<del>"} {
		if strings.Contains(string(html), bad) {
			t.Errorf("the rendered report holds %s:\n%s\n%s", bad, md, html)
		}
	}
	for _, keep := range []string{"Hub*Down*", "[the runbook](javascript:alert(1))", "prod_ns", "&amp;amp;"} {
		if !strings.Contains(string(html), keep) {
			t.Errorf("the rendered report lost %q:\n%s", keep, html)
		}
	}
}
