package rules

import (
	"fmt"
	"strings"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// followsLink links a cause that builds on a symptom (shared_prometheus on a scale-up that
// multiplied Prometheus's scrape targets, scale_up_not_ready on the scale-up whose nodes were
// not ready) to the causes of that symptom: the pods that triggered the scale-up lead, through
// it, to Prometheus's growth.
type followsLink struct{}

func (followsLink) Name() string { return "follows" }

func (followsLink) Links(_ analysis.Input, r *analysis.Report) []analysis.Edge {
	var out []analysis.Edge
	for _, y := range r.Causes {
		for _, id := range y.Follows {
			s, ok := r.SymptomByID(id)
			if !ok {
				continue
			}
			why := fmt.Sprintf("through the %s (%s): %s", symptomNoun(s.Kind), id, y.FollowWhy)
			for _, x := range r.Explaining(id) {
				if x.ID != y.ID {
					out = append(out, analysis.Edge{From: x.ID, To: y.ID, Why: why})
				}
			}
		}
	}
	return out
}

// symptomNoun names a symptom kind in a sentence.
func symptomNoun(kind string) string {
	if kind == analysis.ScaleUp {
		return "scale-up"
	}
	return strings.ReplaceAll(kind, "_", " ")
}
