package rules

import (
	"fmt"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// TestSharedPrometheusRule pins prometheusShare (0.4: a Prometheus server requesting at least
// that share of its node's allocatable memory crowds its neighbours) and what it explains:
// pressure on its node and the troubles of critical pods there, not those of other nodes.
func TestSharedPrometheusRule(t *testing.T) {
	const hub = "hub-5f7d8c9b6-tq4zx"
	pressure := "MemoryPressure True KubeletHasInsufficientMemory kubelet has insufficient memory available"
	// core-4 has 4 CPU and 10000Mi; Prometheus requests mi of memory, the others 2Gi in all.
	node := func(name string, mi int, conditions ...string) string {
		return nodeText{name: name, pool: "core", cpu: "4", memory: "10000Mi", conditions: conditions, pods: []string{
			fmt.Sprintf("monitoring prometheus-server-0 1 (25%%) 0 (0%%) %dMi (%d%%) 0 (0%%)", mi, mi/100),
			"jhub " + hub + " 500m (12%) 0 (0%) 1Gi (10%) 0 (0%)",
			"kube-system kube-proxy-" + name + " 100m (2%) 0 (0%) 1Gi (10%) 0 (0%)",
		}}.String()
	}
	scaleUp := "LAST SEEN   TYPE     REASON             OBJECT               MESSAGE\n" +
		"9m          Normal   TriggeredScaleUp   pod/dask-worker-x7   pod triggered scale-up: [{https://www.googleapis.com/compute/v1/projects/acme/zones/us-central1-b/instanceGroups/gke-acme-dask-pool-grp 3->40 (max: 100)}]\n"
	onNode := []string{"node_pressure core-4"}
	crowded := func(pct int, confidence float64) causeWant {
		mem := map[int]string{40: "3.9Gi", 41: "4Gi"}[pct] // 4000Mi and 4100Mi
		return causeWant{role: analysis.Contributing, confidence: confidence, explains: onNode,
			components: []string{"Prometheus:prometheus-server", "NodePool:core"},
			summary:    []string{fmt.Sprintf("Prometheus monitoring/prometheus-server-0 requested %s (%d%% of the memory) of node core-4, which it shared with critical pods", mem, pct)},
			evidence:   []string{fmt.Sprintf("1 CPU, %s memory: %d%% of node core-4's allocatable memory", mem, pct)},
			missing:    []string{"Prometheus's actual memory use"}}
	}
	tests := []causeCase{
		{name: "Prometheus requests 39% of the memory", docs: []string{node("core-4", 3900, pressure)}, symptoms: onNode, kinds: []string{}},
		{name: "Prometheus requests 40% of the memory", docs: []string{node("core-4", 4000, pressure)}, symptoms: onNode,
			kinds: []string{analysis.SharedPrometheus}, want: crowded(40, 0.55)},
		{name: "Prometheus requests 41% of the memory", docs: []string{node("core-4", 4100, pressure)}, symptoms: onNode,
			kinds: []string{analysis.SharedPrometheus}, want: crowded(41, 0.5525)},
		{name: "during a scale-up", docs: []string{node("core-4", 4000, pressure), scaleUp},
			symptoms: []string{"node_pressure core-4", "pod_pending dask-worker-x7", "scale_up"}, kinds: []string{analysis.SharedPrometheus},
			want: causeWant{role: analysis.Contributing, confidence: 0.7, explains: onNode,
				summary: []string{"(40% of the memory) of node core-4", "the scale-up (S3) multiplied its scrape targets"}}},
		{name: "a critical pod on its node", docs: []string{node("core-4", 4000), probeEvents(hub, "Liveness")},
			symptoms: []string{"liveness_probe_failed jhub/" + hub}, kinds: []string{analysis.SharedNodePool, analysis.SharedPrometheus},
			want: causeWant{role: analysis.Contributing, confidence: 0.55, explains: []string{"liveness_probe_failed jhub/" + hub},
				summary: []string{"(40% of the memory) of node core-4"}, missing: []string{"Prometheus's actual memory use"}}},
		{name: "trouble on another node", docs: []string{node("core-4", 4500), node("core-5", 100, pressure)},
			symptoms: []string{"node_pressure core-5"}, kinds: []string{}},
	}
	runCauseCases(t, analysis.SharedPrometheus, tests)
}
