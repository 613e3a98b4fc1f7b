package rules

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/cluster"
	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
)

// volumeProvisioningRule finds PersistentVolumeClaims that could not be provisioned or bound:
// the PV controller's and external provisioners' ProvisioningFailed, and FailedBinding ("no
// persistent volumes available for this claim and no storage class is set"), or their
// messages wherever they were pasted. A claim waiting for its first consumer is not one.
type volumeProvisioningRule struct{}

func (volumeProvisioningRule) Name() string { return "volume-provisioning-failed" }

func (volumeProvisioningRule) Symptoms(in analysis.Input) []analysis.Symptom {
	syms := newObjectSymptoms(analysis.VolumeProvisioningFailed)
	syms.fromEvents(in, "PersistentVolumeClaim", func(o *cluster.Object) bool {
		e := o.Event
		kind := e.InvolvedObject.Kind
		return (e.Reason == "ProvisioningFailed" || e.Reason == "FailedBinding") && (kind == "PersistentVolumeClaim" || kind == "") ||
			eventSign(in, o, analysis.VolumeProvisioningFailed) != nil || waitedForProvisioner(in, o)
	})
	waitedClaims(in, syms)
	// A claim the input lost (an events section pasted alone) is the one claim the other
	// messages of its file name ("External provisioner is provisioning volume for claim
	// \"ns/x\"").
	var named map[string][]analysis.ObjectRef
	for _, key := range syms.order {
		s := syms.byKey[key]
		if len(s.Objects) > 0 || len(s.Evidence) == 0 {
			continue
		}
		if named == nil {
			named = claimsByFile(in) // only when a claim is unnamed: one pass over the events
		}
		if claims := named[s.Evidence[0].File]; len(claims) == 1 {
			s.Objects = claims
		}
	}
	return syms.list(func(s *analysis.Symptom) string {
		return fmt.Sprintf("%s could not be provisioned: %s", objectPhrase(s, "PersistentVolumeClaim"), phrase.Clip(s.Details.Message, 160))
	})
}

// waitedLong is how long a claim may wait for its external provisioner before the wait is a
// failure: a CSI driver provisions a volume in seconds to a minute; one that has not in five
// minutes is absent, not registered, or failing. The PV controller says it waits at each sync
// of the claim (--pvclaimbinder-sync-period, 15 s by default), so waitedCount of its event
// stands for that long where the paste's times are lost.
const (
	waitedLong  = 5 * time.Minute
	waitedCount = 20
)

// waitedForProvisioner reports whether an event is the PV controller's "waiting for a volume to
// be created, either by external provisioner …" said for waitedLong or more.
func waitedForProvisioner(in analysis.Input, o *cluster.Object) bool {
	e := o.Event
	count, first, last := cluster.EventTimes(e)
	if count < waitedCount && (first.IsZero() || last.Sub(first) < waitedLong) {
		return false // the cheap test first: every event of the input comes here
	}
	return e.Reason == "ExternalProvisioning" || slices.Contains(evidenceTags(in, e.Message), "waiting_external_provisioner")
}

// claimsByFile lists, per file, the claims its events' messages name in the catalogue's words,
// each once.
func claimsByFile(in analysis.Input) map[string][]analysis.ObjectRef {
	out := map[string][]analysis.ObjectRef{}
	for _, o := range in.Model.Events {
		m := messages(in).message(o.Event.Message)
		if m == nil || m.Entry.Object != "pvc" || m.Capture("name") == "" {
			continue
		}
		r := analysis.ObjectRef{Kind: "PersistentVolumeClaim", Namespace: m.Capture("namespace"), Name: m.Capture("name")}
		if f := o.Source.File; !slices.Contains(out[f], r) {
			out[f] = append(out[f], r)
		}
	}
	return out
}

// waitedClaims adds the claims a pasted listing shows still Pending waitedLong or more after
// they were made (the AGE it printed, as of the listing's own time), whatever the input says
// of why: a claim of a class that provisions is bound in a minute. A claim of a class that
// binds at its first consumer's scheduling (WaitForFirstConsumer, as a storage classes listing
// or the claim's own event says) waits for a pod by design, and is not one.
func waitedClaims(in analysis.Input, syms *objectSymptoms) {
	var firstConsumer map[string]bool // claim namespace/name → said to wait for its consumer
	for _, o := range others(in.Model, "PersistentVolumeClaim") {
		if o.ListedAge() < waitedLong {
			continue
		}
		c := claimOf(o)
		if c == nil || c.Status.Phase != corev1.ClaimPending {
			continue
		}
		if firstConsumer == nil {
			firstConsumer = waitingForConsumer(in)
		}
		class := ""
		if c.Spec.StorageClassName != nil {
			class = *c.Spec.StorageClassName
		}
		if firstConsumer[o.Namespace+"/"+o.Name] || class != "" && firstConsumer["class/"+class] {
			continue
		}
		s := syms.get(ref(o), o.Source.File)
		if len(s.Evidence) > 0 {
			continue // its events say more
		}
		age := phrase.Duration(int(o.ListedAge().Seconds()))
		s.Evidence = append(s.Evidence, cite(o, "status.phase", "Pending, the claim "+age+" old"))
		s.Reason, s.Details.Message = "Pending", "still Pending "+age+" after it was made"
	}
}

// waitingForConsumer lists the claims whose class binds at its first consumer's scheduling:
// by the claim's WaitForFirstConsumer event ("namespace/name"), and the classes a storage
// class object says so of ("class/name").
func waitingForConsumer(in analysis.Input) map[string]bool {
	out := map[string]bool{}
	for _, o := range in.Model.Events {
		if e := o.Event; e.Reason == "WaitForFirstConsumer" {
			out[e.InvolvedObject.Namespace+"/"+e.InvolvedObject.Name] = true
		}
	}
	for _, o := range others(in.Model, "StorageClass") {
		var sc storagev1.StorageClass
		if json.Unmarshal(o.Raw, &sc) == nil && sc.VolumeBindingMode != nil && *sc.VolumeBindingMode == storagev1.VolumeBindingWaitForFirstConsumer {
			out["class/"+o.Name] = true
		}
	}
	return out
}

// claimOf decodes a claim kept as JSON; nil when it is not one.
func claimOf(o *cluster.Object) *corev1.PersistentVolumeClaim {
	var c corev1.PersistentVolumeClaim
	if len(o.Raw) == 0 || json.Unmarshal(o.Raw, &c) != nil {
		return nil
	}
	return &c
}
