package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/access"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
	"github.com/rootline-dev/rootline/internal/timeline"
	"github.com/rootline-dev/rootline/internal/wire"
)

// replicaSetList is kubectl get rs -n prod -o json of Deployment hub's two revisions: the first
// running good, the second, rolled out at 16:50, bad.
func replicaSetList(good, bad string) []byte {
	rs := func(n int, hash, at, image string) string {
		return fmt.Sprintf(`{"apiVersion": "apps/v1", "kind": "ReplicaSet",
  "metadata": {"name": "hub-%[2]s", "namespace": "prod", "uid": "rs-%[2]s", "creationTimestamp": %[3]q,
    "annotations": {"deployment.kubernetes.io/revision": "%[1]d"},
    "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "hub", "uid": "d-1", "controller": true}]},
  "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "hub"}}, "template": {"metadata": {"labels": {"app": "hub"}},
    "spec": {"containers": [{"name": "hub", "image": %[4]q}]}}}}`, n, hash, at, image)
	}
	return []byte(`{"apiVersion": "v1", "kind": "List", "items": [` + rs(1, "5d8f7c9b4", "2023-02-01T09:00:00Z", good) + `, ` +
		rs(2, "7f6b9d8c5", "2023-02-01T16:50:00Z", bad) + `]}`)
}

// hostileEvent is an event about a pod whose name is markup, and another about the new hub pod.
const hostileEvent = `{"apiVersion": "v1", "kind": "List", "items": [
 {"apiVersion": "v1", "kind": "Event", "metadata": {"name": "x.1", "namespace": "prod", "uid": "ev-1"},
  "involvedObject": {"kind": "Pod", "namespace": "prod", "name": "x\"><script>alert(1)</script>"}, "reason": "BackOff", "type": "Warning",
  "message": "<img src=x onerror=alert(2)>", "lastTimestamp": "2023-02-01T16:53:00Z"},
 {"apiVersion": "v1", "kind": "Event", "metadata": {"name": "hub.1", "namespace": "prod", "uid": "ev-2"},
  "involvedObject": {"kind": "Pod", "namespace": "prod", "name": "hub-7f6b9d8c5-x1"}, "reason": "BackOff", "type": "Warning",
  "message": "Back-off pulling image", "count": 4, "firstTimestamp": "2023-02-01T16:52:00Z", "lastTimestamp": "2023-02-01T16:55:00Z"}]}`

// uploadRollout makes incident "rollout" of one snapshot: Deployment hub's ReplicaSets, its new
// pod in ImagePullBackOff, and the events.
func uploadRollout(t *testing.T, base string, header ...string) {
	t.Helper()
	const good, bad = "jupyterhub/k8s-hub:3.0.0", "jupyterhub/k8s-hub:3.0.1-typo"
	files := map[string][]byte{
		"rs.json": replicaSetList(good, bad),
		"pods.json": hubPods("7f6b9d8c5", "2023-02-01T16:51:00Z", bad,
			`"state": {"waiting": {"reason": "ImagePullBackOff", "message": "Back-off pulling image \"jupyterhub/k8s-hub:3.0.1-typo\""}}`),
		"events.json": []byte(hostileEvent),
	}
	if status, b := call(t, "POST", base+"/api/v1/incidents", "application/json",
		strings.NewReader(`{"id": "rollout", "title": "Hub down after a rollout"}`), header...); status != http.StatusCreated {
		t.Fatalf("create: %d %s", status, b)
	}
	body, ct := multipartBody(t, files, "rs.json", "pods.json", "events.json")
	if status, b := call(t, "POST", base+"/api/v1/incidents/rollout/snapshots", ct, body, header...); status != http.StatusCreated {
		t.Fatalf("upload: %d %s", status, b)
	}
}

// TestChangeRowsAndHistory: an incident whose Deployment's ReplicaSets tell that its image
// changed, then its new pod could not pull it. The timeline has the change as a row of its own
// with its diff, linked to the recent_change cause and the symptom; the page shows the diff and
// links every row naming an object to its history; the history answers as a page and as JSON,
// 404 for what the incident does not hold and 400 for a bad name, and escapes hostile names.
func TestChangeRowsAndHistory(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		uploadRollout(t, base)

		status, b := call(t, "GET", base+"/api/v1/incidents/rollout/timeline?type=change", "", nil)
		var rows []timeline.Entry
		if status != http.StatusOK || json.Unmarshal(b, &rows) != nil || len(rows) != 1 {
			t.Fatalf("change rows: %d %s", status, b)
		}
		x := rows[0]
		if x.Type != timeline.TypeChange || x.Ref != "X1" || x.Object != "Deployment prod/hub" || x.Kind != "image" || x.Diff == nil ||
			x.Diff.After != "jupyterhub/k8s-hub:3.0.1-typo" || x.Diff.Revision != 2 || !slices.Contains(x.Links, "S1") || x.Severity != timeline.SeverityWarning {
			t.Errorf("the change row: %s", b)
		}
		hist := func(q string) string { return "/incidents/rollout/history?" + q }
		api := func(q string) string { return "/api/v1/incidents/rollout/history?" + q }
		hostile := url.Values{"kind": {"Pod"}, "namespace": {"prod"}, "name": {`x"><script>alert(1)</script>`}}.Encode()
		for _, sc := range []struct {
			name, path string
			want       int
			in         []string
			notIn      []string
		}{
			{"the timeline's types", "/api/v1/incidents/rollout/timeline?type=nothing", 400, []string{"change"}, nil},
			{"the page", "/incidents/rollout", 200, []string{`data-testid="change"`, "<del>jupyterhub/k8s-hub:3.0.0</del>",
				"<ins>jupyterhub/k8s-hub:3.0.1-typo</ins>", `data-testid="change-links"`, `href="#C1"`, `id="X1"`, `data-testid="stands-on"`, `href="#X1"`, `data-testid="cause-changes"`, `data-testid="cause-change-history"`,
				`href="/incidents/rollout/history?kind=Deployment&amp;name=hub&amp;namespace=prod"`,
				`href="/incidents/rollout/history?kind=Pod&amp;name=hub-7f6b9d8c5-x1&amp;namespace=prod"`}, []string{"<script>alert"}},
			{"a Deployment's history", hist("kind=Deployment&namespace=prod&name=hub"), 200, []string{"History of Deployment prod/hub",
				"<svg", "template revisions", "revision 2: ReplicaSet hub-7f6b9d8c5", `class="mark mark-change"`, `data-testid="history-change"`,
				"<del>jupyterhub/k8s-hub:3.0.0</del>", "Pod prod/hub-7f6b9d8c5-x1", `href="/incidents/rollout#S1"`}, nil},
			{"a pod's history", hist("kind=Pod&namespace=prod&name=hub-7f6b9d8c5-x1"), 200, []string{"container hub", "waiting: ImagePullBackOff",
				"BackOff ×4", `href="/incidents/rollout/history?kind=Deployment&amp;name=hub&amp;namespace=prod"`,
				`href="/incidents/rollout/history?kind=Node&amp;name=core-1"`}, nil},
			{"a node's history", hist("kind=Node&name=core-1"), 200, []string{"History of Node core-1", "symptoms"}, nil},
			{"as JSON", api("kind=Deployment&namespace=prod&name=hub"), 200, []string{`"object":{"kind":"Deployment","namespace":"prod","name":"hub"}`,
				`"name":"template revisions"`, `"kind":"change"`, `"ref":"X1"`}, nil},
			{"a hostile name, escaped", hist(hostile), 200, []string{"&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;img src=x"},
				[]string{"<script>alert", "<img src"}},
			{"unknown object", hist("kind=Pod&namespace=prod&name=nobody"), 404, []string{"holds nothing about Pod prod/nobody"}, nil},
			{"unknown object, JSON", api("kind=Deployment&namespace=other&name=hub"), 404, []string{"holds nothing about Deployment other/hub"}, nil},
			{"unknown incident", "/incidents/nothing-here/history?kind=Node&name=core-1", 404, []string{"incident nothing-here not found"}, nil},
			{"a kind with no history", hist("kind=Service&namespace=prod&name=hub"), 400, []string{"Service", "use one of Pod"}, nil},
			{"a kind with no history, JSON", api("kind=Service&namespace=prod&name=hub"), 400, []string{`kind \"Service\"`}, nil},
			{"no name", api("kind=Pod&namespace=prod"), 400, []string{"name: required"}, nil},
			{"a pod without namespace", api("kind=Pod&name=x"), 400, []string{"namespace: required"}, nil},
			{"a node with a namespace", api("kind=Node&namespace=prod&name=core-1"), 400, []string{"a node has none"}, nil},
			{"a NUL", api("kind=Pod&namespace=prod&name=a%00b"), 400, []string{"name"}, nil},
			{"too long", api("kind=Pod&namespace=prod&name=" + strings.Repeat("x", 300)), 400, []string{"name"}, nil},
		} {
			t.Run(sc.name, func(t *testing.T) {
				status, b := call(t, "GET", base+sc.path, "", nil)
				if status != sc.want {
					t.Fatalf("status %d, want %d: %s", status, sc.want, b)
				}
				for _, w := range sc.in {
					if !strings.Contains(string(b), w) {
						t.Errorf("the answer lacks %s:\n%s", w, b)
					}
				}
				for _, w := range sc.notIn {
					if strings.Contains(string(b), w) {
						t.Errorf("the answer holds %s", w)
					}
				}
			})
		}
	})
}

// TestHistoryAuth: with authentication on, the history is read as the other incident pages
// are: not without a token (a browser is sent to sign in), with one that may read.
func TestHistoryAuth(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		cfg := testConfig()
		cfg.Auth, cfg.APIToken = "on", "0123456789abcdef-token"
		base := newServer(t, st, cfg)
		uploadRollout(t, base, "Authorization", "Bearer "+cfg.APIToken)
		read, _, err := st.CreateToken(t.Context(), "reader", access.Read)
		if err != nil {
			t.Fatal(err)
		}
		const q = "/history?kind=Deployment&namespace=prod&name=hub"
		for _, tt := range []struct {
			name, path string
			header     []string
			want       int
			says       string
		}{
			{"API, no token", "/api/v1/incidents/rollout" + q, nil, 401, "authentication required"},
			{"page, no token: sent to sign in", "/incidents/rollout" + q, nil, 200, `data-testid="login-form"`},
			{"API, unknown token", "/api/v1/incidents/rollout" + q, []string{"Authorization", "Bearer nope"}, 401, "unknown token"},
			{"API, a read token", "/api/v1/incidents/rollout" + q, []string{"Authorization", "Bearer " + read}, 200, `"groups"`},
			{"page, a read token", "/incidents/rollout" + q, []string{"Authorization", "Bearer " + read}, 200, "History of Deployment prod/hub"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				status, b := call(t, "GET", base+tt.path, "", nil, tt.header...)
				if status != tt.want || !strings.Contains(string(b), tt.says) {
					t.Errorf("status %d (%.300s), want %d saying %q", status, b, tt.want, tt.says)
				}
			})
		}
	})
}

// nodeBatch is a collector's batch (wire.ContentType) holding Node core-9 as it was observed
// at, with taints.
func nodeBatch(at, taints string) string {
	return `{"items": [{"observedAt": "` + at + `", "object": {"apiVersion": "v1", "kind": "Node",
  "metadata": {"name": "core-9", "uid": "n9", "resourceVersion": "` + at + `", "creationTimestamp": "2023-02-01T09:00:00Z"},
  "spec": {"taints": [` + taints + `]},
  "status": {"conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": "2023-02-01T09:01:00Z"}]}}}]}`
}

// TestHistoryOfCollectedStates: a node the collector saw change (tainted between two
// batches) has a history whose lanes are its collected states, its taints among them, each
// unknown before the first batch that tells it.
func TestHistoryOfCollectedStates(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		for _, b := range []string{nodeBatch("2023-02-01T17:01:00Z", ""),
			nodeBatch("2023-02-01T17:05:00Z", `{"key": "maintenance", "effect": "NoSchedule"}`)} {
			if status, out := call(t, "POST", base+"/api/v1/events?cluster=leap", wire.ContentType, strings.NewReader(b)); status != http.StatusOK {
				t.Fatalf("batch: %d %s", status, out)
			}
		}
		createIncident(t, base, `{"id": "live", "title": "Node drained", "cluster": "leap",
			"started_at": "2023-02-01T17:00:00Z", "ended_at": "2023-02-01T17:30:00Z"}`)
		status, b := call(t, "GET", base+"/api/v1/incidents/live/history?kind=Node&name=core-9", "", nil)
		if status != http.StatusOK {
			t.Fatalf("%d %s", status, b)
		}
		var h struct {
			Groups []struct {
				Lanes []struct {
					Name  string
					Spans []struct{ State string }
				}
			}
		}
		if err := json.Unmarshal(b, &h); err != nil || len(h.Groups) != 1 {
			t.Fatalf("%v: %s", err, b)
		}
		lanes := map[string][]string{}
		for _, l := range h.Groups[0].Lanes {
			for _, s := range l.Spans {
				lanes[l.Name] = append(lanes[l.Name], s.State)
			}
		}
		// Unknown from the node's creation to the first batch at 17:01, inside the window.
		if got := lanes["taints (collected)"]; len(got) != 3 || !strings.HasPrefix(got[0], "unknown: ") || got[1] != "no taints" || got[2] != "maintenance:NoSchedule" {
			t.Errorf("taints lane %q; lanes %v", got, lanes)
		}
		if got := lanes["status (collected)"]; len(got) != 3 || !strings.HasPrefix(got[0], "unknown: ") {
			t.Errorf("status lane %q", got)
		}
	})
}
