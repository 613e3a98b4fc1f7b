package rules

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// The summary of both IL-0070 variants says what users felt first (the hub), the root cause
// and the chain to the hub in words, and leads its one list of changes with one that answers
// the hub's trouble; the extra nodes the capacity rule would ask for are dropped, since the
// scale-up was already adding more.
func TestIL0070Summary(t *testing.T) {
	t.Parallel()
	tests := []struct {
		variant   string
		felt      string // kind of the first felt symptom
		chain     []string
		whyHas    []string
		firstHas  string
		prevents  string // kind of the first change's worst prevented symptom
		dropped   int
		wantTrigg bool
	}{
		{variant: "evicted", felt: analysis.PodEvicted, chain: []string{"capacity_exhaustion", "shared_prometheus", "memory_over_request", analysis.PodEvicted},
			whyHas:   []string{"Root cause: Capacity exhausted (C1)", "The chain: Capacity exhausted (C1) → Shared Prometheus (C2) → Memory over request (C4) → Pod evicted (S1)", "It started with a scale-up"},
			firstHas: "node pool of its own", prevents: analysis.PodEvicted, dropped: 1, wantTrigg: true},
		{variant: "liveness", felt: analysis.LivenessProbeFailed, chain: []string{"capacity_exhaustion", "shared_prometheus", "cpu_starvation", analysis.LivenessProbeFailed},
			whyHas:   []string{"Root cause: Capacity exhausted (C1)", "→ Shared Prometheus (C2) → CPU starvation (C4) → Liveness probe failed (S1)"},
			firstHas: "node pool of its own", prevents: analysis.LivenessProbeFailed, dropped: 1, wantTrigg: true},
	}
	for _, tt := range tests {
		t.Run(tt.variant, func(t *testing.T) {
			t.Parallel()
			m := loadDir(t, filepath.Join("..", "testdata", "il0070", tt.variant), time.Time{})
			rep := Run(m, analysis.Options{})
			s := rep.Summary
			if s == nil {
				t.Fatal("no summary")
			}
			kindOf := func(id string) string {
				if sy, ok := (&rep).SymptomByID(id); ok {
					return sy.Kind
				}
				c, _ := rep.CauseByID(id)
				return c.Kind
			}
			if len(s.Felt) == 0 || kindOf(s.Felt[0]) != tt.felt {
				t.Errorf("felt = %v, want %s first", s.Felt, tt.felt)
			}
			for _, id := range s.Felt {
				if notFelt(kindOf(id)) {
					t.Errorf("felt lists %s (%s), a fact of the causes' side", id, kindOf(id))
				}
			}
			if !strings.Contains(s.WhatHappened, "hub-8sr9zr4gx7-js2fw") || !strings.Contains(s.WhatHappened, "17:0") {
				t.Errorf("what happened does not name the hub's pod and its time: %s", s.WhatHappened)
			}
			var chain []string
			for _, id := range s.Chain {
				chain = append(chain, kindOf(id))
			}
			if strings.Join(chain, " ") != strings.Join(tt.chain, " ") {
				t.Errorf("chain = %v (%v), want %v", chain, s.Chain, tt.chain)
			}
			for _, w := range tt.whyHas {
				if !strings.Contains(s.Why, w) {
					t.Errorf("why lacks %q: %s", w, s.Why)
				}
			}
			if (s.Trigger != "") != tt.wantTrigg || s.Trigger != "" && kindOf(s.Trigger) != analysis.ScaleUp {
				t.Errorf("trigger = %q", s.Trigger)
			}
			if len(s.Changes) == 0 {
				t.Fatal("no changes")
			}
			first := s.Changes[0]
			if !strings.Contains(first.Change, tt.firstHas) || len(first.Prevents) == 0 || kindOf(first.Prevents[0]) != tt.prevents {
				t.Errorf("first change = %+v, want one with %q preventing %s", first, tt.firstHas, tt.prevents)
			}
			seen := map[string]bool{}
			for _, c := range s.Changes {
				if c.Action != "" {
					key := c.Action + " " + c.Change
					if seen[key] {
						t.Errorf("change twice: %s", c.Change)
					}
					seen[key] = true
				}
				if c.Action == analysis.ActionIsolate && len(c.Causes) < 2 {
					t.Errorf("the isolation of Prometheus answers %v, want both shared_prometheus and shared_node_pool", c.Causes)
				}
			}
			if len(s.Dropped) != tt.dropped || tt.dropped > 0 && (s.Dropped[0].Action != analysis.ActionAddNodes || !strings.Contains(s.Dropped[0].Why, "scale-up")) {
				t.Errorf("dropped = %+v, want the extra nodes, contradicted by the scale-up", s.Dropped)
			}
			// A leftover or a trigger is never ranked as what users felt, whoever's pod it was.
			for _, sy := range rep.Symptoms {
				if notFelt(sy.Kind) && sy.Severity >= analysis.CriticalWeight {
					t.Errorf("%s %s has severity %d, that of a critical failure", sy.ID, sy.Kind, sy.Severity)
				}
			}
			// The hub went down in both variants: its component is the incident's.
			hub := false
			for _, c := range rep.Causes {
				for _, comp := range c.Components {
					hub = hub || comp.Kind == "Hub"
				}
			}
			if !hub {
				t.Error("no cause names the Hub among its components")
			}
			t.Logf("%s\n%s\n%s\n%+v", s.WhatHappened, s.Why, s.Sure, s.Changes)
		})
	}
}

// notFelt reports the kinds that are facts of the causes' side, never what users felt: a
// scale-up (a trigger) and evicted pods left lingering (a leftover).
func notFelt(kind string) bool {
	return kind == analysis.ScaleUp || kind == analysis.EvictedPodsLingering
}
