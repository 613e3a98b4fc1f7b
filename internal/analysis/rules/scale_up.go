package rules

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/signal"
)

// scaleUpRule finds node scale-ups: cluster-autoscaler's TriggeredScaleUp events on pods and
// ScaledUpGroup events, and a burst of nodes created close together (what the node list shows
// even when the events have expired).
type scaleUpRule struct{}

func (scaleUpRule) Name() string { return "scale-up" }

// burstWindow and burstMin define a burst: at least burstMin nodes created within burstWindow.
const (
	burstWindow = 5 * time.Minute
	burstMin    = 5
)

func (scaleUpRule) Symptoms(in analysis.Input) []analysis.Symptom {
	s := analysis.Symptom{Kind: analysis.ScaleUp}
	groups := map[string][2]int{} // group → smallest "from", largest "to"
	note := func(group string, from, to int) {
		g, ok := groups[group]
		if !ok {
			g = [2]int{from, to}
		}
		groups[group] = [2]int{min(g[0], from), max(g[1], to)}
	}
	for _, o := range in.Model.Events {
		e := o.Event
		groups, triggered := signal.ParseTriggeredScaleUp(e.Message)
		resized, scaled := signal.ParseScaledUpGroup(e.Message)
		switch {
		case e.Reason == "TriggeredScaleUp" && triggered:
			for _, g := range groups {
				note(g.Group, g.From, g.To)
			}
		case scaled && (e.Reason == "ScaledUpGroup" || loose(o)):
			note(resized.Group, resized.From, resized.To)
		case eventSign(in, o, analysis.ScaleUp) == nil:
			continue
		case aboutNode(in, o):
			// "Launched instance: …, hostname: n-1": a node the scale-up added.
			if n := eventNode(in, o); !slices.ContainsFunc(s.Objects, func(r analysis.ObjectRef) bool { return r.Name == n }) {
				s.Objects = append(s.Objects, analysis.ObjectRef{Kind: cluster.KindNode, Name: n})
			}
		}
		// Any other message of a scale-up the catalogue knows ("ScaleUp: InProgress" of the
		// autoscaler's status, "Final scale-up plan: …") is a scale-up, its groups untold.
		if len(s.Evidence) < 20 {
			s.Evidence = append(s.Evidence, citeEvent(o))
		}
		_, first, _ := cluster.EventTimes(e)
		s.At = earliest(s.At, timePtr(first))
	}
	for _, f := range failedScaleUps(in.Model) {
		// A scale-up the autoscaler tried, whether or not the cloud delivered.
		s.Evidence = append(s.Evidence, f.ev)
		s.At = earliest(s.At, timePtr(f.at))
		if a, ok := signal.ParseAutoscalerLog(f.ev.Value); ok && a.Group != "" {
			if _, seen := groups[a.Group]; !seen {
				groups[a.Group] = [2]int{0, 0}
			}
		}
	}
	for _, g := range requestedGroups(in.Model) {
		note(g.name, g.ready, g.target)
		s.Evidence = append(s.Evidence, cite(g.obj, "data.status", g.line))
		s.At = earliest(s.At, timePtr(g.since))
	}
	burst := nodeBurst(in.Model)
	launched := len(s.Objects)
	for _, o := range burst {
		if r := ref(o); !slices.Contains(s.Objects, r) {
			s.Objects = append(s.Objects, r)
		}
	}
	if len(burst) > 0 {
		first, last := burst[0].Node.CreationTimestamp.Time, burst[len(burst)-1].Node.CreationTimestamp.Time
		s.At = earliest(s.At, timePtr(first))
		s.Details.NodesCreated = len(burst)
		s.Details.WindowSeconds = int(last.Sub(first).Seconds())
		s.Evidence = append(s.Evidence, cite(burst[0], "metadata.creationTimestamp", first.UTC().Format(time.RFC3339)),
			cite(burst[len(burst)-1], "metadata.creationTimestamp", last.UTC().Format(time.RFC3339)))
	}
	if len(s.Evidence) == 0 {
		return nil
	}
	parts := groupParts(groups)
	if len(parts) > 0 {
		s.Details.Groups = parts
	}
	s.Summary = scaleUpSummary(len(burst), s.Details.WindowSeconds, parts, launched)
	return []analysis.Symptom{s}
}

// groupParts says each node group's scale-up, by name: "pool-a 2→10", "pool-b (tried)" for a
// group the autoscaler tried and nothing says grew.
func groupParts(groups map[string][2]int) []string {
	names := make([]string, 0, len(groups))
	for g := range groups {
		names = append(names, g)
	}
	sort.Strings(names)
	parts := make([]string, 0, len(names))
	for _, g := range names {
		if groups[g] == [2]int{} {
			parts = append(parts, shortGroup(g)+" (tried)")
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %d→%d", shortGroup(g), groups[g][0], groups[g][1]))
	}
	return parts
}

// scaleUpSummary says a scale-up in words: the burst of nodes created (and within how many
// seconds), the groups, or the nodes launched.
func scaleUpSummary(burst, window int, parts []string, launched int) string {
	switch {
	case burst > 0 && len(parts) > 0:
		return fmt.Sprintf("%d nodes were added within %s (%s)", burst, phrase.Duration(window), strings.Join(parts, ", "))
	case burst > 0:
		return fmt.Sprintf("%d nodes were added within %s", burst, phrase.Duration(window))
	case len(parts) > 0:
		return "the cluster autoscaler scaled up " + strings.Join(parts, ", ")
	case launched > 0:
		return fmt.Sprintf("%d node(s) were launched (the input does not say for which node groups)", launched)
	}
	return "nodes were being added (the input does not say to which node groups)"
}

// nodeBurst returns the largest set of nodes created within burstWindow of each other, when
// it holds at least burstMin nodes, in creation order.
func nodeBurst(m *cluster.Model) []*cluster.Object {
	var nodes []*cluster.Object
	for _, o := range m.Nodes {
		if !o.Node.CreationTimestamp.IsZero() {
			nodes = append(nodes, o)
		}
	}
	sort.SliceStable(nodes, func(i, j int) bool {
		return nodes[i].Node.CreationTimestamp.Before(&nodes[j].Node.CreationTimestamp)
	})
	best, bestLen := 0, 0
	for i, j := 0, 0; j < len(nodes); j++ {
		for nodes[j].Node.CreationTimestamp.Sub(nodes[i].Node.CreationTimestamp.Time) > burstWindow {
			i++
		}
		if j-i+1 > bestLen {
			best, bestLen = i, j-i+1
		}
	}
	if bestLen < burstMin {
		return nil
	}
	return nodes[best : best+bestLen]
}

// shortGroup keeps the last path element of a node group id (GCE groups are long URLs).
func shortGroup(g string) string {
	if i := strings.LastIndex(g, "/"); i >= 0 && i < len(g)-1 {
		return g[i+1:]
	}
	return g
}
