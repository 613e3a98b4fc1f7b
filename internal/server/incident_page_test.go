package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

func page(t *testing.T, body []byte) *goquery.Document {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestIncidentPage renders the IL-0070 workspace: causes linked to the symptoms they explain
// and back, the timeline, notes with the analysis beside a hypothesis, and the note form's
// error cases. What people typed, and what the cluster wrote, is inert.
func TestIncidentPage(t *testing.T) {
	t.Parallel()
	files := fixtures.IL0070Bytes(t)
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "IL-0070", "title": "Hub restart during a large node scale-up", "cluster": "leap"}`)
		body, ct := multipartBody(t, files, "events.json", "nodes.json", "pods.json")
		if status, b := call(t, "POST", base+"/api/v1/incidents/IL-0070/snapshots", ct, body); status != http.StatusCreated {
			t.Fatalf("upload: %d %s", status, b)
		}
		// A hostile event message, through the same upload path.
		hostile := `{"apiVersion": "v1", "kind": "Event", "metadata": {"name": "x.1", "namespace": "prod", "uid": "hostile-1"},
			"involvedObject": {"kind": "Pod", "namespace": "prod", "name": "x"}, "reason": "Evicted", "type": "Warning",
			"message": "<script>alert('event')</script><a href=\"javascript:alert(1)\">x</a>", "lastTimestamp": "2023-02-01T17:06:30Z"}`
		if status, b := call(t, "POST", base+"/api/v1/incidents/IL-0070/snapshots?name=hostile.json", "application/json", strings.NewReader(hostile)); status != http.StatusCreated {
			t.Fatalf("hostile upload: %d %s", status, b)
		}

		form := url.Values{"kind": {"hypothesis"}, "at": {"2023-02-01T17:20:00Z"}, "author": {"yuvi"},
			"body":   {"Evicted under **memory pressure**? <script>alert('note')</script> [x](javascript:alert(2))"},
			"causes": {"capacity_exhaustion", "memory_limit_too_low"}}
		token, cookie := formToken(t, base)
		form.Set("csrf", token)
		req, _ := http.NewRequest("POST", base+"/incidents/IL-0070/notes", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set(cookie[0], cookie[1])
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/incidents/IL-0070#notes" {
			t.Fatalf("note form: %d to %q, want 303 to the page", resp.StatusCode, resp.Header.Get("Location"))
		}

		status, b := call(t, "GET", base+"/incidents/IL-0070", "", nil)
		if status != 200 {
			t.Fatalf("page: %d %s", status, b)
		}
		doc := page(t, b)
		if got := doc.Find(`[data-testid="incident-title"]`).Text(); !strings.Contains(got, "Hub restart") {
			t.Errorf("title = %q", got)
		}
		root := doc.Find(`article#C1[data-testid="cause"]`)
		if !strings.Contains(root.Text(), "capacity_exhaustion") || root.Find(`a[data-testid="explains"]`).Length() == 0 {
			t.Errorf("C1 is not capacity_exhaustion with its symptoms linked: %q", root.Text())
		}
		evicted := doc.Find(`article[data-testid="symptom"]`).FilterFunction(func(_ int, s *goquery.Selection) bool {
			return strings.Contains(s.Find("h3").Text(), "pod_evicted")
		}).First()
		if href, _ := evicted.Find(`a[data-testid="caused-by"]`).First().Attr("href"); href != "#C1" {
			t.Errorf("the eviction does not link to C1: %q", href)
		}
		hyp := doc.Find(`[data-testid="hypothesis-evidence"]`)
		if !strings.Contains(hyp.Text(), "for: C1 capacity_exhaustion") || !strings.Contains(hyp.Text(), "no evidence of memory_limit_too_low") {
			t.Errorf("hypothesis evidence = %q", hyp.Text())
		}
		if doc.Find(`[data-testid="note"] strong`).Text() != "memory pressure" {
			t.Errorf("the note's Markdown was not rendered")
		}
		if doc.Find(`[data-testid="entry"]`).Length() < 20 { // folded: 140 rows into some 30
			t.Errorf("timeline has %d entries", doc.Find(`[data-testid="entry"]`).Length())
		}
		if n := doc.Find(`[data-testid="picture"] svg`).Length(); n != 3 {
			t.Errorf("%d pictures, want events per minute, nodes over time and requests", n)
		}
		if n := doc.Find("script").Length(); n != 0 {
			t.Errorf("%d script elements on the page", n)
		}
		doc.Find("a").Each(func(_ int, a *goquery.Selection) {
			if href, _ := a.Attr("href"); strings.HasPrefix(strings.ToLower(strings.TrimSpace(href)), "javascript:") {
				t.Errorf("a javascript: link survived: %s", href)
			}
		})
		if !strings.Contains(doc.Text(), "<script>alert('event')</script>") {
			t.Errorf("the hostile event message is not shown as text")
		}

		// Filters in the URL.
		_, b = call(t, "GET", base+"/incidents/IL-0070?severity=critical", "", nil)
		page(t, b).Find(`[data-testid="entry"]`).Each(func(_ int, s *goquery.Selection) {
			if !s.HasClass("sev-critical") {
				t.Errorf("entry %q is not critical", s.Text())
			}
		})

		// A refused note keeps what was typed.
		bad := url.Values{"kind": {"hypothesis"}, "at": {"yesterday"}, "body": {"kept text"}, "csrf": {token}}
		status, b = call(t, "POST", base+"/incidents/IL-0070/notes", "application/x-www-form-urlencoded", strings.NewReader(bad.Encode()), cookie...)
		doc = page(t, b)
		if status != http.StatusUnprocessableEntity || doc.Find(`[data-testid="form-error"]`).Length() != 1 || doc.Find("textarea").Text() != "kept text" {
			t.Errorf("bad note: %d, error %q, body %q", status, doc.Find(`[data-testid="form-error"]`).Text(), doc.Find("textarea").Text())
		}
		if status, _ := call(t, "GET", base+"/incidents/nope", "", nil); status != 404 {
			t.Errorf("unknown incident page: %d", status)
		}
	})
}

// TestIncidentPageClaimsAndContext: a ticket's paste shows what its author claims, apart from
// the evidence and escaped, and the restarts that are background, apart from the symptoms.
func TestIncidentPageClaimsAndContext(t *testing.T) {
	t.Parallel()
	ticket := "The hub node's disk filled up and caused the evictions below <script>alert('claim')</script>.\n\n" +
		"```\n$ kubectl get pods -n jhub -o wide\n" +
		"NAME                    READY   STATUS    RESTARTS       AGE   IP         NODE\n" +
		"hub-7c9f8d6b5-x2x7k     0/1     Evicted   0              10h   <none>     node-1\n" +
		"```\n\n```\n$ kubectl get pods -n kube-system -o wide\n" +
		"NAME                   READY   STATUS    RESTARTS       AGE   IP         NODE\n" +
		"etcd-node-1            1/1     Running   1 (3h ago)     20d   10.0.0.1   node-1\n" +
		"kube-proxy-abcde       1/1     Running   1 (3h ago)     20d   10.0.0.1   node-1\n" +
		"kube-scheduler-node-1  1/1     Running   1 (3h ago)     20d   10.0.0.1   node-1\n```\n"
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "T-1", "title": "Evicted hub"}`)
		if status, b := call(t, "POST", base+"/api/v1/incidents/T-1/snapshots?name=ticket.md", "text/plain", strings.NewReader(ticket)); status != http.StatusCreated {
			t.Fatalf("upload: %d %s", status, b)
		}
		status, b := call(t, "GET", base+"/incidents/T-1", "", nil)
		if status != 200 {
			t.Fatalf("page: %d %s", status, b)
		}
		doc := page(t, b)
		claims := doc.Find(`[data-testid="claims"]`)
		if !strings.Contains(claims.Text(), "ticket.md:1") || !strings.Contains(claims.Text(), "node_disk_exhaustion") {
			t.Errorf("claims = %q", claims.Text())
		}
		if !strings.Contains(claims.Text(), "<script>alert('claim')</script>") || doc.Find("script").Length() != 0 {
			t.Errorf("the claim's markup is not shown as text")
		}
		if ctx := doc.Find(`[data-testid="context"]`).Text(); !strings.Contains(ctx, "3 system pods of node node-1 restarted once") {
			t.Errorf("context = %q", ctx)
		}
		for _, s := range doc.Find(`article[data-testid="symptom"] h3`).EachIter() {
			if strings.Contains(s.Text(), "container_restarted") {
				t.Errorf("a background restart is a symptom: %q", s.Text())
			}
		}
		if !strings.Contains(doc.Find(`article[data-testid="cause"]`).Text(), "author's claim") {
			t.Errorf("the disk cause does not cite the author's claim: %q", doc.Find(`article[data-testid="cause"]`).Text())
		}
	})
}
