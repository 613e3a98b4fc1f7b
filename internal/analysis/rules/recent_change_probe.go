package rules

import (
	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/change"
)

// tightenedProbeRule: a workload's liveness, readiness or startup probe was changed, then it failed: a
// shorter timeout, a lower failure threshold or a new probe fails a container the old one let
// be.
type tightenedProbeRule struct{}

func (tightenedProbeRule) Name() string { return "recent-change-probe" }

func (tightenedProbeRule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	var out []analysis.Cause
	for _, p := range []struct {
		field change.Attr
		kind  string
	}{{change.LivenessProbe, analysis.LivenessProbeFailed}, {change.ReadinessProbe, analysis.ReadinessProbeFailed}, {change.StartupProbe, analysis.StartupProbeFailed}} {
		changed := func(c change.Change) bool { return c.Path.Attr == p.field && !c.Is.Absent }
		out = append(out, changeCauses(in, symptoms, mechanism{matches: changed, kinds: []string{p.kind}, what: "the changed probe failed", confidence: 0.7})...)
	}
	return out
}
