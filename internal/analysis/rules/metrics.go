package rules

import (
	"fmt"
	"math"
	"net"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/metrics"
)

// The queries the rules read (metrics.DefaultQueries names them; a manifest may give other
// files these names).
const (
	queryThrottling    = "container_throttling"
	queryContainerMem  = "container_memory"
	queryContainerCPU  = "container_cpu"
	queryPromMemory    = "prometheus_memory"
	queryPromHead      = "prometheus_head_series"
	queryNodeMemory    = "node_memory"
	queryNodeCPU       = "node_cpu"
	queryNodeMemoryCA  = "node_memory_cadvisor"
	queryNodeCPUCA     = "node_cpu_cadvisor"
	throttledShare     = 0.25 // a share of CFS periods throttled that starves a container
	unthrottledShare   = 0.05 // at most this, the container was not starved of CPU
	prometheusGrowth   = 1.2  // Prometheus's memory grew when its peak is this much above its start
	prometheusSteady   = 1.05 // at most this, it did not grow
	metricsLeadWindow  = 15 * time.Minute
	prometheusLookBack = 30 * time.Minute
)

// found is one series of a query, with the answer it came from.
type found struct {
	answer *metrics.Answer
	series *metrics.Series
}

// series are the series of the query name the input holds, in the answers' order.
func series(in analysis.Input, name string) []found {
	var out []found
	for i := range in.Metrics() {
		a := &in.Metrics()[i]
		if a.Name != name {
			continue
		}
		for j := range a.Series {
			out = append(out, found{answer: a, series: &a.Series[j]})
		}
	}
	return out
}

// podSeries are the series of a query about one pod (labels namespace and pod), container
// given or any.
func podSeries(in analysis.Input, name string, pod *cluster.Object, container string) []found {
	var out []found
	for _, f := range series(in, name) {
		l := f.series.Labels
		if l["namespace"] == pod.Namespace && l["pod"] == pod.Name && (container == "" || l["container"] == "" || l["container"] == container) {
			out = append(out, f)
		}
	}
	return out
}

// nodeSeries are the series of a query about one node: labelled with its name (node,
// kubernetes_node, nodename, or the instance's host), or with one of its addresses as the
// instance's host (node_exporter scraped by address).
func nodeSeries(in analysis.Input, name string, node *cluster.Object) []found {
	names := map[string]bool{node.Name: true}
	for _, a := range node.Node.Status.Addresses {
		names[a.Address] = true
	}
	var out []found
	for _, f := range series(in, name) {
		l := f.series.Labels
		host := l["instance"]
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if names[l["node"]] || names[l["kubernetes_node"]] || names[l["nodename"]] || names[host] {
			out = append(out, f)
		}
	}
	return out
}

// nodeUse are a node's series of the query name, or of the fallback query when it has none
// (node_exporter's, else cAdvisor's).
func nodeUse(in analysis.Input, name, fallback string, node *cluster.Object) []found {
	if fs := nodeSeries(in, name, node); len(fs) > 0 {
		return fs
	}
	return nodeSeries(in, fallback, node)
}

// peak is the largest finite value of a series between from and to (inclusive), and when.
func peak(s *metrics.Series, from, to time.Time) (metrics.Point, bool) {
	var best metrics.Point
	ok := false
	for _, p := range s.Points {
		if p.At.Before(from) || p.At.After(to) || math.IsNaN(p.Value) || math.IsInf(p.Value, 0) {
			continue
		}
		if !ok || p.Value > best.Value {
			best, ok = p, true
		}
	}
	return best, ok
}

// firstIn is the first finite point of a series between from and to.
func firstIn(s *metrics.Series, from, to time.Time) (metrics.Point, bool) {
	for _, p := range s.Points {
		if !p.At.Before(from) && !p.At.After(to) && !math.IsNaN(p.Value) && !math.IsInf(p.Value, 0) {
			return p, true
		}
	}
	return metrics.Point{}, false
}

// citeMetric makes an evidence item of a series: the file of its answer, the series as PromQL
// names it (after the query's name), and what it showed.
func citeMetric(f found, value string) analysis.Evidence {
	field := "query " + f.answer.Name
	return analysis.Evidence{File: f.answer.File, Metric: f.answer.Name, Ref: "Metric " + f.answer.Name + metrics.Name(f.series.Labels), Field: field, Value: value}
}

// hhmm writes a time of the incident as people read it on a chart.
func hhmm(t time.Time) string { return t.UTC().Format("15:04") }

// pct writes a share as a whole percentage.
func pct(v float64) string { return fmt.Sprintf("%.0f%%", v*100) }

// symptomSpan is the time from metricsLeadWindow before the first of the symptoms to the
// last, which the metrics of their causes are read over; ok is false when none is dated.
// The symptoms are found by id through an index made once a run (symptomIndex): a rule asks
// it of each of its causes, and there may be a cause for each of thousands of pods.
func symptomSpan(in analysis.Input, symptoms []analysis.Symptom, ids []string) (from, to time.Time, ok bool) {
	index := symptomIndex(in, symptoms)
	for _, id := range ids {
		i, found := index[id]
		if !found {
			continue
		}
		s := symptoms[i]
		if s.At == nil {
			continue
		}
		last := *s.At
		if s.Until != nil && s.Until.After(last) {
			last = *s.Until
		}
		if !ok || s.At.Before(from) {
			from = *s.At
		}
		if !ok || last.After(to) {
			to = last
		}
		ok = true
	}
	return from.Add(-metricsLeadWindow), to, ok
}

// symptomsKey names the index of a list of symptoms in a run's memo: the list's first element
// and length, since the cause rules are all given the same list.
type symptomsKey struct {
	first *analysis.Symptom
	n     int
}

// symptomIndex maps the ids of symptoms to their places in it, made once a run for a list.
func symptomIndex(in analysis.Input, symptoms []analysis.Symptom) map[string]int {
	if len(symptoms) == 0 {
		return nil
	}
	return analysis.Once(in, symptomsKey{&symptoms[0], len(symptoms)}, func() map[string]int {
		index := make(map[string]int, len(symptoms))
		for i, s := range symptoms {
			index[s.ID] = i
		}
		return index
	})
}

// idSet is a set of ids (symptoms' S1…): a cause may explain thousands of symptoms, so asking
// its list for each symptom was quadratic (3 s of a 150,000-pod run).
func idSet(ids []string) map[string]bool {
	set := make(map[string]bool, len(ids))
	for _, id := range ids {
		set[id] = true
	}
	return set
}

// prometheusSeries are the series of a query about one Prometheus pod: those naming it (label
// pod of its name or its workload's, or an instance holding either, or the pod's IP as the
// instance's host, as a Prometheus scraping itself labels its series), or, when the query has
// only one series and it names no pod, that one (the input may not tie its address to the pod).
func prometheusSeries(in analysis.Input, name string, prom *cluster.Object) (out []found, guessed bool) {
	all := series(in, name)
	workload := cluster.WorkloadName(prom.Pod)
	ip := prom.Pod.Status.PodIP
	for _, f := range all {
		l := f.series.Labels
		host, _, err := net.SplitHostPort(l["instance"])
		if err != nil {
			host = l["instance"]
		}
		if l["pod"] == prom.Name || strings.Contains(l["instance"], prom.Name) || (ip != "" && host == ip) ||
			(workload != "" && (l["pod"] != "" && strings.HasPrefix(l["pod"], workload) || strings.Contains(l["instance"], workload))) {
			out = append(out, f)
		}
	}
	if len(out) == 0 && len(all) == 1 && all[0].series.Labels["pod"] == "" {
		return all, true
	}
	return out, false
}

// against puts evidence that speaks against a cause into it, lowering its confidence by by; the
// evidence's value says why.
func against(c *analysis.Cause, e analysis.Evidence, by float64) {
	c.Against = append(c.Against, e)
	c.Confidence = clamp(c.Confidence - by)
}

// dropMissing removes the missing-evidence items of a cause that begin with prefix: what the
// metrics now answer.
func dropMissing(c *analysis.Cause, prefix string) {
	kept := c.Missing[:0]
	for _, m := range c.Missing {
		if !strings.HasPrefix(m, prefix) {
			kept = append(kept, m)
		}
	}
	c.Missing = kept
	if len(c.Missing) == 0 {
		c.Missing = nil
	}
}
