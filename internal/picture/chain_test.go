package picture

import (
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// chainReport is a chain like IL-0070's: C1 leads to C2 and C3, C2 to C3; C1 names every
// group it reaches, through C2 and C3 too.
func chainReport() analysis.Report {
	at := time.Date(2023, 2, 1, 17, 1, 0, 0, time.UTC)
	rep := analysis.Report{
		Causes: []analysis.Cause{
			{ID: "C1", Kind: "capacity_exhaustion", Role: "root", Confidence: 0.95, Explains: []string{"C2", "C3", "S1", "S2", "S3", "S4"},
				Links: []analysis.Link{{To: "C2", Why: "through the scale-up <S7> & its nodes"}, {To: "S4", Why: "the pool ran out"}}},
			{ID: "C2", Kind: "shared_prometheus", Role: "contributing", Confidence: 0.784, Explains: []string{"C3", "S1", "S2"},
				Links: []analysis.Link{{To: "C3", Why: "Prometheus took most of the node"}}},
			{ID: "C3", Kind: "memory_over_request", Role: "contributing", Count: 3, Confidence: 0.6, Explains: []string{"S1"}},
		},
	}
	for i, k := range []string{"node_not_ready", "pod_evicted", "pod_pending", "scale_up"} {
		s := analysis.Symptom{ID: fmt.Sprintf("S%d", i+1), Kind: k, Count: (i + 1) * 10, Severity: 100 - i, At: &at, Summary: "pods <waited>"}
		if k == "pod_evicted" {
			s.Critical, s.Severity = true, 50
		}
		rep.Symptoms = append(rep.Symptoms, s)
	}
	return rep
}

// drawn is a chain SVG read back: its boxes and its edges.
type drawn struct {
	boxes map[string]drawnBox // by href, "#C1"
	edges []drawnEdge
}

type drawnBox struct {
	x, y, w, h float64
	texts      []drawnText
}

type drawnText struct {
	x, y        float64
	size        float64
	bold        bool
	text        string
	idSize      float64 // a tspan's, after the text
	id          string
	idGap       float64
	family      string
	anchorStart bool
}

type drawnEdge struct {
	d, title string
}

var edgeRe = regexp.MustCompile(`[MCL]`)

// readChain parses the SVG with encoding/xml, the way a browser would read it.
func readChain(t *testing.T, svg string) drawn {
	t.Helper()
	out := drawn{boxes: map[string]drawnBox{}}
	dec := xml.NewDecoder(strings.NewReader(svg))
	var href string
	var cur *drawnText
	var inTspan, inEdgeTitle bool
	attr := func(se xml.StartElement, name string) string {
		for _, a := range se.Attr {
			if a.Name.Local == name {
				return a.Value
			}
		}
		return ""
	}
	num := func(se xml.StartElement, name string) float64 {
		v, err := strconv.ParseFloat(attr(se, name), 64)
		if err != nil {
			t.Fatalf("%s of <%s>: %v", name, se.Name.Local, err)
		}
		return v
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not XML: %v\n%s", err, svg)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			switch tok.Name.Local {
			case "a":
				href = attr(tok, "href")
			case "rect":
				if strings.Contains(attr(tok, "class"), "chain-rect") {
					out.boxes[href] = drawnBox{x: num(tok, "x"), y: num(tok, "y"), w: num(tok, "width"), h: num(tok, "height")}
				}
			case "text":
				cur = &drawnText{x: num(tok, "x"), y: num(tok, "y"), size: num(tok, "font-size"), bold: attr(tok, "font-weight") == "bold",
					family: attr(tok, "font-family"), anchorStart: attr(tok, "text-anchor") == "" || attr(tok, "text-anchor") == "start"}
			case "tspan":
				inTspan = true
				cur.idSize, cur.idGap = num(tok, "font-size"), num(tok, "dx")
			case "path":
				if attr(tok, "class") == "chain-edge" {
					out.edges = append(out.edges, drawnEdge{d: attr(tok, "d")})
					inEdgeTitle = true
				}
			}
		case xml.CharData:
			switch {
			case cur != nil && inTspan:
				cur.id += string(tok)
			case cur != nil:
				cur.text += string(tok)
			case inEdgeTitle:
				out.edges[len(out.edges)-1].title += string(tok)
			}
		case xml.EndElement:
			switch tok.Name.Local {
			case "tspan":
				inTspan = false
			case "text":
				b := out.boxes[href]
				b.texts = append(b.texts, *cur)
				out.boxes[href] = b
				cur = nil
			case "path":
				inEdgeTitle = false
			case "a":
				href = ""
			}
		}
	}
	return out
}

// samples returns points along an edge's path: its Bézier pieces and its last line.
func samples(t *testing.T, d string) [][2]float64 {
	t.Helper()
	var ps [][2]float64
	var pen [2]float64
	cmds := edgeRe.FindAllStringIndex(d, -1)
	for i, c := range cmds {
		end := len(d)
		if i+1 < len(cmds) {
			end = cmds[i+1][0]
		}
		pts, err := points(strings.ReplaceAll(d[c[1]:end], ",", " "))
		if err != nil {
			t.Fatalf("path %q: %v", d, err)
		}
		switch d[c[0]] {
		case 'M':
			pen = pts[0]
		case 'C':
			for k := 0; k <= 20; k++ {
				u := float64(k) / 20
				a, b, cc, e := (1-u)*(1-u)*(1-u), 3*u*(1-u)*(1-u), 3*u*u*(1-u), u*u*u
				ps = append(ps, [2]float64{a*pen[0] + b*pts[0][0] + cc*pts[1][0] + e*pts[2][0], a*pen[1] + b*pts[0][1] + cc*pts[1][1] + e*pts[2][1]})
			}
			pen = pts[2]
		case 'L':
			for k := 0; k <= 10; k++ {
				u := float64(k) / 10
				ps = append(ps, [2]float64{pen[0] + u*(pts[0][0]-pen[0]), pen[1] + u*(pts[0][1]-pen[1])})
			}
			pen = pts[0]
		}
	}
	return ps
}

func inside(b drawnBox, p [2]float64, shrink float64) bool {
	return p[0] > b.x+shrink && p[0] < b.x+b.w-shrink && p[1] > b.y+shrink && p[1] < b.y+b.h-shrink
}

// checkGeometry asserts what the picture promises: every text inside its box, by the widths of
// the font the text sets, and no edge through a box but its own two.
func checkGeometry(t *testing.T, g drawn) {
	t.Helper()
	for href, b := range g.boxes {
		if len(b.texts) != 2 {
			t.Errorf("box %s has %d texts, want 2", href, len(b.texts))
		}
		for _, tx := range b.texts {
			if tx.family != chainFont || !tx.anchorStart {
				t.Errorf("box %s: text %q sets font %q, anchor start %v", href, tx.text, tx.family, tx.anchorStart)
			}
			w := textWidth(tx.text, tx.size, tx.bold)
			if tx.id != "" {
				w += tx.idGap + textWidth(tx.id, tx.idSize, false)
			}
			if tx.x < b.x || tx.x+w > b.x+b.w || tx.y-fontAscent*tx.size < b.y || tx.y+fontDescent*tx.size > b.y+b.h {
				t.Errorf("box %s (%v): text %q %q spans x %.1f–%.1f, y %.1f–%.1f", href, b, tx.text, tx.id, tx.x, tx.x+w,
					tx.y-fontAscent*tx.size, tx.y+fontDescent*tx.size)
			}
		}
	}
	for _, e := range g.edges {
		ps := samples(t, e.d)
		var ends []string // the boxes the edge starts and ends at
		for href, b := range g.boxes {
			for _, p := range []([2]float64){ps[0], ps[len(ps)-1]} {
				if p[0] >= b.x-2 && p[0] <= b.x+b.w+2 && p[1] >= b.y-2 && p[1] <= b.y+b.h+2 {
					ends = append(ends, href)
				}
			}
		}
		if len(ends) != 2 {
			t.Errorf("edge %q (%s) touches %v, want its two boxes", e.title, e.d, ends)
		}
		for href, b := range g.boxes {
			if strings.Contains(strings.Join(ends, " "), href) {
				continue
			}
			for _, p := range ps {
				if inside(b, p, 0) {
					t.Errorf("edge %q passes through box %s at %v", e.title, href, p)
					break
				}
			}
		}
	}
}

func layChain(t *testing.T, rep analysis.Report) string {
	t.Helper()
	l := NewLayouter()
	t.Cleanup(func() {
		if err := l.Close(); err != nil {
			t.Error(err)
		}
	})
	svg, err := l.Chain(context.Background(), rep)
	if err != nil {
		t.Fatal(err)
	}
	return svg
}

func TestChain(t *testing.T) {
	if svg := layChain(t, analysis.Report{}); svg != "" {
		t.Errorf("a report without causes has a chain: %s", svg)
	}
	svg := layChain(t, chainReport())
	g := readChain(t, svg)
	var hrefs []string
	for _, id := range []string{"C1", "C2", "C3", "S1", "S2", "S3", "S4"} {
		if _, ok := g.boxes["#"+id]; ok {
			hrefs = append(hrefs, id)
		}
	}
	if len(hrefs) != 7 || len(g.boxes) != 7 {
		t.Errorf("boxes %v of %d, want every cause and group once", hrefs, len(g.boxes))
	}
	if strings.Contains(svg, "more") {
		t.Error("a more box though every group is drawn")
	}
	for _, want := range []string{"Capacity exhausted", ">C1<", "root · 95% sure", "contributing ×3 · 60% sure", "critical · ×20 · 17:01",
		"×10 · 17:01", "through the scale-up &lt;S7&gt; &amp; its nodes", "pods &lt;waited&gt;", `class="chain-box chain-root"`,
		`class="chain-box chain-symptom chain-critical"`, `font-family="` + chainFont + `"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("the chain lacks %q", want)
		}
	}
	if strings.Contains(svg, "<waited>") || strings.Contains(svg, "<S7>") {
		t.Error("a text is not escaped")
	}
	// Columns follow the chain: C1 left of C2 left of C3 left of the groups.
	x := func(id string) float64 { return g.boxes["#"+id].x + g.boxes["#"+id].w/2 } // a rank's boxes share their centre
	if !(x("C1") < x("C2") && x("C2") < x("C3") && x("C3") < x("S1") && x("S1") == x("S4")) {
		t.Errorf("columns: C1 %v, C2 %v, C3 %v, S1 %v, S4 %v", x("C1"), x("C2"), x("C3"), x("S1"), x("S4"))
	}
	// The critical group on top, then by severity.
	y := func(id string) float64 { return g.boxes["#"+id].y }
	if !(y("S2") < y("S1") && y("S1") < y("S3") && y("S3") < y("S4")) {
		t.Errorf("rows: S2 %v, S1 %v, S3 %v, S4 %v; want the critical S2 first, then by severity", y("S2"), y("S1"), y("S3"), y("S4"))
	}
	checkGeometry(t, g)
}

// TestChainDirectLinks: a link a cause has through another cause is not drawn again.
func TestChainDirectLinks(t *testing.T) {
	g := buildChain(chainReport())
	var got []string
	for _, e := range g.edges {
		got = append(got, g.nodes[e.from].ref+"→"+g.nodes[e.to].ref+": "+e.why)
	}
	want := []string{
		"C1→C2: through the scale-up <S7> & its nodes",
		"C1→S3: Capacity exhausted (C1) explains Pod pending (S3)",
		"C1→S4: the pool ran out",
		"C2→C3: Prometheus took most of the node",
		"C2→S2: Shared Prometheus (C2) explains Pod evicted (S2)",
		"C3→S1: Memory over request (C3) explains Node not ready (S1)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("edges (-want +got):\n%s", diff)
	}
}

func TestDirectLinks(t *testing.T) {
	for _, tc := range []struct {
		name     string
		in, want [][2]string
	}{
		{"implied through a chain", [][2]string{{"a", "c"}, {"a", "b"}, {"b", "c"}}, [][2]string{{"a", "b"}, {"b", "c"}}},
		{"duplicates and self-links", [][2]string{{"a", "b"}, {"a", "b"}, {"a", "a"}}, [][2]string{{"a", "b"}}},
		// A loop keeps what reaches what: b→c goes (b reaches c through a), a→c stays.
		{"a loop", [][2]string{{"a", "b"}, {"b", "a"}, {"b", "c"}, {"a", "c"}}, [][2]string{{"a", "b"}, {"b", "a"}, {"a", "c"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, directLinks(tc.in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestChainFolds: beyond the limit the least severe groups are one box, which says how many.
func TestChainFolds(t *testing.T) {
	rep := analysis.Report{Causes: []analysis.Cause{{ID: "C1", Kind: "capacity_exhaustion", Role: "root", Confidence: 0.9}}}
	for i := range chainMaxSymptoms + 3 {
		id := fmt.Sprintf("S%d", i+1)
		rep.Causes[0].Explains = append(rep.Causes[0].Explains, id)
		rep.Symptoms = append(rep.Symptoms, analysis.Symptom{ID: id, Kind: "pod_pending", Severity: 1000 - i, Summary: "x"})
	}
	svg := layChain(t, rep)
	g := readChain(t, svg)
	if len(g.boxes) != chainMaxSymptoms+2 {
		t.Errorf("%d boxes, want %d groups, the more box and the cause", len(g.boxes), chainMaxSymptoms+2)
	}
	if _, ok := g.boxes["#S13"]; ok || !strings.Contains(svg, "+3 more groups") || g.boxes["#S12"].w == 0 {
		t.Errorf("want S1–S12 drawn and the 3 least severe folded:\n%s", svg)
	}
	checkGeometry(t, g)
}

// TestChainHostile: names an attacker controls stay text, and their boxes still hold them.
func TestChainHostile(t *testing.T) {
	rep := analysis.Report{Causes: []analysis.Cause{{ID: `C1"><i>`, Kind: `<img src=x onerror=alert(1)>WWWWWWWW`, Role: "<b>root</b>",
		Summary: `</title><script>alert(2)</script>`, Explains: []string{"S1"}, Links: []analysis.Link{{To: "S1", Why: "<u>why</u>"}}}},
		Symptoms: []analysis.Symptom{{ID: "S1", Kind: "ｗｉｄｅ　ｔｅｘｔ　ｗｉｄｅ", Summary: "&amp;"}}}
	svg := layChain(t, rep)
	for _, tag := range []string{"<script>", "<img", "<b>", "<i>", "<u>"} {
		if strings.Contains(svg, tag) {
			t.Errorf("a hostile name is not escaped: %s in\n%s", tag, svg)
		}
	}
	for _, want := range []string{"&lt;img src=x", "&lt;b&gt;root", "&lt;u&gt;why", "&lt;/title&gt;&lt;script&gt;", `href="#C1&#34;&gt;&lt;i&gt;"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("the chain lacks %s:\n%s", want, svg)
		}
	}
	checkGeometry(t, readChain(t, svg))
}

// TestChainManyCauses: beyond the limit the last causes are one box, which says how many.
func TestChainManyCauses(t *testing.T) {
	rep := analysis.Report{}
	for i := range chainMaxCauses + 4 {
		c := analysis.Cause{ID: fmt.Sprintf("C%d", i+1), Kind: "shared_prometheus", Role: "contributing", Confidence: 0.5}
		if i+1 < chainMaxCauses+4 {
			c.Explains = []string{fmt.Sprintf("C%d", i+2), "S1"}
		}
		rep.Causes = append(rep.Causes, c)
	}
	rep.Causes[0].Role = "root"
	rep.Symptoms = []analysis.Symptom{{ID: "S1", Kind: "pod_evicted", Critical: true}}
	svg := layChain(t, rep)
	g := readChain(t, svg)
	if len(g.boxes) != chainMaxCauses+2 || !strings.Contains(svg, "+4 more causes") {
		t.Errorf("%d boxes, want %d causes, a more box and the group", len(g.boxes), chainMaxCauses)
	}
	checkGeometry(t, g)
}

func TestTextWidth(t *testing.T) {
	if w := textWidth("Wi", 10, false); math.Abs(w-(9.89+2.78)) > 0.01 {
		t.Errorf("width of Wi at 10px: %v", w)
	}
	if textWidth("a", 12, true) <= textWidth("a", 12, false) {
		t.Error("bold is not wider")
	}
}

// TestChainConcurrent: two Layouters (two servers in one process) lay out at once from several
// goroutines; go-graphviz's one wasm module is behind the process's lock, so each answer is the
// one a lone call gives.
func TestChainConcurrent(t *testing.T) {
	want := layChain(t, chainReport())
	ls := []*Layouter{NewLayouter(), NewLayouter()}
	errs := make(chan error, 16)
	for i := range 16 {
		go func() {
			l := ls[i%2]
			rep := chainReport()
			if i%3 == 0 {
				rep = largestChain()
			}
			for range 3 {
				l.mu.Lock()
				l.done = nil // a layout each time
				l.mu.Unlock()
				svg, err := l.Chain(context.Background(), rep)
				if err == nil && i%3 != 0 && svg != want {
					err = fmt.Errorf("goroutine %d drew another chain", i)
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	for _, l := range ls {
		if err := l.Close(); err != nil {
			t.Error(err)
		}
	}
}

// largestChain is a chain at the limits: every cause and every group drawn, each cause
// linked to the next two causes and to three groups.
func largestChain() analysis.Report {
	rep := analysis.Report{}
	for i := range chainMaxSymptoms {
		rep.Symptoms = append(rep.Symptoms, analysis.Symptom{ID: fmt.Sprintf("S%d", i+1), Kind: "pod_pending", Count: 10, Severity: 100 - i})
	}
	for i := range chainMaxCauses {
		c := analysis.Cause{ID: fmt.Sprintf("C%d", i+1), Kind: "shared_prometheus", Role: "contributing", Confidence: 0.5}
		for _, j := range []int{i + 2, i + 3} {
			if j <= chainMaxCauses {
				c.Explains = append(c.Explains, fmt.Sprintf("C%d", j))
			}
		}
		for k := range 3 {
			c.Explains = append(c.Explains, fmt.Sprintf("S%d", (i*5+k*7)%chainMaxSymptoms+1))
		}
		rep.Causes = append(rep.Causes, c)
	}
	return rep
}

func TestChainLargest(t *testing.T) {
	svg := layChain(t, largestChain())
	g := readChain(t, svg)
	if len(g.boxes) != chainMaxCauses+chainMaxSymptoms {
		t.Errorf("%d boxes, want %d", len(g.boxes), chainMaxCauses+chainMaxSymptoms)
	}
	checkGeometry(t, g)
}

// benchChain lays out rep b.N times; fresh forgets each layout first, as for a page not seen.
func benchChain(b *testing.B, rep analysis.Report, fresh bool) {
	l := NewLayouter()
	defer l.Close()
	ctx := context.Background()
	if _, err := l.Chain(ctx, rep); err != nil { // the engine's start, once
		b.Fatal(err)
	}
	for b.Loop() {
		if fresh {
			l.done = nil
		}
		if _, err := l.Chain(ctx, rep); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkChain: IL-0070's shape laid out anew (a page not seen), seen again, and the largest
// chain drawn.
func BenchmarkChain(b *testing.B) {
	b.Run("il0070", func(b *testing.B) { benchChain(b, chainReport(), true) })
	b.Run("il0070-seen", func(b *testing.B) { benchChain(b, chainReport(), false) })
	b.Run("largest", func(b *testing.B) { benchChain(b, largestChain(), true) })
}

// TestChainLeftoverNotCritical: the pod object a critical pod's eviction left behind is a
// leftover, not a critical failure: drawn without "critical" and below the failures.
func TestChainLeftoverNotCritical(t *testing.T) {
	rep := chainReport()
	rep.Symptoms = append(rep.Symptoms, analysis.Symptom{ID: "S9", Kind: analysis.EvictedPodsLingering, Count: 1, Critical: true, Severity: 9999})
	rep.Causes[0].Explains = append(rep.Causes[0].Explains, "S9")
	g := readChain(t, layChain(t, rep))
	if g.boxes["#S9"].y <= g.boxes["#S2"].y {
		t.Errorf("the leftover S9 (y %v) is drawn above the critical S2 (y %v)", g.boxes["#S9"].y, g.boxes["#S2"].y)
	}
	n := symptomNode(rep.Symptoms[len(rep.Symptoms)-1])
	if strings.Contains(n.sub, "critical") || strings.Contains(n.class, "chain-critical") {
		t.Errorf("the leftover is drawn critical: %q %q", n.sub, n.class)
	}
}
