package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// deploymentList is kubectl get deploy -n prod -o json of Deployment hub running image.
func deploymentList(image string) []byte {
	return []byte(fmt.Sprintf(`{"apiVersion": "v1", "kind": "List", "items": [{
  "apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {"name": "hub", "namespace": "prod", "uid": "d-1", "creationTimestamp": "2023-01-10T09:00:00Z"},
  "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "hub"}}, "template": {
    "metadata": {"labels": {"app": "hub"}},
    "spec": {"containers": [{"name": "hub", "image": %q, "resources": {"limits": {"memory": "1Gi"}}}]}}}}]}`, image))
}

// hubPods is kubectl get pods -n prod -o json of the one hub pod, of ReplicaSet hub-<hash>,
// created at created, with the container status given.
func hubPods(hash, created, image, status string) []byte {
	return []byte(fmt.Sprintf(`{"apiVersion": "v1", "kind": "List", "items": [{
  "apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "hub-%[1]s-x1", "namespace": "prod", "uid": "p-%[1]s", "creationTimestamp": %[2]q,
    "labels": {"app": "hub", "pod-template-hash": %[1]q},
    "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "hub-%[1]s", "uid": "rs-%[1]s", "controller": true}]},
  "spec": {"nodeName": "core-1", "containers": [{"name": "hub", "image": %[3]q}]},
  "status": {"phase": "Pending", "startTime": %[2]q, "containerStatuses": [{"name": "hub", "image": %[3]q, "ready": false, "restartCount": 0, %[4]s}]}}]}`,
		hash, created, image, status))
}

// TestRecentChangeBetweenSnapshots: two snapshots of one cluster uploaded to an incident, the
// Deployment's image changed between them and the pod of the new ReplicaSet in
// ImagePullBackOff: the analysis gives recent_change as the root cause of the image pull
// failure, with the change (before → after, between the snapshots) as its evidence; the first
// snapshot alone gives none. On both databases.
func TestRecentChangeBetweenSnapshots(t *testing.T) {
	t.Parallel()
	const good, bad = "jupyterhub/k8s-hub:3.0.0", "jupyterhub/k8s-hub:3.0.1-typo"
	first := map[string][]byte{
		"deploy.json": deploymentList(good),
		"pods.json":   hubPods("5d8f7c9b4", "2023-02-01T09:00:00Z", good, `"state": {"running": {"startedAt": "2023-02-01T09:00:10Z"}}`),
	}
	second := map[string][]byte{
		"deploy.json": deploymentList(bad),
		"pods.json": hubPods("7f6b9d8c5", "2023-02-01T16:51:00Z", bad,
			`"state": {"waiting": {"reason": "ImagePullBackOff", "message": "Back-off pulling image \"jupyterhub/k8s-hub:3.0.1-typo\""}}`),
	}
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "rollout", "title": "Hub down after a rollout", "cluster": "leap"}`)
		analyse := func() analysis.Report {
			t.Helper()
			status, b := call(t, "GET", base+"/api/v1/incidents/rollout/analysis", "", nil)
			if status != http.StatusOK {
				t.Fatalf("analysis: %d %s", status, b)
			}
			var rep analysis.Report
			if err := json.Unmarshal(b, &rep); err != nil {
				t.Fatal(err)
			}
			return rep
		}
		for i, files := range []map[string][]byte{first, second} {
			body, ct := multipartBody(t, files, "deploy.json", "pods.json")
			if status, b := call(t, "POST", base+"/api/v1/incidents/rollout/snapshots", ct, body); status != http.StatusCreated {
				t.Fatalf("upload %d: %d %s", i+1, status, b)
			}
			if i > 0 {
				break
			}
			for _, c := range analyse().Causes {
				if c.Kind == analysis.RecentChange {
					t.Errorf("one snapshot gives a change: %s", c.Summary)
				}
			}
		}
		rep := analyse()
		kinds := map[string]string{}
		for _, s := range rep.Symptoms {
			kinds[s.ID] = s.Kind
		}
		var found bool
		for _, c := range rep.Causes {
			if c.Kind != analysis.RecentChange {
				continue
			}
			found = true
			var pulls []string // the symptoms it explains (the rest are the causes it leads to)
			for _, id := range c.Explains {
				if k, ok := kinds[id]; ok {
					pulls = append(pulls, k)
				}
			}
			if c.Role != analysis.Root || !slices.Equal(pulls, []string{analysis.ImagePullFailed}) {
				t.Errorf("recent_change is %s and explains %v; want the root cause of the image pull failure", c.Role, c.Explains)
			}
			for _, other := range rep.Causes {
				if other.Role == analysis.Root && other.ID != c.ID && slices.ContainsFunc(other.Explains, func(id string) bool { return kinds[id] != "" }) {
					t.Errorf("another root cause beside the change: %s %v", other.Kind, other.Explains)
				}
			}
			ev := c.Evidence[0]
			if ev.Ref != "Deployment prod/hub" || ev.Field != "spec.template.spec.containers[hub].image" || ev.File != "deploy.json" ||
				!strings.Contains(ev.Value, good+" → "+bad) || !strings.Contains(ev.Value, "between 2023-02-01T09:00:10Z and ") {
				t.Errorf("the change is cited as %+v", ev)
			}
		}
		if !found {
			t.Errorf("no recent_change cause; causes: %+v", rep.Causes)
		}
	})
}

// TestRecentChangeSnapshotThenCollected: a snapshot uploaded, then the collector sends the
// Deployment with another image and the new ReplicaSet's pod in ImagePullBackOff: the snapshot
// and the collected version are compared (the snapshot was taken before its upload, the version
// seen after it), and the change is the root cause of the image pull failure. On both databases.
func TestRecentChangeSnapshotThenCollected(t *testing.T) {
	t.Parallel()
	const good, bad = "jupyterhub/k8s-hub:3.0.0", "jupyterhub/k8s-hub:3.0.1-typo"
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "rollout", "title": "Hub down after a rollout", "cluster": "leap", "started_at": "2023-02-01T08:00:00Z"}`)
		body, ct := multipartBody(t, map[string][]byte{
			"deploy.json": deploymentList(good),
			"pods.json":   hubPods("5d8f7c9b4", "2023-02-01T09:00:00Z", good, `"state": {"running": {"startedAt": "2023-02-01T09:00:10Z"}}`),
		}, "deploy.json", "pods.json")
		if status, b := call(t, "POST", base+"/api/v1/incidents/rollout/snapshots", ct, body); status != http.StatusCreated {
			t.Fatalf("upload: %d %s", status, b)
		}
		item := func(list []byte) string { // the one item of a List
			var l struct{ Items []json.RawMessage }
			if err := json.Unmarshal(list, &l); err != nil || len(l.Items) != 1 {
				t.Fatalf("%v: %s", err, list)
			}
			return string(l.Items[0])
		}
		batch := `{"apiVersion": "v1", "kind": "List", "items": [` + item(deploymentList(bad)) + `, ` +
			item(hubPods("7f6b9d8c5", "2023-02-01T16:51:00Z", bad,
				`"state": {"waiting": {"reason": "ImagePullBackOff", "message": "Back-off pulling image \"jupyterhub/k8s-hub:3.0.1-typo\""}}`)) + `]}`
		if status, b := call(t, "POST", base+"/api/v1/events?cluster=leap", "application/json", strings.NewReader(batch)); status != http.StatusOK {
			t.Fatalf("collected batch: %d %s", status, b)
		}
		status, b := call(t, "GET", base+"/api/v1/incidents/rollout/analysis", "", nil)
		if status != http.StatusOK {
			t.Fatalf("analysis: %d %s", status, b)
		}
		var rep analysis.Report
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Fatal(err)
		}
		kinds := map[string]string{}
		for _, s := range rep.Symptoms {
			kinds[s.ID] = s.Kind
		}
		var found bool
		for _, c := range rep.Causes {
			if c.Kind != analysis.RecentChange || c.Role != analysis.Root {
				continue
			}
			ev := c.Evidence[0]
			if ev.Ref == "Deployment prod/hub" && ev.Field == "spec.template.spec.containers[hub].image" && strings.Contains(ev.Value, good+" → "+bad) &&
				strings.Contains(ev.Value, "between 2023-02-01T09:00:10Z and ") &&
				slices.ContainsFunc(c.Explains, func(id string) bool { return kinds[id] == analysis.ImagePullFailed }) {
				found = true
			}
		}
		if !found {
			t.Errorf("no recent_change root citing the image change between the snapshot and the collector; changes %+v, causes %+v", rep.Changes, rep.Causes)
		}
	})
}
