package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
	"github.com/rootline-dev/rootline/internal/synth"
)

// row is a timeline row as the API answers it.
type row struct {
	At      time.Time      `json:"at"`
	Type    string         `json:"type"`
	Kind    string         `json:"kind"`
	Summary string         `json:"summary"`
	Pool    string         `json:"pool"`
	Count   int            `json:"count"`
	Ref     string         `json:"ref"`
	Links   []string       `json:"links"`
	AtFrom  string         `json:"at_from"`
	Members int            `json:"members"`
	Kinds   map[string]int `json:"kinds"`
	Parent  string         `json:"parent"`
}

// getRows reads a timeline answer: its status, rows and X-Total-Count.
func getRows(t *testing.T, u string) (int, []row, int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(resp.Body); err != nil {
		t.Fatal(err)
	}
	var rows []row
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(b.Bytes(), &rows); err != nil {
			t.Fatalf("%s: %v: %.300s", u, err, b.String())
		}
	}
	total, _ := strconv.Atoi(resp.Header.Get("X-Total-Count"))
	return resp.StatusCode, rows, total, b.String()
}

// uploadDir creates an incident and uploads the kubectl output of a folder to it.
func uploadDir(t *testing.T, base, id string, files map[string][]byte) {
	t.Helper()
	createIncident(t, base, `{"id": "`+id+`", "title": "`+id+`"}`)
	body, ct := multipartBody(t, files, "events.json", "nodes.json", "pods.json")
	if status, b := call(t, "POST", base+"/api/v1/incidents/"+id+"/snapshots", ct, body); status != http.StatusCreated {
		t.Fatalf("upload %s: %d %s", id, status, b)
	}
}

// TestTimelineCollapse reads timelines through the router: routine rows folded into bursts and
// a symptom's evidence into one row under it (under a grouping too), each burst's, each fold's
// and each symptom group's members listed and paged with expand, symptoms never folded, every row with a real time, the filters still selecting, and the page
// showing the same rows with links to expand them (its pager: TestTimelineSection).
func TestTimelineCollapse(t *testing.T) {
	t.Parallel()
	il := fixtures.IL0070Bytes(t)
	small := map[string][]byte{}
	o := synth.Options{Pods: 300, Events: 750, Seed: 7}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"nodes.json":  func(b *bytes.Buffer) error { return synth.WriteNodeList(b, o) },
		"pods.json":   func(b *bytes.Buffer) error { return synth.WritePodList(b, o) },
		"events.json": func(b *bytes.Buffer) error { return synth.WriteEventList(b, o) },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		small[name] = b.Bytes()
	}
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		uploadDir(t, base, "IL-0070", il)
		uploadDir(t, base, "S300", small)
		api := func(id, query string) string { return base + "/api/v1/incidents/" + id + "/timeline" + query }

		// The scale-up's burst of nodes, as the default view shows it.
		_, nodes, _, _ := getRows(t, api("IL-0070", "?type=node"))
		var burst row
		for _, r := range nodes {
			if strings.HasPrefix(r.Ref, "burst-nodes-dask-pool-") && r.Members > burst.Members {
				burst = r
			}
		}
		if burst.Members < 90 || !strings.HasPrefix(burst.Summary, "+"+strconv.Itoa(burst.Members)+" nodes in pool dask-pool, 17:01") ||
			burst.Kinds["NodeAdded"] != burst.Members || burst.Pool != "dask-pool" {
			t.Fatalf("no burst of the scale-up's nodes: %+v", burst)
		}
		// The rows cited by the symptom of the nodes not ready, folded into one.
		_, all, _, _ := getRows(t, api("IL-0070", ""))
		var notReady row
		for _, r := range all {
			if r.Members > notReady.Members && r.Kinds["NodeNotReady"] > 0 && !strings.HasPrefix(r.Ref, "burst-") {
				notReady = r
			}
		}
		// A symptom group of the synthetic cluster.
		_, symptoms, _, _ := getRows(t, api("S300", "?type=symptom"))
		var group row
		for _, r := range symptoms {
			if r.Members > 1 {
				group = r
				break
			}
		}
		if group.Ref == "" {
			t.Fatalf("no symptom group among %d symptoms", len(symptoms))
		}

		scenarios := []struct {
			name, id, query string
			status          int
			check           func(t *testing.T, rows []row, total int, body string)
		}{
			{"routine rows folded", "IL-0070", "?type=node", 200, func(t *testing.T, rows []row, total int, _ string) {
				if total >= 126 || total != len(rows) {
					t.Errorf("%d node rows (total %d) for 126 nodes and more changes: nothing folded", len(rows), total)
				}
			}},
			{"every row", "IL-0070", "?type=node&collapse=off&limit=5000", 200, func(t *testing.T, rows []row, total int, _ string) {
				want := 0
				for _, r := range nodes {
					want += max(r.Members, 1)
				}
				if total != want || len(rows) != total {
					t.Errorf("%d rows (total %d), want the %d rows the %d folded rows stand for", len(rows), total, want, len(nodes))
				}
				for _, r := range rows {
					if r.Members > 0 {
						t.Errorf("a folded row with collapse=off: %+v", r)
					}
				}
			}},
			{"a burst expanded", "IL-0070", "?expand=" + burst.Ref, 200, func(t *testing.T, rows []row, total int, _ string) {
				if total != burst.Members || len(rows) != total {
					t.Fatalf("%d rows (total %d), want the burst's %d", len(rows), total, burst.Members)
				}
				for _, r := range rows {
					if r.Kind != "NodeAdded" || r.Pool != "dask-pool" || len(r.Links) > 0 || r.At.Before(burst.At) {
						t.Errorf("member %+v does not belong to %s", r, burst.Ref)
					}
				}
			}},
			{"a burst paged through", "IL-0070", "?expand=" + burst.Ref + "&offset=" + strconv.Itoa(burst.Members-2) + "&limit=5", 200,
				func(t *testing.T, rows []row, total int, _ string) {
					if total != burst.Members || len(rows) != 2 {
						t.Errorf("%d rows of %d, want the last 2", len(rows), total)
					}
				}},
			{"a symptom group expanded", "S300", "?expand=" + group.Ref, 200, func(t *testing.T, rows []row, total int, _ string) {
				if total != group.Members || len(rows) != total {
					t.Fatalf("%d rows (total %d), want the group's %d members", len(rows), total, group.Members)
				}
				for _, r := range rows {
					if r.Parent != group.Ref || r.Type != "symptom" || r.At.IsZero() {
						t.Errorf("member %+v of %s", r, group.Ref)
					}
				}
			}},
			{"members are not rows of the timeline", "S300", "?type=symptom&limit=5000", 200, func(t *testing.T, rows []row, _ int, _ string) {
				for _, r := range rows {
					if r.Parent != "" {
						t.Errorf("member %s listed without its group expanded", r.Ref)
					}
				}
			}},
			{"evidence and symptoms stay, every row dated", "IL-0070", "?limit=5000", 200, func(t *testing.T, rows []row, _ int, _ string) {
				cited, borrowed := 0, 0
				for _, r := range rows {
					if r.At.Year() < 2000 {
						t.Errorf("row without a real time: %+v", r)
					}
					if r.AtFrom != "" {
						borrowed++
						if !strings.Contains(r.Summary, "(time from "+r.AtFrom+")") {
							t.Errorf("%s borrows its time from %q and does not say so: %q", r.Ref, r.AtFrom, r.Summary)
						}
					}
					if r.Members > 0 && r.Type != "symptom" && r.Type != "cause" {
						// A burst folds routine rows; a symptom's or cause's fold, the rows citing it first.
						_, members, _, _ := getRows(t, api("IL-0070", "?limit=5000&expand="+url.QueryEscape(r.Ref)))
						burst := strings.HasPrefix(r.Ref, "burst-")
						for _, m := range members {
							if m.Type == "symptom" || m.Type == "cause" || m.Kind == "Evicted" || (burst && len(m.Links) > 0) ||
								(!burst && (len(m.Links) == 0 || m.Links[0] != r.Ref)) {
								t.Errorf("%s folds %+v", r.Ref, m)
							}
						}
						if !burst {
							cited += len(members)
						}
					}
					if (r.Type == "event" || r.Type == "node") && len(r.Links) > 0 && r.Members == 0 {
						cited++
					}
				}
				if cited < 10 || borrowed == 0 {
					t.Errorf("%d rows cited as evidence, %d with a borrowed time: want both", cited, borrowed)
				}
			}},
			{"a filter selects before folding", "IL-0070", "?kind=Scheduled", 200, func(t *testing.T, rows []row, _ int, _ string) {
				if len(rows) == 0 {
					t.Fatal("no Scheduled row")
				}
				for _, r := range rows {
					if r.Kind != "Scheduled" || (r.Members > 0 && r.Kinds["Scheduled"] != r.Count) {
						t.Errorf("row %+v is not of Scheduled events only", r)
					}
				}
			}},
			{"the evicted timeline folds to at most 40 rows", "IL-0070", "", 200, func(t *testing.T, rows []row, total int, _ string) {
				if total > 40 || len(rows) != total {
					t.Errorf("%d rows (total %d), want at most 40", len(rows), total)
				}
				for _, r := range rows {
					if r.Kind == "NodeNotReady" && r.Members == 0 {
						t.Errorf("a node not ready is a row of its own: %+v", r)
					}
				}
			}},
			{"a symptom's evidence expanded", "IL-0070", "?expand=" + notReady.Ref, 200, func(t *testing.T, rows []row, total int, _ string) {
				if total != notReady.Members || len(rows) != total || total < 96 {
					t.Fatalf("%d rows (total %d), want the %d the fold stands for", len(rows), total, notReady.Members)
				}
				for _, r := range rows {
					if r.Kind != "NodeNotReady" || len(r.Links) == 0 || r.Links[0] != notReady.Ref {
						t.Errorf("%+v is not evidence of %s", r, notReady.Ref)
					}
				}
			}},
			{"grouping keeps the folds", "IL-0070", "?group=node", 200, func(t *testing.T, rows []row, total int, _ string) {
				bursts, folds := 0, 0
				for _, r := range rows {
					if strings.HasPrefix(r.Ref, "burst-") {
						bursts++
					} else if r.Members > 0 && r.Type != "symptom" && r.Type != "cause" {
						folds++
					}
				}
				if total > 40 || bursts == 0 || folds == 0 {
					t.Errorf("group=node: %d rows, %d bursts, %d folds of evidence: want at most 40, both folded", total, bursts, folds)
				}
			}},
			{"grouping events alone", "IL-0070", "?type=event&group=namespace&collapse=off", 200, func(t *testing.T, rows []row, _ int, _ string) {
				for _, r := range rows {
					if r.Members > 0 {
						t.Errorf("a folded row with collapse=off: %+v", r)
					}
				}
			}},
			{"nothing to expand", "IL-0070", "?expand=burst-nodes-nowhere-20230201T170000Z", 404, func(t *testing.T, _ []row, _ int, body string) {
				if !strings.Contains(body, `expand=\"burst-nodes-nowhere-20230201T170000Z\"`) {
					t.Errorf("error does not name the row: %s", body)
				}
			}},
			{"bad collapse", "IL-0070", "?collapse=maybe", 400, func(t *testing.T, _ []row, _ int, body string) {
				if !strings.Contains(body, "collapse=") {
					t.Errorf("error does not name the field: %s", body)
				}
			}},
		}
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) {
				status, rows, total, body := getRows(t, api(sc.id, sc.query))
				if status != sc.status {
					t.Fatalf("status %d, want %d: %.300s", status, sc.status, body)
				}
				sc.check(t, rows, total, body)
			})
		}

		// Every row a view folds expands, in that view, into the rows it stands for.
		for _, view := range []string{"", "?group=node", "?group=namespace", "?type=node", "?type=event", "?severity=warning", "?namespace=prod"} {
			_, rows, _, _ := getRows(t, api("IL-0070", view))
			for _, r := range rows {
				if r.Members == 0 {
					continue
				}
				q := "?expand=" + url.QueryEscape(r.Ref) + "&limit=5000"
				if view != "" {
					q += "&" + view[1:]
				}
				status, members, total, body := getRows(t, api("IL-0070", q))
				if status != 200 || total == 0 || len(members) != total || (r.Type != "symptom" && r.Type != "cause" && total != r.Members) {
					t.Errorf("%s: %s (%d members) expands into %d rows: %d %.200s", view, r.Ref, r.Members, total, status, body)
				}
			}
		}

		// The page shows the same rows, the burst with a link to its members, and pages.
		status, b := call(t, "GET", base+"/incidents/IL-0070?type=node", "", nil)
		if status != 200 {
			t.Fatalf("page: %d", status)
		}
		doc := page(t, b)
		if n := doc.Find(`#timeline [data-testid="entry"]`).Length(); n != len(nodes) {
			t.Errorf("the page shows %d rows, the API %d", n, len(nodes))
		}
		link, ok := doc.Find(`#timeline a[data-testid="expand"]`).FilterFunction(func(_ int, s *goquery.Selection) bool {
			href, _ := s.Attr("href")
			return strings.Contains(href, "expand="+url.QueryEscape(burst.Ref))
		}).Attr("href")
		if !ok || !strings.Contains(link, "type=node") {
			t.Fatalf("no link to expand %s keeping the filter: %q", burst.Ref, link)
		}
		_, b = call(t, "GET", base+link, "", nil)
		doc = page(t, b)
		if n := doc.Find(`#timeline [data-testid="entry"]`).Length(); n != burst.Members {
			t.Errorf("the expanded page shows %d rows, want %d", n, burst.Members)
		}
		want := "rows 1–" + strconv.Itoa(burst.Members) + " of " + strconv.Itoa(burst.Members)
		if got := doc.Find(`[data-testid="timeline-count"]`).Text(); got != want {
			t.Errorf("count %q, want %q", got, want)
		}
	})
}
