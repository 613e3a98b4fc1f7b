package text

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestContainersRegrouped: a describe whose container fields stand at the depth of the
// container's name (tabs collapsed, leading spaces stripped) is read as if nested: the
// fields are the container's, the quantities under Limits are its limits.
func TestContainersRegrouped(t *testing.T) {
	t.Parallel()
	for name, paste := range map[string]string{
		"nested": "Name:       leak-1\nNamespace:  default\nContainers:\n  leak:\n    Image:  x\n    Limits:\n      memory:  50Mi\n    Restart Count:  5\n",
		"tabs":   "Name:\t\tleak-1\nNamespace:\tdefault\nContainers:\n\tleak:\n\tImage:\tx\n\tLimits:\n\tmemory:\t\t50Mi\n\tRestart Count:\t5\n",
		"flat":   "Name:       leak-1\nNamespace:  default\nContainers:\nleak:\nImage:  x\nLimits:\nmemory:  50Mi\nRestart Count:  5\n",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			objs, _ := parseAll(t, "p.txt", []byte(paste))
			for _, o := range objs {
				if o.Pod == nil {
					continue
				}
				cs := o.Pod.Spec.Containers
				if len(cs) != 1 || cs[0].Name != "leak" {
					t.Fatalf("containers = %+v, want one named leak", cs)
				}
				if got := cs[0].Resources.Limits.Memory().String(); got != "50Mi" {
					t.Errorf("memory limit = %s, want 50Mi", got)
				}
				if st := o.Pod.Status.ContainerStatuses; len(st) != 1 || st[0].RestartCount != 5 {
					t.Errorf("statuses = %+v, want one with 5 restarts", st)
				}
				return
			}
			t.Fatal("no pod read")
		})
	}
}

// TestScheduledPod: an events section pasted alone is about the pod its Scheduled row names,
// with the namespace since 1.10 ("Successfully assigned prod/web-1 to n-1") or without it
// before ("Successfully assigned web-1 to n-1", the scheduler's "%v to %v" of pod name and node).
func TestScheduledPod(t *testing.T) {
	t.Parallel()
	for msg, want := range map[string]string{
		"Successfully assigned prod/web-1 to n-1": "prod/web-1",
		"Successfully assigned web-1 to n-1":      "/web-1",
		"Started container web":                   "/",
	} {
		ref := scheduledPod(corev1.ObjectReference{}, []describedRow{{r: eventRow{reason: "Scheduled", message: msg}}})
		if got := ref.Namespace + "/" + ref.Name; got != want {
			t.Errorf("%q: pod %s, want %s", msg, got, want)
		}
	}
}
