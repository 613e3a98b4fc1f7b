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

// What happened ends each of its sentences once: a symptom whose summary ends on a message's
// own period ("…398 Preemption is not helpful for scheduling.") gets no second one, first or
// last.
func TestWhatHappenedEndsOnce(t *testing.T) {
	t.Parallel()
	const (
		evicted = "pod a/b was evicted"
		pending = "pod a/c could not be scheduled: 0/3 nodes are available: 3 Insufficient cpu."
	)
	for _, tc := range []struct {
		summaries []string
		want      string
	}{
		{[]string{evicted}, "Pod a/b was evicted."},
		{[]string{pending}, "Pod a/c could not be scheduled: 0/3 nodes are available: 3 Insufficient cpu."},
		{[]string{evicted, pending}, "Pod a/b was evicted. Also: pod a/c could not be scheduled: 0/3 nodes are available: 3 Insufficient cpu."},
		{[]string{pending, evicted}, "Pod a/c could not be scheduled: 0/3 nodes are available: 3 Insufficient cpu. Also: pod a/b was evicted."},
	} {
		var felt []Symptom
		for i, s := range tc.summaries {
			felt = append(felt, Symptom{ID: fmt.Sprintf("S%d", i+1), Kind: PodPending, Summary: s})
		}
		if got := whatHappened(felt); got != tc.want {
			t.Errorf("whatHappened(%q) = %q, want %q", tc.summaries, got, tc.want)
		}
	}
}
