package picture

import (
	"fmt"
	"slices"
	"time"

	"github.com/rootline-dev/rootline/internal/timeline"
)

// Mark is a lane of the events picture under which it marks spans of time: one symptom group
// from its first member to its last, or each group of one kind.
type Mark struct {
	Label    string // "S3 pod_pending ×1,204", "pod_pending ×3,441 in 12 groups"
	Critical bool
	Spans    []Span
}

// Span is a stretch of time, a moment when From equals To.
type Span struct{ From, To time.Time }

// SymptomMarks are the lanes of a timeline's symptoms (its top-level symptom rows): one per
// symptom when there are at most limit, else one per kind with a span for each of its groups,
// so that the picture stays readable however many groups the analysis found.
func SymptomMarks(entries []timeline.Entry, limit int) []Mark {
	var rows []timeline.Entry
	for _, e := range entries {
		if e.Type == timeline.TypeSymptom && e.Parent == "" {
			rows = append(rows, e)
		}
	}
	span := func(e timeline.Entry) Span {
		if e.Last != nil && e.Last.After(e.At) {
			return Span{e.At, *e.Last}
		}
		return Span{e.At, e.At}
	}
	var out []Mark
	if len(rows) <= limit {
		for _, e := range rows {
			label := e.Ref + " " + e.Kind
			if e.Count > 1 {
				label += " ×" + timeline.Thousands(e.Count)
			}
			out = append(out, Mark{Label: label, Critical: e.Severity == timeline.SeverityCritical, Spans: []Span{span(e)}})
		}
		return out
	}
	byKind := map[string]int{}
	counts := map[string]int{}
	for _, e := range rows {
		i, ok := byKind[e.Kind]
		if !ok {
			i = len(out)
			byKind[e.Kind] = i
			out = append(out, Mark{})
		}
		out[i].Spans = append(out[i].Spans, span(e))
		out[i].Critical = out[i].Critical || e.Severity == timeline.SeverityCritical
		counts[e.Kind] += max(e.Count, 1)
	}
	for k, i := range byKind {
		out[i].Label = k + " ×" + timeline.Thousands(counts[k])
		if n := len(out[i].Spans); n > 1 {
			out[i].Label += fmt.Sprintf(" in %d groups", n)
		}
	}
	slices.SortStableFunc(out, func(a, b Mark) int { return a.Spans[0].From.Compare(b.Spans[0].From) })
	return out
}

// laneH is the height of a mark's lane: its label, and its spans under it.
const laneH = 20

// EventsPerMinute draws a bar a bucket, warnings in a darker colour over the total, and under
// the bars a lane for each mark, on the same time axis: its label, and a strip for each of its
// spans (critical symptoms red).
func EventsPerMinute(buckets []timeline.Bucket, marks []Mark) string {
	if len(buckets) == 0 {
		s := newSVG(width, height, "Events per minute, warnings highlighted")
		s.text(width/2, height/2, "middle", "empty", "no events")
		return s.String()
	}
	from, to := buckets[0].At, buckets[len(buckets)-1].At
	if len(buckets) > 1 {
		to = to.Add(buckets[1].At.Sub(buckets[0].At))
	}
	x := timeX(from, to)
	h := height + laneH*len(marks)
	if len(marks) > 0 {
		h += 8
	}
	s := newSVG(width, h, "Events per minute, warnings highlighted, symptom groups marked under them")
	top, bottom := float64(margin), float64(height-margin)
	plotH := bottom - top
	most := 1
	for _, b := range buckets {
		most = max(most, b.Events)
	}
	bw := float64(width-2*margin) / float64(len(buckets))
	for i, b := range buckets {
		if b.Events == 0 {
			continue
		}
		bx := float64(margin) + float64(i)*bw
		eh := plotH * float64(b.Events) / float64(most)
		wh := plotH * float64(b.Warnings) / float64(most)
		fmt.Fprintf(&s.b, `<g><title>%s</title>`, esc(fmt.Sprintf("%s: %d events, %d warnings", b.At.UTC().Format("2006-01-02 15:04"), b.Events, b.Warnings)))
		s.rect(bx+0.5, bottom-eh, max(bw-1, 0.5), eh, "bar", ` fill="#b8c7e6"`, "")
		if wh > 0 {
			s.rect(bx+0.5, bottom-wh, max(bw-1, 0.5), wh, "bar-warning", ` fill="#d9822b"`, "")
		}
		s.b.WriteString(`</g>`)
	}
	axis(s, top, bottom, from, to, most, "events")
	format := clock(from, to)
	for i, m := range marks {
		ly := bottom + 28 + float64(laneH*i)
		colour, class := "#2457c5", "mark"
		if m.Critical {
			colour, class = "#c62828", "mark mark-critical"
		}
		for _, sp := range m.Spans {
			x1, x2 := x(sp.From), x(sp.To)
			tip := fmt.Sprintf("%s: %s", m.Label, format(sp.From))
			if sp.To.After(sp.From) {
				tip += " to " + format(sp.To)
			}
			s.rect(x1, ly+2, max(x2-x1, 3), 7, class, fmt.Sprintf(` fill="%s" fill-opacity="0.6"`, colour), tip)
		}
		// The label above the lane's first span, kept inside the picture.
		tw := charW * float64(len([]rune(m.Label)))
		lx := min(x(m.Spans[0].From), float64(width-margin)-tw)
		s.textTip(max(lx, 2), ly, "start", "mark-label label", fmt.Sprintf(` fill="%s"`, colour), m.Label, m.Label)
	}
	return s.String()
}
