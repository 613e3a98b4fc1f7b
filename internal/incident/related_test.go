package incident

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRelated(t *testing.T) {
	il0070 := Signature{Symptoms: []string{"pod_evicted", "pod_pending"}, RootCause: "capacity_exhaustion",
		Causes:     []string{"capacity_exhaustion", "shared_node_pool", "shared_prometheus"},
		Components: []Component{{"NodePool", "core"}, {"Prometheus", "support-prometheus-server"}}}
	target := Candidate{ID: "IL-0070", Cluster: "leap", Signature: il0070}
	candidates := []Candidate{
		{ID: "IL-0070", Title: "itself", Signature: il0070},
		{ID: "A", Title: "pool and Prometheus", Signature: Signature{Symptoms: []string{"pod_evicted"}, RootCause: "capacity_exhaustion",
			Causes: []string{"capacity_exhaustion", "shared_prometheus"}, Components: []Component{{"NodePool", "core-pool"}, {"Prometheus", "p"}}}},
		{ID: "B", Title: "user pool", Signature: Signature{Symptoms: []string{"pod_pending"}, RootCause: "capacity_exhaustion",
			Causes: []string{"capacity_exhaustion"}, Components: []Component{{"NodePool", "user"}}}},
		{ID: "C", Title: "Prometheus, other cause", Signature: Signature{RootCause: "memory_limit_too_low",
			Causes: []string{"memory_limit_too_low"}, Components: []Component{{"Prometheus", "prom"}}}},
		{ID: "D", Title: "nothing shared", Signature: Signature{RootCause: "image_unavailable", Components: []Component{{"DNS", "coredns"}}}},
		{ID: "E", Title: "a pool of no role, another cluster", Cluster: "other", Signature: Signature{RootCause: "preemption",
			Components: []Component{{"NodePool", "pool-1"}}}},
		{ID: "F", Title: "the same pool of the same cluster", Cluster: "leap", Signature: Signature{RootCause: "preemption",
			Components: []Component{{"NodePool", "core"}}}},
	}
	got := Related(target, candidates)
	var reasons []string
	for _, r := range got {
		reasons = append(reasons, r.ID+": "+r.Reason())
	}
	want := []string{
		"A: same root cause · shared Node pool (same role: core), Prometheus",
		"B: same root cause",
		"C: shared Prometheus", // ties with F (components 0.50), by id
		"F: shared Node pool (same pool core of cluster leap)",
	}
	if diff := cmp.Diff(want, reasons); diff != "" {
		t.Errorf("related (-want +got):\n%s", diff)
	}
	for _, r := range got {
		if math.Abs(r.Score-r.Parts.Score()) > 1e-12 || r.Why == "" {
			t.Errorf("%s: score %v is not its parts %+v (%s)", r.ID, r.Score, r.Parts, r.Why)
		}
	}
	// A: causes 2/3, symptoms 1/2, components {NodePool:core, Prometheus} both: 1.
	a := got[0].Parts
	if diff := cmp.Diff(ScoreParts{Base: 1, Weight: 1, Causes: 2.0 / 3, Symptoms: 0.5, Components: 1}, a); diff != "" {
		t.Errorf("A's parts (-want +got):\n%s", diff)
	}
	if got[0].Why != "score 1.72 = 1 (same root cause) + (causes 0.67 + symptoms 0.50 + components 1.00) / 3" {
		t.Errorf("A's why = %q", got[0].Why)
	}
	if f := got[3]; f.Parts.Base != 0 || f.Parts.Weight != 0.5 || len(f.Pools) != 1 || f.Pools[0].How != SamePool {
		t.Errorf("F = %+v", f)
	}
}

// TestRelatedSameRootNeverMissing: whatever else it shares (nothing at all, or a pool that is
// not the same), an incident with the same root cause kind is related, ahead of every incident
// that only shares a component.
func TestRelatedSameRootNeverMissing(t *testing.T) {
	target := Candidate{ID: "T", Signature: Signature{RootCause: "capacity_exhaustion", Causes: []string{"capacity_exhaustion"},
		Symptoms: []string{"pod_pending"}, Components: []Component{{"NodePool", "user-nodes"}, {"Hub", "hub"}}}}
	cands := []Candidate{
		{ID: "bare", Signature: Signature{RootCause: "capacity_exhaustion"}},
		{ID: "other-pool", Signature: Signature{RootCause: "capacity_exhaustion", Components: []Component{{"NodePool", "core"}}}},
		{ID: "close", Signature: Signature{RootCause: "preemption", Causes: []string{"preemption"}, Symptoms: []string{"pod_pending"},
			Components: []Component{{"NodePool", "users"}, {"Hub", "hub"}}}},
	}
	var ids []string
	for _, r := range Related(target, cands) {
		ids = append(ids, r.ID+" "+r.Relation)
	}
	want := []string{"bare same root cause", "other-pool same root cause", "close shared component"}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestPoolRole(t *testing.T) {
	for name, want := range map[string]string{
		"core": RoleCore, "core-pool": RoleCore, "system-nodes": RoleCore, "user-nodes": RoleUser, "user-nodegroup": RoleUser,
		"notebook-pool-2": RoleUser, "dask-workers": RoleWorker, "worker-nodes": RoleWorker, "gpu-workers": RoleGPU,
		"default-pool": "", "gke-prod": "", "ssd-pool-32": "", "nodes": "", "hm-us-west2": "", "coreos": "", "superuser": "",
	} {
		if got := PoolRole(name); got != want {
			t.Errorf("PoolRole(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestComponentKeys(t *testing.T) {
	cs := []Component{{"NodePool", "core-pool"}, {"NodePool", "core"}, {"NodePool", "default-pool"}, {"Prometheus", "p"}, {"Hub", "hub"}}
	if diff := cmp.Diff([]string{"Hub", "NodePool:core", "Prometheus"}, ComponentKeys(cs, "")); diff != "" {
		t.Errorf("no cluster (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Hub", "NodePool:core", "NodePool@leap/default-pool", "Prometheus"}, ComponentKeys(cs, "leap")); diff != "" {
		t.Errorf("cluster leap (-want +got):\n%s", diff)
	}
}

func TestWorkloadNames(t *testing.T) {
	got := WorkloadNames([]Component{{"Hub", "hub-7d9f8b6c4-x2k9p"}, {"Hub", "hub"}, {"Prometheus", "prometheus-server-0"},
		{"DNS", "coredns-5644d7b6d9-zq7sm"}, {"NodePool", "ssd-pool-32"}, {"Database", "jupyterhub-db"}})
	want := []Component{{"Hub", "hub"}, {"Prometheus", "prometheus-server"}, {"DNS", "coredns"}, {"NodePool", "ssd-pool-32"}, {"Database", "jupyterhub-db"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	sig := Signature{Components: []Component{{"Proxy", "proxy-6c8d9b7f5d-4mzxq"}}}
	if err := sig.Check(nil, nil); err != nil || sig.Components[0].Name != "proxy" {
		t.Errorf("a person's signature names the pod's workload: %+v, %v", sig.Components, err)
	}
}
