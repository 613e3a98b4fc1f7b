package rules

import (
	"fmt"
	"strings"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// directRule turns one kind of symptom into the cause it plainly shows, when nothing subtler
// is needed: a scheduler preemption is the cause of its victims (and, weighed by
// imageUnavailableRule, an image that cannot be pulled of its pull failures). Each instance is
// one rule of the registry.
type directRule struct {
	name       string
	symptom    string
	cause      string
	role       string
	confidence float64
	summary    func(n int, objects string) string
	// when, if set, keeps only the symptoms it accepts.
	when func(s analysis.Symptom) bool
}

func (r directRule) Name() string { return r.name }

func (r directRule) Causes(_ analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	c := analysis.Cause{Kind: r.cause, Role: r.role, Confidence: r.confidence, Components: []analysis.Component{}}
	var objects []string
	for _, s := range symptoms {
		if s.Kind != r.symptom || (r.when != nil && !r.when(s)) {
			continue
		}
		c.Explains = append(c.Explains, s.ID)
		c.Evidence = append(c.Evidence, s.Evidence[0])
		objects = append(objects, s.Label())
	}
	if len(c.Explains) == 0 {
		return nil
	}
	shown := objects
	if len(shown) > 5 {
		shown = append(shown[:5:5], fmt.Sprintf("and %d more", len(objects)-5))
	}
	c.Summary = r.summary(len(objects), strings.Join(shown, ", "))
	return []analysis.Cause{c}
}

// directRules are the plain symptom-to-cause rules.
func directRules() []analysis.CauseRule {
	return []analysis.CauseRule{
		imageUnavailableRule{},
		directRule{name: analysis.Preemption, symptom: analysis.Preempted, cause: analysis.Preemption, role: analysis.Root, confidence: 0.8,
			summary: func(n int, o string) string {
				return fmt.Sprintf("%d pod(s) were preempted, for other pods or with their node: %s", n, o)
			}},
	}
}
