package rules

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
)

// groupNode is a Ready node of a pool, as `kubectl get node -o json` prints it.
func groupNode(name, pool string) string {
	return fmt.Sprintf(`{"kind": "Node", "apiVersion": "v1", "metadata": {"name": %q, "labels": {"cloud.google.com/gke-nodepool": %q}},
 "status": {"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"},
  "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": "2024-05-01T08:00:00Z"}]}}`, name, pool)
}

// evictedFrom is a pod of a ReplicaSet evicted for memory from node at the given time.
func evictedFrom(ns, name, rs, hash, node string, at time.Time) string {
	return fmt.Sprintf(`{"kind": "Pod", "apiVersion": "v1",
 "metadata": {"name": %q, "namespace": %q, "labels": {"pod-template-hash": %q},
  "ownerReferences": [{"kind": "ReplicaSet", "name": %q, "controller": true}]},
 "spec": {"nodeName": %q, "containers": [{"name": "app", "resources": {"requests": {"cpu": "100m", "memory": "1Gi"}}}]},
 "status": {"phase": "Failed", "reason": "Evicted", "message": "The node was low on resource: memory. Threshold quantity: 100Mi, available: 90Mi.",
  "conditions": [{"type": "DisruptionTarget", "status": "True", "reason": "TerminationByKubelet", "lastTransitionTime": %q,
   "message": "The node was low on resource: memory. Threshold quantity: 100Mi, available: 90Mi."}]}}`,
		name, ns, hash, rs+"-"+hash, node, at.UTC().Format(time.RFC3339))
}

// pendingIn is a pod of a Deployment waiting for pool, which lacked CPU, since the given time.
func pendingIn(name, rs, hash, pool string, at time.Time) string {
	return fmt.Sprintf(`{"kind": "Pod", "apiVersion": "v1",
 "metadata": {"name": %q, "namespace": "users", "labels": {"pod-template-hash": %q},
  "ownerReferences": [{"kind": "ReplicaSet", "name": %q, "controller": true}]},
 "spec": {"nodeSelector": {"cloud.google.com/gke-nodepool": %q}, "containers": [{"name": "app", "resources": {"requests": {"cpu": "3", "memory": "1Gi"}}}]},
 "status": {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable", "lastTransitionTime": %q,
  "message": "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."}]}}`,
		name, hash, rs+"-"+hash, pool, at.UTC().Format(time.RFC3339))
}

// restartedHub is the hub's pod, restarted after its liveness probe failed.
func restartedHub(at time.Time) []string {
	return []string{fmt.Sprintf(`{"kind": "Pod", "apiVersion": "v1",
 "metadata": {"name": "hub-7c9d8f6b5-x2kq8", "namespace": "jhub", "labels": {"component": "hub", "pod-template-hash": "7c9d8f6b5"},
  "ownerReferences": [{"kind": "ReplicaSet", "name": "hub-7c9d8f6b5", "controller": true}]},
 "spec": {"nodeName": "core-a", "containers": [{"name": "hub", "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}}]},
 "status": {"phase": "Running", "containerStatuses": [{"name": "hub", "restartCount": 1, "ready": true,
  "state": {"running": {"startedAt": %q}},
  "lastState": {"terminated": {"reason": "Error", "exitCode": 137, "finishedAt": %q}}}]}}`,
		at.UTC().Format(time.RFC3339), at.UTC().Format(time.RFC3339)),
		event("hub-7c9d8f6b5-x2kq8.1", "jhub", "Pod", "hub-7c9d8f6b5-x2kq8", "Unhealthy", "Warning",
			"Liveness probe failed: Get \"http://10.0.0.5:8081/hub/health\": context deadline exceeded", at.Add(-time.Minute).UTC().Format(time.RFC3339), 3),
		event("hub-7c9d8f6b5-x2kq8.2", "jhub", "Pod", "hub-7c9d8f6b5-x2kq8", "Killing", "Normal",
			"Container hub failed liveness probe, will be restarted", at.UTC().Format(time.RFC3339), 1)}
}

// list wraps objects in a v1 List.
func list(items []string) string {
	return `{"kind": "List", "apiVersion": "v1", "items": [` + strings.Join(items, ",\n") + `]}`
}

// TestGroupSymptoms pins how symptoms become groups: by kind, reason, pool and causes, with
// critical components apart and episodes split where the members pause; every member kept,
// the causes explaining groups, the worst first.
func TestGroupSymptoms(t *testing.T) {
	t0 := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	nodes := []string{groupNode("core-a", "core"), groupNode("user-a", "user"), groupNode("user-b", "user"), groupNode("batch-a", "batch")}
	var pods []string
	// 40 user pods of 8 Deployments evicted for memory from the user pool within 10 minutes, and
	// 40 more three hours later: two episodes.
	for burst, start := range []time.Time{t0, t0.Add(3 * time.Hour)} {
		for i := range 40 {
			node := []string{"user-a", "user-b"}[i%2]
			pods = append(pods, evictedFrom("users", fmt.Sprintf("nb%d-5d8f7c6b9-%c%c%c%c%c", i%8, 'b'+rune(burst), 'c'+rune(i/20), 'd'+rune(i%20), 'f', 'g'),
				fmt.Sprintf("nb%d", i%8), "5d8f7c6b9", node, start.Add(time.Duration(i)*15*time.Second)))
		}
	}
	// Three evictions from the batch pool, hours apart: a trickle, one group.
	for i := range 3 {
		pods = append(pods, evictedFrom("batch", fmt.Sprintf("etl-6c7d8b9f5-%c%c%c%c%c", 'k'+rune(i), 'm', 'n', 'p', 'q'), "etl", "6c7d8b9f5", "batch-a", t0.Add(time.Duration(i)*2*time.Hour)))
	}
	// 1,000 pods of 10 Deployments waiting for the batch pool: one group.
	for i := range 1000 {
		pods = append(pods, pendingIn(fmt.Sprintf("job%d-7f8c9d6b5-%05d", i%10, i), fmt.Sprintf("job%d", i%10), "7f8c9d6b5", "batch", t0.Add(time.Duration(i)*time.Second)))
	}
	docs := append([]string{list(append(nodes, pods...))}, restartedHub(t0.Add(5*time.Minute))...)
	rep := Run(model(t, docs...), analysis.Options{})

	type view struct {
		kind                      string
		count, members, workloads int
		top                       int // the pods of the largest workload
		pool, reason              string
		critical                  bool
	}
	var got []view
	for _, s := range rep.Symptoms {
		if s.Kind == analysis.EvictedPodsLingering {
			continue
		}
		v := view{kind: s.Kind, count: s.Count, members: len(s.Members), workloads: len(s.Workloads), reason: s.Reason, critical: s.Critical}
		if len(s.Pools) > 0 {
			v.pool = s.Pools[0].Name
		}
		if len(s.Workloads) > 0 {
			v.top = s.Workloads[0].Count
		}
		got = append(got, v)
	}
	want := []view{
		// The hub first: a critical component outranks a thousand ordinary pods.
		{kind: analysis.LivenessProbeFailed, count: 1, workloads: 1, top: 1, pool: "core", reason: "timed out", critical: true},
		{kind: analysis.ContainerRestarted, count: 1, workloads: 1, top: 1, pool: "core", reason: "Error, exit code 137", critical: true},
		{kind: analysis.PodEvicted, count: 40, members: 40, workloads: 8, top: 5, pool: "user", reason: "the node was low on memory"},
		{kind: analysis.PodEvicted, count: 40, members: 40, workloads: 8, top: 5, pool: "user", reason: "the node was low on memory"},
		{kind: analysis.PodEvicted, count: 3, members: 3, workloads: 1, top: 3, pool: "batch", reason: "the node was low on memory"},
		{kind: analysis.PodPending, count: 1000, members: 10, workloads: 10, top: 100, pool: "batch", reason: "Insufficient cpu"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("groups:\n got %+v\nwant %+v", got, want)
	}
	for i, s := range rep.Symptoms {
		if s.ID != fmt.Sprintf("S%d", i+1) {
			t.Errorf("symptom %d is numbered %s", i, s.ID)
		}
		objects := map[analysis.ObjectRef]bool{}
		for _, o := range s.Objects {
			objects[o] = true
		}
		for j, m := range s.Members {
			if m.ID != fmt.Sprintf("%s.%d", s.ID, j+1) || len(m.Evidence) == 0 {
				t.Errorf("member %d of %s: id %s, %d evidence items", j, s.ID, m.ID, len(m.Evidence))
			}
			for _, o := range m.Objects {
				if !objects[o] {
					t.Errorf("%s does not list %v of its member %s", s.ID, o, m.ID)
				}
			}
		}
		if len(s.Members) > 1 && !strings.HasPrefix(s.Summary, fmt.Sprint(phrase.Thousands(s.Count), " pods ")) {
			t.Errorf("%s summary = %q", s.ID, s.Summary)
		}
		if s.Until != nil && s.Until.Before(*s.At) {
			t.Errorf("%s ends before it starts", s.ID)
		}
	}
	// The episodes are apart in time, and the causes explain whole groups by their new ids.
	ev := rep.Symptoms[2]
	if ev.Until == nil || ev.Until.Sub(*ev.At) > 15*time.Minute || rep.Symptoms[3].At.Sub(*ev.Until) < 2*time.Hour {
		t.Errorf("episodes: %v–%v and then %v", ev.At, ev.Until, rep.Symptoms[3].At)
	}
	capacity, ok := causeOf(rep, analysis.CapacityExhaustion)
	if !ok || !slices.Contains(capacity.Explains, rep.Symptoms[5].ID) {
		t.Errorf("capacity_exhaustion does not explain the pending group %s: %+v", rep.Symptoms[5].ID, capacity.Explains)
	}
	for _, c := range rep.Causes {
		for _, id := range c.Explains {
			if _, ok := (&rep).SymptomByID(id); !ok && !strings.HasPrefix(id, "C") {
				t.Errorf("%s explains %s, which is no group", c.ID, id)
			}
		}
	}
}

// TestGroupCountsWhatItIsAbout checks that a group counts the objects its members are about,
// not the ones they name in passing: two controllers refused by a quota name the pods they
// could not make, and are two controllers, not four objects.
func TestGroupCountsWhatItIsAbout(t *testing.T) {
	t.Parallel()
	doc := `$ kubectl get events -n shop
LAST SEEN   TYPE      REASON         OBJECT                 MESSAGE
2m          Warning   FailedCreate   statefulset/redis      create Pod redis-2 in StatefulSet redis failed error: pods "redis-2" is forbidden: exceeded quota: shop-quota, requested: limits.memory=2Gi, used: limits.memory=7Gi, limited: limits.memory=8Gi
3m          Warning   FailedCreate   statefulset/kafka      create Pod kafka-1 in StatefulSet kafka failed error: pods "kafka-1" is forbidden: exceeded quota: shop-quota, requested: limits.memory=4Gi, used: limits.memory=7Gi, limited: limits.memory=8Gi
4m          Warning   FailedCreate   replicaset/api-7d9f    Error creating: pods "api-7d9f-x2k4p" is forbidden: exceeded quota: shop-quota, requested: requests.cpu=500m, used: requests.cpu=3800m, limited: requests.cpu=4
`
	rep := Run(model(t, doc), analysis.Options{})
	var got []string
	for _, s := range rep.Symptoms {
		got = append(got, fmt.Sprintf("%s ×%d: %s", s.Kind, s.Count, s.Summary))
	}
	want := []string{"pod_create_failed ×3: 3 controllers could not create their pods (3 workloads, most shop/api-7d9f)"}
	if !slices.Equal(got, want) {
		t.Errorf("symptoms:\n got %q\nwant %q", got, want)
	}
	if len(rep.Symptoms) == 1 && !slices.ContainsFunc(rep.Symptoms[0].Objects, func(o analysis.ObjectRef) bool { return o.Name == "kafka-1" }) {
		t.Errorf("the group no longer names the pod a controller could not make: %v", rep.Symptoms[0].Objects)
	}
}
