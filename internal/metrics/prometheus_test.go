package metrics

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/testenv"
)

// incidentSeries writes, as OpenMetrics for promtool, two hours of what IL-0070's cluster would
// have recorded every 15 s from 16:00 on 2023-02-01: the hub's CFS periods and throttled
// periods (throttled from 17:00, as the scale-up began) and Prometheus's resident memory and
// head series growing with the nodes it scraped.
func incidentSeries(t *testing.T, path string) time.Time {
	t.Helper()
	start := time.Date(2023, 2, 1, 16, 0, 0, 0, time.UTC)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	families := []struct {
		name, typ, labels string
		value             func(i int) float64
	}{
		{"container_cpu_cfs_periods", "counter", `namespace="jhub",pod="hub-7c9",container="hub"`, func(i int) float64 { return float64(i) * 150 }},
		{"container_cpu_cfs_throttled_periods", "counter", `namespace="jhub",pod="hub-7c9",container="hub"`, func(i int) float64 {
			return float64(max(0, i-240)) * 120 // from 17:00, 80 % of periods throttled
		}},
		{"process_resident_memory_bytes", "gauge", `job="prometheus",instance="prometheus-0"`, func(i int) float64 { return 2e9 + float64(max(0, i-240))*2.5e7 }},
		{"prometheus_tsdb_head_series", "gauge", `job="prometheus",instance="prometheus-0"`, func(i int) float64 { return 1e5 + float64(max(0, i-240))*1500 }},
	}
	for _, fam := range families {
		fmt.Fprintf(w, "# TYPE %s %s\n", fam.name, fam.typ)
		name := fam.name
		if fam.typ == "counter" {
			name += "_total"
		}
		for i := range 480 {
			fmt.Fprintf(w, "%s{%s} %g %d\n", name, fam.labels, fam.value(i), start.Unix()+int64(i)*15)
		}
	}
	fmt.Fprintln(w, "# EOF")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return start
}

// startPrometheus loads the series into a data folder with promtool and serves it with a real
// Prometheus on a free loopback port; it returns the address.
func startPrometheus(t *testing.T) (string, time.Time) {
	t.Helper()
	prom, err := exec.LookPath("prometheus")
	if err != nil {
		testenv.Missing(t, "Prometheus (Debian's prometheus package) is not installed: %v", err)
	}
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		testenv.Missing(t, "promtool (Debian's prometheus package) is not installed: %v", err)
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	start := incidentSeries(t, filepath.Join(dir, "series.om"))
	if out, err := exec.Command(promtool, "tsdb", "create-blocks-from", "openmetrics", filepath.Join(dir, "series.om"), data).CombinedOutput(); err != nil {
		t.Fatalf("promtool: %v\n%s", err, out)
	}
	config := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(config, []byte("global:\n  scrape_interval: 1h\nscrape_configs: []\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, prom, "--config.file="+config, "--storage.tsdb.path="+data, "--storage.tsdb.retention.time=100y",
		"--web.listen-address="+addr, "--log.level=warn")
	logs, err := os.Create(filepath.Join(dir, "prometheus.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		logs.Close()
	})
	base := "http://" + addr
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(base + "/-/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base, start
			}
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(filepath.Join(dir, "prometheus.log"))
			t.Fatalf("Prometheus not ready at %s: %v\n%s", base, err, b)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestAgainstPrometheus: the default queries run against a real Prometheus holding a past
// incident's series: throttling and Prometheus's own memory and head series come back over the
// window (the hub throttled 80 % of its periods from 17:00; Prometheus's memory grew), and the
// metrics it lacks (node_exporter, kube-state-metrics, working sets) are gaps, not errors.
func TestAgainstPrometheus(t *testing.T) {
	base, start := startPrometheus(t)
	f, err := NewFetcher(base, 0, Limits{})
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
	if len(throttling.Result.Series) != 1 || throttling.Result.Series[0].Labels["pod"] != "hub-7c9" {
		t.Fatalf("throttling: %+v", throttling)
	}
	var before, after float64
	for _, p := range throttling.Result.Series[0].Points {
		switch {
		case p.At.Before(start.Add(55 * time.Minute)):
			before = max(before, p.Value)
		case p.At.After(start.Add(70 * time.Minute)):
			after = max(after, p.Value)
		}
	}
	if before > 0.01 || after < 0.75 || after > 0.85 {
		t.Errorf("throttled share %.2f before 17:00 and %.2f after, want 0 and 0.8", before, after)
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
	for _, name := range []string{"node_cpu", "node_memory", "container_memory", "container_restarts"} {
		if !strings.HasPrefix(got[name].Gap, "no series") {
			t.Errorf("%s: gap %q, want no series", name, got[name].Gap)
		}
	}
}
