package cluster

import (
	"encoding/json"
	"fmt"
)

// KindClaim is the kind of a Claim object, and ClaimAPIVersion its API version: Rootline's
// own, never a Kubernetes object.
const (
	KindClaim       = "Claim"
	ClaimAPIVersion = "rootline.dev/v1"
)

// Claim is what a person wrote in a ticket, an issue or a postmortem, as opposed to what the
// cluster printed: a sentence that says why something happened ("the EBS volume was just
// 10Gb, it filled up and caused evictions"), or that quotes a Kubernetes message in prose.
// Analysis never counts a claim as an observed symptom; it may cite one as the author's
// claim in support of a cause the evidence allows.
type Claim struct {
	// Text is the sentence as written (markup removed), at most a few hundred bytes.
	Text string `json:"text"`
	// Quote is a Kubernetes message the sentence quotes ("The node was low on resource:
	// ephemeral-storage."), and Reason the event reason that message carries (Evicted,
	// FailedScheduling, …); both empty when it quotes none.
	Quote  string `json:"quote,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Incidents is set on the claim a document makes about itself when it lists several
	// unrelated incidents (a list of postmortem summaries): how many it lists.
	Incidents int `json:"incidents,omitempty"`
	// Reports is set on a sentence kept because it may report what happened ("the hub pods
	// went into CrashLoopBackOff"): the analysis lists it only when it names a symptom or a
	// cause.
	Reports bool `json:"reports,omitempty"`
}

// NewClaimObject makes the object that carries a claim found at src; name must be unique in
// its input (the parser uses the file and line).
func NewClaimObject(c Claim, name string, src Source) (*Object, error) {
	raw, err := json.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("marshal claim: %w", err)
	}
	return &Object{APIVersion: ClaimAPIVersion, Kind: KindClaim, Name: name, Source: src, Raw: raw}, nil
}

// Claims returns the claims the model holds, with their objects.
func (m *Model) Claims() ([]Claim, []*Object) {
	var cs []Claim
	var os []*Object
	for _, o := range m.Others {
		if o.Kind != KindClaim || o.APIVersion != ClaimAPIVersion {
			continue
		}
		var c Claim
		if json.Unmarshal(o.Raw, &c) == nil {
			cs, os = append(cs, c), append(os, o)
		}
	}
	return cs, os
}
