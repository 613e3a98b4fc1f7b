package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes/fake"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/kube/kubetest"
	"github.com/rootline-dev/rootline/internal/metrics"
	"github.com/rootline-dev/rootline/internal/metrics/promtest"
	"github.com/rootline-dev/rootline/internal/server"
	"github.com/rootline-dev/rootline/internal/synth"
)

// TestPrometheusEvidence: a real Prometheus holds what IL-0070's cluster recorded (the hub
// throttled from the scale-up, Prometheus's memory and head series growing). `rootline snapshot
// --prometheus` reads it over the window of the events it captured, and `rootline analyze` of
// the folder cites the throttling in cpu_starvation and the growth in shared_prometheus; the
// server, given the same Prometheus for the incident's cluster, reads it on
// POST /api/v1/incidents/{id}/prometheus into the incident, whose analysis says the same, and
// reading it again stores nothing new.
func TestPrometheusEvidence(t *testing.T) {
	t.Parallel()
	prom := promtest.Start(t, promtest.IL0070())
	ctx := context.Background()
	check := func(t *testing.T, where string, rep analysis.Report) {
		t.Helper()
		want := map[string]string{
			analysis.CPUStarvation:    "80% of its CFS periods throttled",
			analysis.SharedPrometheus: "resident memory grew from",
		}
		for _, c := range append(rep.Causes, members(rep.Causes)...) {
			for _, e := range c.Evidence {
				if w, ok := want[c.Kind]; ok && strings.HasPrefix(e.Ref, "Metric ") && strings.Contains(e.Value, w) {
					delete(want, c.Kind)
				}
			}
		}
		for kind, w := range want {
			t.Errorf("%s: %s cites no metric saying %q", where, kind, w)
		}
		for _, g := range rep.Gaps {
			if strings.Contains(g.Summary, "memory use and CPU throttling") {
				t.Errorf("%s: a gap asks for the metrics read: %s", where, g.Summary)
			}
		}
	}

	t.Run("snapshot", func(t *testing.T) {
		objs, err := synth.IL0070Objects("liveness")
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), "snap")
		var stdout, stderr bytes.Buffer
		o := snapshotOptions{out: dir, pageSize: 200, prometheus: prom}
		if err := takeSnapshot(ctx, o, false, kubetest.Client(fake.NewClientset(objs...)), &stdout, &stderr); err != nil {
			t.Fatalf("snapshot: %v\n%s", err, stderr.String())
		}
		if !strings.Contains(stderr.String(), "prometheus/container_throttling.json 1") || !strings.Contains(stderr.String(), "prometheus: node_cpu: no series") {
			t.Errorf("the snapshot does not say what it read: %s", stderr.String())
		}
		var rep analysis.Report
		if err := json.Unmarshal(analyzeJSON(t, dir), &rep); err != nil {
			t.Fatal(err)
		}
		check(t, "analyze of the snapshot", rep)
	})

	t.Run("server", func(t *testing.T) {
		st := testStore(t, "")
		cfg, _ := config.Default(func(string) string { return "" })
		cfg.Prometheus = metrics.Targets{"leap": prom}
		ts := httptest.NewServer(server.New(cfg, server.StoreDeps(st, nil)).Handler())
		defer ts.Close()
		var stderr bytes.Buffer
		if err := upload(ctx, uploadOptions{server: ts.URL, cluster: "leap", title: "IL-0070"}, []string{fixtures.IL0070VariantDir("liveness")}, io.Discard, &stderr); err != nil {
			t.Fatalf("upload: %v\n%s", err, stderr.String())
		}
		m := regexp.MustCompile(`created incident (\S+)`).FindStringSubmatch(stderr.String())
		if m == nil {
			t.Fatalf("no incident created: %s", stderr.String())
		}
		read := func() (int, string) {
			resp, err := http.Post(ts.URL+"/api/v1/incidents/"+m[1]+"/prometheus", "", nil)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(b)
		}
		if status, body := read(); status != http.StatusCreated || !strings.Contains(body, `"name":"container_throttling","series":1`) || !strings.Contains(body, `"gap":"no series`) {
			t.Fatalf("read Prometheus: %d %s", status, body)
		}
		if status, body := read(); status != http.StatusOK || !strings.Contains(body, `"existing":true`) {
			t.Errorf("read again: %d %s", status, body)
		}
		resp, err := http.Get(ts.URL + "/api/v1/incidents/" + m[1] + "/analysis")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var rep analysis.Report
		if err := json.NewDecoder(resp.Body).Decode(&rep); err != nil {
			t.Fatal(err)
		}
		check(t, "the server's analysis", rep)
		if rep.Inputs.Series == 0 {
			t.Errorf("the analysis reads no series: %+v", rep.Inputs)
		}
	})
}

// members are the members of the causes that stand for several.
func members(cs []analysis.Cause) []analysis.Cause {
	var out []analysis.Cause
	for _, c := range cs {
		out = append(out, c.Members...)
	}
	return out
}

// TestAnalyzeTellsAgainst: `rootline analyze` of IL-0070 with a saved answer of Prometheus's
// memory that stayed flat prints, under shared_prometheus, what speaks against it.
func TestAnalyzeTellsAgainst(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, b := range fixtures.IL0070VariantBytes(t, "liveness") {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var vs []string
	for i := range 60 {
		vs = append(vs, fmt.Sprintf(`[%d,"8e9"]`, time.Date(2023, 2, 1, 16, 30, 0, 0, time.UTC).Add(time.Duration(i)*time.Minute).Unix()))
	}
	answer := `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"pod":"support-prometheus-server-8vssc48qww-74p85"},"values":[` + strings.Join(vs, ",") + `]}]}}`
	if err := os.WriteFile(filepath.Join(dir, "prometheus_memory.json"), []byte(answer), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	root := newRootCmd()
	root.SetOut(&out)
	root.SetErr(io.Discard)
	root.SetArgs([]string{"analyze", dir})
	if err := root.Execute(); err != nil {
		t.Fatalf("analyze: %v", err)
	}
	if !regexp.MustCompile(`shared_prometheus[^\n]*\n(?:     [^\n]*\n)*     against: Metric prometheus_memory\{pod="support-prometheus-server-8vssc48qww-74p85"\} resident memory stayed near 7.5Gi`).Match(out.Bytes()) {
		t.Errorf("no evidence against shared_prometheus under it:\n%s", out.String())
	}
}
