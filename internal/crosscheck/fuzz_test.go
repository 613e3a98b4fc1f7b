package crosscheck

import (
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/incident"
)

// FuzzCompare: any report text against an analysis compares without panicking, and every
// pair it makes quotes figures that are in the texts.
func FuzzCompare(f *testing.F) {
	f.Add("On that node 88% of the CPU and 93% of the memory were requested.")
	f.Add("memory limits added up to 124% of the node; 100%% 1.5% .%")
	f.Add("")
	rep := analysis.Report{Causes: []analysis.Cause{{ID: "C1", Kind: "capacity_exhaustion", Role: analysis.Root,
		Summary: "node n-1 had 88% of its CPU and 91% of its memory requested"}}}
	f.Fuzz(func(t *testing.T, body string) {
		c := Compare(incident.Report{Body: body, RootCause: "capacity_exhaustion"}, rep)
		for _, n := range c.Numbers {
			if n.ReportValue == "" || n.EvidenceValue == "" || n.ID != "C1" {
				t.Fatalf("pair %+v", n)
			}
		}
	})
}
