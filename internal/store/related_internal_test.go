package store

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// TestBest: the heap keeps exactly what sorting every candidate keeps, ties by id, each id once.
func TestBest(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		want := sigBits{r.Int64N(64), r.Int64N(64), r.Int64N(16)}
		var rows []scoredRow
		for range r.IntN(300) {
			id := fmt.Sprintf("I%03d", r.IntN(150)) // repeats: as a component query gives them
			rows = append(rows, scoredRow{id: id, bits: sigBits{r.Int64N(64), r.Int64N(64), r.Int64N(16)}})
		}
		limit := 1 + r.IntN(40)
		// Brute force: the first row of each id, every candidate scored and sorted.
		seen := map[string]bool{}
		var all []scored
		for _, x := range rows {
			if !seen[x.id] {
				seen[x.id] = true
				all = append(all, scored{x.id, want.overlap(x.bits)})
			}
		}
		sort.Slice(all, func(i, j int) bool { return all[i].better(all[j]) })
		var expect []string
		for _, x := range all[:min(limit, len(all))] {
			expect = append(expect, x.id)
		}
		got := best(rows, want, limit, true)
		if !slices.Equal(got, expect) && !(len(got) == 0 && len(expect) == 0) {
			t.Fatalf("round %d, limit %d: got %v, want %v", round, limit, got, expect)
		}
	}
}

// TestOverlap: the bit-set overlap is the mean of the three Jaccard fractions.
func TestOverlap(t *testing.T) {
	t.Parallel()
	a := sigBits{SymptomBits: 0b0011, CauseBits: 0b0001, ComponentBits: 0b11}
	b := sigBits{SymptomBits: 0b0110, CauseBits: 0b0001, ComponentBits: 0}
	if got, want := a.overlap(b), (1.0/3+1+0)/3; got != want {
		t.Errorf("overlap = %v, want %v", got, want)
	}
	if got := (sigBits{}).overlap(sigBits{}); got != 0 {
		t.Errorf("empty overlap = %v", got)
	}
}
