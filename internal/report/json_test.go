package report

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// TestWriteJSONIsTheEncoders: WriteJSON writes what json.Encoder with a two-space indent
// writes, for reports with symptoms and causes, with empty lists, and with none (null), and
// for values HTML escaping changes.
func TestWriteJSONIsTheEncoders(t *testing.T) {
	t.Parallel()
	at := time.Date(2023, 2, 1, 17, 6, 0, 0, time.UTC)
	full := analysis.Report{
		Inputs: analysis.Inputs{Files: 3, Pods: 2},
		Symptoms: []analysis.Symptom{
			{ID: "S1", Kind: analysis.PodEvicted, At: &at, Summary: "evicted <low on memory> & more", Objects: []analysis.ObjectRef{{Kind: "Pod", Namespace: "prod", Name: "hub-1"}}},
			{ID: "S2", Kind: analysis.PodPending, Objects: []analysis.ObjectRef{}},
		},
		Causes:  []analysis.Cause{{ID: "C1", Kind: analysis.CapacityExhaustion, Explains: []string{"S1", "S2"}, Summary: "full"}},
		Gaps:    []analysis.Gap{{Kind: analysis.GapFileSkipped, Summary: "not read"}},
		Summary: &analysis.Summary{},
	}
	for name, rep := range map[string]analysis.Report{
		"full":  full,
		"empty": {Symptoms: []analysis.Symptom{}, Causes: []analysis.Cause{}, Gaps: []analysis.Gap{}},
		"nil":   {},
		"one":   {Symptoms: full.Symptoms[:1], Causes: []analysis.Cause{}, Gaps: nil, Claims: []analysis.ClaimRef{{}}},
	} {
		var want, got bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			t.Fatal(err)
		}
		if err := WriteJSON(&got, rep); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.String() != want.String() {
			t.Errorf("%s: WriteJSON wrote\n%s\nthe encoder\n%s", name, got.String(), want.String())
		}
	}
}
