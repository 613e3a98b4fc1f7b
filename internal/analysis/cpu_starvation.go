package analysis

import (
	"fmt"

	"github.com/rootline-dev/rootline/internal/cluster"
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

func (cpuStarvationRule) Causes(in Input, symptoms []Symptom) []Cause {
	m := in.Model
	var out []Cause
	byPod := map[string]int{} // pod → index in out: one cause per starved pod
	for _, s := range symptoms {
		if s.Kind != LivenessProbeFailed && s.Kind != ReadinessProbeFailed && s.Kind != ContainerRestarted {
			continue
		}
		pod, node := podOf(m, s), m.Node(nodeOf(m, s))
		if pod == nil || node == nil || !critical(in, pod) {
			continue
		}
		req := m.PodRequests(pod)
		if req.MilliCPU > tinyCPUMilli {
			continue
		}
		if i, ok := byPod[pod.Namespace+"/"+pod.Name]; ok {
			out[i].Explains = append(out[i].Explains, s.ID)
			if s.Kind == LivenessProbeFailed {
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
		c := Cause{Kind: CPUStarvation, Role: Contributing, Confidence: 0.45, Explains: []string{s.ID},
			Components: []Component{{Kind: componentOr(pod), Name: cluster.WorkloadName(pod.Pod)}}}
		if s.Kind == LivenessProbeFailed {
			c.Confidence += 0.15
		}
		c.Evidence = []Evidence{
			cite(pod, "spec.containers[].resources.requests.cpu", cpuString(req.MilliCPU)),
			cite(node, "status.allocatable.cpu", fmt.Sprintf("%s, of which %.0f%% requested by other pods", cpuString(l.Allocatable.MilliCPU), share*100)),
		}
		c.Summary = fmt.Sprintf("%s/%s requested only %s CPU on node %s, where other pods requested %.0f%% of the CPU: under contention it gets a sliver",
			pod.Namespace, pod.Name, cpuString(req.MilliCPU), node.Name, share*100)
		c.Missing = []string{"CPU throttling or usage of the container during the incident (cAdvisor or Prometheus metrics)"}
		c.nodes = []string{node.Name}
		// Its peers are the other critical pods of the node (a system daemon is not sized like
		// the dask workers beside it); when fewer than three of them ask for more than it does,
		// the other pods that are not heavy (Prometheus is what it competes with, not a peer).
		peers := "critical pods"
		median, n := medianCPURequest(m, l, pod, func(o *cluster.Object) bool { return critical(in, o) })
		if n < 3 || median <= req.MilliCPU {
			peers = "pods that are not heavy"
			median, n = medianCPURequest(m, l, pod, func(o *cluster.Object) bool { return !heavy(in, o, l) })
		}
		if median > req.MilliCPU {
			c.Suggestions = []Suggestion{{
				Change: fmt.Sprintf("raise the CPU request of %s from %s to at least %s, the median request of the %d other %s on node %s, so that under contention its share of the CPU matches theirs (the input holds no CPU usage of it to size the request from)",
					workloadPhrase(pod), cpuString(req.MilliCPU), cpuString(median), n, peers, node.Name),
				Evidence: c.Evidence}}
		}
		c.Confidence = clamp(c.Confidence)
		byPod[pod.Namespace+"/"+pod.Name] = len(out)
		out = append(out, c)
	}
	return out
}

func componentOr(o *cluster.Object) string {
	if c := cluster.PodComponent(o.Pod); c != "" {
		return c
	}
	return "Pod"
}
