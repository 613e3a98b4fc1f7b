// Package promtest runs a real Prometheus (Debian's prometheus package) for tests, on loopback,
// holding series written for a past window: promtool loads them as OpenMetrics into a data
// folder, which the Prometheus serves. Daemon runs the other programs of the Prometheus project
// the tests need (Alertmanager) the same way. It is for tests only: no other code imports it.
package promtest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/testenv"
)

// Family is one series to load: its metric name, OpenMetrics type ("counter" or "gauge"), its
// labels as OpenMetrics writes them (`namespace="prod",pod="hub-1"`), and its value at each
// step from the start.
type Family struct {
	Name, Type, Labels string
	Value              func(i int) float64
}

// Series are the families written every step from start, n samples each.
type Series struct {
	Start    time.Time
	Step     time.Duration
	N        int
	Families []Family
}

func (s Series) write(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for _, fam := range s.Families {
		fmt.Fprintf(w, "# TYPE %s %s\n", fam.Name, fam.Type)
		name := fam.Name
		if fam.Type == "counter" {
			name += "_total"
		}
		for i := range s.N {
			fmt.Fprintf(w, "%s{%s} %g %d\n", name, fam.Labels, fam.Value(i), s.Start.Add(time.Duration(i)*s.Step).Unix())
		}
	}
	fmt.Fprintln(w, "# EOF")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// Start loads the series into a data folder with promtool and serves it with a real Prometheus
// on a free loopback port until the test ends; it returns its address (http://127.0.0.1:port).
// Without the prometheus package the test fails under CI=true and is skipped otherwise.
func Start(t *testing.T, s Series) string {
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
	s.write(t, filepath.Join(dir, "series.om"))
	if out, err := exec.Command(promtool, "tsdb", "create-blocks-from", "openmetrics", filepath.Join(dir, "series.om"), data).CombinedOutput(); err != nil {
		t.Fatalf("promtool: %v\n%s", err, out)
	}
	config := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(config, []byte("global:\n  scrape_interval: 1h\nscrape_configs: []\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := FreeAddr(t)
	return Daemon(t, prom, []string{"--config.file=" + config, "--storage.tsdb.path=" + data, "--storage.tsdb.retention.time=100y",
		"--web.listen-address=" + addr, "--log.level=warn"}, addr)
}

// Daemon starts bin, a program of the Prometheus project (Prometheus, Alertmanager), with args
// that make it listen on addr, and returns http://addr once its /-/ready answers 200 (within a
// minute). It is stopped when the test ends, and its output logged when the test failed.
func Daemon(t *testing.T, bin string, args []string, addr string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("start %s: %v", bin, err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("%s's output:\n%s", filepath.Base(bin), out.String())
		}
	})
	base := "http://" + addr
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(base + "/-/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s not ready at %s: %v", filepath.Base(bin), base, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// FreeAddr returns a loopback address with a port free a moment ago.
func FreeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// IL0070 are the series IL-0070's cluster would have recorded every 15 s for two hours from
// 16:00 on 2023-02-01 about the pods of the IL-0070 fixture (its liveness variant): the hub's CFS
// periods, throttled in 80 % of them from 16:55 as the scale-up began; its CPU use held at 10m,
// its request; its working set, 300 MiB; and the resident memory and head series of the
// Prometheus on its node, growing with the nodes it scraped from 16:55.
func IL0070() Series {
	const hub = `namespace="prod",pod="hub-8sr9zr4gx7-js2fw",container="hub"`
	const prom = `job="prometheus",instance="10.8.1.20:9090",pod="support-prometheus-server-8vssc48qww-74p85"`
	from := 220 // 16:55
	return Series{Start: time.Date(2023, 2, 1, 16, 0, 0, 0, time.UTC), Step: 15 * time.Second, N: 480, Families: []Family{
		{"container_cpu_cfs_periods", "counter", hub, func(i int) float64 { return float64(i) * 150 }},
		{"container_cpu_cfs_throttled_periods", "counter", hub, func(i int) float64 { return float64(max(0, i-from)) * 120 }},
		{"container_cpu_usage_seconds", "counter", hub, func(i int) float64 { return float64(i) * 15 * 0.01 }},
		{"container_memory_working_set_bytes", "gauge", hub, func(int) float64 { return 300 << 20 }},
		{"process_resident_memory_bytes", "gauge", prom, func(i int) float64 { return 8e9 + float64(max(0, i-from))*5e7 }},
		{"prometheus_tsdb_head_series", "gauge", prom, func(i int) float64 { return 1e6 + float64(max(0, i-from))*5e3 }},
	}}
}
