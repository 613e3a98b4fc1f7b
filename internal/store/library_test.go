package store_test

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
	"github.com/rootline-dev/rootline/internal/synth"
)

// TestSignatureBits pins the bit of each kind: stored bit sets depend on them, so a kind may
// only be added at the end. Every kind of the vocabulary has its own bit.
func TestSignatureBits(t *testing.T) {
	t.Parallel()
	symptoms, causes, components := store.SignatureBits()
	for _, c := range []struct {
		name  string
		bits  map[string]uint
		kinds []string
	}{
		// The layout stored rows depend on, written out: a kind added anywhere but at the end of
		// its list in internal/kinds moves the bits of those after it, and fails here.
		{"symptom", symptoms, []string{"pod_evicted", "pod_pending", "oom_killed", "liveness_probe_failed", "readiness_probe_failed",
			"crash_loop_backoff", "container_restarted", "image_pull_failed", "preempted", "node_not_ready", "node_pressure",
			"scale_up", "evicted_pods_lingering", "pod_stuck_creating", "pod_create_failed", "rollout_stuck", "job_failed",
			"volume_provisioning_failed", "node_oom", "startup_probe_failed"}},
		{"cause", causes, []string{"capacity_exhaustion", "shared_node_pool", "shared_prometheus", "cpu_starvation", "memory_over_request",
			"memory_limit_too_low", "node_overcommitted", "scale_up_not_ready", "scheduling_constraints", "preemption",
			"node_disk_exhaustion", "request_exceeds_node", "volume_binding", "image_unavailable", "container_start_failure", "recent_change",
			"quota_exceeded", "network_setup_failed", "ip_exhaustion", "missing_object", "volume_attach_failure"}},
		{"component", components, []string{"NodePool", "Prometheus", "Hub", "Proxy", "Ingress", "DNS", "Autoscaler", "Scheduler", "Database",
			"NodePool:core", "NodePool:user", "NodePool:worker", "NodePool:gpu"}},
	} {
		for i, k := range c.kinds {
			if b, ok := c.bits[k]; !ok || b != uint(i) {
				t.Errorf("%s kind %s: bit %d (known %v), want %d: add new kinds at the end of both lists", c.name, k, b, ok, i)
			}
		}
		// Every kind of the vocabulary has its bit (a new one at the end is added here too).
		if len(c.bits) != len(c.kinds) || len(c.bits) > 63 {
			t.Errorf("%s bits: %d, kinds %d", c.name, len(c.bits), len(c.kinds))
		}
	}
}

// TestFacetsAfterUpgrade: a library stored before migration 4 gets its facets from the
// migration, with the person's signature speaking where there is one.
func TestFacetsAfterUpgrade(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, _ *store.Store, b storetest.Backend) {
		ctx := context.Background()
		st, err := store.Open(ctx, mustTarget(t, storetest.Fresh(t, b)), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if err := st.MigrateTo(ctx, 3); err != nil {
			t.Fatal(err)
		}
		db := st.DB()
		for _, q := range []string{
			"INSERT INTO incidents (id, title, created_at, updated_at, report) VALUES ('A', 'a', '2023-02-01 00:00:00', '2023-02-01 00:00:00', 'pool full'), ('B', 'b', '2023-02-01 00:00:00', '2023-02-01 00:00:00', '')",
			"INSERT INTO incident_signatures (incident_id, facet, value, name, role, origin, position) VALUES " +
				"('A', 'cause', 'capacity_exhaustion', '', 'root', 'report', 0), ('A', 'component', 'NodePool', 'core-pool', '', 'report', 1), " +
				"('B', 'cause', 'capacity_exhaustion', '', 'root', 'analysis', 0), ('B', 'component', 'NodePool', 'core-pool', '', 'analysis', 1), " +
				"('B', 'cause', 'preemption', '', 'root', 'person', 0)",
		} {
			if err := db.Exec(q).Error; err != nil {
				t.Fatal(err)
			}
		}
		if err := st.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		list, err := st.Incidents(ctx, store.IncidentFilter{Cause: "capacity_exhaustion"})
		if err != nil || len(list) != 1 || list[0].ID != "A" {
			t.Fatalf("capacity_exhaustion after the upgrade: %v, %v (B's person signature says preemption)", list, err)
		}
		sig := incident.Signature{RootCause: "capacity_exhaustion", Causes: []string{"capacity_exhaustion"}, Components: []incident.Component{{Kind: "NodePool", Name: "core"}}}
		target := incident.Candidate{ID: "X", Cluster: "leap", Signature: sig}
		cands, err := st.RelatedCandidates(ctx, target, store.RelatedLimits{SameRoot: 10, Shared: 10})
		if err != nil {
			t.Fatal(err)
		}
		rel := incident.Related(target, cands)
		var got []string
		for _, r := range rel {
			got = append(got, r.ID+": "+r.Reason())
		}
		if diff := cmp.Diff([]string{"A: same root cause · shared Node pool (same role: core)"}, got); diff != "" {
			t.Errorf("related after the upgrade (-want +got):\n%s", diff)
		}
		found, err := st.Incidents(ctx, store.IncidentFilter{Query: "full pool"})
		if err != nil || !slices.ContainsFunc(found, func(in *incident.Incident) bool { return in.ID == "A" }) {
			t.Errorf("search after the upgrade: %v, %v", found, err)
		}
	})
}

// TestRelatedCandidatesMatchBruteForce: the indexed lookup (scored by PostgreSQL, or here on
// SQLite) finds the same related incidents, in the same order, as ranking every incident of
// the library with incident.Related.
func TestRelatedCandidatesMatchBruteForce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := context.Background()
		reports := make([]incident.Report, 3000)
		all := make([]incident.Candidate, len(reports))
		for i := range reports {
			reports[i] = synth.Report(3, i)
			all[i] = incident.Candidate{ID: reports[i].ID, Title: reports[i].Title, Signature: incident.SignatureOf(reports[i])}
		}
		if _, err := st.ImportReports(ctx, reports, nil); err != nil {
			t.Fatal(err)
		}
		const limit = 20
		for _, i := range []int{0, 1, 7, 42, 999, 2999} {
			target := all[i]
			// The best of each relation, and every incident of the same root cause with the best
			// of the others (what the related page and API ask).
			for _, limits := range []store.RelatedLimits{{SameRoot: limit, Shared: limit}, {SameRoot: 0, Shared: limit}} {
				cands, err := st.RelatedCandidates(ctx, target, limits)
				if err != nil {
					t.Fatal(err)
				}
				got := relationIDs(incident.Related(target, cands))
				per := map[string]int{}
				var want []string
				for _, r := range incident.Related(target, all) {
					max := limits.Shared
					if r.Relation == incident.SameRootCause {
						max = limits.SameRoot
					}
					if per[r.Relation]++; max == 0 || per[r.Relation] <= max {
						want = append(want, r.ID+" "+r.Relation)
					}
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s (root %s, components %v), %+v: related (-brute force +indexed):\n%s", target.ID, target.Signature.RootCause,
						target.Signature.Components, limits, diff)
				}
			}
		}
	})
}

func relationIDs(rel []incident.Relation) []string {
	out := make([]string, len(rel))
	for i, r := range rel {
		out[i] = r.ID + " " + r.Relation
	}
	return out
}
