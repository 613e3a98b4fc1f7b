package rules

import (
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// autoscalerStatus is `kubectl describe configmap cluster-autoscaler-status` (the text of
// releases before 1.30) with node group pool-b growing from 2 to 6 nodes since 10:00:00, as
// the autoscaler saw it last at probed ("10:09:59").
func autoscalerStatus(status, probed string) string {
	probe := "2025-02-05 " + probed + ".100000000 +0000 UTC m=+86400.100000000"
	return `$ kubectl -n kube-system describe configmap cluster-autoscaler-status
Name:         cluster-autoscaler-status
Namespace:    kube-system
Labels:       <none>
Annotations:  cluster-autoscaler.kubernetes.io/last-updated: 2025-02-05 ` + probed + `.412133541 +0000 UTC

Data
====
status:
----
Cluster-autoscaler status at 2025-02-05 ` + probed + `.412133541 +0000 UTC:
Cluster-wide:
  Health:      Healthy (ready=5 unready=0 (resourceUnready=0) notStarted=0 longNotStarted=0 registered=5 longUnregistered=0)
               LastProbeTime:      ` + probe + `
               LastTransitionTime: 2025-02-01 08:00:00.100000000 +0000 UTC m=+10.100000000
  ScaleUp:     InProgress (ready=5 registered=5)
               LastProbeTime:      ` + probe + `
               LastTransitionTime: 2025-02-05 10:00:00.100000000 +0000 UTC m=+85800.100000000
  ScaleDown:   NoCandidates (candidates=0)
               LastProbeTime:      ` + probe + `
               LastTransitionTime: 2025-02-01 08:00:00.100000000 +0000 UTC m=+10.100000000

NodeGroups:
  Name:        pool-b
  Health:      Healthy (ready=2 unready=0 (resourceUnready=0) notStarted=0 longNotStarted=0 registered=2 longUnregistered=0 cloudProviderTarget=6 (minSize=0, maxSize=10))
               LastProbeTime:      ` + probe + `
               LastTransitionTime: 2025-02-01 08:00:00.100000000 +0000 UTC m=+10.100000000
  ScaleUp:     ` + status + ` (ready=2 cloudProviderTarget=6)
               LastProbeTime:      ` + probe + `
               LastTransitionTime: 2025-02-05 10:00:00.100000000 +0000 UTC m=+85800.100000000
  ScaleDown:   NoCandidates (candidates=0)
               LastProbeTime:      ` + probe + `
               LastTransitionTime: 2025-02-01 08:00:00.100000000 +0000 UTC m=+10.100000000


BinaryData
====

Events:  <none>
`
}

// schedulingEvents is `kubectl get events -n dask` with the given rows ("REASON OBJECT
// MESSAGE"), each of type Warning or Normal as its reason is.
func schedulingEvents(rows ...string) string {
	out := "$ kubectl get events -n dask\nLAST SEEN   TYPE      REASON             OBJECT                            MESSAGE\n"
	for _, r := range rows {
		typ := "Warning"
		if len(r) >= 16 && r[:16] == "TriggeredScaleUp" {
			typ = "Normal "
		}
		out += "3m          " + typ + "   " + r + "\n"
	}
	return out
}

const triggered = "TriggeredScaleUp   pod/dask-worker-7f9x2             pod triggered scale-up: [{https://www.googleapis.com/compute/v1/projects/acme/zones/us-central1-b/instanceGroups/gke-acme-dask-pool-grp 3->40 (max: 100)}]"

// TestScaleUpNotReadyRule pins notArrivedAfter (10 minutes: a scale-up still short of its
// nodes after that long did not deliver them), and the other ways scale_up_not_ready is
// shown: the autoscaler backing off or failing to grow a group, and pods kept off nodes by
// their not-ready taints while nodes were added; never without a scale-up.
func TestScaleUpNotReadyRule(t *testing.T) {
	scaleUp := []string{"scale_up"}
	arrived := func(after string) causeWant {
		return causeWant{role: analysis.Root, confidence: 0.7, explains: scaleUp,
			components: []string{"Autoscaler:cluster-autoscaler"},
			summary:    []string{"the nodes the scale-up (S1) asked for did not arrive: after " + after + " only 2 of 6 nodes of group pool-b were ready"},
			evidence:   []string{"ScaleUp: InProgress (ready=2 cloudProviderTarget=6) since 2025-02-05T10:00:00Z"},
			missing:    []string{"the cloud provider's side"}}
	}
	tainted := "FailedScheduling   pod/dask-worker-7f9x2             0/40 nodes are available: 3 node(s) didn't match Pod's node affinity/selector, 37 node(s) had untolerated taint {node.kubernetes.io/not-ready: }. preemption: 0/40 nodes are available: 40 Preemption is not helpful for scheduling."
	tests := []causeCase{
		{name: "waited 9m59s", docs: []string{autoscalerStatus("InProgress", "10:09:59")}, symptoms: scaleUp, kinds: []string{}},
		{name: "waited 10m", docs: []string{autoscalerStatus("InProgress", "10:10:00")}, symptoms: scaleUp,
			kinds: []string{analysis.ScaleUpNotReady}, want: arrived("10 min")},
		{name: "waited 10m1s", docs: []string{autoscalerStatus("InProgress", "10:10:01")}, symptoms: scaleUp,
			kinds: []string{analysis.ScaleUpNotReady}, want: arrived("10 min")},
		{name: "backed off after 2 minutes", docs: []string{autoscalerStatus("Backoff", "10:02:00")}, symptoms: scaleUp,
			kinds: []string{analysis.ScaleUpNotReady}, want: causeWant{role: analysis.Root, confidence: 0.7, explains: scaleUp,
				summary: []string{"the autoscaler backed off growing group pool-b (Backoff) with 2 of 6 nodes ready"},
				missing: []string{"the cloud provider's side"}}},
		{name: "the cloud refused the scale-up", docs: []string{"LAST SEEN   TYPE      REASON          OBJECT                                MESSAGE\n" +
			"2m          Warning   ScaleUpFailed   configmap/cluster-autoscaler-status   Failed adding 4 nodes to group https://www.googleapis.com/compute/v1/projects/acme/zones/us-central1-b/instanceGroups/gke-acme-dask-pool-grp due to OutOfResource.QUOTA_EXCEEDED; source errors: Quota 'CPUS' exceeded.  Limit: 96.0 in region us-central1.\n"},
			symptoms: scaleUp, kinds: []string{analysis.ScaleUpNotReady}, want: causeWant{role: analysis.Root, confidence: 0.7, explains: scaleUp,
				summary: []string{"the nodes the scale-up (S1) asked for did not arrive"}, evidence: []string{"QUOTA_EXCEEDED"},
				missing: []string{"the cloud provider's side"}}},
		{name: "pods kept off new nodes by their not-ready taint", docs: []string{schedulingEvents(triggered, tainted)},
			symptoms: []string{"pod_pending dask/dask-worker-7f9x2", "scale_up"}, kinds: []string{analysis.ScaleUpNotReady},
			want: causeWant{role: analysis.Contributing, confidence: 0.8, explains: []string{"pod_pending dask/dask-worker-7f9x2"},
				summary: []string{"up to 37 nodes still carried not-ready taints while pods waited for them during the scale-up"}}},
		{name: "pods waiting for a scale-up whose nodes did not arrive", docs: []string{schedulingEvents(tainted), autoscalerStatus("InProgress", "10:12:00")},
			symptoms: []string{"pod_pending dask/dask-worker-7f9x2", "scale_up"}, kinds: []string{analysis.ScaleUpNotReady},
			want: causeWant{role: analysis.Root, confidence: 0.8, explains: []string{"pod_pending dask/dask-worker-7f9x2", "scale_up"},
				summary: []string{"up to 37 nodes still carried not-ready taints", "after 12 min only 2 of 6 nodes of group pool-b were ready"},
				missing: []string{"the cloud provider's side"}}},
		{name: "a not-ready taint without a scale-up", docs: []string{schedulingEvents(tainted)},
			symptoms: []string{"pod_pending dask/dask-worker-7f9x2"}, kinds: []string{}},
	}
	runCauseCases(t, analysis.ScaleUpNotReady, tests)
}
