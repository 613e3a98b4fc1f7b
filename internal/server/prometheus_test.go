package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/metrics"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// metricsMargin is how long before an incident's start its metrics are read from.
const metricsMargin = 30 * time.Minute

// fakePrometheus answers range queries as a Prometheus holding IL-0070's liveness incident
// would: the hub throttled and Prometheus's memory growing from 16:55, nothing for the other
// queries. It records the windows asked for.
func fakePrometheus(t *testing.T, asked *[]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v1/query" { // Reach: the instant query 1
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"status":"success","data":{"resultType":"scalar","result":[0,"1"]}}`))
			return
		}
		if r.URL.Path != "/api/v1/query_range" {
			http.NotFound(w, r)
			return
		}
		q := r.URL.Query()
		*asked = append(*asked, q.Get("start")+" "+q.Get("end")+" "+q.Get("step"))
		start := time.Date(2023, 2, 1, 16, 30, 0, 0, time.UTC)
		series := func(labels string, f func(minute int) float64) string {
			var vs []string
			for i := range 60 {
				vs = append(vs, fmt.Sprintf(`[%d,"%g"]`, start.Add(time.Duration(i)*time.Minute).Unix(), f(i)))
			}
			return `{"metric":{` + labels + `},"values":[` + strings.Join(vs, ",") + `]}`
		}
		result := ""
		switch expr := q.Get("query"); {
		case strings.Contains(expr, "cfs_throttled"):
			result = series(`"namespace":"prod","pod":"hub-8sr9zr4gx7-js2fw","container":"hub"`, func(i int) float64 {
				if i >= 25 {
					return 0.8
				}
				return 0
			})
		case strings.Contains(expr, "process_resident_memory_bytes"):
			result = series(`"job":"prometheus","pod":"support-prometheus-server-8vssc48qww-74p85"`, func(i int) float64 { return 8e9 + float64(max(0, i-25))*4e8 })
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"status":"success","data":{"resultType":"matrix","result":[%s]}}`, result)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// prometheusServer is a server whose cluster leap reads a fake Prometheus (fakePrometheus,
// recording into asked), and cluster down one that cannot be reached, with incident il of
// cluster leap holding IL-0070's liveness variant. It returns the server's and the
// Prometheus's addresses.
func prometheusServer(t *testing.T, st *store.Store, asked *[]string) (base, prom string) {
	t.Helper()
	fake := fakePrometheus(t, asked)
	cfg := testConfig()
	cfg.Prometheus = metrics.Targets{"leap": fake.URL, "down": "http://127.0.0.1:1"}
	base = newServer(t, st, cfg)
	createIncident(t, base, `{"id": "il", "title": "IL-0070", "cluster": "leap"}`)
	body, ct := multipartBody(t, fixtures.IL0070VariantBytes(t, "liveness"), "events.json", "nodes.json", "pods.json")
	if status, b := call(t, "POST", base+"/api/v1/incidents/il/snapshots", ct, body); status != http.StatusCreated {
		t.Fatalf("upload: %d %s", status, b)
	}
	return base, fake.URL
}

// TestReadPrometheus: POST /api/v1/incidents/{id}/prometheus reads the Prometheus of the
// incident's cluster over the window of its evidence (with the margins) into a snapshot of the
// incident, whose analysis then cites the metrics; the same window again stores nothing new; an
// incident of a cluster without a Prometheus, without times, of a Prometheus that cannot be
// reached, or that does not exist, is refused with its reason; reading needs write access.
func TestReadPrometheus(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		var asked []string
		base, _ := prometheusServer(t, st, &asked)
		createIncident(t, base, `{"id": "elsewhere", "title": "x", "cluster": "other", "started_at": "2023-02-01T17:00:00Z"}`)
		createIncident(t, base, `{"id": "timeless", "title": "x", "cluster": "leap"}`)
		createIncident(t, base, `{"id": "down", "title": "x", "cluster": "down", "started_at": "2023-02-01T17:00:00Z", "ended_at": "2023-02-01T17:10:00Z"}`)
		scenarios := []struct {
			name, id   string
			wantStatus int
			wantIn     []string
		}{
			{"read", "il", 201, []string{`"name":"container_throttling","series":1`, `"name":"node_cpu","series":0,"gap":"no series`,
				`"from":"2023-02-01T16:29:00Z"`, `"step":"15s"`, `"MetricSeries":2`, `"MetricQueries":1`}},
			{"read again", "il", 200, []string{`"existing":true`}},
			{"no such incident", "nope", 404, []string{"nope"}},
			{"no Prometheus for its cluster", "elsewhere", 409, []string{`no Prometheus is configured for cluster \"other\"`, "--prometheus other=URL"}},
			{"no times", "timeless", 422, []string{"no times to read metrics over"}},
			{"Prometheus down", "down", 502, []string{`Prometheus of cluster \"down\"`}},
		}
		for _, sc := range scenarios {
			status, b := call(t, "POST", base+"/api/v1/incidents/"+sc.id+"/prometheus", "", nil)
			if status != sc.wantStatus {
				t.Errorf("%s: %d %s, want %d", sc.name, status, b, sc.wantStatus)
				continue
			}
			for _, w := range sc.wantIn {
				if !strings.Contains(string(b), w) {
					t.Errorf("%s: %s lacks %s", sc.name, b, w)
				}
			}
		}
		if len(asked) == 0 || asked[0] != "1675268940.000 1675272135.000 15" {
			t.Errorf("windows asked: %q", asked)
		}
		// An incident started an hour ago and not ended is read until now.
		started := time.Now().Add(-time.Hour).UTC().Truncate(time.Second)
		createIncident(t, base, `{"id": "live", "title": "x", "cluster": "leap", "started_at": "`+started.Format(time.RFC3339)+`"}`)
		asked = nil
		if status, b := call(t, "POST", base+"/api/v1/incidents/live/prometheus", "", nil); status != http.StatusCreated && status != http.StatusOK {
			t.Errorf("live: %d %s", status, b)
		} else {
			var from, to float64
			if _, err := fmt.Sscanf(asked[0], "%f %f", &from, &to); err != nil || time.Since(time.Unix(int64(to), 0)) > time.Minute ||
				time.Unix(int64(from), 0).After(started.Add(-metricsMargin)) {
				t.Errorf("live window asked: %q (started %s)", asked[0], started)
			}
		}
		status, b := call(t, "GET", base+"/api/v1/incidents/il/analysis", "", nil)
		var rep analysis.Report
		if err := json.Unmarshal(b, &rep); err != nil || status != 200 {
			t.Fatalf("analysis: %d %s", status, b)
		}
		found := map[string]bool{}
		for _, c := range rep.Causes {
			for _, e := range append(c.Evidence, memberEvidence(c)...) {
				if strings.HasPrefix(e.Ref, "Metric ") {
					found[strings.TrimPrefix(e.Field, "query ")] = true
				}
			}
		}
		if len(rep.Changes) != 0 {
			t.Errorf("a snapshot of metrics only is taken for a cluster changed: %+v", rep.Changes)
		}
		if !found["container_throttling"] || !found["prometheus_memory"] || rep.Inputs.Series != 2 {
			t.Errorf("the analysis cites metrics %v of %d series", found, rep.Inputs.Series)
		}
		// The page draws the cited metrics beside the events, the symptoms shaded over them.
		status, page := call(t, "GET", base+"/incidents/il", "", nil)
		for _, want := range []string{"Metric container_throttling on the same time axis", "Metric prometheus_memory on the same time axis",
			"prod/hub-8sr9zr4gx7-js2fw hub", `class="mark-band"`} {
			if status != 200 || !strings.Contains(string(page), want) {
				t.Errorf("the incident page (%d) lacks %q", status, want)
			}
		}
	})
}

func memberEvidence(c analysis.Cause) []analysis.Evidence {
	var out []analysis.Evidence
	for _, m := range c.Members {
		out = append(out, m.Evidence...)
	}
	return out
}

// TestPrometheusForm: the incident page offers to read the Prometheus of the incident's cluster
// (and only then), its form reads it and goes back to the page's pictures, a refused read is
// shown on the page with its reason and status, and a contradicting metric is shown under its
// cause as evidence against it.
func TestPrometheusForm(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		var asked []string
		base, prom := prometheusServer(t, st, &asked)
		createIncident(t, base, `{"id": "elsewhere", "title": "x", "cluster": "other"}`)
		createIncident(t, base, `{"id": "down", "title": "x", "cluster": "down", "started_at": "2023-02-01T17:00:00Z", "ended_at": "2023-02-01T17:10:00Z"}`)
		page := func(id string) *goquery.Document {
			t.Helper()
			_, b := call(t, "GET", base+"/incidents/"+id, "", nil)
			doc, err := goquery.NewDocumentFromReader(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			return doc
		}
		if page("elsewhere").Find(`[data-testid="prometheus-form"]`).Length() != 0 {
			t.Errorf("a form to read a Prometheus the cluster has not")
		}
		if form := page("il").Find(`[data-testid="prometheus-form"]`); !strings.Contains(form.Text(), "Read metrics from "+prom) {
			t.Fatalf("no form to read the cluster's Prometheus: %q", form.Text())
		}
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		token, cookie := formToken(t, base)
		post := func(id string) (*http.Response, *goquery.Document) {
			t.Helper()
			req, _ := http.NewRequest("POST", base+"/incidents/"+id+"/prometheus", strings.NewReader(url.Values{"csrf": {token}}.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set(cookie[0], cookie[1])
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			doc, err := goquery.NewDocumentFromReader(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			return resp, doc
		}
		if resp, _ := post("il"); resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/incidents/il#pictures" {
			t.Errorf("read: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
		}
		doc := page("il")
		if got := doc.Find(`[data-testid="metrics-read"]`).Text(); !strings.Contains(got, "2 series of container_throttling, prometheus_memory") {
			t.Errorf("the page says of the metrics: %q", got)
		}
		if doc.Find(`#pictures svg path.series`).Length() != 2 {
			t.Errorf("the metrics are not drawn")
		}
		resp, doc := post("down")
		if resp.StatusCode != http.StatusBadGateway || !strings.Contains(doc.Find(`[data-testid="metrics-error"]`).Text(), `Prometheus of cluster "down"`) {
			t.Errorf("a Prometheus down: %d %q", resp.StatusCode, doc.Find(`[data-testid="metrics-error"]`).Text())
		}
		if resp, _ := post("nope"); resp.StatusCode != http.StatusNotFound {
			t.Errorf("no such incident: %d", resp.StatusCode)
		}

		// A saved answer uploaded with the evidence: Prometheus's memory flat over the
		// symptoms, which speaks against shared_prometheus, under its card.
		flat := fixtures.IL0070VariantBytes(t, "liveness")
		var vs []string
		for i := range 60 {
			vs = append(vs, fmt.Sprintf(`[%d,"8e9"]`, time.Date(2023, 2, 1, 16, 30, 0, 0, time.UTC).Add(time.Duration(i)*time.Minute).Unix()))
		}
		flat["prometheus_memory.json"] = []byte(`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"pod":"support-prometheus-server-8vssc48qww-74p85"},"values":[` +
			strings.Join(vs, ",") + `]}]}}`)
		createIncident(t, base, `{"id": "flat", "title": "flat", "cluster": "other"}`)
		body, ct := multipartBody(t, flat, "events.json", "nodes.json", "pods.json", "prometheus_memory.json")
		if status, b := call(t, "POST", base+"/api/v1/incidents/flat/snapshots", ct, body); status != http.StatusCreated {
			t.Fatalf("upload: %d %s", status, b)
		}
		against := page("flat").Find(`article.card:has([data-testid="against"])`)
		if !strings.Contains(against.Find("h3").Text(), "shared_prometheus") || !strings.Contains(against.Find(`[data-testid="against"]`).Text(), "did not grow") {
			t.Errorf("the evidence against shared_prometheus is not shown: %q", against.Text())
		}
	})
}

// TestHangingPrometheusHoldsNoSlot: reads of a Prometheus that accepts connections and never
// answers, or answers the first question and hangs on the range queries, wait on the network
// holding nothing that ingest needs: while as many of them as the server has worker slots hang,
// an upload is taken at once (it used to wait for a slot, and answer 503 past --upload-wait).
func TestHangingPrometheusHoldsNoSlot(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"never answers", "answers, then hangs"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
				arrived := make(chan struct{}, 64)
				release := make(chan struct{})
				hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if mode == "answers, then hangs" && r.URL.Path == "/api/v1/query" {
						w.Header().Set("Content-Type", "application/json")
						_, _ = w.Write([]byte(`{"status":"success","data":{"resultType":"scalar","result":[0,"1"]}}`))
						return
					}
					arrived <- struct{}{}
					select {
					case <-release:
					case <-r.Context().Done():
					}
				}))
				t.Cleanup(hang.Close)
				t.Cleanup(func() { close(release) })
				cfg := testConfig()
				cfg.Prometheus = metrics.Targets{"hang": hang.URL}
				cfg.UploadWait = 2 * time.Second
				base := newServer(t, st, cfg)
				createIncident(t, base, `{"id": "hung", "title": "x", "cluster": "hang", "started_at": "2023-02-01T17:00:00Z", "ended_at": "2023-02-01T17:10:00Z"}`)
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				reads := max(2, runtime.GOMAXPROCS(0)) // the budget's worker slots
				done := make(chan struct{}, reads)
				for range reads {
					go func() {
						defer func() { done <- struct{}{} }()
						req, _ := http.NewRequestWithContext(ctx, "POST", base+"/api/v1/incidents/hung/prometheus", nil)
						if resp, err := http.DefaultClient.Do(req); err == nil {
							_ = resp.Body.Close()
						}
					}()
				}
				for range reads {
					select {
					case <-arrived:
					case <-time.After(30 * time.Second):
						t.Fatal("the reads never reached the Prometheus")
					}
				}
				body, ct := multipartBody(t, fixtures.IL0070VariantBytes(t, "liveness"), "events.json", "nodes.json", "pods.json")
				if status, b := call(t, "POST", base+"/api/v1/incidents/hung/snapshots", ct, body); status != http.StatusCreated {
					t.Errorf("an upload while %d reads hang: %d %.200s, want 201", reads, status, b)
				}
				cancel()
				for range reads {
					<-done
				}
			})
		})
	}
}
