package server

import (
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/picture"
	"github.com/rootline-dev/rootline/internal/timeline"
	"github.com/rootline-dev/rootline/templates/incidents"
)

// maxPictureNodes bounds the nodes drawn in the requests picture.
const maxPictureNodes = 6

// pictures draws the incident's pictures over the span its events record, from a few minutes
// before: events per minute, nodes over time, and the requests on the nodes where symptoms
// happened.
func pictures(m *cluster.Model, rep analysis.Report, entries []timeline.Entry) []incidents.Picture {
	if rep.Inputs.From == nil {
		return nil
	}
	from := rep.Inputs.From.Add(-5 * time.Minute).Truncate(time.Minute)
	to := rep.Inputs.To.Add(time.Minute).Truncate(time.Minute)
	width := time.Minute
	if to.Sub(from) > 6*time.Hour { // keep the bars wide enough to see
		width = to.Sub(from) / 360
	}
	out := []incidents.Picture{
		{Title: "Events per " + per(width) + ", warnings darker", SVG: picture.EventsPerMinute(timeline.Buckets(entries, from, to, width))},
		{Title: "Nodes over time", SVG: picture.NodesOverTime(m, from, to)},
	}
	var loads []cluster.NodeLoad
	seen := map[string]bool{}
	for _, s := range rep.Symptoms {
		name := s.Node
		if name == "" || seen[name] || len(loads) == maxPictureNodes {
			continue
		}
		if n := m.Node(name); n != nil {
			seen[name] = true
			loads = append(loads, m.Load(n))
		}
	}
	if len(loads) > 0 {
		out = append(out, incidents.Picture{Title: "Requested against allocatable on the nodes involved, by pod", SVG: picture.NodeRequests(loads)})
	}
	return out
}

func per(d time.Duration) string {
	if d == time.Minute {
		return "minute"
	}
	return d.Round(time.Second).String()
}
