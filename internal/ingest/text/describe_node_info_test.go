package text

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// TestDescribedNodeKeepsItsSystemInfo: a pasted `kubectl describe node` keeps the versions of
// its System Info, the evidence that tells a kernel or a runtime upgrade, and its allocatable.
func TestDescribedNodeKeepsItsSystemInfo(t *testing.T) {
	paste := `Name:               core-1
Roles:              worker
Labels:             kubernetes.io/hostname=core-1
CreationTimestamp:  Mon, 01 Jan 2024 10:00:00 +0000
Unschedulable:      false
Allocatable:
  cpu:                3920m
  memory:             13207044Ki
  pods:               110
System Info:
  Kernel Version:             5.15.0-1049-gke
  OS Image:                   Container-Optimized OS from Google
  Operating System:           linux
  Architecture:               amd64
  Container Runtime Version:  containerd://1.7.10
  Kubelet Version:            v1.28.3-gke.1286000
  Kube-Proxy Version:         v1.28.3-gke.1286000
`
	var nd *corev1.Node
	_, err := Parse(context.Background(), "node.txt", strings.NewReader(paste), time.Date(2024, 1, 4, 18, 0, 0, 0, time.UTC), func(o *cluster.Object) error {
		if n, ok := o.Typed().(*corev1.Node); ok {
			nd = n
		}
		return nil
	})
	if err != nil || nd == nil {
		t.Fatalf("no node read (err %v)", err)
	}
	ni := nd.Status.NodeInfo
	got := []string{ni.KernelVersion, ni.OSImage, ni.OperatingSystem, ni.Architecture, ni.ContainerRuntimeVersion, ni.KubeletVersion}
	want := []string{"5.15.0-1049-gke", "Container-Optimized OS from Google", "linux", "amd64", "containerd://1.7.10", "v1.28.3-gke.1286000"}
	if !slices.Equal(got, want) {
		t.Errorf("system info %q, want %q", got, want)
	}
	if m := nd.Status.Allocatable.Memory(); m.String() != "13207044Ki" {
		t.Errorf("allocatable memory %s, want 13207044Ki", m.String())
	}
}
