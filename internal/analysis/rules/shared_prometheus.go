package rules

import (
	"fmt"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// sharedPrometheusRule finds a Prometheus server on the node of critical pods, taking a large
// share of its memory. Prometheus's memory grows with its scrape targets, so a jump in the
// number of nodes (a scale-up) makes the neighbour hungrier exactly when the cluster is busy.
type sharedPrometheusRule struct{}

func (sharedPrometheusRule) Name() string { return "shared-prometheus" }

// prometheusShare is the share of a node's allocatable memory above which Prometheus crowds
// its neighbours.
const prometheusShare = 0.4

func (sharedPrometheusRule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	m := in.Model
	scaleUp := ""
	for _, s := range symptoms {
		if s.Kind == analysis.ScaleUp {
			scaleUp = s.ID
		}
	}
	var out []analysis.Cause
	for _, n := range m.Nodes {
		l := m.Load(n)
		var prom *cluster.Object
		for _, p := range l.Pods {
			if in.Component(p) == cluster.ComponentPrometheus {
				prom = p
				break
			}
		}
		if prom == nil || l.Allocatable.Memory == 0 {
			continue
		}
		req := m.PodRequests(prom)
		share := float64(req.Memory) / float64(l.Allocatable.Memory)
		if share < prometheusShare {
			continue
		}
		c := analysis.Cause{Kind: analysis.SharedPrometheus, Role: analysis.Contributing, Confidence: 0.45 + share/4,
			Components: []analysis.Component{{Kind: cluster.ComponentPrometheus, Name: cluster.WorkloadName(prom.Pod)}, {Kind: cluster.ComponentNodePool, Name: l.Pool}}}
		var victims []string
		for _, s := range symptoms {
			if (sufferings[s.Kind] || s.Kind == analysis.NodePressure) && nodeOf(m, s) == n.Node.Name {
				if p := podOf(m, s); s.Kind == analysis.NodePressure || (p != nil && in.Critical(p)) {
					c.Explains = append(c.Explains, s.ID)
					victims = append(victims, s.ID)
				}
			}
		}
		if len(victims) == 0 {
			continue
		}
		c.Evidence = append(c.Evidence, cite(prom, "spec.containers[].resources.requests",
			fmt.Sprintf("%s CPU, %s memory: %.0f%% of node %s's allocatable memory", cpuString(req.MilliCPU), memString(req.Memory), share*100, n.Name)))
		c.Suggestions = []analysis.Suggestion{{
			Change: fmt.Sprintf("give %s a node pool of its own, away from the critical pods of pool %s (a dedicated pool with a taint it tolerates, or podAntiAffinity from them): it requested %s, %.0f%% of node %s's memory, and grows with every node it scrapes",
				workloadPhrase(prom), l.Pool, memString(req.Memory), share*100, n.Name),
			Evidence: c.Evidence[:1], Action: analysis.ActionIsolate, Targets: []analysis.ObjectRef{workloadRef(prom)}}}
		c.Summary = fmt.Sprintf("Prometheus %s/%s requested %s (%.0f%% of the memory) of node %s, which it shared with critical pods",
			prom.Namespace, prom.Name, memString(req.Memory), share*100, n.Name)
		c.Nodes = []string{n.Name}
		if scaleUp != "" {
			c.Follows = []string{scaleUp}
			c.FollowWhy = fmt.Sprintf("Prometheus scrapes every node, so each node the scale-up added grew the memory and CPU it used on node %s", n.Name)
			c.Confidence += 0.15
			c.Summary += fmt.Sprintf("; the scale-up (%s) multiplied its scrape targets", analysis.Mention(scaleUp))
		} else {
			c.Missing = append(c.Missing, "Prometheus's actual memory use over the incident (its own metrics), to see whether it grew")
		}
		weighPrometheus(in, &c, prom, symptoms)
		c.Confidence = clamp(c.Confidence)
		out = append(out, c)
	}
	return out
}

// weighPrometheus reads Prometheus's resident memory and head series over the incident, when
// the input holds them: memory that grew (with the series it holds) confirms that it grew
// hungrier as the cluster did, and answers what was missing; memory that stayed flat over the
// symptoms speaks against it.
func weighPrometheus(in analysis.Input, c *analysis.Cause, prom *cluster.Object, symptoms []analysis.Symptom) {
	ids := append(append([]string{}, c.Explains...), c.Follows...)
	from, to, ok := symptomSpan(in, symptoms, ids)
	if !ok {
		return
	}
	mem, guessed := prometheusSeries(in, queryPromMemory, prom)
	top, best, ok := highest(mem, from, to)
	if !ok {
		return
	}
	start, ok := firstIn(top.series, from.Add(-prometheusLookBack), to)
	if !ok || start.Value <= 0 {
		return
	}
	dropMissing(c, "Prometheus's actual memory use")
	which := ""
	if guessed {
		which = " (the only Prometheus series the input holds, taken as this Prometheus's)"
	}
	growth := best.Value / start.Value
	switch {
	case growth >= prometheusGrowth:
		c.Evidence = append(c.Evidence, citeMetric(top, fmt.Sprintf("resident memory grew from %s at %s to %s at %s (×%.1f)%s",
			memString(int64(start.Value)), hhmm(start.At), memString(int64(best.Value)), hhmm(best.At), growth, which)))
		if head, _ := prometheusSeries(in, queryPromHead, prom); len(head) > 0 {
			if h0, ok := firstIn(head[0].series, from.Add(-prometheusLookBack), to); ok {
				if h1, ok := peak(head[0].series, from, to); ok && h1.Value > h0.Value {
					c.Evidence = append(c.Evidence, citeMetric(head[0], fmt.Sprintf("series in its head block grew from %s to %s over the same time: more targets scraped", phrase.Thousands(int(h0.Value)), phrase.Thousands(int(h1.Value)))))
				}
			}
		}
		c.Confidence = clamp(c.Confidence + 0.15)
		c.Summary += fmt.Sprintf("; metrics show its memory grew ×%.1f to %s by %s", growth, memString(int64(best.Value)), hhmm(best.At))
	case growth <= prometheusSteady:
		against(c, citeMetric(top, fmt.Sprintf("resident memory stayed near %s from %s to %s%s: it did not grow as the cluster did", memString(int64(best.Value)), hhmm(start.At), hhmm(to), which)), 0.2)
	}
}
