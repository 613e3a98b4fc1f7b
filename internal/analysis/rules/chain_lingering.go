package rules

import (
	"fmt"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// lingeringLink explains evicted pods left in phase Failed by the causes of their eviction: the
// kubelet does not delete the pods it evicts, so the eviction's cause is where the lingering
// pod came from.
type lingeringLink struct{}

func (lingeringLink) Name() string { return "evicted-pods-lingering" }

// terminatedPodGCThreshold is kube-controller-manager's --terminated-pod-gc-threshold default.
const terminatedPodGCThreshold = "12,500"

func (lingeringLink) Links(_ analysis.Input, r *analysis.Report) []analysis.Edge {
	var out []analysis.Edge
	for _, l := range r.Symptoms {
		if l.Kind != analysis.EvictedPodsLingering {
			continue
		}
		left := map[analysis.ObjectRef]bool{}
		for _, o := range l.Objects {
			left[o] = true
		}
		for _, s := range r.Symptoms {
			if s.Kind != analysis.PodEvicted {
				continue
			}
			found := false
			for _, o := range s.Objects {
				found = found || left[o]
			}
			if !found {
				continue
			}
			why := fmt.Sprintf("the pods it evicted (%s) stayed in phase Failed: the kubelet does not delete the pods it evicts, and the pod garbage collector waits until the cluster holds %s terminated pods (--terminated-pod-gc-threshold)", s.ID, terminatedPodGCThreshold)
			if cs := r.Explaining(s.ID); len(cs) > 0 {
				out = append(out, analysis.Edge{From: cs[0].ID, To: l.ID, Why: why}) // the worst cause of the eviction
			}
		}
	}
	return out
}
