package server

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/inputsize"
)

// guideDoc is the operator's guide, whose "Memory under load" tells how --memory-budget is spent.
const guideDoc = "../../docs/guide.md"

// TestBudgetCostModelIsTheDocumented holds the memory budget's cost model to the figures
// docs/guide.md gives operators to size --memory-budget by: what an upload or a batch is charged
// (a fixed part and bytes per decoded byte, pasted text by the objects it becomes), what loading
// an incident is charged (the fixed part and bytes per object), and the worked example for the
// default budget. A figure changed in the code without the guide (or the other way) fails here,
// naming both.
func TestBudgetCostModelIsTheDocumented(t *testing.T) {
	b, err := os.ReadFile(guideDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Join(strings.Fields(string(b)), " ") // a sentence may break across lines
	// figures finds the sentence in the guide and returns its numbers.
	figures := func(what, pattern string) []int64 {
		t.Helper()
		m := regexp.MustCompile(pattern).FindStringSubmatch(doc)
		if m == nil {
			t.Fatalf("docs/guide.md does not say %s (no match for %q in \"Memory under load\")", what, pattern)
		}
		n := make([]int64, len(m)-1)
		for i, s := range m[1:] {
			if n[i], err = strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64); err != nil {
				t.Fatal(err)
			}
		}
		return n
	}
	const kib, mib = 1 << 10, 1 << 20
	check := func(what string, doc, code int64) {
		t.Helper()
		if doc != code {
			t.Errorf("docs/guide.md says %s is %d, the code (internal/server/budget.go, internal/inputsize) %d", what, doc, code)
		}
	}

	up := figures("what an upload is charged", `upload or a collector batch is charged (\d+) MiB plus (\d+) bytes for each byte its files decode to`)
	check("an upload's fixed part", up[0]*mib, costBase)
	check("an upload's bytes per decoded byte", up[1], costPerByte)
	check("how much larger the objects of pasted text are than the text",
		figures("what pasted text is charged", `pasted kubectl text by the objects it becomes, (\d+) times its size`)[0], inputsize.TextGrowth)

	check("an upload's bytes per series of a saved Prometheus answer",
		figures("what a saved Prometheus answer's series are charged", `plus (\d+) KiB for each series a saved Prometheus answer holds`)[0]*kib, costPerSeries)

	load := figures("what loading an incident is charged", `loading and analysing an incident, (\d+) MiB plus (\d+) KiB for each object`)
	check("an incident load's fixed part", load[0]*mib, costBase)
	check("an incident load's bytes per object", load[1]*kib, costPerObject)
	check("the charge of an incident of unknown size",
		figures("what loading an incident of unknown size is charged", `or (\d+) MiB alone while the server process has not loaded it`)[0]*mib, costBase)
	sizing := figures("how to size the budget", "set `--memory-budget` to at least (\\d+) MiB \\+ (\\d+) KiB × the objects")
	check("the sizing rule's fixed part", sizing[0]*mib, costBase)
	check("the sizing rule's bytes per object", sizing[1]*kib, costPerObject)

	// The worked example: what it says fits the default budget does, and is about the most that does.
	ex := figures("what the default budget holds", `the default (\d+) GiB holds four (\d+) MiB uploads decoding at once .*? an incident of some ([\d,]+) objects`)
	total := int64(config.DefaultMemoryBudget)
	check("the default budget, in GiB", ex[0], total>>30)
	if cost := 4 * (costBase + costPerByte*ex[1]*mib); cost > total || 5*(costBase+costPerByte*ex[1]*mib) <= total {
		t.Errorf("docs/guide.md says the default budget holds four %d MiB uploads at once: they cost %d of its %d", ex[1], cost, total)
	}
	if cost := costBase + costPerObject*ex[2]; cost > total || cost < total*9/10 {
		t.Errorf("docs/guide.md says the default budget holds the analysis of some %d objects: it costs %d of its %d, want within 90%% to all of it", ex[2], cost, total)
	}
}
