package picture

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

func TestChain(t *testing.T) {
	if Chain(analysis.Report{}) != "" {
		t.Error("a report without causes has a chain")
	}
	rep := analysis.Report{
		Causes: []analysis.Cause{
			{ID: "C1", Kind: "capacity_exhaustion", Role: "root", Confidence: 0.8, Explains: []string{"C2", "S1", "S2", "S3", "S4", "S5", "S6", "S7"},
				Links: []analysis.Link{{To: "C2", Why: "through the scale-up <S7> & its nodes"}}},
			{ID: "C2", Kind: "shared_prometheus", Role: "contributing", Confidence: 0.78, Explains: []string{"C3"},
				Links: []analysis.Link{{To: "C3", Why: "Prometheus took most of the node"}}},
			{ID: "C3", Kind: "cpu_starvation", Role: "contributing", Count: 3, Confidence: 0.6, Explains: []string{"S1"}},
		},
	}
	for i := 1; i <= 7; i++ {
		rep.Symptoms = append(rep.Symptoms, analysis.Symptom{ID: fmt.Sprintf("S%d", i), Kind: "pod_pending", Count: i * 10, Summary: "pods <waited>"})
	}
	svg := Chain(rep)
	dec := xml.NewDecoder(strings.NewReader(svg))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("not XML: %v\n%s", err, svg)
		}
	}
	for _, want := range []string{`href="#C1"`, `href="#C2"`, `href="#C3"`, `href="#S1"`, `href="#symptoms"`, "+3 more groups",
		"through the scale-up &lt;S7&gt; &amp; its nodes", "pods &lt;waited&gt;", "C3 cpu_starvation", "contributing ×3", "×10"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the chain lacks %q", want)
		}
	}
	if strings.Contains(svg, "<waited>") || strings.Contains(svg, "<S7>") {
		t.Error("a text is not escaped")
	}
	// Columns follow depth: C1 left of C2 left of C3 left of the symptoms.
	x := func(id string) float64 {
		i := strings.Index(svg, `href="#`+id+`"`)
		j := strings.Index(svg[i:], `x="`)
		v, err := strconv.ParseFloat(svg[i+j+3:i+j+3+strings.Index(svg[i+j+3:], `"`)], 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if !(x("C1") < x("C2") && x("C2") < x("C3") && x("C3") < x("S1")) {
		t.Errorf("columns: C1 %v, C2 %v, C3 %v, S1 %v", x("C1"), x("C2"), x("C3"), x("S1"))
	}
}
