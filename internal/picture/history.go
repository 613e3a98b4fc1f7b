package picture

import (
	"fmt"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/history"
)

// The history picture's layout: a column of lane names, then the lanes, one row each, under a
// header row per object.
const (
	histLabelW = 250 // the lane names' column
	histLaneH  = 20
	histGroupH = 22
	histTop    = 24
	histRight  = 20
	histChars  = 36 // of a lane's name, cut beyond (the whole name is its tooltip)
)

// toneFill colours spans and marks by tone; the stylesheet may override them by class. The
// unknown is hatched (the pattern histUnknown), so that it reads as no state rather than as one.
var toneFill = map[string]string{history.ToneOK: "#8cc59a", history.ToneWarning: "#f0c36d", history.ToneBad: "#d9534f", history.ToneInfo: "#a9bde6",
	history.ToneUnknown: "url(#" + histUnknown + ")"}

// histUnknown is the id of the hatching of the unknown; a page holds one history picture.
const histUnknown = "history-unknown"

// legend is what the picture's key shows, in order: each tone with its meaning.
var legend = []struct{ tone, text string }{
	{history.ToneOK, "fine"}, {history.ToneWarning, "warning"}, {history.ToneBad, "bad"}, {history.ToneInfo, "info"},
	{history.ToneUnknown, "unknown (before the evidence tells)"},
}

// History draws an object's history as swimlanes: a header per object (the object, then a
// workload's pods), a row per lane with its states as bars coloured by tone (the time before
// a state is known hatched, as unknown) and what happened as marks (a change a diamond with
// its id, a symptom a triangle, an event or a restart a tick), every one with a tooltip of its
// time and text, over a time axis, under a key of the colours. Each bar says its times and
// tone in data- attributes, and the lanes' group says the window and where it is drawn, so
// that a test reads the picture's times from the page. The history is bounded already
// (history.Build); every text is escaped.
func History(h history.History) string {
	rows := 0
	for _, g := range h.Groups {
		rows += len(g.Lanes)
	}
	hgt := histTop + len(h.Groups)*histGroupH + rows*histLaneH + 30
	s := newSVG(width, hgt, "History of "+h.Object.String())
	if rows == 0 || !h.To.After(h.From) {
		s.text(width/2, float64(hgt)/2, "middle", "empty", "nothing dated to draw")
		return s.String()
	}
	x0, x1 := float64(histLabelW), float64(width-histRight)
	x := func(t time.Time) float64 {
		if t.Before(h.From) {
			t = h.From
		}
		if t.After(h.To) {
			t = h.To
		}
		return x0 + (x1-x0)*float64(t.Sub(h.From))/float64(h.To.Sub(h.From))
	}
	format := clock(h.From, h.To)
	stamp := func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05Z") }
	fmt.Fprintf(&s.b, `<defs><pattern id="%s" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)">`+
		`<rect width="6" height="6" fill="#eceff1"/><line x1="0" y1="0" x2="0" y2="6" stroke="#9aa0a6" stroke-width="2.5"/></pattern></defs>`, histUnknown)
	fmt.Fprintf(&s.b, `<g class="history-lanes" data-from="%s" data-to="%s" data-x0="%.1f" data-x1="%.1f">`,
		h.From.UTC().Format(time.RFC3339Nano), h.To.UTC().Format(time.RFC3339Nano), x0, x1)
	y := float64(histTop)
	for gi, g := range h.Groups {
		s.rect(0, y, width, histGroupH, "history-group", ` fill="#eef1f6"`, "")
		s.textTip(6, y+15, "start", "label group-label", ` font-weight="bold"`, cut(g.Object.String(), 60), g.Object.String())
		y += histGroupH
		for li, l := range g.Lanes {
			fill := "#ffffff"
			if li%2 == 1 {
				fill = "#f8f9fb"
			}
			fmt.Fprintf(&s.b, `<g class="lane-row" data-name="%s">`, esc(l.Name))
			s.rect(0, y, width, histLaneH, "lane", fmt.Sprintf(` fill="%s" data-lane="%d-%d"`, fill, gi, li), "")
			s.textTip(12, y+14, "start", "label lane-label", "", cut(l.Name, histChars), l.Name)
			for _, sp := range l.Spans {
				from, to := x(sp.From), x(sp.To)
				s.rect(from, y+4, max(to-from, 1.5), histLaneH-8, "span tone-"+toneClass(sp.Tone),
					fmt.Sprintf(` fill="%s" data-tone="%s" data-from="%s" data-to="%s"`, orFill(toneFill[sp.Tone]), toneClass(sp.Tone),
						sp.From.UTC().Format(time.RFC3339Nano), sp.To.UTC().Format(time.RFC3339Nano)),
					fmt.Sprintf("%s – %s: %s", stamp(sp.From), stamp(sp.To), sp.State))
			}
			for _, m := range l.Marks {
				mark(s, x(m.At), y, m, stamp(m.At))
			}
			s.b.WriteString(`</g>`)
			y += histLaneH
		}
	}
	s.b.WriteString(`</g>`)
	s.line(x0, y+2, x1, y+2, "axis", ` stroke="#888"`)
	s.text(x0, y+16, "start", "label", format(h.From))
	s.text(x1, y+16, "end", "label", format(h.To)+" UTC")
	tick := format
	if h.To.Sub(h.From) < 2*time.Hour { // ticks between whole minutes say their seconds
		tick = func(t time.Time) string { return t.UTC().Format("15:04:05") }
	}
	for i := 1; i < 4; i++ {
		t := h.From.Add(h.To.Sub(h.From) * time.Duration(i) / 4)
		s.line(x(t), y, x(t), y+5, "axis", ` stroke="#888"`)
		s.text(x(t), y+16, "middle", "label", tick(t))
	}
	historyKey(s)
	return s.String()
}

// historyKey draws the picture's key along its top: a swatch of each tone with its meaning,
// then the marks.
func historyKey(s *svg) {
	kx := 6.0
	for _, k := range legend {
		s.rect(kx, 5, 14, 11, "legend-swatch tone-"+toneClass(k.tone), fmt.Sprintf(` fill="%s" stroke="#888" stroke-width="0.5" data-legend="%s"`,
			toneFill[k.tone], toneClass(k.tone)), "")
		s.text(kx+18, 14, "start", "label legend-label", k.text)
		kx += 18 + float64(len([]rune(k.text)))*charW + 14
	}
	s.text(kx, 14, "start", "label legend-label", "◆ change  ▲ symptom  | event or restart")
}

// mark draws one mark of a lane whose top is at y.
func mark(s *svg, x, y float64, m history.Mark, at string) {
	fill := toneFill[m.Tone]
	tip := at + ": " + m.Label
	mid := y + histLaneH/2
	switch m.Kind {
	case history.MarkChange:
		fmt.Fprintf(&s.b, `<path d="M %.1f %.1f l 6 6 l -6 6 l -6 -6 z" class="mark mark-change" fill="#8e24aa" stroke="#fff">`, x, mid-6)
		fmt.Fprintf(&s.b, `<title>%s</title></path>`, esc(tip))
		if m.Ref != "" {
			s.textTip(x+8, mid+4, "start", "label mark-ref", ` font-weight="bold"`, m.Ref, tip)
		}
	case history.MarkSymptom:
		fmt.Fprintf(&s.b, `<path d="M %.1f %.1f l 6 10 l -12 0 z" class="mark mark-symptom" fill="%s" stroke="#fff">`, x, mid-6, fill)
		fmt.Fprintf(&s.b, `<title>%s</title></path>`, esc(tip))
	default:
		s.rect(x-1, y+3, 2.5, histLaneH-6, "mark mark-"+toneClass(m.Kind), fmt.Sprintf(` fill="%s"`, orFill(fill)), tip)
	}
}

// toneClass keeps a class name to letters, whatever a tone or kind holds.
func toneClass(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' {
			return r
		}
		return -1
	}, s)
}

func orFill(f string) string {
	if f == "" {
		return "#546e7a"
	}
	return f
}

// cut shortens a text to n characters, with an ellipsis.
func cut(t string, n int) string {
	r := []rune(t)
	if len(r) <= n {
		return t
	}
	return string(r[:n-1]) + "…"
}
