package incident

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRelated(t *testing.T) {
	il0070 := Signature{Symptoms: []string{"pod_evicted", "pod_pending"}, RootCause: "capacity_exhaustion",
		Causes:     []string{"capacity_exhaustion", "shared_node_pool", "shared_prometheus"},
		Components: []Component{{"NodePool", "core"}, {"Prometheus", "support-prometheus-server"}}}
	candidates := []Candidate{
		{ID: "IL-0070", Title: "itself", Signature: il0070},
		{ID: "A", Title: "pool and Prometheus", Signature: Signature{Symptoms: []string{"pod_evicted"}, RootCause: "capacity_exhaustion",
			Causes: []string{"capacity_exhaustion", "shared_prometheus"}, Components: []Component{{"NodePool", "x"}, {"Prometheus", "p"}}}},
		{ID: "B", Title: "pool only", Signature: Signature{Symptoms: []string{"pod_pending"}, RootCause: "capacity_exhaustion",
			Causes: []string{"capacity_exhaustion"}, Components: []Component{{"NodePool", "user"}}}},
		{ID: "C", Title: "Prometheus, other cause", Signature: Signature{RootCause: "memory_limit_too_low",
			Causes: []string{"memory_limit_too_low"}, Components: []Component{{"Prometheus", "prom"}}}},
		{ID: "D", Title: "nothing shared", Signature: Signature{RootCause: "image_unavailable", Components: []Component{{"DNS", "coredns"}}}},
	}
	got := Related("IL-0070", il0070, candidates)
	var reasons []string
	for _, r := range got {
		reasons = append(reasons, r.ID+": "+r.Reason())
	}
	want := []string{
		"A: same root cause · shared Node pool, Prometheus",
		"B: same root cause · shared Node pool",
		"C: shared Prometheus",
	}
	if diff := cmp.Diff(want, reasons); diff != "" {
		t.Errorf("related (-want +got):\n%s", diff)
	}
	if got[0].Score <= got[1].Score || got[1].Score <= got[2].Score || got[0].Why == "" {
		t.Errorf("scores %v", got)
	}
}
