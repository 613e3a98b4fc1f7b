package server_test

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

const reportIL0070 = `---
id: IL-0070
title: Hub restart during a large node scale-up
org: 2i2c
date: 2023-02-01
symptoms: [pod_evicted, pod_pending]
root_cause: capacity_exhaustion
causes: [capacity_exhaustion, shared_node_pool, shared_prometheus]
components: [{kind: NodePool, name: core}, {kind: Prometheus, name: support-prometheus-server}]
---
Prometheus load grows with the number of nodes.
`

func TestImportReports(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		url := base + "/api/v1/incidents/import"
		status, b := call(t, "POST", url+"?name=IL-0070.md", "text/markdown", strings.NewReader(reportIL0070))
		if status != http.StatusCreated || !strings.Contains(string(b), `"created":true`) {
			t.Fatalf("import: %d %s", status, b)
		}
		status, b = call(t, "POST", url+"?name=IL-0070.md", "text/markdown", strings.NewReader(reportIL0070))
		if status != http.StatusCreated || !strings.Contains(string(b), `"created":false`) {
			t.Errorf("re-import: %d %s", status, b)
		}
		// Several reports, one bad: nothing of them is imported.
		good := strings.Replace(reportIL0070, "IL-0070", "IL-0071", 1)
		bad := "---\nid: IL-0072\ntitle: t\ncauses: [bad_luck]\n---\n"
		body, ct := multipartBody(t, map[string][]byte{"IL-0071.md": []byte(good), "IL-0072.md": []byte(bad)}, "IL-0071.md", "IL-0072.md")
		status, b = call(t, "POST", url, ct, body)
		if status != http.StatusUnprocessableEntity || !strings.Contains(string(b), `"file":"IL-0072.md"`) || !strings.Contains(string(b), `"line":4`) {
			t.Errorf("bad report: %d %s", status, b)
		}
		if status, _ := call(t, "GET", base+"/api/v1/incidents/IL-0071", "", nil); status != http.StatusNotFound {
			t.Errorf("the good report of a refused request was imported: %d", status)
		}
		status, b = call(t, "GET", base+"/api/v1/incidents/IL-0070", "", nil)
		if status != 200 || !strings.Contains(string(b), "Hub restart") {
			t.Errorf("imported incident: %d %s", status, b)
		}
	})
}

// TestRelated imports IL-0070 and three relatives, and uploads a snapshot-only incident: the
// related list names those sharing capacity exhaustion, with the shared components in words,
// before those sharing only a component; the snapshot-only incident finds its relatives
// through its analysis.
func TestRelated(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		url := base + "/api/v1/incidents/import"
		docs := map[string]string{
			"IL-0070.md": reportIL0070,
			"A.md":       "---\nid: A\ntitle: pool and Prometheus\nroot_cause: capacity_exhaustion\ncauses: [capacity_exhaustion, shared_prometheus]\ncomponents: [{kind: NodePool, name: core-pool}, {kind: Prometheus, name: p}]\n---\n",
			"B.md":       "---\nid: B\ntitle: another pool\nroot_cause: capacity_exhaustion\ncauses: [capacity_exhaustion]\ncomponents: [{kind: NodePool, name: user}]\n---\n",
			"C.md":       "---\nid: C\ntitle: Prometheus only\nroot_cause: memory_limit_too_low\ncauses: [memory_limit_too_low]\ncomponents: [{kind: Prometheus, name: prom}]\n---\n",
		}
		files := map[string][]byte{}
		for k, v := range docs {
			files[k] = []byte(v)
		}
		body, ct := multipartBody(t, files, "IL-0070.md", "A.md", "B.md", "C.md")
		if status, b := call(t, "POST", url, ct, body); status != http.StatusCreated {
			t.Fatalf("import: %d %s", status, b)
		}
		status, b := call(t, "GET", base+"/api/v1/incidents/IL-0070/related", "", nil)
		got := string(b)
		a := strings.Index(got, `"reason":"same root cause · shared Node pool (same role: core), Prometheus"`)
		bb := strings.Index(got, `"reason":"same root cause"`) // a user pool is not the core pool
		c := strings.Index(got, `"reason":"shared Prometheus"`)
		if status != 200 || a < 0 || bb < 0 || c < 0 || !(a < bb && bb < c) {
			t.Errorf("related: %d %s", status, got)
		}
		if status, _ := call(t, "GET", base+"/api/v1/incidents/nope/related", "", nil); status != 404 {
			t.Errorf("unknown incident: %d", status)
		}

		status, b = call(t, "GET", base+"/incidents/IL-0070/related", "", nil)
		if status != 200 || strings.Count(string(b), `data-testid="related-row"`) != 3 || !strings.Contains(string(b), "same root cause · shared Node pool (same role: core), Prometheus") {
			t.Errorf("related page: %d %.300s", status, b)
		}

		// An incident known only from its snapshots relates through its analysis.
		createIncident(t, base, `{"id": "S", "title": "from snapshots"}`)
		snap := fixtures.IL0070Bytes(t)
		body, ct = multipartBody(t, snap, "events.json", "nodes.json", "pods.json")
		if status, b := call(t, "POST", base+"/api/v1/incidents/S/snapshots", ct, body); status != http.StatusCreated {
			t.Fatalf("upload: %d %s", status, b)
		}
		_, b = call(t, "GET", base+"/api/v1/incidents/S/related", "", nil)
		if !strings.Contains(string(b), `"id":"IL-0070"`) || !strings.Contains(string(b), `"relation":"same root cause"`) {
			t.Errorf("snapshot-only incident: %s", b)
		}
		// Its analysis signature, stored on upload, makes it a relative of the imported ones.
		_, b = call(t, "GET", base+"/api/v1/incidents/IL-0070/related", "", nil)
		if !strings.Contains(string(b), `"id":"S","title":"from snapshots","relation":"same root cause"`) {
			t.Errorf("IL-0070 does not find the snapshot-only incident: %s", b)
		}
	})
}

func TestSearch(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		docs := map[string][]byte{
			"IL-0070.md": []byte(reportIL0070),
			"A.md":       []byte("---\nid: A\ntitle: pool and Prometheus\nroot_cause: capacity_exhaustion\ncauses: [capacity_exhaustion, shared_prometheus]\n---\nThe scrape load doubled.\n"),
			"C.md": []byte("---\nid: C\ntitle: DNS outage\norg: Zalando\ndate: 2019-01-07\nsymptoms: [oom_killed]\nroot_cause: memory_limit_too_low\n" +
				"causes: [memory_limit_too_low]\ncomponents: [{kind: DNS, name: coredns}]\n---\nCoreDNS at 100% of its limit.\n"),
		}
		body, ct := multipartBody(t, docs, "A.md", "C.md", "IL-0070.md")
		if status, b := call(t, "POST", base+"/api/v1/incidents/import", ct, body); status != http.StatusCreated {
			t.Fatalf("import: %d %s", status, b)
		}
		call(t, "POST", base+"/api/v1/incidents/C/notes", "application/json", strings.NewReader(`{"body": "The kubelet was restarting everything on Tuesday, and Prometheus saw it"}`))
		tests := []struct {
			query string
			want  []string // in the order of the answer
		}{
			{"cause=shared_prometheus", []string{"A", "IL-0070"}},
			{"symptom=pod_evicted", []string{"IL-0070"}},
			{"component=DNS", []string{"C"}},
			{"component=NodePool", []string{"IL-0070"}},
			{"org=zalando", []string{"C"}},
			{"org=2i2c&from=2023-02-01&to=2023-02-01", []string{"IL-0070"}},
			{"from=2019-01-01&to=2020-01-01", []string{"C"}},
			{"q=prometheus+load", []string{"A", "IL-0070"}}, // every word: A has them in its title and text
			{"q=prometheus", []string{"A", "IL-0070", "C"}}, // ranked: the title first, then the report, then a note
			{"q=load+grows", []string{"IL-0070"}},
			{"q=SCRAPE", []string{"A"}},
			{"q=scraping+doubling", []string{"A"}}, // stemmed
			{"q=tuesday", []string{"C"}},           // a word only one of its notes holds
			{"q=restarted+kubelet", []string{"C"}},
			{"q=100%25", []string{"C"}},
			{"q=10_%25", nil},
			{"q=%22%29%28*+OR+NEAR", nil},                                  // query syntax of neither database gets through
			{"cause=capacity_exhaustion&q=pool", []string{"A", "IL-0070"}}, // the title first, then a node pool of the signature
		}
		_, page := call(t, "GET", base+"/", "", nil)
		if !strings.Contains(string(page), "capacity exhaustion: 2 incidents") {
			t.Errorf("library page with counts: %.600s", page)
		}
		// The counts are those of what the search finds.
		_, page = call(t, "GET", base+"/?cause=memory_limit_too_low", "", nil)
		if !strings.Contains(string(page), "memory limit too low: 1 incident") || strings.Contains(string(page), "capacity exhaustion:") ||
			!strings.Contains(string(page), `<option value="memory_limit_too_low" selected`) || strings.Count(string(page), `data-testid="incident-row"`) != 1 {
			t.Errorf("library page with counts and a cause filter: %.600s", page)
		}
		for _, tt := range tests {
			t.Run(tt.query, func(t *testing.T) {
				status, b := call(t, "GET", base+"/api/v1/incidents?"+tt.query, "", nil)
				var list []struct{ ID string }
				if err := json.Unmarshal(b, &list); err != nil {
					t.Fatalf("%d %s: %v", status, b, err)
				}
				var got []string
				for _, in := range list {
					got = append(got, in.ID)
				}
				if !strings.Contains(tt.query, "q=") {
					sort.Strings(got) // newest first: the import's order, which is not the test's
				}
				if status != 200 || strings.Join(got, ",") != strings.Join(tt.want, ",") {
					t.Errorf("%d: got %v, want %v", status, got, tt.want)
				}
			})
		}
	})
}

// TestImportedReportPage: an incident imported from a report, with no snapshot, shows on its
// page the report's text rendered (and sanitised), its root cause, contributing causes,
// components, organisation, date and source, and its notes; an incident without a report has
// no report section.
func TestImportedReportPage(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		report := "---\nid: IL-0042\ntitle: Prometheus evicted the hub\norg: Example Org\ndate: 2024-05-06\n" +
			"symptoms: [pod_evicted]\nroot_cause: capacity_exhaustion\ncauses: [capacity_exhaustion, shared_prometheus]\n" +
			"components: [{kind: NodePool, name: core}, {kind: Prometheus, name: prometheus-server}]\n" +
			"source: https://example.org/postmortems/42\n---\n## What happened\n\nThe hub was **evicted** <script>alert(1)</script>.\n"
		if status, b := call(t, "POST", base+"/api/v1/incidents/import", "text/markdown", strings.NewReader(report)); status != http.StatusCreated {
			t.Fatalf("import: %d %s", status, b)
		}
		call(t, "POST", base+"/api/v1/incidents/IL-0042/notes", "application/json", strings.NewReader(`{"body": "Checked the *core* pool", "author": "ana"}`))
		createIncident(t, base, `{"id": "plain", "title": "No report"}`)

		status, b := call(t, "GET", base+"/incidents/IL-0042", "", nil)
		if status != http.StatusOK {
			t.Fatalf("page: %d %s", status, b)
		}
		doc := page(t, b)
		sec := doc.Find(`[data-testid="report"]`)
		if sec.Length() != 1 {
			t.Fatalf("no report section on the page of an imported incident")
		}
		for sel, want := range map[string]string{
			`[data-testid="report-root-cause"]`:  "Capacity exhausted",
			`[data-testid="report-causes"]`:      "Shared Prometheus",
			`[data-testid="report-symptoms"]`:    "Pod evicted",
			`[data-testid="report-components"]`:  "Node pool core, Prometheus prometheus-server",
			`[data-testid="report-org"]`:         "Example Org",
			`[data-testid="report-date"]`:        "2024-05-06",
			`[data-testid="report-text"] h2`:     "What happened",
			`[data-testid="report-text"] strong`: "evicted",
		} {
			if got := strings.Join(strings.Fields(sec.Find(sel).Text()), " "); got != want {
				t.Errorf("%s = %q, want %q", sel, got, want)
			}
		}
		if href, _ := sec.Find(`[data-testid="report-source"] a`).Attr("href"); href != "https://example.org/postmortems/42" {
			t.Errorf("source link = %q", href)
		}
		if doc.Find("script").Length() != 0 {
			t.Errorf("the report's script element reached the page")
		}
		if got := doc.Find(`[data-testid="note"] em`).Text(); got != "core" {
			t.Errorf("the note is not shown with the report: %q", got)
		}
		if doc.Find(`[data-testid="no-analysis"]`).Length() != 1 || strings.Contains(doc.Find(`[data-testid="causes"]`).Text(), "No cause found") {
			t.Errorf("the causes section of an incident known only from its report: %q", doc.Find(`[data-testid="causes"]`).Text())
		}
		_, b = call(t, "GET", base+"/incidents/plain", "", nil)
		if page(t, b).Find(`[data-testid="report"]`).Length() != 0 {
			t.Errorf("an incident without a report has a report section")
		}
	})
}
