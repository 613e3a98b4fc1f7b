package metrics

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/metrics/promtest"
)

// TestAgainstPrometheus: the default queries run against a real Prometheus holding a past
// incident's series: throttling and Prometheus's own memory and head series come back over the
// window (the hub throttled 80 % of its periods from 16:55; Prometheus's memory grew), and the
// metrics it lacks (node_exporter, kube-state-metrics) are gaps, not errors.
func TestAgainstPrometheus(t *testing.T) {
	series := promtest.IL0070()
	base, start := promtest.Start(t, series), series.Start
	f, err := NewFetcher(base, FetchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := f.FetchAll(context.Background(), DefaultQueries(), Window{From: start, To: start.Add(2 * time.Hour), Step: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Outcome{}
	for _, o := range out {
		got[o.Query.Name] = o
	}
	throttling := got["container_throttling"]
	if len(throttling.Result.Series) != 1 || throttling.Result.Series[0].Labels["pod"] != "hub-8sr9zr4gx7-js2fw" {
		t.Fatalf("throttling: %+v", throttling)
	}
	var before, after float64
	for _, p := range throttling.Result.Series[0].Points {
		switch {
		case p.At.Before(start.Add(50 * time.Minute)):
			before = max(before, p.Value)
		case p.At.After(start.Add(65 * time.Minute)):
			after = max(after, p.Value)
		}
	}
	if before > 0.01 || after < 0.75 || after > 0.85 {
		t.Errorf("throttled share %.2f before 16:50 and %.2f after 17:05, want 0 and 0.8", before, after)
	}
	memory := got["prometheus_memory"].Result.Series
	if len(memory) != 1 || len(memory[0].Points) < 100 {
		t.Fatalf("Prometheus's memory: %+v", got["prometheus_memory"])
	}
	if first, last := memory[0].Points[0].Value, memory[0].Points[len(memory[0].Points)-1].Value; last < first*2 {
		t.Errorf("Prometheus's memory from %g to %g, want it grown", first, last)
	}
	if len(got["prometheus_head_series"].Result.Series) != 1 {
		t.Errorf("head series: %+v", got["prometheus_head_series"])
	}
	for _, name := range []string{"node_cpu", "node_memory", "container_restarts", "container_oom"} {
		if !strings.HasPrefix(got[name].Gap, "no series") {
			t.Errorf("%s: gap %q, want no series", name, got[name].Gap)
		}
	}
}
