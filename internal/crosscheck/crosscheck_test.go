package crosscheck

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/rules"
	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/incident"
)

// IL-0070's report against the analysis of its evicted evidence: they agree on the root cause
// and on the CPU share of the hub's node, and differ on its memory share (93% against 91%)
// and its memory limits (124% against 121%), each paired with the analysis' figure of the
// same thing, never with another.
func TestIL0070ReportAgainstEvidence(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("..", "..", "examples", "incidents", "IL-0070.md"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := incident.ParseReport("IL-0070.md", b, analysis.SymptomKinds, analysis.CauseKinds)
	if err != nil {
		t.Fatal(err)
	}
	rep := rules.Run(fixtures.IL0070Model(t), analysis.Options{})
	c := Compare(r, rep)
	if !c.RootAgrees || c.RootReport != "capacity_exhaustion" {
		t.Errorf("root: %q against %q, agree %v", c.RootReport, c.RootEvidence, c.RootAgrees)
	}
	for _, k := range []string{"pod_evicted", "pod_pending", "shared_prometheus"} {
		if !slices.Contains(c.Agree, k) {
			t.Errorf("agree = %v, want %s", c.Agree, k)
		}
	}
	if !slices.Contains(c.OnlyEvidence, "node_not_ready") || len(c.OnlyReport) != 0 {
		t.Errorf("only evidence %v, only report %v", c.OnlyEvidence, c.OnlyReport)
	}
	got := map[string]string{}
	for _, n := range c.Numbers {
		got[n.ReportValue] = n.EvidenceValue
		t.Logf("%q → %q (%s)", n.Report, n.Evidence, n.ID)
	}
	for mine, theirs := range map[string]string{"88%": "88%", "93%": "91%", "124%": "121%"} {
		if got[mine] != theirs {
			t.Errorf("the report's %s paired with %q, want %s (all: %v)", mine, got[mine], theirs, got)
		}
	}
}

// A figure is paired only on words that say what it is of: a share of a different thing, or
// one that shares a single word, stays unpaired.
func TestNumbersNeedSharedWords(t *testing.T) {
	t.Parallel()
	rep := analysis.Report{Causes: []analysis.Cause{{ID: "C1", Kind: "capacity_exhaustion", Summary: "node n-1 had 91% of its memory requested"}}}
	for _, tc := range []struct {
		body string
		want int
	}{
		{"On that node 93% of the memory was requested.", 1},
		{"The disk of the node was 93% full.", 0},
		{"93% of users saw errors.", 0},
		{"Memory requested was high. About 93% of users left.", 0},
	} {
		if got := numbers(tc.body, rep); len(got) != tc.want {
			t.Errorf("%q: %d pairs %+v, want %d", tc.body, len(got), got, tc.want)
		}
	}
	if n := numbers("On that node 93% of the memory was requested.", rep); len(n) == 1 && (n[0].Same() || !strings.Contains(n[0].Report, "memory")) {
		t.Errorf("pair %+v", n[0])
	}
}
