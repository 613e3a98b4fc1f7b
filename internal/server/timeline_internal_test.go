package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/rules"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/ingest"
	"github.com/rootline-dev/rootline/internal/kinds"
	"github.com/rootline-dev/rootline/internal/synth"
	"github.com/rootline-dev/rootline/internal/timeline"
	"github.com/rootline-dev/rootline/templates/incidents"
)

// sectionPage renders an incident page that holds only the timeline and the pictures, made as
// the incident page makes them from the query, and returns the HTML of those two sections.
func sectionPage(t testing.TB, m *cluster.Model, rep analysis.Report, query string) (timelineHTML, picturesHTML string) {
	t.Helper()
	gin.SetMode(gin.TestMode)
	c, _ := gin.CreateTestContext(httptest.NewRecorder())
	c.Request = httptest.NewRequest("GET", "/incidents/x"+query, nil)
	f, err := timelineFilter(c)
	if err != nil {
		t.Fatal(err)
	}
	all := timeline.Build(m, rep, nil)
	page, total := timeline.Apply(all, f)
	p := incidents.Page{ID: "x", Title: "x", Entries: timelineRows(page, all), Total: total, Filter: timelineView(c, f), Pictures: pictures(m, rep, all, nil)}
	var b bytes.Buffer
	if err := incidents.IncidentPage(p).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	return section(html, `<section id="timeline"`), section(html, `<section data-testid="pictures"`)
}

// section cuts a section out of a page, from its opening tag to its end.
func section(html, open string) string {
	i := strings.Index(html, open)
	if i < 0 {
		return ""
	}
	j := strings.Index(html[i:], "</section>")
	return html[i : i+j+len("</section>")]
}

// TestTimelineSection renders the timeline section with the view the page makes of the query:
// each row dated (IL-0070's timeline spans days, its nodes of January), the pager linking every
// page with the filter kept and the current one marked, a folded row's link to its members,
// and the way back from them.
func TestTimelineSection(t *testing.T) {
	t.Parallel()
	m := fixtures.IL0070Model(t)
	rep := rules.Run(m, analysis.Options{})
	html, pics := sectionPage(t, m, rep, "?type=node&collapse=off&limit=20&offset=20")
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(html))
	if err != nil {
		t.Fatal(err)
	}
	rows := doc.Find(`[data-testid="entry"]`)
	if rows.Length() != 20 {
		t.Fatalf("%d rows, want a page of 20", rows.Length())
	}
	rows.Each(func(_ int, s *goquery.Selection) {
		td := s.Find("td").First()
		date := strings.TrimSpace(s.Parent().Find(`[data-testid="day"]`).Text()) // the row of its day, atop its tbody
		if at, title := td.Text(), td.AttrOr("title", ""); len(at) != len("17:01:00") || title != date+" "+at {
			t.Errorf("row time %q (title %q) under day %q: want the time of day alone, the date and time in its title", at, title, date)
		}
	})
	// The date is a row of its own, once a day: the nodes of January, then the incident's day.
	var days []string
	doc.Find(`[data-testid="day"]`).Each(func(_ int, s *goquery.Selection) { days = append(days, strings.TrimSpace(s.Text())) })
	if len(days) == 0 || !slices.IsSorted(days) || len(slices.Compact(slices.Clone(days))) != len(days) || !strings.HasPrefix(days[0], "2023-0") {
		t.Errorf("day rows %q: want each date once, in order", days)
	}
	if got := doc.Find(`[data-testid="timeline-count"]`).Text(); !strings.HasPrefix(got, "rows 21–40 of ") {
		t.Errorf("count %q", got)
	}
	if cur := doc.Find(`[data-testid="pager"] strong`).Text(); cur != "2" {
		t.Errorf("current page %q, want 2", cur)
	}
	first, _ := doc.Find(`[data-testid="pager"] a`).First().Attr("href")
	if first != "/incidents/x?collapse=off&limit=20&type=node#timeline" {
		t.Errorf("first page's link %q", first)
	}
	first, _ = sectionPage(t, m, rep, "?type=node")
	doc, _ = goquery.NewDocumentFromReader(strings.NewReader(first))
	expand, ok := doc.Find(`a[data-testid="expand"]`).First().Attr("href")
	if !ok || !strings.Contains(expand, "expand=burst-nodes-") || !strings.Contains(expand, "type=node") || strings.Contains(expand, "offset=") {
		t.Errorf("expand link %q: want the burst, the filter kept, from its first member", expand)
	}
	if !strings.Contains(pics, "Events per minute") || strings.Count(pics, "<svg") != 3 {
		t.Errorf("pictures: %.300s", pics)
	}

	// A burst's members, and the way back.
	var ref string
	all, _ := timeline.Apply(timeline.Build(m, rep, nil), timeline.Filter{Collapse: true, Types: []string{"node"}})
	for _, e := range all {
		if strings.HasPrefix(e.Ref, timeline.BurstPrefix) && e.Members > 50 {
			ref = e.Ref
		}
	}
	html, _ = sectionPage(t, m, rep, "?type=node&expand="+ref)
	doc, _ = goquery.NewDocumentFromReader(strings.NewReader(html))
	back, _ := doc.Find(`[data-testid="collapse-back"]`).Attr("href")
	if !strings.Contains(doc.Find(`[data-testid="expanded"]`).Text(), ref) || back != "/incidents/x?type=node#timeline" {
		t.Errorf("expanded view of %s: %q, back %q", ref, doc.Find(`[data-testid="expanded"]`).Text(), back)
	}
	if n := doc.Find(`[data-testid="entry"]`).Length(); n < 50 {
		t.Errorf("%d members of %s shown", n, ref)
	}
}

// TestTimelineTable renders the evicted reading's timeline as the page shows it by default and
// grouped: column headers, at most 40 rows (its 96 nodes not ready one row under their symptom),
// kinds named for people with the id beside, a long message clipped with the whole of it on
// demand, and every link to expand a row leading to the rows it stands for.
func TestTimelineTable(t *testing.T) {
	t.Parallel()
	m := fixtures.IL0070Model(t)
	rep := rules.Run(m, analysis.Options{})
	for _, query := range []string{"", "?group=node", "?group=namespace", "?type=node", "?severity=warning"} {
		html, _ := sectionPage(t, m, rep, query)
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(html))
		if err != nil {
			t.Fatal(err)
		}
		var heads []string
		doc.Find(`[data-testid="timeline-table"] thead th`).Each(func(_ int, s *goquery.Selection) { heads = append(heads, s.Text()) })
		if !slices.Equal(heads, []string{"Time", "Type", "Kind", "What happened", "Object"}) {
			t.Errorf("%q: column headers %q", query, heads)
		}
		rows := doc.Find(`[data-testid="entry"]`)
		if rows.Length() == 0 || rows.Length() > 40 {
			t.Errorf("%q: %d rows, want at most 40", query, rows.Length())
		}
		rows.Each(func(_ int, s *goquery.Selection) {
			kind := s.Find("td.tl-kind")
			if id := kind.Find(`[data-testid="kind-id"]`); id.Length() > 0 && !strings.HasPrefix(strings.TrimSpace(kind.Text()), kinds.Name(id.Text())+" ") {
				t.Errorf("%q: kind cell %q: want its name, then its id", query, kind.Text())
			}
			if s.HasClass("entry-symptom") && kind.Find(`[data-testid="kind-id"]`).Length() == 0 {
				t.Errorf("%q: a symptom's kind without its name: %q", query, kind.Text())
			}
		})
		offered := 0
		doc.Find(`a[data-testid="expand"]`).Each(func(_ int, a *goquery.Selection) {
			offered++
			href := a.AttrOr("href", "")
			u, err := url.Parse(href)
			if err != nil {
				t.Fatal(err)
			}
			ref := u.Query().Get("expand")
			html, _ := sectionPage(t, m, rep, "?"+u.RawQuery)
			x, _ := goquery.NewDocumentFromReader(strings.NewReader(html))
			if n := x.Find(`[data-testid="entry"]`).Length(); n == 0 || !strings.Contains(x.Find(`[data-testid="expanded"]`).Text(), ref) {
				t.Errorf("%q: %s expands into %d rows", query, href, n)
			}
		})
		if offered == 0 {
			t.Errorf("%q: no row to expand", query)
		}
		if query == "" && doc.Find(`a[data-testid="expand"][href*="expand=S"]`).Length() == 0 {
			t.Errorf("no symptom's evidence folded under it, to expand")
		}
	}
	// A message longer than a row shows is clipped, the whole of it on demand.
	html, _ := sectionPage(t, m, rep, "?collapse=off&kind=FailedScheduling")
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(html))
	long := doc.Find(`[data-testid="long-summary"]`).First()
	short := long.Find("summary").Text()
	if whole := strings.TrimSpace(strings.TrimPrefix(long.Text(), short)); !strings.HasSuffix(short, " …") || len(whole) <= len(short) ||
		!strings.HasPrefix(whole, strings.TrimSuffix(short, " …")) {
		t.Errorf("long message: shown %q, whole %q", short, whole)
	}
}

// The 20,000-pod incident's page must stay under 1.5 MB of HTML (issue 14); the timeline is its
// largest part. These bounds on its timeline and pictures leave the rest of the page half a MB.
const (
	maxTimelineSection = 400 << 10
	maxPicturesSection = 250 << 10
)

// TestTimelineSectionSize renders the timeline and pictures of the 20,000-pod, 50,000-event
// incident that internal/synth generates (the benchmarks' input) as the page does by default,
// and holds their size under the bounds. The figures are logged (go test -run
// TestTimelineSectionSize -v ./internal/server). The size does not depend on the machine.
func TestTimelineSectionSize(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("reads a generated incident of 20,000 pods (about 10 s)")
	}
	m := synthModel(t, synth.Options{Pods: 20000, Events: 50000, Seed: 42})
	rep := rules.Run(m, analysis.Options{})
	all := timeline.Build(m, rep, nil)
	_, total := timeline.Apply(all, timeline.Filter{Collapse: true})
	html, pics := sectionPage(t, m, rep, "")
	t.Logf("%d timeline entries, %d rows folded, %d symptoms: timeline section %d bytes, pictures %d bytes",
		len(all), total, len(rep.Symptoms), len(html), len(pics))
	if len(html) > maxTimelineSection || len(pics) > maxPicturesSection {
		t.Errorf("timeline section %d bytes (at most %d), pictures %d bytes (at most %d)", len(html), maxTimelineSection, len(pics), maxPicturesSection)
	}
	if !strings.Contains(html, `data-testid="pager"`) || strings.Count(html, `data-testid="entry"`) != defaultTimelineLimit {
		t.Errorf("the first page is not a page of %d rows with a pager", defaultTimelineLimit)
	}
}

// synthModel is the model of a generated incident: read from the benchmarks' copy when
// cmd/rootline's benchmarks left one in the temporary folder, else generated as it is read.
func synthModel(t testing.TB, o synth.Options) *cluster.Model {
	t.Helper()
	names := []string{"nodes.json", "pods.json", "events.json"}
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("rootline-bench-analyze-%d", o.Pods))
	if _, err := os.Stat(filepath.Join(dir, ".complete")); err == nil && o.Events == o.Pods*5/2 && o.Seed == 42 {
		return cluster.NewModel(nil, fixtures.Decode(t, dir, names...))
	}
	var objs []*cluster.Object
	dec := ingest.NewDecoder(ingest.Options{})
	for i, write := range []func(io.Writer, synth.Options) error{synth.WriteNodeList, synth.WritePodList, synth.WriteEventList} {
		r, w := io.Pipe()
		go func() { w.CloseWithError(write(w, o)) }()
		err := dec.Decode(context.Background(), names[i], r, func(o *cluster.Object) error { objs = append(objs, o); return nil })
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	return cluster.NewModel(nil, objs)
}
