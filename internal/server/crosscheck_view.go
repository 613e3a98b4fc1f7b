package server

import (
	"github.com/rootline-dev/rootline/internal/crosscheck"
	"github.com/rootline-dev/rootline/internal/kinds"
	"github.com/rootline-dev/rootline/templates/incidents"
)

// checkView is a report set against the analysis, as the report's card shows it: nil when
// there is nothing to compare.
func checkView(c crosscheck.Comparison) *incidents.Check {
	if c.Empty() {
		return nil
	}
	names := func(ks []string) []string {
		out := make([]string, len(ks))
		for i, k := range ks {
			out[i] = kinds.Name(k)
		}
		return out
	}
	v := &incidents.Check{RootAgrees: c.RootAgrees, RootReport: kinds.Name(c.RootReport), RootEvidence: kinds.Name(c.RootEvidence),
		Agree: names(c.Agree), OnlyReport: names(c.OnlyReport), OnlyEvidence: names(c.OnlyEvidence)}
	if c.RootReport == "" {
		v.RootReport = ""
	}
	if c.RootEvidence == "" {
		v.RootEvidence = ""
	}
	for _, n := range c.Numbers {
		v.Numbers = append(v.Numbers, incidents.NumberCheck{Report: n.Report, Evidence: n.Evidence, ReportValue: n.ReportValue,
			EvidenceValue: n.EvidenceValue, ID: n.ID, Same: n.Same()})
	}
	return v
}
