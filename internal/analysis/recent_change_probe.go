package analysis

import (
	"strings"

	"github.com/rootline-dev/rootline/internal/change"
)

// tightenedProbeRule: a workload's liveness, readiness or startup probe was changed, then it failed: a
// shorter timeout, a lower failure threshold or a new probe fails a container the old one let
// be.
type tightenedProbeRule struct{}

func (tightenedProbeRule) Name() string { return "recent-change-probe" }

func (tightenedProbeRule) Causes(in Input, symptoms []Symptom) []Cause {
	var out []Cause
	for _, p := range []struct {
		field string
		kind  string
	}{{".livenessProbe", LivenessProbeFailed}, {".readinessProbe", ReadinessProbeFailed}, {".startupProbe", StartupProbeFailed}} {
		changed := func(c change.Change) bool { return strings.HasSuffix(c.Field, p.field) && c.After != change.Absent }
		out = append(out, changeCauses(in, symptoms, mechanism{matches: changed, kinds: []string{p.kind}, what: "the changed probe failed", confidence: 0.7})...)
	}
	return out
}
