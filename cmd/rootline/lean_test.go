package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/corpustest"
	"github.com/rootline-dev/rootline/internal/report"
	"github.com/rootline-dev/rootline/internal/synth"
)

// sameReport analyses paths twice, decoding pods and events straight into what Rootline keeps
// of them (as rootline analyze does) and through the Kubernetes types (as an upload does), and
// fails unless the two reports' JSON are byte for byte the same.
func sameReport(t *testing.T, name string, paths []string, opts analysis.Options) {
	t.Helper()
	var out [2]bytes.Buffer
	var errs [2]error
	for i, unstored := range []bool{true, false} {
		rep, err := analyzeDecoded(context.Background(), paths, opts, io.Discard, unstored)
		if errs[i] = err; err == nil {
			if err := report.WriteJSON(&out[i], rep); err != nil {
				t.Fatal(err)
			}
		}
	}
	if (errs[0] == nil) != (errs[1] == nil) {
		t.Fatalf("%s: straight: %v; through the Kubernetes types: %v", name, errs[0], errs[1])
	}
	if !bytes.Equal(out[0].Bytes(), out[1].Bytes()) {
		t.Errorf("%s: the reports differ (%d bytes straight, %d through the Kubernetes types)", name, out[0].Len(), out[1].Len())
	}
}

// TestLeanDecodeReportsAsTheKubernetesTypes is issue 30's differential test: every file of the
// shared corpus and the peer suite, and both IL-0070 variants, give the same report decoded
// straight into the lean types as decoded into the Kubernetes types and made lean.
func TestLeanDecodeReportsAsTheKubernetesTypes(t *testing.T) {
	t.Parallel()
	opts := analysis.Options{Now: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
	n := 0
	for _, dir := range []string{corpustest.Dir(t), corpustest.PeerDir(t)} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() || e.Name() == "truth.json" || e.Name() == "SOURCES.md" || filepath.Ext(e.Name()) == ".py" {
				continue
			}
			sameReport(t, e.Name(), []string{filepath.Join(dir, e.Name())}, opts)
			n++
		}
	}
	for _, variant := range []string{"evicted", "liveness"} {
		sameReport(t, "IL-0070 "+variant, []string{filepath.Join("..", "..", "internal", "analysis", "testdata", "il0070", variant)}, analysis.Options{})
	}
	if n < 150 {
		t.Fatalf("only %d files compared", n)
	}
}

// TestLeanDecodeAtScale is the same over the 20,000-pod scale snapshot (synth.BenchSnapshot:
// 500 nodes, 50,000 events), in CI's step of size tests.
func TestLeanDecodeAtScale(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("analyses 20,000 pods twice")
	}
	dir, err := synth.BenchSnapshot(20000)
	if err != nil {
		t.Fatal(err)
	}
	sameReport(t, "the scale snapshot", []string{dir}, analysis.Options{})
}
