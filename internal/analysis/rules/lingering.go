package rules

import (
	"fmt"

	"github.com/rootline-dev/rootline/internal/analysis"
	corev1 "k8s.io/api/core/v1"
)

// lingeringRule reports evicted pods that are still there: the kubelet leaves them in phase
// Failed until something deletes them, and controllers that read only the phase (KubeSpawner
// did) keep routing to them.
type lingeringRule struct{}

func (lingeringRule) Name() string { return "evicted-pods-lingering" }

func (lingeringRule) Symptoms(in analysis.Input) []analysis.Symptom {
	s := analysis.Symptom{Kind: analysis.EvictedPodsLingering}
	for _, o := range in.Model.Pods {
		p := o.Pod
		if p.Status.Phase != corev1.PodFailed || p.DeletionTimestamp != nil {
			continue
		}
		why := "reason Evicted"
		if p.Status.Reason != "Evicted" {
			c := disruption(p)
			if c == nil || !evictionReasons[c.Reason] {
				continue
			}
			why = "DisruptionTarget " + c.Reason
		}
		s.Objects = append(s.Objects, ref(o))
		s.Evidence = append(s.Evidence, cite(o, "status.phase", "Failed ("+why+"), not deleted"))
	}
	if len(s.Objects) == 0 {
		return nil
	}
	s.Summary = fmt.Sprintf("%d evicted pod(s) were left in phase Failed, never deleted", len(s.Objects))
	return []analysis.Symptom{s}
}
