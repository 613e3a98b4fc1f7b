package rules

import (
	"slices"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// TestSharedPrometheusBlamedOnlyForCriticalVictims: a Prometheus server crowding a node is a
// cause of the troubles of the critical pods beside it (the hub), not of any pod's: a batch pod
// failing its probe on the same node is no victim of it, and alone it does not make Prometheus
// a cause at all.
func TestSharedPrometheusBlamedOnlyForCriticalVictims(t *testing.T) {
	const hub, batch = "hub-5f7d8c9b6-tq4zx", "etl-runner-0"
	node := nodeText{name: "core-4", pool: "core", cpu: "4", memory: "10000Mi", pods: []string{
		"monitoring prometheus-server-0 1 (25%) 0 (0%) 4500Mi (45%) 0 (0%)",
		"jhub " + hub + " 500m (12%) 0 (0%) 1Gi (10%) 0 (0%)",
		"batch " + batch + " 500m (12%) 0 (0%) 1Gi (10%) 0 (0%)",
	}}.String()
	batchProbe := "$ kubectl get events -n batch\nLAST SEEN   TYPE      REASON      OBJECT                    MESSAGE\n" +
		"2m          Warning   Unhealthy   pod/" + batch + `   Liveness probe failed: Get "http://10.4.1.13:8080/health": context deadline exceeded (Client.Timeout exceeded while awaiting headers)` + "\n" +
		"2m          Normal    Killing     pod/" + batch + "   Container etl failed liveness probe, will be restarted\n"
	explained := func(rep analysis.Report) []string {
		var out []string
		for _, c := range rep.Causes {
			if c.Kind != analysis.SharedPrometheus {
				continue
			}
			for _, s := range rep.Symptoms {
				if slices.Contains(c.Explains, s.ID) {
					out = append(out, symptomLabel(s))
				}
			}
		}
		return out
	}

	if got := explained(Run(model(t, node, batchProbe), analysis.Options{})); len(got) != 0 {
		t.Errorf("a batch pod's probe alone: Prometheus explains %q, want no shared_prometheus cause", got)
	}
	got := explained(Run(model(t, node, batchProbe, probeEvents(hub, "Liveness")), analysis.Options{}))
	if want := []string{"liveness_probe_failed jhub/" + hub}; !slices.Equal(got, want) {
		t.Errorf("the hub's and a batch pod's probes: Prometheus explains %q, want %q", got, want)
	}
}
