package analysis

import (
	"slices"

	"github.com/rootline-dev/rootline/internal/signal"
)

// volumeBindingRule finds pods Pending on their volumes: a claim not found or unbound, no
// persistent volume to bind, or a volume pinned to a zone where no node fits.
type volumeBindingRule struct{}

func (volumeBindingRule) Name() string { return "volume-binding" }

func (volumeBindingRule) Causes(in Input, symptoms []Symptom) []Cause {
	c := Cause{Kind: VolumeBinding, Role: Root, Confidence: 0.8, Components: []Component{}}
	var msgs []string
	for _, s := range symptoms {
		if len(s.Evidence) == 0 {
			continue
		}
		sch, msg, ok := failedScheduling(s)
		volume := ok && sch.PreFilter != "" && (signal.ReasonCount{Reason: sch.PreFilter}).Class() == signal.ClassVolume
		for _, r := range sch.Reasons {
			volume = volume || r.Class() == signal.ClassVolume
		}
		if !volume && (s.Kind == PodPending || s.Kind == VolumeProvisioningFailed) {
			// A message the scheduler's diagnosis format does not hold (the whole message of
			// 1.12-1.17, a log line) or a claim's own event: what the catalogue says it tells.
			msg = s.Details.Message
			volume = slices.ContainsFunc(in.evidenceTags(msg), func(t string) bool { return bindingTags[s.Kind][t] })
		}
		if !volume {
			continue
		}
		c.Explains = append(c.Explains, s.ID)
		c.Evidence = append(c.Evidence, s.Evidence[0])
		msgs = append(msgs, objectLabel(s)+": "+msg)
	}
	if len(c.Explains) == 0 {
		return nil
	}
	c.Summary = "pods waited for their volumes: " + summaryParts(msgs, "; ")
	return []Cause{c}
}

// bindingTags are the catalogue's evidence tags (internal/catalog) that say a volume could not
// be bound, by the symptom kind of the message: a pod the scheduler held for its claims, a
// claim the binder found no volume for.
var bindingTags = map[string]map[string]bool{
	PodPending: {"unbound_pvc": true, "missing_pvc": true, "pvc_terminating": true, "volume_binding": true,
		"binding_failed": true, "volume_node_affinity": true, "volume_zone": true},
	VolumeProvisioningFailed: {"no_matching_pv": true, "pv_bound_to_other_claim": true, "pv_claim_mismatch": true},
}
