package rules

import (
	"fmt"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// imageUnavailableRule: an image that cannot be pulled is the cause of its pull failures, save
// those that failed only on the node's own errors (pullFailedOnNode: its disk, its network to
// the registry, its resolver). The registry's answer (pullRefused: not found, denied, an
// invalid name) shows it, at imageRefusedConfidence. Where no symptom's evidence holds any
// answer to the pull (a back-off, an ErrImagePull without its message), the image is still the
// likeliest cause, but nothing shows why the pull failed: the cause is drawn at
// imageUnansweredConfidence and names the registry's answer as missing.
type imageUnavailableRule struct{}

func (imageUnavailableRule) Name() string { return "image-unavailable" }

// Confidence of image_unavailable with the registry's answer, and without any answer.
const (
	imageRefusedConfidence    = 0.8
	imageUnansweredConfidence = 0.5
)

func (imageUnavailableRule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	refused := false
	cs := directRule{symptom: analysis.ImagePullFailed, cause: analysis.ImageUnavailable, role: analysis.Root, confidence: imageRefusedConfidence,
		summary: func(n int, o string) string { return fmt.Sprintf("%d pod(s) could not pull their image: %s", n, o) },
		when: func(s analysis.Symptom) bool {
			if pullFailedOnNode(s) {
				return false
			}
			refused = refused || pullRefused(s)
			return true
		}}.Causes(in, symptoms)
	for i := range cs {
		if !refused {
			cs[i].Confidence = imageUnansweredConfidence
			cs[i].Missing = append(cs[i].Missing, "the registry's answer to the pull: the kubelet's Failed events of the pods (kubectl describe pod, kubectl get events) say whether the image does not exist, may not be pulled, or the node could not reach it")
		}
	}
	return cs
}
