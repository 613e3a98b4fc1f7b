package analysis

import (
	"runtime"
	"sync/atomic"
	"testing"
	"weak"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// memoKey is the key the rules below share through Once.
type memoKey struct{}

// memoRules are a symptom, a cause and a gap rule that each ask Once for the same value: a
// megabyte, made by made.
type memoRules struct {
	made    *atomic.Int32
	held    *weak.Pointer[[]byte]
	atGap   *bool // whether the symptom rules' value was still live when the gap rule ran
	seenGap *int32
}

func (r memoRules) value(in Input) *[]byte {
	return Once(in, memoKey{}, func() *[]byte {
		r.made.Add(1)
		b := make([]byte, 1<<20)
		return &b
	})
}

func (memoRules) Name() string { return "memo" }

func (r memoRules) Symptoms(in Input) []Symptom {
	*r.held = weak.Make(r.value(in))
	return nil
}

func (r memoRules) Causes(in Input, _ []Symptom) []Cause {
	r.value(in)
	return nil
}

func (r memoRules) Gaps(in Input, _ *Report) []Gap {
	runtime.GC()
	*r.atGap = r.held.Value() != nil
	r.value(in)
	r.value(in)
	*r.seenGap = r.made.Load()
	return nil
}

// TestRunLetsTheRulesMemoGo: what the symptom and cause rules made through Once is theirs. It
// is made once for them all, and it is no longer live once they are done, so that the memo (13
// MiB at 20,000 pods) is not held beside the groups; a later step that asks for it makes its
// own, once.
func TestRunLetsTheRulesMemoGo(t *testing.T) {
	t.Parallel()
	var (
		made    atomic.Int32
		held    weak.Pointer[[]byte]
		atGap   bool
		seenGap int32
	)
	rules := memoRules{made: &made, held: &held, atGap: &atGap, seenGap: &seenGap}
	r := &Registry{Symptoms: []SymptomRule{rules}, Causes: []CauseRule{rules}, Gaps: []GapRule{rules}}
	r.Run(cluster.NewModel(nil, nil), Options{})
	if atGap {
		t.Error("the symptom and cause rules' memo was still live when the gap rules ran")
	}
	if seenGap != 2 {
		t.Errorf("the value was made %d times by the time the gap rule had asked twice, want 2 (once for the rules, once after)", seenGap)
	}
}
