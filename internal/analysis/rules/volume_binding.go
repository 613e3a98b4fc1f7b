package rules

import (
	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/signal"
)

// volumeBindingRule finds pods Pending on their volumes: a claim not found or unbound, no
// persistent volume to bind, or a volume pinned to a zone where no node fits.
type volumeBindingRule struct{}

func (volumeBindingRule) Name() string { return "volume-binding" }

func (volumeBindingRule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	c := analysis.Cause{Kind: analysis.VolumeBinding, Role: analysis.Root, Confidence: 0.8, Components: []analysis.Component{}}
	var msgs []string
	for _, s := range symptoms {
		sch, msg, ok := s.Scheduling()
		volume := ok && len(s.Evidence) > 0 && sch.PreFilter != "" && (signal.ReasonCount{Reason: sch.PreFilter}).Class() == signal.ClassVolume
		for _, r := range sch.Reasons {
			volume = volume || len(s.Evidence) > 0 && r.Class() == signal.ClassVolume
		}
		var ev analysis.Evidence
		if volume {
			ev = s.Evidence[0]
		} else if e, said, shown := tagShown(in, s, bindingTags[s.Kind]); shown {
			// A message the scheduler's diagnosis format does not hold (the whole message of
			// 1.12-1.17, a log line) or a claim's own event: what the catalogue says it tells.
			ev, msg, volume = e, said, true
		}
		if !volume {
			continue
		}
		c.Explains = append(c.Explains, s.ID)
		c.Evidence = append(c.Evidence, ev)
		msgs = append(msgs, s.Label()+": "+msg)
	}
	if len(c.Explains) == 0 {
		return nil
	}
	c.Summary = "pods waited for their volumes: " + phrase.Parts(msgs, "; ")
	return []analysis.Cause{c}
}

// bindingTags are the catalogue's evidence tags (internal/catalog) that say a volume could not
// be bound, by the symptom kind of the message: a pod the scheduler held for its claims, a
// claim the binder found no volume for.
var bindingTags = map[string][]string{
	analysis.PodPending: {"unbound_pvc", "missing_pvc", "pvc_terminating", "volume_binding", "binding_failed",
		"volume_node_affinity", "volume_zone"},
	analysis.VolumeProvisioningFailed: {"no_matching_pv", "pv_bound_to_other_claim", "pv_claim_mismatch"},
	// A pod placed on a node its bound volume is pinned away from: the kubelet cannot mount it.
	analysis.PodStuckCreating: {"volume_node_affinity"},
}
