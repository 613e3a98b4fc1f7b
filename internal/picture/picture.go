// Package picture draws an incident's pictures as SVG, server-side, so that they print well
// and need no script: events per minute with warnings highlighted, the number of nodes over
// time (a burst scale-up is a cliff), and, for the nodes involved, the CPU and memory requested
// against allocatable, stacked by pod. Every text drawn is escaped.
package picture

import (
	"fmt"
	"html"
	"sort"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/timeline"
)

const (
	width  = 900
	height = 180
	margin = 40
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

func (s *svg) rect(x, y, w, h float64, class, tip string) {
	fmt.Fprintf(&s.b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" class="%s">`, x, y, max(w, 0), max(h, 0), class)
	if tip != "" {
		fmt.Fprintf(&s.b, `<title>%s</title>`, esc(tip))
	}
	s.b.WriteString(`</rect>`)
}

func (s *svg) text(x, y float64, anchor, class, t string) {
	fmt.Fprintf(&s.b, `<text x="%.1f" y="%.1f" text-anchor="%s" class="%s">%s</text>`, x, y, anchor, class, esc(t))
}

func (s *svg) line(x1, y1, x2, y2 float64, class string) {
	fmt.Fprintf(&s.b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="%s"/>`, x1, y1, x2, y2, class)
}

func (s *svg) path(d, class string) {
	fmt.Fprintf(&s.b, `<path d="%s" class="%s"/>`, d, class)
}

func (s *svg) String() string { return s.b.String() + `</svg>` }

func esc(s string) string { return html.EscapeString(s) }

// EventsPerMinute draws a bar a bucket, warnings in a darker colour over the total.
func EventsPerMinute(buckets []timeline.Bucket) string {
	s := newSVG(width, height, "Events per minute, warnings highlighted")
	if len(buckets) == 0 {
		s.text(width/2, height/2, "middle", "empty", "no events")
		return s.String()
	}
	most := 1
	for _, b := range buckets {
		most = max(most, b.Events)
	}
	plotW, plotH := float64(width-2*margin), float64(height-2*margin)
	bw := plotW / float64(len(buckets))
	for i, b := range buckets {
		x := float64(margin) + float64(i)*bw
		h := plotH * float64(b.Events) / float64(most)
		tip := fmt.Sprintf("%s: %d events, %d warnings", b.At.UTC().Format("15:04"), b.Events, b.Warnings)
		s.rect(x+1, float64(margin)+plotH-h, bw-2, h, "bar", tip)
		wh := plotH * float64(b.Warnings) / float64(most)
		s.rect(x+1, float64(margin)+plotH-wh, bw-2, wh, "bar-warning", tip)
	}
	axis(s, buckets[0].At, buckets[len(buckets)-1].At, most, "events")
	return s.String()
}

// axis draws the time axis under a plot and the maximum on its left.
func axis(s *svg, from, to time.Time, most int, unit string) {
	y := float64(height - margin)
	s.line(margin, y, width-margin, y, "axis")
	s.text(margin, y+16, "start", "label", from.UTC().Format("15:04"))
	s.text(width-margin, y+16, "end", "label", to.UTC().Format("15:04 UTC"))
	s.text(margin-4, margin+4, "end", "label", fmt.Sprint(most))
	s.text(margin-4, y, "end", "label", "0")
	s.text(width/2, 16, "middle", "label", unit)
}

// NodesOverTime draws the number of nodes against time, from the nodes' creation times: a
// burst scale-up shows as a cliff.
func NodesOverTime(m *cluster.Model, from, to time.Time) string {
	s := newSVG(width, height, "Number of nodes over time")
	var created []time.Time
	for _, n := range m.Nodes {
		if t := n.Node.CreationTimestamp.Time; !t.IsZero() {
			created = append(created, t.UTC())
		}
	}
	if len(created) == 0 || !to.After(from) {
		s.text(width/2, height/2, "middle", "empty", "no node creation times")
		return s.String()
	}
	sort.Slice(created, func(i, j int) bool { return created[i].Before(created[j]) })
	plotW, plotH := float64(width-2*margin), float64(height-2*margin)
	xOf := func(t time.Time) float64 {
		if t.Before(from) {
			t = from
		}
		if t.After(to) {
			t = to
		}
		return float64(margin) + plotW*float64(t.Sub(from))/float64(to.Sub(from))
	}
	yOf := func(n int) float64 { return float64(margin) + plotH - plotH*float64(n)/float64(len(created)) }
	count := 0
	for _, t := range created {
		if !t.After(from) {
			count++
		}
	}
	d := fmt.Sprintf("M %.1f %.1f", xOf(from), yOf(count))
	for _, t := range created {
		if !t.After(from) || t.After(to) {
			continue
		}
		count++
		d += fmt.Sprintf(" H %.1f V %.1f", xOf(t), yOf(count))
	}
	d += fmt.Sprintf(" H %.1f", xOf(to))
	s.path(d, "nodes")
	axis(s, from, to, len(created), "nodes")
	return s.String()
}

// NodeRequests draws, for each node, its allocatable memory and CPU as a frame and the pods'
// requests stacked inside it, largest first, with the node's name and the requested shares.
// A pod that takes much of a node (Prometheus's 20Gi) stands out as a long segment.
func NodeRequests(loads []cluster.NodeLoad) string {
	rowH := 34.0
	h := int(rowH*float64(len(loads))*2) + 2*margin
	s := newSVG(width, h, "CPU and memory requested against allocatable, by pod")
	left, plotW := 300.0, float64(width)-300.0-float64(margin)
	y := float64(margin)
	for _, l := range loads {
		cpu, mem := l.RequestedFraction()
		for _, r := range []struct {
			name   string
			share  float64
			alloc  int64
			amount func(cluster.Resources) int64
		}{
			{"memory", mem, l.Allocatable.Memory, func(r cluster.Resources) int64 { return r.Memory }},
			{"cpu", cpu, l.Allocatable.MilliCPU, func(r cluster.Resources) int64 { return r.MilliCPU }},
		} {
			s.text(left-8, y+rowH/2+4, "end", "label", fmt.Sprintf("%s %s %.0f%%", l.Node.Name, r.name, r.share*100))
			scale := plotW / float64(max(r.alloc, 1))
			if r.share > 1 {
				scale = plotW / (float64(r.alloc) * r.share)
			}
			s.rect(left, y+4, float64(r.alloc)*scale, rowH-8, "allocatable", fmt.Sprintf("%s allocatable", r.name))
			x := left
			for i, p := range l.Pods {
				a := float64(r.amount(cluster.PodRequests(p.Pod))) * scale
				if a <= 0 {
					continue
				}
				class := fmt.Sprintf("pod pod-%d", i%6)
				if cluster.PodComponent(p.Pod) == cluster.ComponentPrometheus {
					class = "pod pod-prometheus"
				}
				s.rect(x, y+6, a, rowH-12, class, fmt.Sprintf("%s/%s", p.Namespace, p.Name))
				if a > 90 {
					s.text(x+a/2, y+rowH/2+4, "middle", "pod-label", p.Name)
				}
				x += a
			}
			y += rowH
		}
	}
	return s.String()
}
