package server

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/incident"
)

// TestAnalysisSignatureNamesWorkloads: the signature an analysis gives names components by
// their workloads, never by a pod's hash, whatever name the analysis gave them (a paste
// without owner references names pods only).
func TestAnalysisSignatureNamesWorkloads(t *testing.T) {
	t.Parallel()
	rep := analysis.Report{Causes: []analysis.Cause{
		{Kind: analysis.CPUStarvation, Role: analysis.Contributing, Components: []analysis.Component{{Kind: "Hub", Name: "hub-7d9f8b6c4-x2k9p"}}},
		{Kind: analysis.SharedPrometheus, Role: analysis.Root, Components: []analysis.Component{{Kind: "Prometheus", Name: "prometheus-server-0"},
			{Kind: "NodePool", Name: "core-pool-2"}}},
		{Kind: analysis.CPUStarvation, Role: analysis.Contributing, Components: []analysis.Component{{Kind: "Hub", Name: "hub-5f6b7c8d9-q4w5e"}}},
	}}
	got := analysisSignature(rep)
	want := []incident.Component{{Kind: "Hub", Name: "hub"}, {Kind: "NodePool", Name: "core-pool-2"}, {Kind: "Prometheus", Name: "prometheus-server"}}
	if diff := cmp.Diff(want, got.Components); diff != "" || got.RootCause != analysis.SharedPrometheus {
		t.Errorf("root %s, components (-want +got):\n%s", got.RootCause, diff)
	}
}
