package main

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"syscall"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/testenv"
)

// limitWriter records the soft memory limit in force when the report is written.
type limitWriter struct{ limits []int64 }

func (w *limitWriter) Write(p []byte) (int, error) {
	w.limits = append(w.limits, debug.SetMemoryLimit(-1))
	return len(p), nil
}

// TestAnalyzeHoldsItsMemoryLimitWhileWriting: the soft memory limit analyze sets from the model
// holds until the report is written, since writing it allocates and without the limit the heap
// grew to twice what was live (about 35 MB of peak at 20,000 pods); then the limit the process
// had comes back. Not parallel: the limit belongs to the process, and the parallel tests of
// this package that analyse set it too.
func TestAnalyzeHoldsItsMemoryLimitWhileWriting(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	if before != math.MaxInt64 {
		t.Fatalf("the process starts with a memory limit of %d; this test needs none", before)
	}
	for _, format := range []string{"json", "text"} {
		t.Run(format, func(t *testing.T) {
			cmd := newAnalyzeCmd()
			w := &limitWriter{}
			cmd.SetOut(w)
			cmd.SetArgs([]string{"--format", format, fixtures.IL0070Dir()})
			if err := cmd.Execute(); err != nil {
				t.Fatal(err)
			}
			if len(w.limits) == 0 {
				t.Fatal("nothing written")
			}
			for _, l := range w.limits {
				if l > 2*minMemoryLimit {
					t.Fatalf("the report was written under a memory limit of %d; want analyze's own, at most %d for IL-0070", l, 2*minMemoryLimit)
				}
			}
			if after := debug.SetMemoryLimit(-1); after != before {
				t.Errorf("after analyze the memory limit is %d; want %d back", after, before)
			}
		})
	}
}

// gcPercent is the collector's pacing now (GOGC), read without changing it.
func gcPercent() int64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// TestAnalyzeDecodesAtItsPacing: analyze decodes with the collector running each time the heap
// grows by a quarter (decodePacing), and the process's pacing is back once it has decoded. The
// input is a named pipe, so that the test sees the pacing while analyze reads it: analyze sets
// it before it opens the file, and opening a pipe waits for the other end. Not parallel: the
// pacing belongs to the process.
func TestAnalyzeDecodesAtItsPacing(t *testing.T) {
	before := gcPercent()
	fifo := filepath.Join(t.TempDir(), "pods.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		testenv.Missing(t, "no named pipes here: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := analyzeDecoded(t.Context(), []string{fifo}, analysis.Options{}, io.Discard, true)
		done <- err
	}()
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	during := gcPercent()
	if _, err := io.WriteString(w, `{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"a","namespace":"d"},"status":{"phase":"Pending"}}]}`); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if want := min(before, decodeGCPercent); during != want {
		t.Errorf("while analyze decoded, GOGC was %d; want %d", during, want)
	}
	if after := gcPercent(); after != before {
		t.Errorf("after analyze, GOGC is %d; want %d back", after, before)
	}
}

// TestDecodePacingKeepsALowerOne: a pacing the process already has lower than decoding's, or
// none (GOGC=off), is kept. Not parallel, as above.
func TestDecodePacingKeepsALowerOne(t *testing.T) {
	was := debug.SetGCPercent(100)
	defer debug.SetGCPercent(was)
	for _, tc := range []struct{ set, during int }{{100, decodeGCPercent}, {10, 10}, {-1, -1}} {
		debug.SetGCPercent(tc.set)
		restore := decodePacing()
		if got := debug.SetGCPercent(tc.set); got != tc.during {
			t.Errorf("GOGC %d: while decoding it is %d; want %d", tc.set, got, tc.during)
		}
		debug.SetGCPercent(tc.during)
		restore()
		restore()
		if got := debug.SetGCPercent(100); got != tc.set {
			t.Errorf("GOGC %d: after decoding it is %d; want it back", tc.set, got)
		}
	}
}
