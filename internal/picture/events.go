package picture

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/rootline-dev/rootline/internal/timeline"
)

// Mark is a span of time marked over the events picture: a symptom group, from its first
// member to its last.
type Mark struct {
	From, To time.Time
	Label    string // "S3 pod_pending ×1,204"
	Critical bool
}

// maxLanes bounds the rows of mark labels above the bars; more marks share the last rows.
const maxLanes = 6

// SymptomMarks are the marks of a timeline's symptoms (its top-level symptom rows): one per
// symptom when there are at most limit, else one per kind, spanning its symptoms, so that the
// picture stays readable however many groups the analysis found.
func SymptomMarks(entries []timeline.Entry, limit int) []Mark {
	var rows []timeline.Entry
	for _, e := range entries {
		if e.Type == timeline.TypeSymptom && e.Parent == "" {
			rows = append(rows, e)
		}
	}
	last := func(e timeline.Entry) time.Time {
		if e.Last != nil {
			return *e.Last
		}
		return e.At
	}
	var out []Mark
	if len(rows) <= limit {
		for _, e := range rows {
			label := e.Ref + " " + e.Kind
			if e.Count > 1 {
				label += " ×" + timeline.Thousands(e.Count)
			}
			out = append(out, Mark{From: e.At, To: last(e), Label: label, Critical: e.Severity == timeline.SeverityCritical})
		}
		return out
	}
	byKind := map[string]*Mark{}
	counts := map[string]int{}
	var kinds []string
	for _, e := range rows {
		m, ok := byKind[e.Kind]
		if !ok {
			m = &Mark{From: e.At, To: last(e)}
			byKind[e.Kind] = m
			kinds = append(kinds, e.Kind)
		}
		m.From, m.To = minTime(m.From, e.At), maxTime(m.To, last(e))
		m.Critical = m.Critical || e.Severity == timeline.SeverityCritical
		counts[e.Kind] += max(e.Count, 1)
	}
	for _, k := range kinds {
		m := byKind[k]
		m.Label = k + " ×" + timeline.Thousands(counts[k])
		out = append(out, *m)
	}
	slices.SortStableFunc(out, func(a, b Mark) int { return a.From.Compare(b.From) })
	return out
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// EventsPerMinute draws a bar a bucket, warnings in a darker colour over the total, and the
// marks over the bars: a band for each, labelled above the plot (labels in lanes, so that
// they do not overlap).
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
	lanes, laneOf := layLanes(marks, x)
	top := float64(margin + 14*lanes)
	h := int(top) + height - 2*margin + margin
	s := newSVG(width, h, "Events per minute, warnings highlighted, symptom groups marked")
	bottom := float64(h - margin)
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
	format := clock(from, to)
	for i, m := range marks {
		x1, x2 := x(m.From), x(m.To)
		colour := "#2457c5"
		class := "mark"
		if m.Critical {
			colour, class = "#c62828", "mark mark-critical"
		}
		tip := fmt.Sprintf("%s: %s to %s", m.Label, format(m.From), format(m.To))
		s.rect(x1, top, max(x2-x1, 2), plotH, class, fmt.Sprintf(` fill="%s" fill-opacity="0.12"`, colour), tip)
		ly := float64(margin) + 14*float64(laneOf[i]) + 10
		s.line(x1, ly+2, x1, top, "mark-tick", fmt.Sprintf(` stroke="%s"`, colour))
		s.textTip(x1+2, ly, "start", "mark-label label", fmt.Sprintf(` fill="%s"`, colour), m.Label, tip)
	}
	axis(s, top, bottom, from, to, most, "events")
	return s.String()
}

// layLanes puts each mark's label in the first lane where it does not run into the label before
// it, and returns how many lanes there are and each mark's.
func layLanes(marks []Mark, x func(time.Time) float64) (int, []int) {
	order := make([]int, len(marks))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(x(marks[a].From), x(marks[b].From)) })
	var ends []float64 // the right end of the last label of each lane
	lane := make([]int, len(marks))
	for _, i := range order {
		x1 := x(marks[i].From)
		end := x1 + charW*float64(len([]rune(marks[i].Label))) + 8
		l := slices.IndexFunc(ends, func(e float64) bool { return e <= x1 })
		if l < 0 && len(ends) < maxLanes {
			ends = append(ends, 0)
			l = len(ends) - 1
		}
		if l < 0 { // every lane is taken: the one that frees first
			l = 0
			for j, e := range ends {
				if e < ends[l] {
					l = j
				}
			}
		}
		ends[l], lane[i] = end, l
	}
	return len(ends), lane
}
