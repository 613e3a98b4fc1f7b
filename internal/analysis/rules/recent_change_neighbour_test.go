package rules

import (
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/change"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// TestRecentChangeHeavyNeighbour: Prometheus's node selector moved it from its own pool onto
// pool core, and its pod of the new template then ran on the hub's node, where the hub failed
// its liveness probe: the change is the root, leading to shared_prometheus and shared_node_pool
// (Prometheus beside the hub). Not when the Prometheus pod there is of the earlier template,
// when the hub failed before the change, or when the moved workload is light; from two
// snapshots (no ReplicaSet to tell the new pods), a pod made after the change is of it.
func TestRecentChangeHeavyNeighbour(t *testing.T) {
	t1, t2 := time.Date(2023, 2, 1, 10, 0, 0, 0, time.UTC), time.Date(2023, 2, 1, 16, 50, 0, 0, time.UTC)
	const image = "quay.io/prometheus/prometheus:v2.45.0"
	spec := func(pool, memory string) corev1.PodSpec {
		return corev1.PodSpec{NodeSelector: map[string]string{"cloud.google.com/gke-nodepool": pool}, Containers: []corev1.Container{{Name: "prometheus", Image: image,
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(memory)}}}}}
	}
	// A pod of ReplicaSet rs, labelled with its pod-template-hash as the Deployment controller
	// labels it.
	pod := func(app, rs string, at time.Time, image, memory string) *cluster.Object {
		o := appPod(app, rs+"-x7k2p", rs, at, image, "16Gi", running())
		o.Pod.Labels = map[string]string{"pod-template-hash": rs[strings.LastIndex(rs, "-")+1:]}
		o.Pod.Spec.NodeSelector = map[string]string{"cloud.google.com/gke-nodepool": "core"}
		o.Pod.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(memory)}
		return o
	}
	prometheus := func(rs string, at time.Time, memory string) *cluster.Object {
		return pod("prometheus", rs, at, image, memory)
	}
	rollouts := func(memory string) []*cluster.Object {
		return []*cluster.Object{rolloutOf(t, "prometheus-server", 1, t1, spec("monitoring", memory)), rolloutOf(t, "prometheus-server", 2, t2, spec("core", memory))}
	}
	hub := hubPod("hub-1-q8z4d", "hub-1", t1, "jupyterhub/k8s-hub:3.0.0", "1Gi", running())
	core := poolNode("core-1", "core", "4", "16Gi")
	moved := change.Change{Kind: "Deployment", Namespace: "prod", Name: "prometheus-server", Field: "spec.template.spec.nodeSelector", Path: change.Path{Attr: change.NodeSelector, Template: true},
		Before: "cloud.google.com/gke-nodepool=monitoring", After: "cloud.google.com/gke-nodepool=core", Since: t1.Add(time.Hour), Until: t2,
		Source: cluster.Source{File: "deployments.json", Line: 1}}
	for _, tt := range []struct {
		name    string
		objs    []*cluster.Object
		changes []change.Change
		moved   bool     // a recent_change explains the hub's failure
		led     []string // the causes it leads to, of shared_prometheus and shared_node_pool
	}{
		{"moved onto the hub's node", append(rollouts("8Gi"), core, hub, prometheus("prometheus-server-2", t2.Add(time.Minute), "8Gi"),
			unhealthy("hub-1-q8z4d", t2.Add(10*time.Minute))), nil, true, []string{analysis.SharedPrometheus, analysis.SharedNodePool}},
		{"there already, of the earlier template", append(rollouts("8Gi"), core, hub, prometheus("prometheus-server-1", t1, "8Gi"),
			unhealthy("hub-1-q8z4d", t2.Add(10*time.Minute))), nil, false, nil},
		{"the hub failing before the change", append(rollouts("8Gi"), core, hub, prometheus("prometheus-server-2", t2.Add(time.Minute), "8Gi"),
			unhealthy("hub-1-q8z4d", t1.Add(2*time.Hour))), nil, false, nil},
		{"a user pod failing beside it", append(rollouts("8Gi"), core, ownedBy(hubPod("jupyter-ana", "nb-1", t1, "jupyter/scipy-notebook", "1Gi", running()), "nb-1"),
			prometheus("prometheus-server-2", t2.Add(time.Minute), "8Gi"), unhealthy("jupyter-ana", t2.Add(10*time.Minute))), nil, false, nil},
		{"another heavy workload moved beside Prometheus", []*cluster.Object{rolloutOf(t, "etl", 1, t1, spec("monitoring", "8Gi")), rolloutOf(t, "etl", 2, t2, spec("core", "8Gi")),
			core, hub, pod("etl", "etl-2", t2.Add(time.Minute), "example/etl:7", "6Gi"), prometheus("prometheus-server-1", t1, "7Gi"),
			unhealthy("hub-1-q8z4d", t2.Add(10*time.Minute))}, nil, true, []string{analysis.SharedNodePool}},
		{"a light workload moved", []*cluster.Object{rolloutOf(t, "docs", 1, t1, spec("monitoring", "100Mi")), rolloutOf(t, "docs", 2, t2, spec("core", "100Mi")),
			core, hub, pod("docs", "docs-2", t2.Add(time.Minute), "nginx:1.25", "100Mi"), unhealthy("hub-1-q8z4d", t2.Add(10*time.Minute))}, nil, false, nil},
		{"between two snapshots, a pod made since", []*cluster.Object{core, hub, prometheus("prometheus-server-5d9c7b", t2.Add(-time.Hour), "8Gi"),
			unhealthy("hub-1-q8z4d", t2.Add(10*time.Minute))}, []change.Change{moved}, true, []string{analysis.SharedPrometheus, analysis.SharedNodePool}},
		{"between two snapshots, a pod made before", []*cluster.Object{core, hub, prometheus("prometheus-server-5d9c7b", t1, "8Gi"),
			unhealthy("hub-1-q8z4d", t2.Add(10*time.Minute))}, []change.Change{moved}, false, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep := Run(cluster.NewModel(nil, tt.objs), analysis.Options{Changes: tt.changes})
			var found []analysis.Cause
			for _, c := range rep.Causes {
				if c.Kind == analysis.RecentChange {
					found = append(found, c)
				}
			}
			if !tt.moved {
				for _, c := range found {
					t.Errorf("a recent_change where none fits: %s", c.Summary)
				}
				return
			}
			if len(found) != 1 {
				t.Fatalf("%d recent_change causes, want 1; causes %v", len(found), causeKinds(rep))
			}
			x := found[0]
			if got := explained(rep, x); !slices.Equal(got, []string{"liveness_probe_failed prod/hub-1-q8z4d"}) || x.Role != analysis.Root ||
				x.Evidence[0].Field != "spec.template.spec.nodeSelector" {
				t.Errorf("recent_change (%s) explains %q citing %+v; want the root, the hub's failure, the node selector", x.Role, got, x.Evidence[0])
			}
			for _, kind := range []string{analysis.SharedPrometheus, analysis.SharedNodePool} {
				y, ok := causeOf(rep, kind)
				i := slices.IndexFunc(x.Links, func(l analysis.Link) bool { return l.To == y.ID })
				switch {
				case !ok || y.Role != analysis.Contributing:
					t.Errorf("%s: found %v, %s; want it contributing", kind, ok, y.Role)
				case slices.Contains(tt.led, kind) && (i < 0 || !strings.Contains(x.Links[i].Why, "(cloud.google.com/gke-nodepool=core) sent")):
					t.Errorf("%s is not linked from the change: links %+v", kind, x.Links)
				case !slices.Contains(tt.led, kind) && i >= 0:
					t.Errorf("%s is linked from the change, which did not move it: %q", kind, x.Links[i].Why)
				}
			}
			rootsReachAll(t, rep)
		})
	}
}
