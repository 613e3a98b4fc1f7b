package rules

import (
	"math"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// TestCapacityConfidenceWeighsTheAutoscaler: how sure the capacity cause is depends on what
// the input shows: the autoscaler saying it could add no nodes for pending pods adds to it;
// nodes seen full add to it. (The table of
// TestCapacityRule leaves some confidences unchecked; these are the figures a reader sees.)
func TestCapacityConfidenceWeighsTheAutoscaler(t *testing.T) {
	atMax := "$ kubectl get events -n prod\nLAST SEEN   TYPE     REASON              OBJECT         MESSAGE\n" +
		"2m          Normal   NotTriggerScaleUp   pod/report-1   pod didn't trigger scale-up: 1 max node group size reached\n"
	pendingReport := "$ kubectl get pods -n prod\nNAME       READY   STATUS    RESTARTS   AGE\nreport-1   0/1     Pending   0          40m\n"
	for _, tc := range []struct {
		name string
		docs []string
		want float64
	}{
		// 0.4, and 0.1 for the autoscaler's word on a pending pod; no nodes seen.
		{"pending, the autoscaler at its maximum", []string{pendingReport, atMax}, 0.5},
		// 0.4, 0.1 for the full node, 0.15 for nodes seen.
		{"eviction on a full node", []string{coreNode(8100), evictedWeb}, 0.65},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := Run(model(t, tc.docs...), analysis.Options{})
			for _, c := range rep.Causes {
				if c.Kind == analysis.CapacityExhaustion {
					if math.Abs(c.Confidence-tc.want) > 1e-9 {
						t.Errorf("confidence %.2f, want %.2f", c.Confidence, tc.want)
					}
					return
				}
			}
			t.Errorf("no capacity cause: %v", rep.Causes)
		})
	}
}
