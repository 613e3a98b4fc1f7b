package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/bytedance/sonic"
	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/ingest"
	"github.com/rootline-dev/rootline/internal/synth"
)

// benchPods is the size of the analyze benchmarks' snapshot (synth.BenchPods).
func benchPods() int { return synth.BenchPods() }

// benchDir holds the generated snapshot (synth.BenchSnapshot).
var benchDir = sync.OnceValues(func() (string, error) { return synth.BenchSnapshot(benchPods()) })

func benchInput(b *testing.B) (string, int64) {
	b.Helper()
	dir, err := benchDir()
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, n := range []string{"nodes.json", "pods.json", "events.json"} {
		fi, err := os.Stat(filepath.Join(dir, n))
		if err != nil {
			b.Fatal(err)
		}
		size += fi.Size()
	}
	return dir, size
}

// peakHeap samples the Go heap while f runs and returns the highest value seen, in bytes.
func peakHeap(f func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	return peak
}

// BenchmarkBareDecode is the yardstick: encoding/json decoding the same three files into the
// Kubernetes list types, nothing else.
func BenchmarkBareDecode(b *testing.B) {
	dir, size := benchInput(b)
	b.SetBytes(size)
	var peak uint64
	for b.Loop() {
		peak = max(peak, peakHeap(func() {
			var nodes corev1.NodeList
			var pods corev1.PodList
			var events corev1.EventList
			for name, v := range map[string]any{"nodes.json": &nodes, "pods.json": &pods, "events.json": &events} {
				f, err := os.Open(filepath.Join(dir, name))
				if err != nil {
					b.Fatal(err)
				}
				if err := json.NewDecoder(bufio.NewReader(f)).Decode(v); err != nil {
					b.Fatal(err)
				}
				f.Close()
			}
		}))
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(size)/(1<<20), "input-MiB")
}

// BenchmarkBareDecodeSonic is issue 16's yardstick: the fastest typed decode on the platform
// (bytedance/sonic on amd64), the same three files read whole and decoded into the Kubernetes
// list types, after a warm-up decode that compiles sonic's decoders for them.
func BenchmarkBareDecodeSonic(b *testing.B) {
	dir, size := benchInput(b)
	decode := func() {
		var nodes corev1.NodeList
		var pods corev1.PodList
		var events corev1.EventList
		for name, v := range map[string]any{"nodes.json": &nodes, "pods.json": &pods, "events.json": &events} {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				b.Fatal(err)
			}
			if err := sonic.Unmarshal(data, v); err != nil {
				b.Fatal(err)
			}
		}
	}
	decode() // warm-up: sonic compiles its decoders on first use
	b.SetBytes(size)
	var peak uint64
	for b.Loop() {
		peak = max(peak, peakHeap(decode))
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(size)/(1<<20), "input-MiB")
}

// BenchmarkAnalyze is `rootline analyze` on the same files: decode, model, rules.
func BenchmarkAnalyze(b *testing.B) {
	dir, size := benchInput(b)
	// Compiled first, as the yardstick's are: their compile, once per process, is in
	// scripts/perf.sh's whole `rootline analyze` runs.
	if err := ingest.WarmUp(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	var peak uint64
	for b.Loop() {
		peak = max(peak, peakHeap(func() {
			rep, err := analyzePaths(context.Background(), []string{dir}, analysis.Options{}, io.Discard)
			if err != nil || rep.Inputs.Pods != benchPods() {
				b.Fatalf("analyze: %v (%d pods)", err, rep.Inputs.Pods)
			}
		}))
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(size)/(1<<20), "input-MiB")
}
