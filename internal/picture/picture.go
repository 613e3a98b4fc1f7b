// Package picture draws an incident's pictures as SVG, server-side, so that they print well
// and need no script: events per minute with the symptom groups marked over them, the nodes of
// each pool over time (a burst scale-up is a cliff), and, for the nodes involved, the CPU and
// memory requested against allocatable, stacked by pod, every large pod named. Every text drawn
// is escaped. Colours are presentation attributes, which the page's stylesheet may override
// and which need no inline style (the pages' Content-Security-Policy forbids it).
package picture

import (
	"fmt"
	"html"
	"strings"
	"time"
)

const (
	width  = 900
	height = 180
	margin = 40
	charW  = 6.8 // the width of a character of an 11px label, near enough (a little over) to lay labels out
)

// svg accumulates the elements of one picture.
type svg struct {
	b strings.Builder
}

func newSVG(w, h int, title string) *svg {
	s := &svg{}
	fmt.Fprintf(&s.b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="100%%" role="img" aria-label="%s" class="picture">`, w, h, esc(title))
	fmt.Fprintf(&s.b, `<title>%s</title>`, esc(title))
	return s
}

// rect draws a rectangle; attrs are extra attributes, already safe (colours, opacity).
func (s *svg) rect(x, y, w, h float64, class, attrs, tip string) {
	fmt.Fprintf(&s.b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" class="%s"%s>`, x, y, max(w, 0), max(h, 0), class, attrs)
	if tip != "" {
		fmt.Fprintf(&s.b, `<title>%s</title>`, esc(tip))
	}
	s.b.WriteString(`</rect>`)
}

func (s *svg) text(x, y float64, anchor, class, t string) {
	fmt.Fprintf(&s.b, `<text x="%.1f" y="%.1f" text-anchor="%s" class="%s">%s</text>`, x, y, anchor, class, esc(t))
}

// textTip draws a text with a tooltip of its own.
func (s *svg) textTip(x, y float64, anchor, class, attrs, t, tip string) {
	fmt.Fprintf(&s.b, `<text x="%.1f" y="%.1f" text-anchor="%s" class="%s"%s><title>%s</title>%s</text>`, x, y, anchor, class, attrs, esc(tip), esc(t))
}

func (s *svg) line(x1, y1, x2, y2 float64, class, attrs string) {
	fmt.Fprintf(&s.b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="%s"%s/>`, x1, y1, x2, y2, class, attrs)
}

func (s *svg) path(d, class, attrs string) {
	fmt.Fprintf(&s.b, `<path d="%s" class="%s"%s/>`, d, class, attrs)
}

func (s *svg) String() string { return s.b.String() + `</svg>` }

func esc(s string) string { return html.EscapeString(s) }

// palette colours pools and pods apart; fill and stroke attributes take them.
var palette = []string{"#2457c5", "#2e7d32", "#d9822b", "#8e24aa", "#00838f", "#6d4c41", "#c2185b", "#546e7a"}

// clock formats the times of an axis: with the date when the span crosses days.
func clock(from, to time.Time) func(time.Time) string {
	if from.UTC().Truncate(24 * time.Hour).Equal(to.UTC().Truncate(24 * time.Hour)) {
		return func(t time.Time) string { return t.UTC().Format("15:04") }
	}
	return func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04") }
}

// axis draws the time axis under a plot whose top is at top, and the maximum on its left.
func axis(s *svg, top, bottom float64, from, to time.Time, most int, unit string) {
	format := clock(from, to)
	s.line(margin, bottom, width-margin, bottom, "axis", ` stroke="#888"`)
	s.text(margin, bottom+16, "start", "label", format(from))
	s.text(width-margin, bottom+16, "end", "label", format(to)+" UTC")
	s.text(margin-4, top+4, "end", "label", fmt.Sprint(most))
	s.text(margin-4, bottom, "end", "label", "0")
	if unit != "" {
		s.text(width/2, 14, "middle", "label", unit)
	}
}

// timeX maps times to the x of a plot between the margins, clamped to [from, to].
func timeX(from, to time.Time) func(time.Time) float64 {
	plotW := float64(width - 2*margin)
	return func(t time.Time) float64 {
		if t.Before(from) {
			t = from
		}
		if t.After(to) {
			t = to
		}
		return float64(margin) + plotW*float64(t.Sub(from))/float64(max(to.Sub(from), 1))
	}
}
