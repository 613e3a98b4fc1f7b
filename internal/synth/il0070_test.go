package synth

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

var updateIL0070 = flag.Bool("update-il0070", false, "rewrite the IL-0070 fixtures in internal/analysis/testdata/il0070")

// il70Dir is where the fixtures of a variant are committed.
func il70Dir(variant string) string {
	return filepath.Join("..", "analysis", "testdata", "il0070", variant)
}

func il70Objects(t *testing.T, variant string) ([]corev1.Node, []corev1.Pod, []corev1.Event) {
	t.Helper()
	nodes, pods, events, err := IL0070(variant)
	if err != nil {
		t.Fatalf("IL0070(%q): %v", variant, err)
	}
	return nodes, pods, events
}

// TestIL0070Fixtures checks that the committed fixtures are what WriteIL0070 writes now;
// -update-il0070 rewrites them.
func TestIL0070Fixtures(t *testing.T) {
	for _, variant := range []string{IL0070Evicted, IL0070Liveness} {
		t.Run(variant, func(t *testing.T) {
			if *updateIL0070 {
				if err := os.MkdirAll(il70Dir(variant), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := WriteIL0070(il70Dir(variant), variant); err != nil {
					t.Fatal(err)
				}
			}
			tmp := t.TempDir()
			if err := WriteIL0070(tmp, variant); err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"nodes.json", "pods.json", "events.json"} {
				want, err := os.ReadFile(filepath.Join(tmp, name))
				if err != nil {
					t.Fatal(err)
				}
				got, err := os.ReadFile(filepath.Join(il70Dir(variant), name))
				if err != nil {
					t.Fatalf("%v (run go test ./internal/synth -run IL0070 -update-il0070)", err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s/%s is stale (run go test ./internal/synth -run IL0070 -update-il0070):\n%s", variant, name,
						cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n")))
				}
			}
		})
	}
}

// TestIL0070Decode checks that the files decode into the k8s list types, give back the
// objects IL0070 returns, and are laid out like kubectl's.
func TestIL0070Decode(t *testing.T) {
	for _, variant := range []string{IL0070Evicted, IL0070Liveness} {
		nodes, pods, events := il70Objects(t, variant)
		dir := t.TempDir()
		if err := WriteIL0070(dir, variant); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			file string
			list any
			kind string
			want any
		}{
			{"nodes.json", &corev1.NodeList{}, "Node", nodes},
			{"pods.json", &corev1.PodList{}, "Pod", pods},
			{"events.json", &corev1.EventList{}, "Event", events},
		} {
			t.Run(variant+"/"+tc.file, func(t *testing.T) {
				doc, err := os.ReadFile(filepath.Join(dir, tc.file))
				if err != nil {
					t.Fatal(err)
				}
				var head struct {
					APIVersion, Kind string
					Metadata         map[string]string
					Items            []struct{ APIVersion, Kind string }
				}
				if err := json.Unmarshal(doc, &head); err != nil {
					t.Fatal(err)
				}
				if head.APIVersion != "v1" || head.Kind != "List" || head.Metadata["resourceVersion"] != "" || len(head.Metadata) != 1 {
					t.Errorf("list header: %+v %+v", head.APIVersion, head.Kind)
				}
				for i, it := range head.Items {
					if it.APIVersion != "v1" || it.Kind != tc.kind {
						t.Fatalf("item %d: apiVersion %q kind %q", i, it.APIVersion, it.Kind)
					}
				}
				if err := json.Unmarshal(doc, tc.list); err != nil {
					t.Fatal(err)
				}
				var got any
				switch l := tc.list.(type) {
				case *corev1.NodeList:
					got = l.Items
				case *corev1.PodList:
					got = l.Items
				case *corev1.EventList:
					got = l.Items
				}
				if d := cmp.Diff(tc.want, got); d != "" {
					t.Errorf("decoded items differ (-IL0070 +decoded):\n%s", d)
				}
				var compact, indented bytes.Buffer
				if err := json.Compact(&compact, doc); err != nil {
					t.Fatal(err)
				}
				if err := json.Indent(&indented, compact.Bytes(), "", "    "); err != nil {
					t.Fatal(err)
				}
				if indented.WriteByte('\n'); !bytes.Equal(indented.Bytes(), doc) {
					t.Error("not indented with 4 spaces like kubectl")
				}
			})
		}
	}
}

func TestIL0070Counts(t *testing.T) {
	burstFrom, burstTo := time.Date(2023, 2, 1, 17, 1, 0, 0, time.UTC), time.Date(2023, 2, 1, 17, 2, 0, 0, time.UTC)
	for _, tc := range []struct {
		variant             string
		pods, events        int
		burst, notReady     int
		noRoute, pending    int
		memPressure, failed int
	}{
		{IL0070Evicted, 306, 53, 102, 96, 6, 89, 1, 1},
		{IL0070Liveness, 305, 48, 102, 96, 6, 89, 0, 0},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			nodes, pods, events := il70Objects(t, tc.variant)
			var burst, notReady, noRoute, memPressure, pending, failed, pools = 0, 0, 0, 0, 0, 0, map[string]int{}
			for _, n := range nodes {
				pools[n.Labels["cloud.google.com/gke-nodepool"]]++
				if c := n.CreationTimestamp.Time; !c.Before(burstFrom) && c.Before(burstTo) {
					burst++
				}
				for _, c := range n.Status.Conditions {
					switch {
					case c.Type == corev1.NodeReady && c.Status == corev1.ConditionFalse && c.Reason == "KubeletNotReady":
						notReady++
					case c.Type == corev1.NodeNetworkUnavailable && c.Status == corev1.ConditionTrue:
						noRoute++
					case c.Type == corev1.NodeMemoryPressure && c.Status == corev1.ConditionTrue:
						memPressure++
					}
				}
			}
			for _, p := range pods {
				switch p.Status.Phase {
				case corev1.PodPending:
					pending++
					if c := p.Status.Conditions[0]; c.Reason != corev1.PodReasonUnschedulable || c.Message != IL0070FailedScheduling {
						t.Errorf("pending pod %s: %s %q", p.Name, c.Reason, c.Message)
					}
				case corev1.PodFailed:
					failed++
				}
			}
			got := map[string]int{"nodes": len(nodes), "pods": len(pods), "events": len(events), "burst": burst, "not ready": notReady,
				"no route": noRoute, "pending": pending, "memory pressure": memPressure, "failed": failed,
				"core": pools["core-pool"], "user": pools["user-pool"], "dask": pools["dask-pool"]}
			want := map[string]int{"nodes": 126, "pods": tc.pods, "events": tc.events, "burst": tc.burst, "not ready": tc.notReady,
				"no route": tc.noRoute, "pending": tc.pending, "memory pressure": tc.memPressure, "failed": tc.failed,
				"core": 4, "user": 9, "dask": 113}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("counts (-want +got):\n%s", d)
			}
			verbatim, repeated := 0, 0
			for _, e := range events {
				if e.Reason != "FailedScheduling" || !strings.HasPrefix(e.Message, "0/126 ") {
					continue
				}
				if e.Message != IL0070FailedScheduling || e.Source.Component != "default-scheduler" || e.ReportingController != "default-scheduler" {
					t.Errorf("event %s: %s %q", e.Name, e.Source.Component, e.Message)
				}
				verbatim++
				if e.Series != nil && e.Series.Count > 1 {
					repeated++
				}
			}
			if verbatim == 0 || repeated == 0 {
				t.Errorf("%d FailedScheduling events with the incident's message, %d repeated", verbatim, repeated)
			}
		})
	}
}

// il70Percent sums a resource of the containers of all pods bound to node, the evicted hub
// included, as a percentage of the node's allocatable.
func il70Percent(pods []corev1.Pod, node corev1.Node, name corev1.ResourceName, limits bool) float64 {
	var sum resource.Quantity
	for _, p := range pods {
		if p.Spec.NodeName != node.Name {
			continue
		}
		for _, c := range p.Spec.Containers {
			list := c.Resources.Requests
			if limits {
				list = c.Resources.Limits
			}
			if q, ok := list[name]; ok {
				sum.Add(q)
			}
		}
	}
	alloc := node.Status.Allocatable[name]
	return float64(sum.MilliValue()) / float64(alloc.MilliValue()) * 100
}

func TestIL0070HubNode(t *testing.T) {
	for _, variant := range []string{IL0070Evicted, IL0070Liveness} {
		t.Run(variant, func(t *testing.T) {
			nodes, pods, _ := il70Objects(t, variant)
			var hub *corev1.Pod
			for k, p := range pods {
				if p.Namespace == "prod" && p.Labels["component"] == "hub" && p.Spec.Containers[0].LivenessProbe.FailureThreshold == 30 {
					if hub == nil || p.CreationTimestamp.Before(&hub.CreationTimestamp) {
						hub = &pods[k]
					}
				}
			}
			if hub == nil || hub.Status.PodIP != il70Hub {
				t.Fatalf("no hub pod at %s: %v", il70Hub, hub)
			}
			var node corev1.Node
			for _, n := range nodes {
				if n.Name == hub.Spec.NodeName {
					node = n
				}
			}
			prometheus := false
			for _, p := range pods {
				prometheus = prometheus || (p.Spec.NodeName == node.Name && p.Labels["app"] == "prometheus" && p.Labels["component"] == "server")
			}
			if !prometheus || node.Labels["cloud.google.com/gke-nodepool"] != "core-pool" {
				t.Errorf("hub's node %s: prometheus %v, pool %s", node.Name, prometheus, node.Labels["cloud.google.com/gke-nodepool"])
			}
			for _, tc := range []struct {
				what      string
				res       corev1.ResourceName
				limits    bool
				want, tol float64
			}{
				{"cpu requests", corev1.ResourceCPU, false, 88, 1},
				{"memory requests", corev1.ResourceMemory, false, 93, 1},
				{"memory limits", corev1.ResourceMemory, true, 124, 2},
			} {
				got := il70Percent(pods, node, tc.res, tc.limits)
				t.Logf("%s: %.2f%%", tc.what, got)
				if got < tc.want-tc.tol || got > tc.want+tc.tol {
					t.Errorf("%s of %s: %.2f%%, want %g%%±%g", tc.what, node.Name, got, tc.want, tc.tol)
				}
			}
		})
	}
}

// TestIL0070Variants checks what tells the two readings apart.
func TestIL0070Variants(t *testing.T) {
	for _, tc := range []struct {
		variant string
		want    []string
	}{
		{IL0070Evicted, []string{"hub Failed Evicted", "DisruptionTarget TerminationByKubelet", "hub Running restarts 0",
			"NodeHasInsufficientMemory", "EvictionThresholdMet Attempting to reclaim memory", "Evicted event hub/1043212Ki/memory"}},
		{IL0070Liveness, []string{"hub Running restarts 1", "last terminated Error 137 at 17:06:20", "Unhealthy x30 17:01:20-17:06:10", "Killing Container hub failed liveness probe, will be restarted"}},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			_, pods, events := il70Objects(t, tc.variant)
			var got []string
			for _, p := range pods {
				if p.Namespace != "prod" || p.Labels["component"] != "hub" {
					continue
				}
				cs := p.Status.ContainerStatuses[0]
				switch p.Status.Phase {
				case corev1.PodFailed:
					got = append(got, "hub Failed "+p.Status.Reason)
					for _, c := range p.Status.Conditions {
						if c.Type == corev1.DisruptionTarget {
							got = append(got, "DisruptionTarget "+c.Reason)
						}
					}
				case corev1.PodRunning:
					got = append(got, fmt.Sprint("hub Running restarts ", cs.RestartCount))
					if last := cs.LastTerminationState.Terminated; last != nil {
						got = append(got, fmt.Sprintf("last terminated %s %d at %s", last.Reason, last.ExitCode, last.FinishedAt.UTC().Format(time.TimeOnly)))
					}
				}
			}
			for _, e := range events {
				switch e.Reason {
				case "Evicted":
					a := e.Annotations
					got = append(got, "Evicted event "+a["offending_containers"]+"/"+a["offending_containers_usage"]+"/"+a["starved_resource"])
				case "EvictionThresholdMet", "Killing":
					if e.Message != "Stopping container hub" {
						got = append(got, e.Reason+" "+e.Message)
					}
				case "NodeHasInsufficientMemory":
					got = append(got, e.Reason)
				case "Unhealthy":
					got = append(got, fmt.Sprintf("Unhealthy x%d %s-%s", e.Count, e.FirstTimestamp.UTC().Format(time.TimeOnly), e.LastTimestamp.UTC().Format(time.TimeOnly)))
				}
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
	if _, _, _, err := IL0070("oom"); err == nil {
		t.Error("IL0070(\"oom\"): no error")
	}
}

// TestIL0070References checks that names, UIDs and addresses are unique, and that pods and
// events refer to objects of the snapshot.
func TestIL0070References(t *testing.T) {
	for _, variant := range []string{IL0070Evicted, IL0070Liveness} {
		t.Run(variant, func(t *testing.T) {
			nodes, pods, events := il70Objects(t, variant)
			seen := map[string]string{}
			unique := func(what, key, by string) {
				if other, dup := seen[what+" "+key]; dup {
					t.Errorf("%s %s of %s and %s", what, key, other, by)
				}
				seen[what+" "+key] = by
			}
			for _, n := range nodes {
				unique("node", n.Name, n.Name)
				unique("uid", string(n.UID), n.Name)
			}
			for _, p := range pods {
				key := p.Namespace + "/" + p.Name
				unique("pod", key, key)
				unique("uid", string(p.UID), key)
				if p.Spec.NodeName != "" && seen["node "+p.Spec.NodeName] == "" {
					t.Errorf("pod %s on unknown node %s", key, p.Spec.NodeName)
				}
				if !p.Spec.HostNetwork && p.Status.PodIP != "" && p.Status.Phase == corev1.PodRunning {
					unique("address", p.Status.PodIP, key)
				}
			}
			for _, e := range events {
				unique("event", e.Namespace+"/"+e.Name, e.Name)
				unique("uid", string(e.UID), e.Name)
				ref := e.InvolvedObject
				switch {
				case ref.Kind == "Pod" && seen["uid "+string(ref.UID)] != ref.Namespace+"/"+ref.Name:
					t.Errorf("event %s is about unknown pod %s/%s %s", e.Name, ref.Namespace, ref.Name, ref.UID)
				case ref.Kind == "Node" && seen["node "+ref.Name] == "":
					t.Errorf("event %s is about unknown node %s", e.Name, ref.Name)
				}
			}
		})
	}
}
