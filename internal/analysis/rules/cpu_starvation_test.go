package rules

import (
	"fmt"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// hubNode is node core-2 (4 CPU) with pod `pod` of namespace jhub requesting podMilli of CPU,
// and four user pods requesting othersMilli of CPU in all: none of them a quarter of the node,
// so that no neighbour is heavy.
func hubNode(pod string, podMilli, othersMilli int) string {
	rows := []string{fmt.Sprintf("jhub %s %dm (1%%) 0 (0%%) 512Mi (5%%) 1Gi (10%%)", pod, podMilli)}
	for i := range 4 {
		rows = append(rows, fmt.Sprintf("jhub jupyter-user%d %dm (18%%) 0 (0%%) 1Gi (10%%) 0 (0%%)", i+1, othersMilli/4))
	}
	return nodeText{name: "core-2", pool: "core", cpu: "4", memory: "10000Mi", pods: rows}.String()
}

// probeEvents is `kubectl get events -n jhub` with a pod's probe failures: Liveness with the
// restart it caused, or Readiness.
func probeEvents(pod, probe string) string {
	out := "$ kubectl get events -n jhub\nLAST SEEN   TYPE      REASON      OBJECT                    MESSAGE\n" +
		"2m          Warning   Unhealthy   pod/" + pod + "   " + probe + ` probe failed: Get "http://10.4.1.12:8081/hub/health": context deadline exceeded (Client.Timeout exceeded while awaiting headers)` + "\n"
	if probe == "Liveness" {
		out += "2m          Normal    Killing     pod/" + pod + "   Container hub failed liveness probe, will be restarted\n"
	}
	return out
}

// TestCPUStarvationRule pins tinyCPUMilli (50m: a request at most that small is tiny) and
// busyCPUShare (0.75: other pods requesting at least that share of the node's CPU contend),
// for critical pods only.
func TestCPUStarvationRule(t *testing.T) {
	const hub = "hub-5f7d8c9b6-tq4zx"
	liveness := []string{"liveness_probe_failed jhub/" + hub}
	starved := func(req string, pct int, confidence float64, explains []string) causeWant {
		return causeWant{role: analysis.Contributing, confidence: confidence, explains: explains,
			summary:  []string{fmt.Sprintf("jhub/%s requested only %s CPU on node core-2, where other pods requested %d%% of the CPU", hub, req, pct)},
			evidence: []string{req, fmt.Sprintf("4, of which %d%% requested by other pods", pct)},
			missing:  []string{"CPU throttling"}}
	}
	tests := []causeCase{
		{name: "request 49m", docs: []string{hubNode(hub, 49, 3000), probeEvents(hub, "Liveness")},
			symptoms: liveness, kinds: []string{analysis.CPUStarvation}, want: starved("49m", 75, 0.6, liveness)},
		{name: "request 50m", docs: []string{hubNode(hub, 50, 3000), probeEvents(hub, "Liveness")},
			symptoms: liveness, kinds: []string{analysis.CPUStarvation}, want: starved("50m", 75, 0.6, liveness)},
		{name: "request 51m", docs: []string{hubNode(hub, 51, 3000), probeEvents(hub, "Liveness")},
			symptoms: liveness, kinds: []string{}},
		{name: "others request 74%", docs: []string{hubNode(hub, 20, 2960), probeEvents(hub, "Liveness")},
			symptoms: liveness, kinds: []string{}},
		{name: "others request 75%", docs: []string{hubNode(hub, 20, 3000), probeEvents(hub, "Liveness")},
			symptoms: liveness, kinds: []string{analysis.CPUStarvation}, want: starved("20m", 75, 0.6, liveness)},
		{name: "others request 76%", docs: []string{hubNode(hub, 20, 3040), probeEvents(hub, "Liveness")},
			symptoms: liveness, kinds: []string{analysis.CPUStarvation}, want: starved("20m", 76, 0.6, liveness)},
		{name: "readiness only", docs: []string{hubNode(hub, 20, 3040), probeEvents(hub, "Readiness")},
			symptoms: []string{"readiness_probe_failed jhub/" + hub}, kinds: []string{analysis.CPUStarvation},
			want: starved("20m", 76, 0.45, []string{"readiness_probe_failed jhub/" + hub})},
		{name: "both probes: one cause", docs: []string{hubNode(hub, 20, 3040), probeEvents(hub, "Liveness"), probeEvents(hub, "Readiness")},
			symptoms: []string{"liveness_probe_failed jhub/" + hub, "readiness_probe_failed jhub/" + hub}, kinds: []string{analysis.CPUStarvation},
			want: starved("20m", 76, 0.6, []string{"liveness_probe_failed jhub/" + hub, "readiness_probe_failed jhub/" + hub})},
		{name: "a pod that is not critical", docs: []string{hubNode("web-7d9c6b5f4-q8r2t", 20, 3040), probeEvents("web-7d9c6b5f4-q8r2t", "Liveness")},
			symptoms: []string{"liveness_probe_failed jhub/web-7d9c6b5f4-q8r2t"}, kinds: []string{}},
	}
	runCauseCases(t, analysis.CPUStarvation, tests)
}
