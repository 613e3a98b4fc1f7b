package server

import (
	"slices"
	"sort"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/metrics"
	"github.com/rootline-dev/rootline/internal/picture"
	"github.com/rootline-dev/rootline/internal/timeline"
	"github.com/rootline-dev/rootline/templates/incidents"
)

// The pictures' bounds: the nodes drawn in the requests picture, the symptoms marked one by one
// over the events (more are marked by kind), and the share of a node above which a pod is named.
const (
	maxPictureNodes = 6
	maxMarks        = 12
	labelShare      = 0.10
	// maxMetricPictures bounds the metrics drawn: the cited ones first.
	maxMetricPictures = 4
)

// pictures draws the incident's pictures over the span its evidence and its symptoms cover,
// from a few minutes before: events per minute with the symptom groups marked, the metrics
// the input holds on the same time axis with the symptom groups shaded, the nodes of each pool
// over time, and the requests on the nodes involved (those the causes cite, then
// those of the symptoms), every pod above a tenth of a node named.
func pictures(m *cluster.Model, rep analysis.Report, entries []timeline.Entry, series []metrics.Answer) []incidents.Picture {
	if rep.Inputs.From == nil {
		return nil
	}
	marks := picture.SymptomMarks(entries, maxMarks)
	first, last := *rep.Inputs.From, *rep.Inputs.To
	for _, mk := range marks {
		for _, sp := range mk.Spans {
			if sp.From.Before(first) {
				first = sp.From
			}
			if sp.To.After(last) {
				last = sp.To
			}
		}
	}
	from := first.Add(-5 * time.Minute).Truncate(time.Minute)
	to := last.Add(time.Minute).Truncate(time.Minute)
	width := time.Minute
	if to.Sub(from) > 6*time.Hour { // keep the bars wide enough to see
		width = (to.Sub(from) / 360).Round(time.Second)
	}
	out := []incidents.Picture{
		{Title: "Events per " + per(width) + ", warnings darker, symptoms marked", SVG: picture.EventsPerMinute(timeline.Buckets(entries, from, to, width), marks)},
	}
	for _, a := range metricAnswers(series, rep) {
		out = append(out, incidents.Picture{Title: "Metric " + a.Name + " on the same time axis, symptoms shaded", SVG: picture.Series(a, from, to, marks)})
	}
	out = append(out, incidents.Picture{Title: "Nodes of each pool over time", SVG: picture.NodesPerPool(m, from, to)})
	if loads := involvedNodes(m, rep); len(loads) > 0 {
		out = append(out, incidents.Picture{Title: "Requested against allocatable on the nodes involved, by pod", SVG: picture.NodeRequests(m, loads, labelShare)})
	}
	return out
}

// metricAnswers are the metrics of series to draw, at most maxMetricPictures: first those the
// causes cite, in their order, then the others by name. series is shared by the requests of
// one incident state, so it is sorted as a copy.
func metricAnswers(series []metrics.Answer, rep analysis.Report) []metrics.Answer {
	if len(series) == 0 {
		return nil
	}
	answers := slices.Clone(series)
	rank := map[string]int{}
	for _, c := range rep.Causes {
		for _, e := range c.Evidence {
			if q := e.Metric; q != "" {
				if _, seen := rank[q]; !seen {
					rank[q] = len(rank)
				}
			}
		}
	}
	sort.SliceStable(answers, func(i, j int) bool {
		ri, oki := rank[answers[i].Name]
		rj, okj := rank[answers[j].Name]
		if oki != okj {
			return oki
		}
		return oki && ri < rj
	})
	return answers[:min(len(answers), maxMetricPictures)]
}

// involvedNodes are the loads of the nodes the story is about, at most maxPictureNodes: the
// first node each cause cites (a pod cited stands for its node), then the nodes of the
// symptoms and their members, then the causes' other nodes.
func involvedNodes(m *cluster.Model, rep analysis.Report) []cluster.NodeLoad {
	var loads []cluster.NodeLoad
	seen := map[string]bool{}
	add := func(name string) bool {
		if name == "" || seen[name] || len(loads) == maxPictureNodes {
			return false
		}
		n := m.Node(name)
		if n == nil {
			return false
		}
		seen[name] = true
		loads = append(loads, m.Load(n))
		return true
	}
	nodeOf := func(o analysis.ObjectRef) string {
		switch o.Kind {
		case cluster.KindNode:
			return o.Name
		case cluster.KindPod:
			if p := m.Pod(o.Namespace, o.Name); p != nil {
				return p.Pod.Spec.NodeName
			}
		}
		return ""
	}
	for _, c := range rep.Causes {
		for _, e := range c.Evidence {
			if add(nodeOf(e.Object)) {
				break
			}
		}
	}
	for _, s := range rep.Symptoms {
		add(s.Node)
		for _, ms := range s.Members {
			if add(ms.Node) {
				break
			}
		}
	}
	for _, c := range rep.Causes {
		for _, e := range c.Evidence {
			add(nodeOf(e.Object))
		}
	}
	return loads
}

func per(d time.Duration) string {
	if d == time.Minute {
		return "minute"
	}
	return d.String()
}
