package analysis

import (
	"slices"
	"testing"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// TestClaimedSymptoms: a sentence that reports what happened names the symptom kinds it
// reports; one that says what may happen, or how things work, reports none.
func TestClaimedSymptoms(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"Pods, including KIAM, started crashlooping and became pending.", []string{PodPending, CrashLoopBackOff}},
		{"The hub was OOMKilled twice during the day.", []string{OOMKilled}},
		{"Two nodes went NotReady and their pods were evicted.", []string{PodEvicted, NodeNotReady}},
		{"Liveness probes kept failing on the proxy.", []string{LivenessProbeFailed}},
		{"The autoscaler added 40 nodes in ten minutes.", []string{ScaleUp}},
		{"Pods will be evicted if the node runs out of memory.", nil},
		{"To avoid evictions, set memory requests.", nil},
		{"We upgraded the cluster on Tuesday.", nil},
		{"But the taint is not added to the node, so pods on that node are not evicted.", nil},
		{"The hub never restarted and wasn't OOMKilled.", nil},
		{"The pods could not be scheduled and two nodes went not ready.", []string{PodPending, NodeNotReady}},
		{"We couldn't pull the image from the mirror.", []string{ImagePullFailed}},
		{"The fragments are saved as 33-mybinder-proxy-crashloop-oomkilling-events.txt.", nil},
	} {
		got := claimedSymptoms(cluster.Claim{Text: tc.text})
		slices.Sort(got)
		want := slices.Clone(tc.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%q: %q, want %q", tc.text, got, want)
		}
	}
}
