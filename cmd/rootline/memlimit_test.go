package main

import (
	"math"
	"runtime/debug"
	"testing"

	"github.com/rootline-dev/rootline/internal/fixtures"
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
