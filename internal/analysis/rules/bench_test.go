package rules

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/synth"
)

// benchModel is the model of the benchmarks' snapshot (synth.BenchSnapshot: ROOTLINE_BENCH_PODS
// pods, else 20,000, with 500 nodes at 20,000 and two and a half events a pod), decoded once.
var benchModel = sync.OnceValues(func() (*cluster.Model, error) {
	dir, err := synth.BenchSnapshot(synth.BenchPods())
	if err != nil {
		return nil, err
	}
	m, err := decodeDir(dir, time.Time{})
	if err != nil {
		return nil, fmt.Errorf("benchmark snapshot: %w", err)
	}
	return m, nil
})

// BenchmarkRules times every rule of the default registry, in a whole run over the
// benchmarks' snapshot, as Registry.Observe sees it: each rule reports ms/op under its name
// ("rule-NAME-ms/op"), the engine's own steps under "(engine)" and "(links)". A rule that is
// first to ask for an index the run shares (Input.Once) pays for making it. scripts/perf.sh
// writes the table in docs/performance.md from these lines.
func BenchmarkRules(b *testing.B) {
	m, err := benchModel()
	if err != nil {
		b.Fatal(err)
	}
	reg := Default()
	took := map[string]time.Duration{}
	reg.Observe = func(name string, d time.Duration) { took[name] += d }
	for b.Loop() {
		rep := reg.Run(m, analysis.Options{})
		if rep.Inputs.Pods != len(m.Pods) {
			b.Fatalf("analysed %d pods of %d", rep.Inputs.Pods, len(m.Pods))
		}
	}
	names := make([]string, 0, len(took))
	for n := range took {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		b.ReportMetric(float64(took[n].Microseconds())/1000/float64(b.N), "rule-"+strings.ReplaceAll(n, " ", "_")+"-ms/op")
	}
}

// TestObserveNamesEveryRule holds what BenchmarkRules' table rests on: Observe is told of every
// rule of the default registry by its name, and of the engine's steps, and the times it is
// told add up to the run's when the rules run one at a time, and to at most the run's for each
// worker when they run at once.
func TestObserveNamesEveryRule(t *testing.T) {
	t.Parallel()
	m := loadDir(t, filepath.Join("..", "testdata", "il0070", "liveness"), time.Time{})
	for _, workers := range []int{1, 3} {
		t.Run(fmt.Sprintf("%d workers", workers), func(t *testing.T) {
			reg := Default()
			reg.Workers = workers
			seen := map[string]int{}
			var sum time.Duration
			reg.Observe = func(name string, d time.Duration) { seen[name]++; sum += d }
			start := time.Now()
			reg.Run(m, analysis.Options{})
			whole := time.Since(start)
			var want []string
			for _, r := range reg.Symptoms {
				want = append(want, r.Name())
			}
			for _, r := range reg.Causes {
				want = append(want, r.Name())
			}
			for _, r := range slices.Concat(reg.Roles, reg.Amends) {
				want = append(want, r.Name())
			}
			for _, r := range reg.Gaps {
				want = append(want, r.Name())
			}
			want = append(want, analysis.EngineStep, analysis.LinkStep)
			for _, n := range want {
				if seen[n] == 0 {
					t.Errorf("Observe was not told of %q", n)
				}
			}
			if sum > whole*time.Duration(workers) || sum < whole/2 {
				t.Errorf("Observe was told of %v in all, for a run of %v on %d workers", sum, whole, workers)
			}
		})
	}
}
