package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// evictedUsers is a pod list of n user pods of one Deployment that the kubelet of node user-1
// evicted for memory within a few minutes, and the node.
func evictedUsers(n int) []byte {
	items := []string{`{"kind": "Node", "apiVersion": "v1", "metadata": {"name": "user-1", "labels": {"cloud.google.com/gke-nodepool": "user-pool"}},
		"status": {"allocatable": {"cpu": "4", "memory": "16Gi"}, "conditions": [{"type": "Ready", "status": "True"}]}}`}
	for i := range n {
		items = append(items, fmt.Sprintf(`{"kind": "Pod", "apiVersion": "v1",
 "metadata": {"name": "nb-5d8f7c6b9-x%04d", "namespace": "users", "labels": {"pod-template-hash": "5d8f7c6b9"},
  "ownerReferences": [{"kind": "ReplicaSet", "name": "nb-5d8f7c6b9", "controller": true}]},
 "spec": {"nodeName": "user-1", "containers": [{"name": "nb", "resources": {"requests": {"memory": "1Gi"}}}]},
 "status": {"phase": "Failed", "reason": "Evicted", "message": "The node was low on resource: memory. <b>Threshold</b> quantity: 100Mi, available: 90Mi.",
  "conditions": [{"type": "DisruptionTarget", "status": "True", "reason": "TerminationByKubelet", "lastTransitionTime": "2023-02-01T17:0%d:%02dZ",
   "message": "The node was low on resource: memory."}]}}`, i, i/60%6, i%60))
	}
	return []byte(`{"kind": "List", "apiVersion": "v1", "items": [` + strings.Join(items, ",") + `]}`)
}

// TestGroupsAndChain: the incident page draws the causal chain and lists each group's first
// members with a link to all of them; the members of a group or a merged cause page through
// the API and their own pages; what the cluster wrote stays text.
func TestGroupsAndChain(t *testing.T) {
	t.Parallel()
	dir := fixtures.IL0070VariantDir("liveness")
	files := map[string][]byte{"users.json": evictedUsers(12)}
	for _, n := range []string{"events.json", "nodes.json", "pods.json"} {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		files[n] = b
	}
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "G-1", "title": "Hub restart"}`)
		body, ct := multipartBody(t, files, "events.json", "nodes.json", "pods.json", "users.json")
		if status, b := call(t, "POST", base+"/api/v1/incidents/G-1/snapshots", ct, body); status != http.StatusCreated {
			t.Fatalf("upload: %d %s", status, b)
		}
		status, b := call(t, "GET", base+"/api/v1/incidents/G-1/analysis", "", nil)
		if status != 200 {
			t.Fatalf("analysis: %d %s", status, b)
		}
		var rep analysis.Report
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Fatal(err)
		}
		var users, pending string
		for _, s := range rep.Symptoms {
			switch {
			case s.Kind == analysis.PodEvicted && len(s.Members) == 12:
				users = s.ID
			case s.Kind == analysis.PodPending && len(s.Members) == 0 && len(s.Objects) == 89:
				pending = s.ID
			}
		}
		if users == "" || pending == "" {
			t.Fatalf("no group of the 12 evicted user pods, or of the 89 pending pods: %+v", rep.Symptoms)
		}

		// The page: the chain, the links and changes of the causes, the groups' members.
		status, b = call(t, "GET", base+"/incidents/G-1", "", nil)
		if status != 200 {
			t.Fatalf("page: %d", status)
		}
		doc := page(t, b)
		chain := doc.Find(`[data-testid="chain"] svg`)
		if chain.Length() != 1 || chain.Find(`a[href="#C1"]`).Length() != 1 || chain.Find(`a[href^="#S"]`).Length() == 0 {
			t.Errorf("the chain is missing or does not link the root and the groups it reaches")
		}
		root := doc.Find(`article#C1`)
		if root.Find(`[data-testid="leads-to"]`).Length() == 0 {
			t.Errorf("C1 shows no link of the chain: %q", root.Text())
		}
		// The changes are one list in the summary; each cause's card links its own. C1's only
		// change (more nodes) is not suggested: the scale-up was already adding them.
		if doc.Find(`[data-testid="summary"] [data-testid="change"]`).Length() == 0 || doc.Find(`article [data-testid="suggestion"][href="#change-1"]`).Length() == 0 {
			t.Errorf("the summary lists no change, or no cause card links the first")
		}
		if d := doc.Find(`[data-testid="dropped-change"]`); d.Length() != 1 || !strings.Contains(d.Text(), "more node(s)") || root.Find(`[data-testid="suggestion"]`).Length() != 0 {
			t.Errorf("the extra nodes are not said to be not suggested, or C1 still links a change: %q", d.Text())
		}
		// The scale-up is shown as the chain's trigger, not as something users felt.
		doc.Find(`article[data-testid="symptom"]`).Each(func(_ int, a *goquery.Selection) {
			scaleUp := strings.Contains(a.Find("h3").Text(), "scale_up")
			if side := a.Find(`[data-testid="symptom-side"]`).Text(); scaleUp != (side == "trigger, not felt") {
				t.Errorf("symptom %q is marked %q", a.Find("h3").Text(), side)
			}
		})
		group := doc.Find(`article#` + users)
		if got := group.Find(`[data-testid="symptom-count"]`).Text(); got != "×12" {
			t.Errorf("group count = %q", got)
		}
		if n := group.Find(`[data-testid="members"] li`).Length(); n != 5 {
			t.Errorf("the card lists %d members, want the first 5", n)
		}
		if href, _ := group.Find(`[data-testid="all-members"]`).Attr("href"); href != "/incidents/G-1/symptoms/"+users {
			t.Errorf("all members link = %q", href)
		}

		for _, tt := range []struct {
			name, path string
			status     int
			total, n   int
			objects    bool
			err        string
		}{
			{"a group's members", "/api/v1/incidents/G-1/symptoms/" + users + "/members", 200, 12, 12, false, ""},
			{"a page of them", "/api/v1/incidents/G-1/symptoms/" + users + "/members?offset=10&limit=5", 200, 12, 2, false, ""},
			{"past the end", "/api/v1/incidents/G-1/symptoms/" + users + "/members?offset=50", 200, 12, 0, false, ""},
			{"a group of one fact pages its objects", "/api/v1/incidents/G-1/symptoms/" + pending + "/members?limit=50", 200, 89, 50, true, ""},
			{"a lone cause is its own member", "/api/v1/incidents/G-1/causes/C1/members", 200, 1, 1, false, ""},
			{"limit zero", "/api/v1/incidents/G-1/symptoms/" + users + "/members?limit=0", 400, 0, 0, false, "limit"},
			{"limit too large", "/api/v1/incidents/G-1/symptoms/" + users + "/members?limit=5000", 400, 0, 0, false, "limit"},
			{"offset not a number", "/api/v1/incidents/G-1/symptoms/" + users + "/members?offset=x", 400, 0, 0, false, "offset"},
			{"no such symptom", "/api/v1/incidents/G-1/symptoms/S999/members", 404, 0, 0, false, "S999"},
			{"no such cause", "/api/v1/incidents/G-1/causes/C999/members", 404, 0, 0, false, "C999"},
			{"no such incident", "/api/v1/incidents/nope/symptoms/S1/members", 404, 0, 0, false, "nope"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				status, b := call(t, "GET", base+tt.path, "", nil)
				if status != tt.status {
					t.Fatalf("%s: %d %s", tt.path, status, b)
				}
				if tt.status != 200 {
					if !strings.Contains(string(b), tt.err) {
						t.Errorf("error %s does not name %q", b, tt.err)
					}
					return
				}
				var got struct {
					Total   int               `json:"total"`
					Members []json.RawMessage `json:"members"`
					Objects []json.RawMessage `json:"objects"`
				}
				if err := json.Unmarshal(b, &got); err != nil {
					t.Fatal(err)
				}
				n := len(got.Members)
				if tt.objects {
					n = len(got.Objects)
				}
				if got.Total != tt.total || n != tt.n {
					t.Errorf("total %d with %d on the page, want %d and %d: %s", got.Total, n, tt.total, tt.n, b)
				}
			})
		}

		// The group's own page: its members with their evidence, escaped, and a pager.
		status, b = call(t, "GET", base+"/incidents/G-1/symptoms/"+users+"?limit=5", "", nil)
		if status != 200 {
			t.Fatalf("group page: %d %s", status, b)
		}
		doc = page(t, b)
		if n := doc.Find(`[data-testid="group-member"]`).Length(); n != 5 {
			t.Errorf("group page lists %d members, want 5", n)
		}
		if href, _ := doc.Find(`[data-testid="group-next"]`).Attr("href"); href != "/incidents/G-1/symptoms/"+users+"?limit=5&offset=5" {
			t.Errorf("next page = %q", href)
		}
		if !strings.Contains(doc.Text(), "<b>Threshold</b>") || doc.Find(`[data-testid="group-member"] b`).Length() != 0 {
			t.Errorf("a member's evidence is not shown as text")
		}
		status, b = call(t, "GET", base+"/incidents/G-1/symptoms/"+pending, "", nil)
		if status != 200 || page(t, b).Find(`[data-testid="group-objects"] li`).Length() != 89 {
			t.Errorf("the pending group's page does not list its 89 pods: %d", status)
		}
		if status, _ := call(t, "GET", base+"/incidents/G-1/causes/C1", "", nil); status != 200 {
			t.Errorf("cause page: %d", status)
		}
	})
}
