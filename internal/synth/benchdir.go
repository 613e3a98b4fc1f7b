package synth

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// BenchPods is the size of the benchmarks' snapshots: ROOTLINE_BENCH_PODS pods, else 20,000.
func BenchPods() int {
	if n, err := strconv.Atoi(os.Getenv("ROOTLINE_BENCH_PODS")); err == nil && n > 0 {
		return n
	}
	return 20000
}

// BenchSnapshot returns the folder of the benchmarks' snapshot of pods pods: nodes.json,
// pods.json and events.json as kubectl writes them, with two and a half events a pod. It is
// made once in the temporary folder (rootline-bench-analyze-PODS) and kept, since the same
// size is always the same files: the analyze and upload benchmarks, and the bare decodes they
// are measured against, read the same bytes. scripts/perf.sh removes it.
func BenchSnapshot(pods int) (string, error) {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("rootline-bench-analyze-%d", pods))
	done := filepath.Join(dir, ".complete")
	if _, err := os.Stat(done); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("benchmark snapshot: %w", err)
	}
	o := Options{Pods: pods, Events: pods * 5 / 2, Seed: 42}
	for name, write := range map[string]func(io.Writer, Options) error{
		"nodes.json": WriteNodeList, "pods.json": WritePodList, "events.json": WriteEventList,
	} {
		if err := writeFile(filepath.Join(dir, name), func(w io.Writer) error { return write(w, o) }); err != nil {
			return "", fmt.Errorf("benchmark snapshot: %w", err)
		}
	}
	return dir, os.WriteFile(done, nil, 0o644)
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := write(w); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
