package analysis

import (
	"fmt"
	"strings"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// imagePullRule finds images that could not be pulled: waiting reasons ErrImagePull,
// ImagePullBackOff, InvalidImageName, and the kubelet's Failed and BackOff events about
// pulling.
type imagePullRule struct{}

func (imagePullRule) Name() string { return "image-pull-failed" }

var pullReasons = map[string]bool{"ErrImagePull": true, "ImagePullBackOff": true, "InvalidImageName": true, "ErrImageNeverPull": true,
	"ImageInspectError": true, "RegistryUnavailable": true}

func (imagePullRule) Symptoms(in Input) []Symptom {
	syms := newPodSymptoms(ImagePullFailed)
	for _, o := range in.Model.Pods {
		for _, cs := range allStatuses(o.Pod) {
			if w := cs.State.Waiting; w != nil && pullReasons[w.Reason] {
				s := syms.pod(o)
				s.Node = o.Pod.Spec.NodeName
				s.Evidence = append(s.Evidence, cite(o, fmt.Sprintf("status.containerStatuses[%s].state.waiting", cs.Name), w.Reason+": "+w.Message))
			}
		}
	}
	for _, o := range in.Model.Events {
		e := o.Event
		pulling := (e.Reason == "Failed" && strings.Contains(e.Message, "pull")) ||
			(e.Reason == "BackOff" && strings.Contains(e.Message, "pulling image")) || pullReasons[e.Reason] ||
			in.eventSign(o, ImagePullFailed) != nil
		if !pulling || !aboutPod(o) {
			continue
		}
		s := syms.event(o)
		s.Evidence = append(s.Evidence, citeEvent(o))
		_, first, _ := cluster.EventTimes(e)
		s.At = earliest(s.At, timePtr(first))
	}
	return syms.list(func(pod string, _ *Symptom) string {
		return fmt.Sprintf("an image of %s could not be pulled", podPhrase(pod))
	})
}
