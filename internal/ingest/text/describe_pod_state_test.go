package text

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// TestDescribedContainerKeepsHowItDied: from a pasted `kubectl describe pod`, a container's
// last termination keeps its reason, exit code and the signal that killed it, and its ports
// are all read; a stray "key: value" line in the Containers section is not a container.
func TestDescribedContainerKeepsHowItDied(t *testing.T) {
	paste := `Name:             dns-0
Namespace:        kube-system
Node:             node-b/10.1.0.7
Status:           Running
Containers:
  Note: copied from the console
  dns:
    Image:          example/dns:1.2
    Ports:          53/UDP, 53/TCP, 9153/TCP
    State:          Running
      Started:      Thu, 04 Jan 2024 17:52:00 +0000
    Last State:     Terminated
      Reason:       Error
      Exit Code:    143
      Signal:       15
      Started:      Thu, 04 Jan 2024 17:50:00 +0000
      Finished:     Thu, 04 Jan 2024 17:51:00 +0000
    Ready:          True
    Restart Count:  1
`
	// The pod as the store keeps it (Object.JSON): all the paste said, its ports too.
	var pod *corev1.Pod
	_, err := Parse(context.Background(), "describe.txt", strings.NewReader(paste), time.Date(2024, 1, 4, 18, 0, 0, 0, time.UTC), func(o *cluster.Object) error {
		if o.Pod != nil {
			raw, err := o.JSON()
			if err != nil {
				return err
			}
			pod = new(corev1.Pod)
			return json.Unmarshal(raw, pod)
		}
		return nil
	})
	if err != nil || pod == nil {
		t.Fatalf("no pod read (err %v)", err)
	}
	if len(pod.Spec.Containers) != 1 || pod.Spec.Containers[0].Name != "dns" {
		t.Fatalf("containers %+v, want dns only", pod.Spec.Containers)
	}
	if got := pod.Spec.Containers[0].Ports; len(got) != 3 || got[0].ContainerPort != 53 || got[0].Protocol != corev1.ProtocolUDP || got[2].ContainerPort != 9153 {
		t.Errorf("ports %+v, want 53/UDP, 53/TCP, 9153/TCP", got)
	}
	if len(pod.Status.ContainerStatuses) != 1 {
		t.Fatalf("statuses %+v, want one", pod.Status.ContainerStatuses)
	}
	last := pod.Status.ContainerStatuses[0].LastTerminationState.Terminated
	if last == nil || last.Reason != "Error" || last.ExitCode != 143 || last.Signal != 15 {
		t.Errorf("last termination %+v, want Error, exit code 143, signal 15", last)
	}
}
