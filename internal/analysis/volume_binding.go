package analysis

import (
	"github.com/rootline-dev/rootline/internal/signal"
)

// volumeBindingRule finds pods Pending on their volumes: a claim not found or unbound, no
// persistent volume to bind, or a volume pinned to a zone where no node fits.
type volumeBindingRule struct{}

func (volumeBindingRule) Name() string { return "volume-binding" }

func (volumeBindingRule) Causes(_ Input, symptoms []Symptom) []Cause {
	c := Cause{Kind: VolumeBinding, Role: Root, Confidence: 0.8, Components: []Component{}}
	var msgs []string
	for _, s := range symptoms {
		sch, msg, ok := failedScheduling(s)
		if !ok {
			continue
		}
		volume := sch.PreFilter != "" && (signal.ReasonCount{Reason: sch.PreFilter}).Class() == signal.ClassVolume
		for _, r := range sch.Reasons {
			volume = volume || r.Class() == signal.ClassVolume
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
