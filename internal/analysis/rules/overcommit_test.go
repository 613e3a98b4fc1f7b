package rules

import (
	"fmt"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// TestOvercommitRule pins the two limits of node_overcommitted: memory limits over 100% of
// allocatable (strictly) explain memory trouble on the node, not disk or PID pressure; CPU or
// memory limits at overcommitFar (150%) or more explain a node that stopped being ready. Limits
// come from the node's pods, or from describe's Allocated resources table when its pods show
// none.
func TestOvercommitRule(t *testing.T) {
	pressure := "MemoryPressure True KubeletHasInsufficientMemory kubelet has insufficient memory available"
	notReady := "Ready False KubeletNotReady PLEG is not healthy: pleg was last seen active 3m12s ago; threshold is 3m0s"
	// core-6 has 4 CPU and 10000Mi; two pods request 1 CPU and 2Gi each, with the limits given.
	byPods := func(cpuMilli, memMi int, condition string) string {
		half := func(n int) int { return n / 2 }
		row := func(name string) string {
			return fmt.Sprintf("prod %s 1 (25%%) %dm (%d%%) 2Gi (20%%) %dMi (%d%%)", name, half(cpuMilli), half(cpuMilli)/40, half(memMi), half(memMi)/100)
		}
		return nodeText{name: "core-6", pool: "core", cpu: "4", memory: "10000Mi", conditions: []string{condition},
			pods: []string{row("api-6d4f9b7c8-k2x9q"), row("api-6d4f9b7c8-w4m8s")}}.String()
	}
	// byTable is core-6 known from describe alone, its pods' rows cut: only the Allocated table.
	byTable := func(cpuLimits, memLimits string, condition string) string {
		return nodeText{name: "core-6", pool: "core", cpu: "4", memory: "10000Mi", conditions: []string{condition},
			allocated: []string{"cpu 1950m (48%) " + cpuLimits, "memory 4Gi (40%) " + memLimits}}.String()
	}
	memory := func(pct string) causeWant {
		return causeWant{role: analysis.Contributing, confidence: 0.55, explains: []string{"node_pressure core-6"},
			summary: []string{"node core-6 had memory limits at " + pct + " of allocatable"}, evidence: []string{"(" + pct + ")"}}
	}
	starved := func(res, pct string) causeWant {
		return causeWant{role: analysis.Contributing, confidence: 0.55, explains: []string{"node_not_ready core-6"},
			summary: []string{"node core-6 had " + res + " limits at " + pct + " of allocatable"}, evidence: []string{pct}}
	}
	underPressure, down := []string{"node_pressure core-6"}, []string{"node_not_ready core-6"}
	tests := []causeCase{
		{name: "pressure, memory limits 99%", docs: []string{byPods(2000, 9900, pressure)}, symptoms: underPressure, kinds: []string{}},
		{name: "pressure, memory limits 100%", docs: []string{byPods(2000, 10000, pressure)}, symptoms: underPressure, kinds: []string{}},
		{name: "pressure, memory limits 101%", docs: []string{byPods(2000, 10100, pressure)}, symptoms: underPressure,
			kinds: []string{analysis.NodeOvercommitted}, want: memory("101%")},
		{name: "pressure, CPU limits 200% and memory limits 50%", docs: []string{byPods(8000, 5000, pressure)}, symptoms: underPressure, kinds: []string{}},
		{name: "not ready, CPU limits 149%", docs: []string{byPods(5960, 5000, notReady)}, symptoms: down, kinds: []string{}},
		{name: "not ready, CPU limits 150%", docs: []string{byPods(6000, 5000, notReady)}, symptoms: down,
			kinds: []string{analysis.NodeOvercommitted}, want: starved("cpu", "150%")},
		{name: "not ready, CPU limits 151%", docs: []string{byPods(6040, 5000, notReady)}, symptoms: down,
			kinds: []string{analysis.NodeOvercommitted}, want: starved("cpu", "151%")},
		{name: "not ready, memory limits 149% in the Allocated table", docs: []string{byTable("2 (50%)", "14900Mi (149%)", notReady)}, symptoms: down, kinds: []string{}},
		{name: "not ready, memory limits 150% in the Allocated table", docs: []string{byTable("2 (50%)", "15000Mi (150%)", notReady)}, symptoms: down,
			kinds: []string{analysis.NodeOvercommitted}, want: starved("memory", "150%")},
		{name: "not ready, memory limits 151% in the Allocated table", docs: []string{byTable("2 (50%)", "15100Mi (151%)", notReady)}, symptoms: down,
			kinds: []string{analysis.NodeOvercommitted}, want: starved("memory", "151%")},
		{name: "pressure, memory limits 101% in the Allocated table", docs: []string{byTable("2 (50%)", "10100Mi (101%)", pressure)}, symptoms: underPressure,
			kinds: []string{analysis.NodeOvercommitted}, want: memory("101%")},
		{name: "disk pressure, memory limits 160%", docs: []string{byPods(2000, 16000, "DiskPressure True KubeletHasDiskPressure kubelet has disk pressure")},
			symptoms: underPressure, kinds: []string{analysis.NodeDiskExhaustion}},
		{name: "PID pressure, memory limits 160%", docs: []string{byPods(2000, 16000, "PIDPressure True KubeletHasInsufficientPID kubelet has insufficient PID available")},
			symptoms: underPressure, kinds: []string{}},
		{name: "limits far over with no trouble", docs: []string{byPods(8000, 16000, "Ready True KubeletReady kubelet is posting ready status")}, symptoms: nil, kinds: []string{}},
	}
	runCauseCases(t, analysis.NodeOvercommitted, tests)
}
