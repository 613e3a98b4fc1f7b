package analysis

import (
	"fmt"
	"slices"
	"testing"
)

// TestTally: a tally counts members by name in the order the names first come, whether it
// looks names up in its list (few names) or through its index (past tallyIndexed), and counts
// a share without a name nowhere.
func TestTally(t *testing.T) {
	t.Parallel()
	for _, names := range []int{3, tallyIndexed, 3 * tallyIndexed} {
		var tl tally
		var want []Share
		for i := range names {
			want = append(want, Share{Name: fmt.Sprintf("prod/web-%d", i), Count: 1 + 2 + i})
		}
		for round := range 3 { // each name once a round, the last round counting i more
			for i := range names {
				n := 1
				if round == 2 {
					n = 1 + i
				}
				tl.add(Share{Name: fmt.Sprintf("prod/web-%d", i), Count: n})
				tl.add(Share{Count: 5})
			}
		}
		if !slices.Equal(tl.shares, want) {
			t.Errorf("%d names: tally %v, want %v", names, tl.shares, want)
		}
	}
}
