package rules

import (
	"fmt"
	"math"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/metrics"
)

// cpuStarvationRule finds critical pods with a tiny CPU request that failed their probes or
// restarted on a node whose CPU was mostly requested by others. CPU shares follow requests:
// under contention a pod requesting 10m gets a tenth of what a 100m neighbour gets.
type cpuStarvationRule struct{}

func (cpuStarvationRule) Name() string { return "cpu-starvation" }

// Thresholds: a request this small is tiny; a node this requested is contended.
const (
	tinyCPUMilli = 50
	busyCPUShare = 0.75
)

func (cpuStarvationRule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	m := in.Model
	var out []analysis.Cause
	byPod := map[string]int{} // pod → index in out: one cause per starved pod
	for _, s := range symptoms {
		if s.Kind != analysis.LivenessProbeFailed && s.Kind != analysis.ReadinessProbeFailed && s.Kind != analysis.StartupProbeFailed && s.Kind != analysis.ContainerRestarted {
			continue
		}
		pod, node := podOf(m, s), m.Node(nodeOf(m, s))
		if pod == nil || node == nil || !in.Critical(pod) {
			continue
		}
		req := m.PodRequests(pod)
		if req.MilliCPU > tinyCPUMilli {
			continue
		}
		if i, ok := byPod[pod.Namespace+"/"+pod.Name]; ok {
			out[i].Explains = append(out[i].Explains, s.ID)
			if s.Kind == analysis.LivenessProbeFailed {
				out[i].Confidence = clamp(out[i].Confidence + 0.15)
			}
			continue
		}
		l := m.Load(node)
		others := l.Requests.MilliCPU - req.MilliCPU
		share := float64(others) / float64(max(l.Allocatable.MilliCPU, 1))
		if share < busyCPUShare {
			continue
		}
		c := analysis.Cause{Kind: analysis.CPUStarvation, Role: analysis.Contributing, Confidence: 0.45, Explains: []string{s.ID},
			Components: []analysis.Component{{Kind: componentOr(pod), Name: cluster.WorkloadName(pod.Pod)}}}
		if s.Kind == analysis.LivenessProbeFailed {
			c.Confidence += 0.15
		}
		c.Evidence = []analysis.Evidence{
			cite(pod, "spec.containers[].resources.requests.cpu", cpuString(req.MilliCPU)),
			cite(node, "status.allocatable.cpu", fmt.Sprintf("%s, of which %.0f%% requested by other pods", cpuString(l.Allocatable.MilliCPU), share*100)),
		}
		c.Summary = fmt.Sprintf("%s/%s requested only %s CPU on node %s, where other pods requested %.0f%% of the CPU: under contention it gets a sliver",
			pod.Namespace, pod.Name, cpuString(req.MilliCPU), node.Name, share*100)
		c.Missing = []string{"CPU throttling or usage of the container during the incident (cAdvisor or Prometheus metrics)"}
		c.Nodes = []string{node.Name}
		// Its peers are the other critical pods of the node (a system daemon is not sized like
		// the dask workers beside it); when fewer than three of them ask for more than it does,
		// the other pods that are not heavy (Prometheus is what it competes with, not a peer).
		peers := "critical pods"
		median, n := medianCPURequest(m, l, pod, func(o *cluster.Object) bool { return in.Critical(o) })
		if n < 3 || median <= req.MilliCPU {
			peers = "pods that are not heavy"
			median, n = medianCPURequest(m, l, pod, func(o *cluster.Object) bool { return !heavy(in, o, l) })
		}
		if median > req.MilliCPU {
			c.Suggestions = []analysis.Suggestion{{
				Change: fmt.Sprintf("raise the CPU request of %s from %s to at least %s, the median request of the %d other %s on node %s, so that under contention its share of the CPU matches theirs (the input holds no CPU usage of it to size the request from)",
					workloadPhrase(pod), cpuString(req.MilliCPU), cpuString(median), n, peers, node.Name),
				Evidence: c.Evidence, Action: analysis.ActionCPURequest, Targets: []analysis.ObjectRef{workloadRef(pod)}}}
		}
		c.Confidence = clamp(c.Confidence)
		byPod[pod.Namespace+"/"+pod.Name] = len(out)
		c.Pod = pod
		out = append(out, c)
	}
	for i := range out {
		weighThrottling(in, &out[i], symptoms)
	}
	return out
}

// weighThrottling reads the CFS throttling and CPU use of the starved pod's containers over
// its symptoms, when the input holds them. Throttled periods confirm the cause, and so does use
// held near the request under contention (what a small share of the CPU gives); use far above
// the request speaks against it, and so does a CPU limit that was hardly throttled (without a
// limit there is no CFS quota to throttle, so no throttling says nothing). Either metric
// answers what the cause was missing.
func weighThrottling(in analysis.Input, c *analysis.Cause, symptoms []analysis.Symptom) {
	from, to, ok := symptomSpan(in, symptoms, c.Explains)
	if !ok || c.Pod == nil {
		return
	}
	span := fmt.Sprintf("between %s and %s", hhmm(from), hhmm(to))
	read := false
	if top, best, ok := highest(podSeries(in, queryThrottling, c.Pod, ""), from, to); ok {
		read = true
		before := ""
		if p, ok := firstIn(top.series, from.Add(-prometheusLookBack), to); ok && p.At.Before(best.At) {
			before = fmt.Sprintf(", from %s at %s", pct(p.Value), hhmm(p.At))
		}
		switch {
		case best.Value >= throttledShare:
			c.Evidence = append(c.Evidence, citeMetric(top, fmt.Sprintf("%s of its CFS periods throttled at %s%s: the peak %s", pct(best.Value), hhmm(best.At), before, span)))
			c.Confidence = clamp(c.Confidence + 0.2)
			c.Summary += fmt.Sprintf("; metrics show it throttled in %s of its CFS periods at %s", pct(best.Value), hhmm(best.At))
		case best.Value <= unthrottledShare && in.Model.PodLimits(c.Pod).MilliCPU > 0:
			against(c, citeMetric(top, fmt.Sprintf("at most %s of its CFS periods throttled %s, under a CPU limit of %s: its quota did not starve it", pct(best.Value), span, cpuString(in.Model.PodLimits(c.Pod).MilliCPU))), 0.3)
		}
	}
	if top, best, ok := highest(podSeries(in, queryContainerCPU, c.Pod, ""), from, to); ok {
		read = true
		req := in.Model.PodRequests(c.Pod).MilliCPU
		used := int64(math.Round(best.Value * 1000))
		switch {
		case used <= 2*max(req, 1):
			c.Evidence = append(c.Evidence, citeMetric(top, fmt.Sprintf("at most %s CPU used %s (at %s), about its request of %s: under contention it got no more than its share", cpuString(used), span, hhmm(best.At), cpuString(req))))
			c.Confidence = clamp(c.Confidence + 0.1)
		case used > 4*req && used > 100:
			against(c, citeMetric(top, fmt.Sprintf("%s CPU used at %s, far above its request of %s: it was not held to its share", cpuString(used), hhmm(best.At), cpuString(req))), 0.25)
		}
	}
	if read {
		dropMissing(c, "CPU throttling or usage")
	}
}

// highest is the series among fs with the highest finite value between from and to, and that
// value.
func highest(fs []found, from, to time.Time) (found, metrics.Point, bool) {
	var top found
	var best metrics.Point
	seen := false
	for _, f := range fs {
		if p, ok := peak(f.series, from, to); ok && (!seen || p.Value > best.Value) {
			top, best, seen = f, p, true
		}
	}
	return top, best, seen
}

func componentOr(o *cluster.Object) string {
	if c := cluster.PodComponent(o.Pod); c != "" {
		return c
	}
	return "Pod"
}
