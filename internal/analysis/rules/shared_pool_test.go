package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// TestSharedPoolRule pins heavyShare (roles.go: a neighbour requesting at least a quarter of
// the node's memory or CPU is heavy) as shared_node_pool uses it: a critical pod that suffered
// beside a heavy pod, or beside Prometheus whatever it requests, and not a pod that is not
// critical.
func TestSharedPoolRule(t *testing.T) {
	const hub = "hub-5f7d8c9b6-tq4zx"
	// core-3 has 4 CPU and 10000Mi; the hub requests 500m and 512Mi.
	node := func(neighbour string, sufferer ...string) string {
		pod := hub
		if len(sufferer) > 0 {
			pod = sufferer[0]
		}
		return nodeText{name: "core-3", pool: "core", cpu: "4", memory: "10000Mi", pods: []string{
			"jhub " + pod + " 500m (12%) 1 (25%) 512Mi (5%) 1Gi (10%)",
			"kube-system kube-proxy-core-3 100m (2%) 0 (0%) 0 (0%) 0 (0%)",
			neighbour,
		}}.String()
	}
	byMemory := func(mi int) string {
		return node(fmt.Sprintf("batch etl-runner-0 200m (5%%) 0 (0%%) %dMi (%d%%) 0 (0%%)", mi, mi/100))
	}
	byCPU := func(milli int) string {
		return node(fmt.Sprintf("batch etl-runner-0 %dm (%d%%) 0 (0%%) 256Mi (2%%) 0 (0%%)", milli, milli/40))
	}
	liveness := []string{"liveness_probe_failed jhub/" + hub}
	shared := func(neighbour string, components ...string) causeWant {
		return causeWant{role: analysis.Contributing, confidence: 0.6, explains: liveness, components: append([]string{"NodePool:core"}, components...),
			summary:  []string{"hub jhub/" + hub + " shared node core-3 (pool core) with " + neighbour},
			evidence: []string{"core-3", neighbour}}
	}
	tests := []causeCase{
		{name: "neighbour requests 24% of the memory", docs: []string{byMemory(2400), probeEvents(hub, "Liveness")},
			symptoms: liveness, kinds: []string{}},
		{name: "neighbour requests 25% of the memory", docs: []string{byMemory(2500), probeEvents(hub, "Liveness")},
			symptoms: liveness, kinds: []string{analysis.SharedNodePool}, want: shared("batch/etl-runner-0 (200m CPU, 2.4Gi)")},
		{name: "neighbour requests 26% of the memory", docs: []string{byMemory(2600), probeEvents(hub, "Liveness")},
			symptoms: liveness, kinds: []string{analysis.SharedNodePool}, want: shared("batch/etl-runner-0 (200m CPU, 2.5Gi)")},
		{name: "neighbour requests 24.75% of the CPU", docs: []string{byCPU(990), probeEvents(hub, "Liveness")},
			symptoms: liveness, kinds: []string{}},
		{name: "neighbour requests 25% of the CPU", docs: []string{byCPU(1000), probeEvents(hub, "Liveness")},
			symptoms: liveness, kinds: []string{analysis.SharedNodePool}, want: shared("batch/etl-runner-0 (1 CPU, 256Mi)")},
		{name: "neighbour requests 25.25% of the CPU", docs: []string{byCPU(1010), probeEvents(hub, "Liveness")},
			symptoms: liveness, kinds: []string{analysis.SharedNodePool}, want: shared("batch/etl-runner-0 (1.0 CPU, 256Mi)")},
		{name: "a small Prometheus is heavy all the same", docs: []string{node("monitoring prometheus-server-0 500m (12%) 0 (0%) 1000Mi (10%) 0 (0%)"), probeEvents(hub, "Liveness")},
			symptoms: liveness, kinds: []string{analysis.SharedNodePool}, want: shared("monitoring/prometheus-server-0 (500m CPU, 1000Mi)", "Prometheus:prometheus-server")},
		{name: "the sufferer is not critical", docs: []string{node("batch etl-runner-0 200m (5%) 0 (0%) 2600Mi (26%) 0 (0%)", "jupyter-alice"), probeEvents("jupyter-alice", "Liveness")},
			symptoms: []string{"liveness_probe_failed jhub/jupyter-alice"}, kinds: []string{}},
	}
	runCauseCases(t, analysis.SharedNodePool, tests)
}

// TestSharedPoolNamesEachWorkloadOnce holds what the pool's sets of workloads are for: a hub
// that suffered twice (its liveness and its readiness probes) beside the same heavy pod makes one
// suggestion that names the heavy workload once, as one target, and the hub once.
func TestSharedPoolNamesEachWorkloadOnce(t *testing.T) {
	t.Parallel()
	const hub = "hub-5f7d8c9b6-tq4zx"
	node := nodeText{name: "core-3", pool: "core", cpu: "4", memory: "10000Mi", pods: []string{
		"jhub " + hub + " 500m (12%) 1 (25%) 512Mi (5%) 1Gi (10%)",
		"batch etl-runner-0 200m (5%) 0 (0%) 2600Mi (26%) 0 (0%)",
	}}.String()
	rep := Run(model(t, node, probeEvents(hub, "Liveness"), probeEvents(hub, "Readiness")), analysis.Options{})
	var c *analysis.Cause
	for i := range rep.Causes {
		if rep.Causes[i].Kind == analysis.SharedNodePool {
			c = &rep.Causes[i]
		}
	}
	if c == nil {
		t.Fatalf("no %s cause among %v", analysis.SharedNodePool, rep.Causes)
	}
	if len(c.Explains) < 2 {
		t.Fatalf("the cause explains %v: want both probes' symptoms", c.Explains)
	}
	if len(c.Suggestions) != 1 {
		t.Fatalf("suggestions: %+v", c.Suggestions)
	}
	s := c.Suggestions[0]
	if len(s.Targets) != 1 || s.Targets[0].Name != "etl-runner-0" {
		t.Errorf("targets %+v, want etl-runner-0 once", s.Targets)
	}
	if n := strings.Count(s.Change, "etl-runner-0"); n != 1 {
		t.Errorf("the heavy workload is named %d times in %q", n, s.Change)
	}
	if n := strings.Count(s.Change, hub); n != 1 {
		t.Errorf("the hub is named %d times in %q", n, s.Change)
	}
}
