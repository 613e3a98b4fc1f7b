package analysis

import (
	"slices"
	"testing"
)

// proposedLinks is a link rule that proposes the edges it is given, as a rule that found them
// in the evidence would.
type proposedLinks []Edge

func (proposedLinks) Name() string                  { return "proposed" }
func (l proposedLinks) Links(Input, *Report) []Edge { return l }

// TestChainNeverLoops: the chain is read from its root to the symptoms, so a link that would
// close a loop (back to a cause that leads to its source, or from a cause to itself) is never
// drawn, whichever rule proposes it; a link from a cause the report does not hold is dropped;
// and a cause's Explains lists causes before symptoms, in the report's order.
func TestChainNeverLoops(t *testing.T) {
	r := &Report{
		Symptoms: []Symptom{{ID: "S1"}, {ID: "S2"}},
		Causes:   []Cause{{ID: "C1"}, {ID: "C2", Explains: []string{"S2"}}, {ID: "C3", Explains: []string{"S1"}}},
	}
	linkChain(Input{}, r, []LinkRule{
		proposedLinks{{From: "C1", To: "C2", Why: "C1 led to C2"}, {From: "C2", To: "C3", Why: "C2 led to C3"}},
		proposedLinks{
			{From: "C3", To: "C1", Why: "a loop back to the root"},
			{From: "C2", To: "C2", Why: "a loop on itself"},
			{From: "C3", To: "C2", Why: "a loop back to its source"},
			{From: "C9", To: "S1", Why: "from no cause"},
			{From: "C2", To: "S1", Why: "C2 led to S1 too"},
			{From: "C1", To: "C2", Why: "again"},
		},
	})
	want := map[string][]string{"C1": {"C2"}, "C2": {"C3", "S1", "S2"}, "C3": {"S1"}}
	for _, c := range r.Causes {
		if !slices.Equal(c.Explains, want[c.ID]) {
			t.Errorf("%s explains %q, want %q", c.ID, c.Explains, want[c.ID])
		}
	}
	if links := r.Causes[0].Links; len(links) != 1 || links[0].Why != "C1 led to C2" {
		t.Errorf("C1's links %+v, want the first C1 → C2 only", links)
	}
	for _, id := range []string{"C2", "C3", "S1", "S2"} {
		if !r.Reaches("C1", id) {
			t.Errorf("C1 does not reach %s, want every cause and symptom", id)
		}
	}
	for _, id := range []string{"C1", "C2", "S2"} {
		if r.Reaches("C3", id) {
			t.Errorf("C3 reaches %s, want S1 alone", id)
		}
	}
	if !r.Reaches("C3", "S1") {
		t.Error("C3 does not reach S1")
	}
}
