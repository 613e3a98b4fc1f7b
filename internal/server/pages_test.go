package server_test

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// libraryDocs are reports that write their causes in different ways.
var libraryDocs = map[string]string{
	"A.md": "---\nid: A\ntitle: Hub OOMKilled twice\ndate: 2024-01-05\nroot_cause: memory_limit_too_low\ncauses: [memory_limit_too_low]\n---\nThe hub's limit was 1Gi.\n",
	"B.md": "---\nid: B\ntitle: Proxy restarts\ndate: 2023-01-04\nroot_cause: memory_limit_too_low\ncauses: [memory_limit_too_low]\n---\n" +
		"The proxy <script>x</script> was OOM killed at 09:12.\n",
	"C.md": "---\nid: C\ntitle: Notebooks died\ndate: 2025-01-03\nroot_cause: memory_over_request\ncauses: [memory_over_request, node_overcommitted]\n---\nKernel logs said oom.\n",
	"D.md": "---\nid: D\ntitle: Nodes NotReady\ndate: 2022-06-01\nroot_cause: node_overcommitted\ncauses: [node_overcommitted]\nsymptoms: [node_not_ready]\n---\nKubelet stalls.\n",
	"E.md": "---\nid: E\ntitle: Quiet day\ndate: 2021-06-01\n---\nNothing to see.\n",
}

func importDocs(t *testing.T, base string, docs map[string]string) {
	t.Helper()
	files := map[string][]byte{}
	var order []string
	for k, v := range docs {
		files[k] = []byte(v)
		order = append(order, k)
	}
	body, ct := multipartBody(t, files, order...)
	if status, b := call(t, "POST", base+"/api/v1/incidents/import", ct, body); status != http.StatusCreated {
		t.Fatalf("import: %d %s", status, b)
	}
}

// TestLibrarySearchPage: the library's search through the router, on both databases. The API
// lists by the incidents' own dates, newest first, with their root causes; a search finds a
// cause however it is written, says how many it found (X-Total-Count) and why each matched (a
// snippet, escaped, the words in <mark>). The page shows the same, and each cause chip's count
// is what the page its link leads to finds.
func TestLibrarySearchPage(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		importDocs(t, base, libraryDocs)
		type item struct {
			ID        string `json:"id"`
			Date      string `json:"date"`
			RootCause string `json:"root_cause"`
			Match     *struct{ In, Snippet string }
		}
		list := func(query string) ([]item, int) {
			t.Helper()
			req, _ := http.NewRequest("GET", base+"/api/v1/incidents?"+query, nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var out []item
			if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != 200 {
				t.Fatalf("%s: %d %v", query, resp.StatusCode, err)
			}
			total, err := strconv.Atoi(resp.Header.Get("X-Total-Count"))
			if err != nil {
				t.Fatalf("%s: X-Total-Count %q", query, resp.Header.Get("X-Total-Count"))
			}
			return out, total
		}
		all, total := list("")
		var got []string
		for _, in := range all {
			got = append(got, in.ID+" "+in.Date+" "+in.RootCause)
		}
		want := []string{"C 2025-01-03 memory_over_request", "A 2024-01-05 memory_limit_too_low", "B 2023-01-04 memory_limit_too_low",
			"D 2022-06-01 node_overcommitted", "E 2021-06-01 "}
		if diff := cmp.Diff(want, got); diff != "" || total != 5 {
			t.Errorf("the list by date, newest first (total %d) (-want +got):\n%s", total, diff)
		}
		if _, total := list("limit=2"); total != 5 {
			t.Errorf("X-Total-Count with limit=2: %d, want 5", total)
		}
		tests := []struct {
			query   string
			want    []string // sorted
			snippet map[string]string
		}{
			{"q=OOMKilled", []string{"A", "B", "C"}, map[string]string{"B": "The proxy &lt;script&gt;x&lt;/script&gt; was <mark>OOM</mark> <mark>killed</mark> at 09:12."}},
			{"q=oom", []string{"A", "B", "C"}, map[string]string{"A": "Hub <mark>OOMKilled</mark> twice", "C": "Kernel logs said <mark>oom</mark>."}},
			{"q=OOM+killed", []string{"A", "B", "C"}, nil},
			{"q=not+ready", []string{"D"}, map[string]string{"D": "Nodes <mark>NotReady</mark>"}},
			{"q=NotReady", []string{"D"}, nil},
			{"q=oom&cause=node_overcommitted", []string{"C"}, nil},
		}
		for _, tt := range tests {
			t.Run(tt.query, func(t *testing.T) {
				found, total := list(tt.query)
				var ids []string
				for _, in := range found {
					ids = append(ids, in.ID)
					if in.Match == nil || !strings.Contains(in.Match.Snippet, "<mark>") {
						t.Errorf("%s matched without saying why: %+v", in.ID, in.Match)
					} else if w, ok := tt.snippet[in.ID]; ok && in.Match.Snippet != w {
						t.Errorf("%s: snippet %q, want %q", in.ID, in.Match.Snippet, w)
					}
				}
				sort.Strings(ids)
				if diff := cmp.Diff(tt.want, ids); diff != "" || total != len(tt.want) {
					t.Errorf("found %d (-want +got):\n%s", total, diff)
				}
			})
		}

		// The page: the total, the chips of what was found, each leading to as many incidents.
		pageTotal := func(path string) (*goquery.Document, int) {
			t.Helper()
			status, b := call(t, "GET", base+path, "", nil)
			if status != 200 {
				t.Fatalf("%s: %d", path, status)
			}
			doc := page(t, b)
			n, err := strconv.Atoi(strings.Fields(doc.Find(`[data-testid="total"]`).Text())[0])
			if err != nil {
				t.Fatalf("%s: total %q", path, doc.Find(`[data-testid="total"]`).Text())
			}
			if rows := doc.Find(`[data-testid="incident-row"]`).Length(); rows != n {
				t.Errorf("%s: %d rows, total %d", path, rows, n)
			}
			return doc, n
		}
		for _, path := range []string{"/", "/?q=oom", "/?q=not+ready", "/?q=oom&from=2024-01-01"} {
			doc, _ := pageTotal(path)
			doc.Find(`[data-testid="cause-chip"]`).Each(func(_ int, chip *goquery.Selection) {
				href, _ := chip.Attr("href")
				count, _ := chip.Attr("data-count")
				if _, n := pageTotal(href); strconv.Itoa(n) != count {
					t.Errorf("%s: chip %q says %s, its page %s finds %d", path, chip.Text(), count, href, n)
				}
			})
		}
		doc, _ := pageTotal("/?q=" + url.QueryEscape("OOM killed"))
		row := doc.Find(`[data-testid="incident-row"][data-id="B"]`)
		if got := row.Find(`[data-testid="match"] mark`).Text(); got != "OOMkilled" {
			t.Errorf("B's marked words: %q", got)
		}
		if in, _ := row.Find(`[data-testid="match"]`).Attr("data-in"); in != "report" || !strings.Contains(row.Text(), "in the report") {
			t.Errorf("B matched in %q: %q", in, row.Text())
		}
		if got := row.Find(`[data-testid="root-cause"]`).Text(); got != "Memory limit too low" {
			t.Errorf("B's root cause on the page: %q", got)
		}
		if doc.Find("script").Length() != 0 {
			t.Errorf("a report's script reached the page through its snippet")
		}
	})
}

// TestRelatedScoreParts: the related API and page show each score with its parts (the base of
// the same root cause and the three shared fractions), and say how node pools are shared: the
// same pool of the same cluster, or pools of the same role.
func TestRelatedScoreParts(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		importDocs(t, base, map[string]string{
			"T.md": "---\nid: T\ntitle: target\ncluster: leap\nsymptoms: [pod_pending]\nroot_cause: capacity_exhaustion\ncauses: [capacity_exhaustion, shared_prometheus]\n" +
				"components: [{kind: NodePool, name: pool-7}, {kind: Prometheus, name: prom}]\n---\n",
			"S.md": "---\nid: S\ntitle: same pool, same cluster\ncluster: leap\nsymptoms: [pod_pending]\nroot_cause: capacity_exhaustion\ncauses: [capacity_exhaustion]\n" +
				"components: [{kind: NodePool, name: pool-7}]\n---\n",
			"O.md": "---\nid: O\ntitle: the same name on another cluster\ncluster: other\nroot_cause: capacity_exhaustion\ncauses: [capacity_exhaustion]\n" +
				"components: [{kind: NodePool, name: pool-7}]\n---\n",
			"P.md": "---\nid: P\ntitle: Prometheus, another cause\nroot_cause: preemption\ncauses: [preemption]\ncomponents: [{kind: Prometheus, name: p}]\n---\n",
		})
		var rel []struct {
			ID, Relation, Reason string
			Score                float64
			Shared               []string
			Pools                []struct{ How, Pool, Other, Cluster, Role string }
			Parts                struct{ Base, Weight, Causes, Symptoms, Components float64 }
		}
		status, b := call(t, "GET", base+"/api/v1/incidents/T/related", "", nil)
		if err := json.Unmarshal(b, &rel); err != nil || status != 200 || len(rel) != 3 {
			t.Fatalf("related: %d %s (%v)", status, b, err)
		}
		s, o, p := rel[0], rel[1], rel[2]
		if s.ID != "S" || s.Reason != "same root cause · shared Node pool (same pool pool-7 of cluster leap)" || len(s.Pools) != 1 ||
			s.Pools[0].How != "same pool" || s.Pools[0].Cluster != "leap" {
			t.Errorf("S: %+v", s)
		}
		// causes 1/2, symptoms 1/1, components {NodePool@leap/pool-7} of {it, Prometheus}: 1/2.
		if s.Parts.Base != 1 || s.Parts.Weight != 1 || s.Parts.Causes != 0.5 || s.Parts.Symptoms != 1 || s.Parts.Components != 0.5 || math.Abs(s.Score-(1+2.0/3)) > 1e-9 {
			t.Errorf("S's score %v and parts %+v", s.Score, s.Parts)
		}
		if o.ID != "O" || o.Reason != "same root cause" || len(o.Shared) != 0 || o.Parts.Components != 0 {
			t.Errorf("O (pool-7 of another cluster, a pool of no role): %+v", o)
		}
		if p.ID != "P" || p.Relation != "shared component" || p.Parts.Base != 0 || p.Parts.Weight != 0.5 || math.Abs(p.Score-0.5*0.5/3) > 1e-9 {
			t.Errorf("P: %+v", p)
		}
		status, b = call(t, "GET", base+"/incidents/T/related", "", nil)
		doc := page(t, b)
		parts := doc.Find(`[data-testid="related-row"]`).First().Find(`[data-testid="score-parts"]`)
		if status != 200 || parts.Text() != "= 1 for the same root cause + (causes 0.50 + symptoms 1.00 + components 0.50) / 3" {
			t.Errorf("the page's score parts: %d %q", status, parts.Text())
		}
		if got := doc.Find(`[data-testid="related-row"]`).First().Find(`[data-testid="score"]`).Text(); got != "score 1.67" {
			t.Errorf("the page's score: %q", got)
		}
	})
}

// TestExportOfSnapshotIncident: an incident known from its snapshots exports with the
// signature and a text of their analysis and its notes; imported into another library, it
// exports to the same bytes, and its page shows the report.
func TestExportOfSnapshotIncident(t *testing.T) {
	t.Parallel()
	files := fixtures.IL0070Bytes(t)
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "S", "title": "from snapshots", "cluster": "leap", "started_at": "2023-02-01T16:59:00Z"}`)
		body, ct := multipartBody(t, files, "events.json", "nodes.json", "pods.json")
		if status, b := call(t, "POST", base+"/api/v1/incidents/S/snapshots", ct, body); status != http.StatusCreated {
			t.Fatalf("upload: %d %s", status, b)
		}
		call(t, "POST", base+"/api/v1/incidents/S/notes", "application/json", strings.NewReader(`{"at": "2023-02-01T17:20:00Z", "author": "yuvi", "body": "Grafana: memory steady"}`))
		_, first := call(t, "GET", base+"/api/v1/incidents/S/export?format=md", "", nil)
		for _, want := range []string{"root_cause: capacity_exhaustion", "cluster: leap", "started_at: \"2023-02-01T16:59:00Z\"", "body: 'Grafana: memory steady'", "## Causes"} {
			if !strings.Contains(string(first), want) {
				t.Errorf("export lacks %q:\n%s", want, first)
			}
		}
		other, err := store.Open(t.Context(), mustTarget(t, storetest.Fresh(t, b)), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		if err := other.Migrate(t.Context()); err != nil {
			t.Fatal(err)
		}
		base2 := newServer(t, other, testConfig())
		if status, b := call(t, "POST", base2+"/api/v1/incidents/import?name=S.md", "text/markdown", strings.NewReader(string(first))); status != http.StatusCreated {
			t.Fatalf("import: %d %s", status, b)
		}
		_, second := call(t, "GET", base2+"/api/v1/incidents/S/export?format=md", "", nil)
		if string(first) != string(second) {
			t.Errorf("the export changed through an import:\n%s\n---- then ----\n%s", first, second)
		}
		_, pg := call(t, "GET", base2+"/incidents/S", "", nil)
		if got := page(t, pg).Find(`[data-testid="report-root-cause"]`).Text(); got != "Capacity exhausted" {
			t.Errorf("the imported export's page: root cause %q", got)
		}
	})
}

func mustTarget(t *testing.T, database string) store.Target {
	t.Helper()
	tg, err := store.ParseTarget(database)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// TestRelatedRefreshesAnalysis: an incident whose analysis changed without an upload (what the
// collector streamed, or a stored signature from before) relates by its analysis now, and
// stores it, so that the others find it under its root cause too.
func TestRelatedRefreshesAnalysis(t *testing.T) {
	t.Parallel()
	files := fixtures.IL0070Bytes(t)
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		importDocs(t, base, map[string]string{"R.md": "---\nid: R\ntitle: report\nroot_cause: capacity_exhaustion\ncauses: [capacity_exhaustion]\n---\n"})
		createIncident(t, base, `{"id": "S", "title": "from snapshots"}`)
		body, ct := multipartBody(t, files, "events.json", "nodes.json", "pods.json")
		if status, b := call(t, "POST", base+"/api/v1/incidents/S/snapshots", ct, body); status != http.StatusCreated {
			t.Fatalf("upload: %d %s", status, b)
		}
		settled(t, base) // the upload's signature refresh, made after its 201, is done
		// A stale stored analysis: the lookup from R misses S.
		stale := incident.Signature{RootCause: "preemption", Causes: []string{"preemption"}}
		if err := st.SetAnalysisSignature(t.Context(), "S", stale); err != nil {
			t.Fatal(err)
		}
		if _, b := call(t, "GET", base+"/api/v1/incidents/R/related", "", nil); strings.Contains(string(b), `"id":"S"`) {
			t.Fatalf("the stale signature did not hide S: %s", b)
		}
		if _, b := call(t, "GET", base+"/api/v1/incidents/S/related", "", nil); !strings.Contains(string(b), `"id":"R","title":"report","relation":"same root cause"`) {
			t.Errorf("S relates by its analysis now: %s", b)
		}
		if _, b := call(t, "GET", base+"/api/v1/incidents/R/related", "", nil); !strings.Contains(string(b), `"id":"S"`) {
			t.Errorf("R does not find S once S's analysis is stored again: %s", b)
		}
	})
}

// TestRelatedEverySameRoot: every incident with the same root cause is related, however many
// (the API lists all of them; the page pages through them), and the best 50 (limit=) of those
// that share only a component follow.
func TestRelatedEverySameRoot(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		docs := map[string]string{"T.md": "---\nid: T\ntitle: target\nroot_cause: capacity_exhaustion\ncauses: [capacity_exhaustion]\n" +
			"components: [{kind: Prometheus, name: prom}]\n---\n"}
		for i := range 130 { // nothing shared but the root cause
			docs[fmt.Sprintf("R%03d.md", i)] = fmt.Sprintf("---\nid: R%03d\ntitle: r\nroot_cause: capacity_exhaustion\ncauses: [capacity_exhaustion, preemption]\n---\n", i)
		}
		for i := range 60 {
			docs[fmt.Sprintf("P%03d.md", i)] = fmt.Sprintf("---\nid: P%03d\ntitle: p\nroot_cause: preemption\ncauses: [preemption]\ncomponents: [{kind: Prometheus, name: p}]\n---\n", i)
		}
		importDocs(t, base, docs)
		var rel []struct{ ID, Relation string }
		_, b := call(t, "GET", base+"/api/v1/incidents/T/related", "", nil)
		if err := json.Unmarshal(b, &rel); err != nil {
			t.Fatal(err)
		}
		per := map[string]int{}
		for _, r := range rel {
			per[r.Relation]++
		}
		if per["same root cause"] != 130 || per["shared component"] != 50 {
			t.Errorf("related: %v, want all 130 of the same root cause and the best 50 of the others", per)
		}
		_, b = call(t, "GET", base+"/api/v1/incidents/T/related?limit=5", "", nil)
		rel = nil
		if err := json.Unmarshal(b, &rel); err != nil || len(rel) != 135 {
			t.Errorf("limit=5: %d related, want 130 + 5 (%v)", len(rel), err)
		}
		seen := 0
		for path := "/incidents/T/related"; path != ""; {
			status, b := call(t, "GET", base+path, "", nil)
			doc := page(t, b)
			n := doc.Find(`[data-testid="related-row"]`).Length()
			if status != 200 || n == 0 || n > 100 {
				t.Fatalf("%s: %d, %d rows", path, status, n)
			}
			seen += n
			path, _ = doc.Find(`[data-testid="related-next"]`).Attr("href")
		}
		if seen != 180 {
			t.Errorf("the pages show %d related incidents, want 180", seen)
		}
	})
}
