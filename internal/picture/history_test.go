package picture

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/history"
	"github.com/rootline-dev/rootline/internal/timeline"
)

// TestHistory: the swimlanes are well-formed SVG with a bar per state and a mark per change,
// symptom and event, each with its tooltip; hostile names are escaped; an empty history says so.
func TestHistory(t *testing.T) {
	from := time.Date(2023, 2, 1, 16, 40, 0, 0, time.UTC)
	h := history.History{Object: history.Object{Kind: "Deployment", Namespace: "prod", Name: `hub"><script>alert(1)</script>`}, From: from, To: from.Add(20 * time.Minute),
		Groups: []history.Group{
			{Object: history.Object{Kind: "Deployment", Namespace: "prod", Name: "hub"}, Lanes: []history.Lane{
				{Name: "template revisions", Spans: []history.Span{{From: from.Add(-time.Hour), To: from.Add(10 * time.Minute), State: "revision 1", Tone: history.ToneInfo},
					{From: from.Add(10 * time.Minute), To: from.Add(20 * time.Minute), State: "revision 2", Tone: history.ToneOK}}},
				{Name: "changes", Marks: []history.Mark{{At: from.Add(10 * time.Minute), Kind: history.MarkChange, Ref: "X1", Label: "image: a → <b>", Tone: history.ToneWarning}}},
			}},
			{Object: history.Object{Kind: "Pod", Namespace: "prod", Name: "hub-2-x"}, Lanes: []history.Lane{
				{Name: `container <img src=x onerror=alert(2)> · restarts 3`, Spans: []history.Span{{From: from.Add(11 * time.Minute), To: from.Add(20 * time.Minute), State: "waiting: ImagePullBackOff", Tone: history.ToneBad}},
					Marks: []history.Mark{{At: from.Add(12 * time.Minute), Kind: history.MarkRestart, Label: "hub stopped", Tone: history.ToneBad}}},
				{Name: "symptoms", Marks: []history.Mark{{At: from.Add(12 * time.Minute), Kind: history.MarkSymptom, Ref: "S1", Label: "image_pull_failed", Tone: history.ToneBad}}},
			}},
		}}
	svg := History(h)
	dec := xml.NewDecoder(strings.NewReader(svg))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("not XML: %v\n%s", err, svg)
		}
	}
	for _, want := range []string{`class="span tone-info"`, `class="span tone-ok"`, `class="span tone-bad"`, `class="mark mark-change"`, `class="mark mark-symptom"`,
		`class="mark mark-restart"`, ">X1<", "image: a → &lt;b&gt;", "2023-02-01 16:50:00Z: ", "Pod prod/hub-2-x", "&lt;img src=x",
		"2023-02-01 15:40:00Z – 2023-02-01 16:50:00Z: revision 1"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the picture lacks %q", want)
		}
	}
	for _, bad := range []string{"<script", "<img", "<b>", "style="} {
		if strings.Contains(svg, bad) {
			t.Errorf("the picture holds %q", bad)
		}
	}
	// The revision that began before the window is drawn from its start.
	if !strings.Contains(svg, `<rect x="250.0" y="50.0"`) {
		t.Errorf("the first revision is not clamped to the window's start:\n%s", svg)
	}
	if empty := History(history.History{Object: h.Object}); !strings.Contains(empty, "nothing dated to draw") {
		t.Errorf("an empty history: %s", empty)
	}
}

// TestHistoryBounded: a pod whose collected states flapped ten thousand times, with fifty
// containers, is drawn in a bounded picture (history.Build keeps 200 states a lane and 16
// lanes), and the history says what it left out.
func TestHistoryBounded(t *testing.T) {
	from := time.Date(2023, 2, 1, 16, 0, 0, 0, time.UTC)
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "flap", Namespace: "prod", CreationTimestamp: metav1.NewTime(from)},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, StartTime: &metav1.Time{Time: from}}}
	for i := range 50 {
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, corev1.ContainerStatus{Name: fmt.Sprintf("c%d", i), Ready: true,
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(from)}}})
	}
	in := history.Input{Model: cluster.NewModel(nil, []*cluster.Object{{Kind: cluster.KindPod, Namespace: "prod", Name: "flap", Pod: cluster.PodOf(p)}})}
	for i := range 10_000 {
		state := "Running; ready true"
		if i%2 == 1 {
			state = "Running; ready false; restarts 1"
		}
		in.States = append(in.States, timeline.Change{At: from.Add(time.Duration(i) * time.Second), Kind: cluster.KindPod, Namespace: "prod", Name: "flap", State: state})
	}
	h, ok := history.Build(in, history.Object{Kind: cluster.KindPod, Namespace: "prod", Name: "flap"})
	if !ok {
		t.Fatal("no history")
	}
	svg := History(h)
	if n := strings.Count(svg, `class="span `); n > 16*200 || len(svg) > 1_000_000 {
		t.Errorf("%d spans, %d bytes of SVG", n, len(svg))
	}
	if len(h.Notes) != 2 || !strings.Contains(h.Notes[0], "10000 states; the first 200") || !strings.Contains(h.Notes[1], "lanes; the first 16") {
		t.Errorf("notes %q", h.Notes)
	}
}

// drawnSpan is a state's bar as the picture draws it.
type drawnSpan struct {
	lane, tone, from, to, fill string
	x, w                       float64
}

// drawnSpans reads the bars of a history picture, with the lanes' window and where it is drawn.
func drawnSpans(t *testing.T, svg string) (spans []drawnSpan, from, to time.Time, x0, x1 float64) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(svg))
	var lane string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return spans, from, to, x0, x1
		}
		if err != nil {
			t.Fatalf("not XML: %v", err)
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		a := map[string]string{}
		for _, at := range el.Attr {
			a[at.Name.Local] = at.Value
		}
		num := func(k string) float64 {
			var f float64
			if _, err := fmt.Sscan(a[k], &f); err != nil {
				t.Fatalf("%s=%q: %v", k, a[k], err)
			}
			return f
		}
		switch {
		case el.Name.Local == "g" && a["class"] == "history-lanes":
			from, _ = time.Parse(time.RFC3339Nano, a["data-from"])
			to, _ = time.Parse(time.RFC3339Nano, a["data-to"])
			x0, x1 = num("data-x0"), num("data-x1")
		case el.Name.Local == "g" && a["class"] == "lane-row":
			lane = a["data-name"]
		case el.Name.Local == "rect" && strings.HasPrefix(a["class"], "span "):
			spans = append(spans, drawnSpan{lane: lane, tone: a["data-tone"], from: a["data-from"], to: a["data-to"], fill: a["fill"], x: num("x"), w: num("width")})
		}
	}
}

// TestHistoryUnknownDrawn: IL-0070's hub pod, evicted at 17:06, is drawn hatched as unknown
// from the window's start to 17:06 and Failed (bad) only from there: its bar begins where 17:06
// lies on the axis; the DisruptionTarget condition is bad from 17:06 too; the key shows the
// unknown's hatching.
func TestHistoryUnknownDrawn(t *testing.T) {
	h, ok := history.Build(history.Input{Model: fixtures.IL0070Model(t)}, history.Object{Kind: cluster.KindPod, Namespace: "prod", Name: "hub-8sr9zr4gx7-js2fw"})
	if !ok {
		t.Fatal("no history of the hub pod")
	}
	svg := History(h)
	spans, from, to, x0, x1 := drawnSpans(t, svg)
	evicted := time.Date(2023, 2, 1, 17, 6, 0, 0, time.UTC)
	at := x0 + (x1-x0)*float64(evicted.Sub(from))/float64(to.Sub(from))
	for _, lane := range []string{"status (snapshot)", "condition DisruptionTarget"} {
		var got []drawnSpan
		for _, s := range spans {
			if s.lane == lane {
				got = append(got, s)
			}
		}
		if len(got) != 2 {
			t.Fatalf("%s: bars %+v", lane, got)
		}
		u, bad := got[0], got[1]
		if u.tone != "unknown" || u.fill != "url(#history-unknown)" || u.to != "2023-02-01T17:06:00Z" || math.Abs(u.x-x0) > 0.1 || math.Abs(u.x+u.w-at) > 0.1 {
			t.Errorf("%s: the unknown bar %+v, want from %.1f to %.1f", lane, u, x0, at)
		}
		if bad.tone != "bad" || bad.from != "2023-02-01T17:06:00Z" || math.Abs(bad.x-at) > 0.1 {
			t.Errorf("%s: the bad bar %+v, want from x %.1f (17:06)", lane, bad, at)
		}
	}
	for _, want := range []string{`<pattern id="history-unknown"`, `data-legend="unknown"`, "unknown (before the evidence tells)"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the picture lacks %q", want)
		}
	}
}
