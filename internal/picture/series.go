package picture

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/metrics"
)

// maxLines bounds the series drawn in one metric's picture: those of the highest peaks.
const maxLines = 5

// seriesH is the height of a metric's plot and its axis, above its legend and lanes; legendH
// the height of a legend line.
const (
	seriesH = 150
	legendH = 14
)

// Series draws one query's series over the same time axis as the events picture (from, to),
// a line a series (the maxLines of the highest peaks in the window; the picture says how many
// more there are), with the symptom groups of marks shaded behind them and labelled under the
// plot, so that a rise can be read against what happened. Values are written in the query's
// unit (a share as %, bytes, cores, or a count) by its name. Points outside the window are not
// drawn.
func Series(a metrics.Answer, from, to time.Time, marks []Mark) string {
	type line struct {
		s    *metrics.Series
		peak float64
	}
	var lines []line
	for i := range a.Series {
		s := &a.Series[i]
		peak, ok := math.Inf(-1), false
		for _, p := range s.Points {
			if !p.At.Before(from) && !p.At.After(to) && finite(p.Value) {
				peak, ok = max(peak, p.Value), true
			}
		}
		if ok {
			lines = append(lines, line{s, peak})
		}
	}
	title := fmt.Sprintf("%s over the incident (%s)", a.Name, a.File)
	if len(lines) == 0 {
		s := newSVG(width, seriesH, title)
		s.text(width/2, seriesH/2, "middle", "empty", "no points of "+a.Name+" in this window")
		return s.String()
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].peak > lines[j].peak })
	more := 0
	if len(lines) > maxLines {
		more = len(lines) - maxLines
		lines = lines[:maxLines]
	}
	most := 0.0
	for _, l := range lines {
		most = max(most, l.peak)
	}
	if most <= 0 {
		most = 1
	}
	// The plot, then under its axis a legend line a series, then a lane a symptom group.
	top, bottom := 24.0, float64(seriesH-margin)
	legend := bottom + 30
	lanes := legend + float64(legendH*len(lines)) + 12
	s := newSVG(width, int(lanes)+laneH*len(marks)+4, title)
	x := timeX(from, to)
	y := func(v float64) float64 { return bottom - (bottom-top)*max(v, 0)/most }
	format := clock(from, to)
	// The symptom groups, shaded behind the lines and labelled in lanes under the plot.
	for i, m := range marks {
		colour := "#2457c5"
		if m.Critical {
			colour = "#c62828"
		}
		ly := lanes + float64(laneH*i)
		for _, sp := range m.Spans {
			x1, x2 := x(sp.From), x(sp.To)
			tip := fmt.Sprintf("%s: %s", m.Label, format(sp.From))
			if sp.To.After(sp.From) {
				tip += " to " + format(sp.To)
			}
			s.rect(x1, top, max(x2-x1, 2), bottom-top, "mark-band", fmt.Sprintf(` fill="%s" fill-opacity="0.12"`, colour), tip)
			s.rect(x1, ly+2, max(x2-x1, 3), 7, "mark", fmt.Sprintf(` fill="%s" fill-opacity="0.6"`, colour), tip)
		}
		tw := charW * float64(len([]rune(m.Label)))
		lx := min(x(m.Spans[0].From), float64(width-margin)-tw)
		s.textTip(max(lx, 2), ly, "start", "mark-label label", fmt.Sprintf(` fill="%s"`, colour), m.Label, m.Label)
	}
	for i, l := range lines {
		var d strings.Builder
		pen := "M"
		for _, p := range l.s.Points {
			if p.At.Before(from) || p.At.After(to) || !finite(p.Value) {
				pen = "M" // a gap in the series is a gap in the line
				continue
			}
			fmt.Fprintf(&d, "%s%.1f %.1f ", pen, x(p.At), y(p.Value))
			pen = "L"
		}
		colour := palette[i%len(palette)]
		name := seriesLabel(l.s.Labels)
		fmt.Fprintf(&s.b, `<g><title>%s</title>`, esc(fmt.Sprintf("%s: peak %s", name, unitValue(a.Name, l.peak))))
		s.path(strings.TrimSpace(d.String()), "series", fmt.Sprintf(` fill="none" stroke="%s" stroke-width="1.5"`, colour))
		s.b.WriteString(`</g>`)
		ly := legend + float64(legendH*i)
		s.line(margin, ly-4, margin+18, ly-4, "legend", fmt.Sprintf(` stroke="%s" stroke-width="2"`, colour))
		s.textTip(margin+24, ly, "start", "label", fmt.Sprintf(` fill="%s"`, colour), cut(name+", peak "+unitValue(a.Name, l.peak), 110), name)
	}
	s.line(margin, bottom, width-margin, bottom, "axis", ` stroke="#888"`)
	s.text(margin, bottom+16, "start", "label", format(from))
	s.text(width-margin, bottom+16, "end", "label", format(to)+" UTC")
	s.line(margin, top, width-margin, top, "grid", ` stroke="#ddd"`)
	s.text(margin+4, top-4, "start", "label", unitValue(a.Name, most))
	s.text(margin-4, bottom, "end", "label", "0")
	heading := a.Name
	if more > 0 {
		heading += fmt.Sprintf(" (the %d highest of %d series)", len(lines), len(lines)+more)
	}
	s.text(width/2, 12, "middle", "label", heading)
	return s.String()
}

// seriesLabel names a series for its legend: the pod and container, or the instance, or its
// labels.
func seriesLabel(l map[string]string) string {
	switch {
	case l["pod"] != "" && l["container"] != "":
		return l["namespace"] + "/" + l["pod"] + " " + l["container"]
	case l["pod"] != "":
		return l["namespace"] + "/" + l["pod"]
	case l["instance"] != "":
		return l["instance"]
	case l["node"] != "":
		return l["node"]
	}
	return metrics.Name(l)
}

// unitValue writes a value in the unit of the query's name.
func unitValue(query string, v float64) string {
	switch {
	case strings.Contains(query, "throttling"):
		return fmt.Sprintf("%.0f%%", v*100)
	case strings.Contains(query, "memory"):
		return bytesString(v)
	case strings.Contains(query, "cpu"):
		return strconv.FormatFloat(v, 'g', 3, 64) + " cores"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

func bytesString(v float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	i := 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + " " + units[i]
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
