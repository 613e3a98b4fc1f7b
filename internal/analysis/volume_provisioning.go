package analysis

import (
	"fmt"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// volumeProvisioningRule finds PersistentVolumeClaims that could not be provisioned or bound:
// the PV controller's and external provisioners' ProvisioningFailed, and FailedBinding ("no
// persistent volumes available for this claim and no storage class is set"), or their
// messages wherever they were pasted. A claim waiting for its first consumer is not one.
type volumeProvisioningRule struct{}

func (volumeProvisioningRule) Name() string { return "volume-provisioning-failed" }

func (volumeProvisioningRule) Symptoms(in Input) []Symptom {
	syms := newObjectSymptoms(VolumeProvisioningFailed)
	syms.fromEvents(in, "PersistentVolumeClaim", func(o *cluster.Object) bool {
		e := o.Event
		kind := e.InvolvedObject.Kind
		return (e.Reason == "ProvisioningFailed" || e.Reason == "FailedBinding") && (kind == "PersistentVolumeClaim" || kind == "") ||
			in.eventSign(o, VolumeProvisioningFailed) != nil
	})
	return syms.list(func(s *Symptom) string {
		return fmt.Sprintf("%s could not be provisioned: %s", objectPhrase(s, "PersistentVolumeClaim"), clip(s.Details.Message, 160))
	})
}
