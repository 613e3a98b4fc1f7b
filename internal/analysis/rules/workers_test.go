package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/synth"
)

// TestRulesRunConcurrentlyToTheSameReport: the rules of a run give the same report, byte for
// byte as JSON, whether they run one at a time or several at once, on both IL-0070 variants and
// a generated cluster of 2,000 pods. CI's raced step runs it under -race (its name says
// Concurrent): the rules share the run's indexes and caches.
func TestRulesRunConcurrentlyToTheSameReport(t *testing.T) {
	t.Parallel()
	dir, err := synth.BenchSnapshot(2000)
	if err != nil {
		t.Fatal(err)
	}
	models := map[string]*cluster.Model{
		"liveness":  loadDir(t, filepath.Join("..", "testdata", "il0070", "liveness"), time.Time{}),
		"evicted":   loadDir(t, filepath.Join("..", "testdata", "il0070", "evicted"), time.Time{}),
		"2000 pods": loadDir(t, dir, time.Time{}),
	}
	for name, m := range models {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var want []byte
			for _, workers := range []int{1, 2, 8} {
				reg := Default()
				reg.Workers = workers
				got, err := json.Marshal(reg.Run(m, analysis.Options{}))
				if err != nil {
					t.Fatal(err)
				}
				if want == nil {
					want = got
					continue
				}
				if !bytes.Equal(got, want) {
					t.Errorf("the report on %d workers differs from the report on one", workers)
				}
			}
		})
	}
}

// panicRule is a symptom rule that panics.
type panicRule struct{}

func (panicRule) Name() string { return "panics" }
func (panicRule) Symptoms(analysis.Input) []analysis.Symptom {
	panic("a rule's bug")
}

// TestConcurrentRulePanicReachesTheCaller: a rule that panics while the rules run at once
// panics in the goroutine that called Run, with its value, so that the server's recovery
// answers the request rather than the process dying.
func TestConcurrentRulePanicReachesTheCaller(t *testing.T) {
	t.Parallel()
	m := loadDir(t, filepath.Join("..", "testdata", "il0070", "liveness"), time.Time{})
	reg := Default()
	reg.Workers = 4
	reg.Symptoms = append(reg.Symptoms, panicRule{})
	got := func() (v any) {
		defer func() { v = recover() }()
		reg.Run(m, analysis.Options{})
		return nil
	}()
	if fmt.Sprint(got) != "a rule's bug" {
		t.Errorf("Run with a panicking rule: recovered %v, want the rule's panic", got)
	}
}
