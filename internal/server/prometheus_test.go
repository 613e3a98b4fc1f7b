package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// fakePrometheus answers range queries as a Prometheus holding IL-0070's liveness incident
// would: the hub throttled and Prometheus's memory growing from 16:55, nothing for the other
// queries. It records the windows asked for.
func fakePrometheus(t *testing.T, asked *[]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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

// TestReadPrometheus: POST /api/v1/incidents/{id}/prometheus reads the Prometheus of the
// incident's cluster over the window of its evidence (with the margins) into a snapshot of the
// incident, whose analysis then cites the metrics; the same window again stores nothing new; an
// incident of a cluster without a Prometheus, without times, of a Prometheus that cannot be
// reached, or that does not exist, is refused with its reason; reading needs write access.
func TestReadPrometheus(t *testing.T) {
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		var asked []string
		prom := fakePrometheus(t, &asked)
		cfg := testConfig()
		cfg.Prometheus = "leap=" + prom.URL + ",down=http://127.0.0.1:1"
		base := newServer(t, st, cfg)
		il := fixtures.IL0070VariantBytes(t, "liveness")
		createIncident(t, base, `{"id": "il", "title": "IL-0070", "cluster": "leap"}`)
		body, ct := multipartBody(t, il, "events.json", "nodes.json", "pods.json")
		if status, b := call(t, "POST", base+"/api/v1/incidents/il/snapshots", ct, body); status != http.StatusCreated {
			t.Fatalf("upload: %d %s", status, b)
		}
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
