package rules

import (
	"fmt"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// triggeredLink links the causes of pods that could not be scheduled to the scale-up those pods
// triggered: cluster-autoscaler writes TriggeredScaleUp on each pod it adds nodes for. When the
// events are gone, pods that waited for a pool before the scale-up added nodes to that pool are
// linked to it, saying that no event tells which pods triggered it.
type triggeredLink struct{}

func (triggeredLink) Name() string { return "triggered-scale-up" }

func (triggeredLink) Links(in analysis.Input, r *analysis.Report) []analysis.Edge {
	triggered := map[analysis.ObjectRef]bool{}
	for _, o := range in.Model.Events {
		if o.Event.Reason == "TriggeredScaleUp" && o.Event.InvolvedObject.Kind == cluster.KindPod {
			triggered[involved(o)] = true
		}
	}
	var out []analysis.Edge
	for _, up := range r.Symptoms {
		if up.Kind != analysis.ScaleUp {
			continue
		}
		for _, s := range r.Symptoms {
			if s.Kind != analysis.PodPending {
				continue
			}
			n := 0
			for _, o := range s.Objects {
				if triggered[o] {
					n++
				}
			}
			var why string
			switch pool := sharedPool(s, up); {
			case n > 0:
				why = fmt.Sprintf("%s of the pods that could not be scheduled (%s) triggered the scale-up (%s): cluster-autoscaler's TriggeredScaleUp events on them", phrase.Thousands(n), s.ID, up.ID)
			case len(triggered) == 0 && pool != "" && s.At != nil && up.At != nil && !s.At.After(up.At.Add(burstWindow)):
				why = fmt.Sprintf("the pods that could not be scheduled (%s) waited for pool %s from %s, and the scale-up (%s) added nodes to it from %s; no TriggeredScaleUp event in the input says which pods triggered it",
					s.ID, pool, s.At.UTC().Format(time.TimeOnly), up.ID, up.At.UTC().Format(time.TimeOnly))
			default:
				continue
			}
			for _, c := range r.Explaining(s.ID) {
				if c.Kind != analysis.ScaleUpNotReady { // it follows the scale-up, it does not cause it
					out = append(out, analysis.Edge{From: c.ID, To: up.ID, Why: why})
				}
			}
		}
	}
	return out
}

// sharedPool is a pool both symptoms' members belong to, or "".
func sharedPool(a, b analysis.Symptom) string {
	for _, p := range a.Pools {
		for _, q := range b.Pools {
			if p.Name == q.Name {
				return p.Name
			}
		}
	}
	return ""
}
