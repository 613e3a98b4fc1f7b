package rules

import (
	"fmt"
	"slices"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// TestStuckUntilItStarted: a pod whose mount failed until its Secret was made, and whose
// container the kubelet then started, got past it: it is not a pod stuck creating. A start
// before the failures were last seen (a sandbox made again later) does not clear them.
func TestStuckUntilItStarted(t *testing.T) {
	t.Parallel()
	events := func(started string) string {
		return fmt.Sprintf(`{"kind":"EventList","apiVersion":"v1","items":[
{"kind":"Event","apiVersion":"v1","metadata":{"name":"web-1.a","namespace":"prod","uid":"e-1"},
 "involvedObject":{"kind":"Pod","namespace":"prod","name":"web-1","apiVersion":"v1"},
 "reason":"FailedMount","message":"MountVolume.SetUp failed for volume \"cert\" : secret \"webhook-server-cert\" not found",
 "source":{"component":"kubelet","host":"node-1"},"firstTimestamp":"2024-03-04T10:00:00Z","lastTimestamp":"2024-03-04T10:02:00Z","count":3,"type":"Warning"},
{"kind":"Event","apiVersion":"v1","metadata":{"name":"web-1.b","namespace":"prod","uid":"e-2"},
 "involvedObject":{"kind":"Pod","namespace":"prod","name":"web-1","apiVersion":"v1","fieldPath":"spec.containers{web}"},
 "reason":"Started","message":"Started container web",
 "source":{"component":"kubelet","host":"node-1"},"firstTimestamp":%[1]q,"lastTimestamp":%[1]q,"count":1,"type":"Normal"}]}`, started)
	}
	for _, c := range []struct {
		name, started string
		stuck         bool
	}{
		{"started after the last failure", "2024-03-04T10:02:05Z", false},
		{"started before the failures", "2024-03-04T09:59:00Z", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rep := Run(model(t, events(c.started)), analysis.Options{})
			got := slices.ContainsFunc(rep.Symptoms, func(s analysis.Symptom) bool { return s.Kind == analysis.PodStuckCreating })
			if got != c.stuck {
				t.Errorf("pod_stuck_creating %v, want %v: %q", got, c.stuck, kinds(rep.Symptoms))
			}
		})
	}
}
