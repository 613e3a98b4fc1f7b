package analysis

import (
	"fmt"
	"strings"
	"testing"
)

// A report of many causes keeps its summary bounded: the most preventive changes, the number
// left out, and three missing items named.
func TestSummaryBounded(t *testing.T) {
	t.Parallel()
	rep := Report{Symptoms: []Symptom{{ID: "S1", Kind: PodEvicted, Summary: "pod a/b was evicted"}}}
	for i := range 40 {
		rep.Causes = append(rep.Causes, Cause{ID: fmt.Sprintf("C%d", i+1), Kind: MemoryOverRequest, Role: Root, Confidence: 0.6,
			Explains: []string{"S1"}, Missing: []string{fmt.Sprintf("metric %d", i)},
			Suggestions: []Suggestion{{Change: fmt.Sprintf("change %d", i)}}})
	}
	for i := range 6 {
		rep.Gaps = append(rep.Gaps, Gap{Kind: GapEventsExpired, Summary: fmt.Sprintf("events of node %d expired", i)})
	}
	s := summarize(&rep)
	if len(s.Changes) != summaryChanges || s.MoreChanges != 40-summaryChanges {
		t.Errorf("%d changes, %d more; want %d and %d", len(s.Changes), s.MoreChanges, summaryChanges, 40-summaryChanges)
	}
	if !strings.Contains(s.Sure, "Missing: metric 0; events of node 0 expired; events of node 1 expired; and 4 more.") || len(s.Missing) != 7 {
		t.Errorf("sure = %q", s.Sure)
	}
}
