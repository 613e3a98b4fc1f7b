package picture

import (
	"fmt"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// NodeRequests draws, for each node, its allocatable memory and CPU as a frame and the pods'
// requests stacked inside it, largest first, with the node's name and the requested shares.
// Every pod that requests at least labelShare of the node's allocatable (of either resource) is
// named with its share: inside its segment when the name fits, else on a line under the bar, so
// that the heavy neighbours of a node (a Prometheus, a hub, a big notebook) are all told, not
// only the widest. Prometheus is drawn red.
func NodeRequests(m *cluster.Model, loads []cluster.NodeLoad, labelShare float64) string {
	const barH, lineH = 26.0, 13.0
	left := 300.0
	plotW := float64(width) - left - float64(margin)
	type label struct {
		text, tip string
		x         float64
	}
	type bar struct {
		name   string
		share  float64
		alloc  int64
		amount func(cluster.Resources) int64
	}
	type row struct {
		load    cluster.NodeLoad
		bar     bar
		below   [][]label // lines of labels under the bar
		scale   float64
		heights float64
	}
	var rows []row
	for _, l := range loads {
		cpu, mem := l.RequestedFraction()
		for _, b := range []bar{
			{"memory", mem, l.Allocatable.Memory, func(r cluster.Resources) int64 { return r.Memory }},
			{"cpu", cpu, l.Allocatable.MilliCPU, func(r cluster.Resources) int64 { return r.MilliCPU }},
		} {
			r := row{load: l, bar: b, scale: plotW / float64(max(b.alloc, 1))}
			if b.share > 1 { // overcommitted: the frame shrinks so that the stack fits
				r.scale = plotW / (float64(b.alloc) * b.share)
			}
			var line []label
			lx := float64(margin) // labels under a bar use the whole width
			for _, p := range l.Pods {
				amount := b.amount(m.PodRequests(p))
				a := float64(amount) * r.scale
				share := float64(amount) / float64(max(b.alloc, 1))
				text := fmt.Sprintf("%s %.0f%%", p.Name, share*100)
				fits := a >= charW*float64(len([]rune(text)))+6
				if amount > 0 && share >= labelShare && !fits {
					w := charW*float64(len([]rune(text))) + 14
					if lx+w > float64(width-margin/2) && len(line) > 0 {
						r.below, line, lx = append(r.below, line), nil, float64(margin)
					}
					line = append(line, label{text: text, x: lx, tip: fmt.Sprintf("%s/%s requests %.0f%% of the node's %s", p.Namespace, p.Name, share*100, b.name)})
					lx += w
				}
			}
			if len(line) > 0 {
				r.below = append(r.below, line)
			}
			r.heights = barH + lineH*float64(len(r.below))
			rows = append(rows, r)
		}
	}
	h := 2 * margin
	for _, r := range rows {
		h += int(r.heights + 0.5)
	}
	s := newSVG(width, h, "CPU and memory requested against allocatable, by pod; pods above "+fmt.Sprintf("%.0f%%", labelShare*100)+" of a node named")
	y := float64(margin)
	for _, r := range rows {
		l, b := r.load, r.bar
		s.text(left-8, y+barH/2+4, "end", "label", fmt.Sprintf("%s %s %.0f%%", l.Node.Name, b.name, b.share*100))
		s.rect(left, y+2, float64(b.alloc)*r.scale, barH-4, "allocatable", ` fill="#f4f6f9" stroke="#888"`, b.name+" allocatable")
		x := left
		for i, p := range l.Pods {
			amount := b.amount(m.PodRequests(p))
			a := float64(amount) * r.scale
			if a <= 0 {
				continue
			}
			share := float64(amount) / float64(max(b.alloc, 1))
			class, fill := fmt.Sprintf("pod pod-%d", i%6), podFills[i%len(podFills)]
			if cluster.PodComponent(p.Pod) == cluster.ComponentPrometheus {
				class, fill = "pod pod-prometheus", "#c62828"
			}
			tip := fmt.Sprintf("%s/%s: %.0f%% of the node's %s", p.Namespace, p.Name, share*100, b.name)
			s.rect(x, y+4, a, barH-8, class, fmt.Sprintf(` fill="%s" stroke="#fff" stroke-width="0.5"`, fill), tip)
			if text := fmt.Sprintf("%s %.0f%%", p.Name, share*100); a >= charW*float64(len([]rune(text)))+6 {
				s.textTip(x+a/2, y+barH/2+4, "middle", "pod-label", ` fill="#fff"`, text, tip)
			}
			x += a
		}
		ly := y + barH + lineH - 3
		for _, line := range r.below {
			for _, lb := range line {
				s.textTip(lb.x, ly, "start", "label pod-name", "", "▸ "+lb.text, lb.tip)
			}
			ly += lineH
		}
		y += r.heights
	}
	return s.String()
}

// podFills are the pods' colours, one after another along a bar (the stylesheet's pod-0…5).
var podFills = []string{"#9fb3d9", "#a8d5ba", "#f3d9a4", "#d7b4e0", "#b9dfe8", "#e8c3b9"}
