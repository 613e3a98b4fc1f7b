package rules

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/metrics"
)

// seriesOf makes the objects of one query's answer: a series of the labels, a point a minute
// from 16:30 on 2023-02-01 (IL-0070's day) to 17:30, valued by f of the minute.
func seriesOf(t *testing.T, query string, labels map[string]string, f func(minute int) float64) []*cluster.Object {
	t.Helper()
	start := time.Date(2023, 2, 1, 16, 30, 0, 0, time.UTC)
	s := metrics.Series{Labels: labels}
	for i := range 61 {
		s.Points = append(s.Points, metrics.Point{At: start.Add(time.Duration(i) * time.Minute), Value: f(i)})
	}
	objs, err := metrics.Objects(query, "", cluster.Source{File: "prometheus/" + query + ".json"}, metrics.Result{Series: []metrics.Series{s}})
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

// withSeries is the IL-0070 liveness fixture with the series added to its objects.
func withSeries(t *testing.T, series ...[]*cluster.Object) *cluster.Model {
	t.Helper()
	m := loadDir(t, filepath.Join("..", "testdata", "il0070", "liveness"), time.Time{})
	objs := slices.Concat(m.Pods, m.Nodes, m.Events, m.Others)
	for _, s := range series {
		objs = append(objs, s...)
	}
	return cluster.NewModel(m.Files, objs)
}

var (
	hubLabels  = map[string]string{"namespace": "prod", "pod": "hub-8sr9zr4gx7-js2fw", "container": "hub"}
	promLabels = map[string]string{"job": "prometheus", "instance": "10.8.1.20:9090", "pod": "support-prometheus-server-8vssc48qww-74p85"}
)

// TestMetricsAsEvidence: the series of the incident weigh IL-0070's causes. Throttling from the
// scale-up (16:58) and use held at the hub's 10m request confirm CPU starvation; Prometheus's
// memory growing with its head series confirms that it grew with the cluster; with the hub's
// working set too, the competing-causes gap asks for nothing the metrics answer. Metrics that
// show the opposite (no growth; the hub using far more than its request) lower the causes'
// confidence and say why.
func TestMetricsAsEvidence(t *testing.T) {
	throttled := seriesOf(t, "container_throttling", hubLabels, func(i int) float64 {
		if i >= 28 {
			return 0.8
		}
		return 0
	})
	held := seriesOf(t, "container_cpu", hubLabels, func(int) float64 { return 0.011 })
	workingSet := seriesOf(t, "container_memory", hubLabels, func(int) float64 { return 300 << 20 })
	growing := seriesOf(t, "prometheus_memory", promLabels, func(i int) float64 { return 8e9 + float64(max(0, i-28))*4e8 })
	head := seriesOf(t, "prometheus_head_series", promLabels, func(i int) float64 { return 1e6 + float64(max(0, i-28))*5e4 })
	flat := seriesOf(t, "prometheus_memory", promLabels, func(int) float64 { return 8e9 })
	busy := seriesOf(t, "container_cpu", hubLabels, func(int) float64 { return 1.5 })

	base := Run(withSeries(t), analysis.Options{})
	baseCause := func(kind string) analysis.Cause { return mustCause(t, base, kind) }

	t.Run("confirming", func(t *testing.T) {
		rep := Run(withSeries(t, throttled, held, workingSet, growing, head), analysis.Options{})
		if rep.Inputs.Series != 5 || len(rep.Inputs.Queries) != 5 {
			t.Errorf("inputs: %d series of %v", rep.Inputs.Series, rep.Inputs.Queries)
		}
		cpu := mustCause(t, rep, analysis.CPUStarvation)
		if !cites(cpu, "Metric container_throttling", "80% of its CFS periods throttled at 16:58") || !cites(cpu, "Metric container_cpu", "about its request of 10m") {
			t.Errorf("cpu_starvation does not cite the throttling and the use: %+v", cpu.Evidence)
		}
		if len(cpu.Missing) != 0 || cpu.Confidence <= baseCause(analysis.CPUStarvation).Confidence || len(cpu.Against) != 0 {
			t.Errorf("cpu_starvation: missing %q, confidence %.2f (%.2f without metrics), against %+v", cpu.Missing, cpu.Confidence, baseCause(analysis.CPUStarvation).Confidence, cpu.Against)
		}
		prom := mustCause(t, rep, analysis.SharedPrometheus)
		if !cites(prom, "Metric prometheus_memory", "resident memory grew from 7.5Gi at 16:30 to 10.4Gi at 17:06") || !cites(prom, "Metric prometheus_head_series", "grew from 1,000,000") {
			t.Errorf("shared_prometheus does not cite the growth: %+v", prom.Evidence)
		}
		if prom.Confidence <= baseCause(analysis.SharedPrometheus).Confidence {
			t.Errorf("shared_prometheus confidence %.2f, %.2f without metrics", prom.Confidence, baseCause(analysis.SharedPrometheus).Confidence)
		}
		for _, e := range append(cpu.Evidence, prom.Evidence...) {
			if strings.HasPrefix(e.Ref, "Metric") && e.File != "prometheus/"+strings.Fields(strings.TrimPrefix(e.Field, "query "))[0]+".json" {
				t.Errorf("metric evidence does not name its file: %+v", e)
			}
		}
		for _, g := range rep.Gaps {
			if strings.Contains(g.Summary, "memory use") || strings.Contains(g.Summary, "throttling") {
				t.Errorf("a gap asks for what the metrics hold: %s", g.Summary)
			}
		}
		if !slices.ContainsFunc(base.Gaps, func(g analysis.Gap) bool { return strings.Contains(g.Summary, "memory use and CPU throttling") }) {
			t.Errorf("without metrics no gap asks for them: %+v", base.Gaps)
		}
	})
	t.Run("throttling only", func(t *testing.T) {
		rep := Run(withSeries(t, throttled), analysis.Options{})
		if !slices.ContainsFunc(rep.Gaps, func(g analysis.Gap) bool {
			return strings.Contains(g.Summary, "memory use over the incident (the metrics read hold its CPU only)")
		}) {
			t.Errorf("the gap does not ask for the memory the metrics lack: %+v", rep.Gaps)
		}
	})
	t.Run("contradicting", func(t *testing.T) {
		rep := Run(withSeries(t, busy, flat), analysis.Options{})
		cpu := mustCause(t, rep, analysis.CPUStarvation)
		if len(cpu.Against) != 1 || !strings.Contains(cpu.Against[0].Value, "far above its request of 10m") || cpu.Confidence >= baseCause(analysis.CPUStarvation).Confidence {
			t.Errorf("cpu_starvation against %+v, confidence %.2f (%.2f without metrics)", cpu.Against, cpu.Confidence, baseCause(analysis.CPUStarvation).Confidence)
		}
		prom := mustCause(t, rep, analysis.SharedPrometheus)
		if len(prom.Against) != 1 || !strings.Contains(prom.Against[0].Value, "did not grow") || prom.Confidence >= baseCause(analysis.SharedPrometheus).Confidence {
			t.Errorf("shared_prometheus against %+v, confidence %.2f (%.2f without metrics)", prom.Against, prom.Confidence, baseCause(analysis.SharedPrometheus).Confidence)
		}
	})
	t.Run("other pods' series", func(t *testing.T) {
		other := seriesOf(t, "container_throttling", map[string]string{"namespace": "prod", "pod": "proxy-1", "container": "proxy"}, func(int) float64 { return 0.9 })
		rep := Run(withSeries(t, other), analysis.Options{})
		if cpu := mustCause(t, rep, analysis.CPUStarvation); cites(cpu, "Metric", "") || len(cpu.Missing) == 0 {
			t.Errorf("another pod's throttling taken as the hub's: %+v", cpu)
		}
	})
}

// TestMemoryOverRequestByWorkingSet: an eviction whose message names no usage is explained by
// memory_over_request when the metrics show the container's working set above its request, and
// not when it stayed below.
func TestMemoryOverRequestByWorkingSet(t *testing.T) {
	const pod = `{"apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "worker-1", "namespace": "dask", "uid": "u1", "creationTimestamp": "2023-02-01T16:00:00Z"},
  "spec": {"nodeName": "n1", "containers": [{"name": "worker", "image": "dask:1",
    "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]},
  "status": {"phase": "Failed", "reason": "Evicted", "message": "The node was low on resource: memory. ",
    "startTime": "2023-02-01T16:00:00Z"}}`
	const event = `{"apiVersion": "v1", "kind": "Event", "metadata": {"name": "worker-1.1", "namespace": "dask"},
  "involvedObject": {"kind": "Pod", "namespace": "dask", "name": "worker-1"}, "reason": "Evicted", "type": "Warning",
  "message": "The node was low on resource: memory. ", "lastTimestamp": "2023-02-01T17:00:00Z", "count": 1}`
	at := time.Date(2023, 2, 1, 17, 0, 0, 0, time.UTC)
	run := func(workingSet float64) analysis.Report {
		m := model(t, pod, event)
		s := metrics.Series{Labels: map[string]string{"namespace": "dask", "pod": "worker-1", "container": "worker"}}
		for i := range 20 {
			s.Points = append(s.Points, metrics.Point{At: at.Add(time.Duration(i-19) * time.Minute), Value: workingSet})
		}
		series, err := metrics.Objects("container_memory", "", cluster.Source{File: "ws.json"}, metrics.Result{Series: []metrics.Series{s}})
		if err != nil {
			t.Fatal(err)
		}
		return Run(cluster.NewModel(m.Files, slices.Concat(m.Pods, m.Events, series)), analysis.Options{})
	}
	rep := run(1.5 * (1 << 30))
	c := mustCause(t, rep, analysis.MemoryOverRequest)
	if !cites(c, "Metric container_memory", "working set of container worker peaked at 1.5Gi at 16:45, before the eviction, against a request of 1Gi") {
		t.Errorf("memory_over_request does not cite the working set: %+v", c.Evidence)
	}
	for _, c := range run(0.5 * (1 << 30)).Causes {
		if c.Kind == analysis.MemoryOverRequest {
			t.Errorf("memory_over_request with the working set below the request: %+v", c)
		}
	}
}

func mustCause(t *testing.T, rep analysis.Report, kind string) analysis.Cause {
	t.Helper()
	for _, c := range rep.Causes {
		if c.Kind == kind {
			return c
		}
		for _, mb := range c.Members {
			if mb.Kind == kind {
				return mb
			}
		}
	}
	t.Fatalf("no %s among the causes", kind)
	return analysis.Cause{}
}

// cites reports whether a cause has an evidence item whose ref begins with ref and whose
// value holds value.
func cites(c analysis.Cause, ref, value string) bool {
	for _, e := range c.Evidence {
		if strings.HasPrefix(e.Ref, ref) && strings.Contains(e.Value, value) {
			return true
		}
	}
	return false
}

// TestCapacityByUse: node_exporter's series of a full node, scraped by its address, are cited
// by capacity_exhaustion as what the node used, against its allocatable.
func TestCapacityByUse(t *testing.T) {
	m := loadDir(t, filepath.Join("..", "testdata", "il0070", "evicted"), time.Time{})
	node := map[string]string{"instance": "10.128.0.2:9100", "job": "node-exporter"}
	other := map[string]string{"instance": "10.128.0.99:9100", "job": "node-exporter"}
	objs := slices.Concat(m.Pods, m.Nodes, m.Events, m.Others,
		seriesOf(t, "node_memory", node, func(int) float64 { return 27 << 30 }),
		seriesOf(t, "node_memory", other, func(int) float64 { return 1 << 30 }),
		seriesOf(t, "node_cpu", node, func(int) float64 { return 3.5 }))
	rep := Run(cluster.NewModel(m.Files, objs), analysis.Options{})
	c := mustCause(t, rep, analysis.CapacityExhaustion)
	if !cites(c, "Metric node_memory", "node gke-leap-core-pool-b3f2e0a1-c7eo had 27Gi of memory in use") ||
		!cites(c, "Metric node_cpu", "had 3.5 CPU in use at 16:46, 89% of its allocatable") {
		t.Errorf("capacity_exhaustion does not cite the node's use: %+v", c.Evidence)
	}
	if cites(c, "Metric node_memory{instance=\"10.128.0.99:9100\"", "") {
		t.Errorf("another node's use cited")
	}
	// Without node_exporter, cAdvisor's root cgroup, labelled with the node's name.
	objs = slices.Concat(m.Pods, m.Nodes, m.Events, m.Others,
		seriesOf(t, "node_memory_cadvisor", map[string]string{"node": "gke-leap-core-pool-b3f2e0a1-c7eo"}, func(int) float64 { return 26 << 30 }))
	c = mustCause(t, Run(cluster.NewModel(m.Files, objs), analysis.Options{}), analysis.CapacityExhaustion)
	if !cites(c, "Metric node_memory_cadvisor", "had 26Gi of memory in use") {
		t.Errorf("capacity_exhaustion does not cite cAdvisor's use: %+v", c.Evidence)
	}
}

// TestPrometheusSeriesMatched: Prometheus's own series are taken for the Prometheus the rule
// found when they name its pod, or when the only series names no pod (the evidence then says it
// was taken so); another Prometheus's series is not.
func TestPrometheusSeriesMatched(t *testing.T) {
	grow := func(i int) float64 { return 8e9 + float64(max(0, i-28))*4e8 }
	other := map[string]string{"job": "prometheus", "instance": "10.9.9.9:9090"}
	for _, tt := range []struct {
		name   string
		labels map[string]string
		cited  string
		others bool // another Prometheus's series beside it, naming no pod
	}{
		{"named by its pod", promLabels, "grew from", false},
		{"the only series, naming no pod", map[string]string{"job": "prometheus", "instance": "10.8.1.20:9090"}, "the only Prometheus series the input holds", false},
		{"by its pod's IP, among others", map[string]string{"job": "prometheus", "instance": "10.8.1.23:9090"}, "grew from", true},
		{"one of two naming no pod", map[string]string{"job": "prometheus", "instance": "10.8.1.99:9090"}, "", true},
		{"another Prometheus's", map[string]string{"job": "prometheus", "pod": "other-prometheus-0"}, "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			series := seriesOf(t, "prometheus_memory", tt.labels, grow)
			if tt.others {
				series = append(series, seriesOf(t, "prometheus_memory", other, grow)...)
			}
			prom := mustCause(t, Run(withSeries(t, series), analysis.Options{}), analysis.SharedPrometheus)
			if got := cites(prom, "Metric prometheus_memory", tt.cited); got != (tt.cited != "") {
				t.Errorf("cited: %v, want %v: %+v", got, tt.cited != "", prom.Evidence)
			}
			if tt.others && cites(prom, "Metric prometheus_memory", "the only Prometheus series") {
				t.Errorf("taken as the only series among two")
			}
		})
	}
}

// TestSymptomSpan holds the span the metrics of a cause are read over: from metricsLeadWindow
// before the earliest of the symptoms it names, in whatever order it names them, to the latest
// time any of them lasted to; symptoms it does not name and undated ones count for nothing.
func TestSymptomSpan(t *testing.T) {
	t.Parallel()
	at := func(h, m int) *time.Time { v := time.Date(2023, 2, 1, h, m, 0, 0, time.UTC); return &v }
	symptoms := []analysis.Symptom{
		{ID: "S1", At: at(16, 0)},                   // not named
		{ID: "S2", At: at(17, 2), Until: at(17, 9)}, // lasts past S4's start
		{ID: "S3"}, // undated
		{ID: "S4", At: at(17, 5)},
		{ID: "S5", At: at(18, 0)}, // not named
	}
	in := analysis.NewInput(cluster.NewModel(nil, nil), analysis.Options{})
	from, to, ok := symptomSpan(in, symptoms, []string{"S4", "S3", "S2", "S9"})
	if !ok || !from.Equal(at(17, 2).Add(-metricsLeadWindow)) || !to.Equal(*at(17, 9)) {
		t.Errorf("span %v to %v (%v), want %v to %v", from, to, ok, at(17, 2).Add(-metricsLeadWindow), at(17, 9))
	}
	if _, _, ok := symptomSpan(in, symptoms, []string{"S3", "S9"}); ok {
		t.Error("a span of nothing dated")
	}
}
