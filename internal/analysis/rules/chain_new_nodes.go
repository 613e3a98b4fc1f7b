package rules

import (
	"fmt"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// newNodesLink explains not-ready nodes that a scale-up had just created by the cause that
// builds on that scale-up's nodes not being ready yet (scale_up_not_ready): most of a group's
// nodes must be among the nodes the scale-up created.
type newNodesLink struct{}

func (newNodesLink) Name() string { return "new-nodes-not-ready" }

func (newNodesLink) Links(_ analysis.Input, r *analysis.Report) []analysis.Edge {
	var out []analysis.Edge
	for _, c := range r.Causes {
		if c.Kind != analysis.ScaleUpNotReady {
			continue
		}
		for _, id := range c.Follows {
			up, ok := r.SymptomByID(id)
			if !ok {
				continue
			}
			created := map[analysis.ObjectRef]bool{}
			for _, o := range up.Objects {
				created[o] = true
			}
			for _, s := range r.Symptoms {
				if s.Kind != analysis.NodeNotReady || len(s.Objects) == 0 {
					continue
				}
				n := 0
				for _, o := range s.Objects {
					if created[o] {
						n++
					}
				}
				if 2*n < len(s.Objects) {
					continue
				}
				out = append(out, analysis.Edge{From: c.ID, To: s.ID, Why: fmt.Sprintf("%d of its %d nodes were created by the scale-up (%s) and were not ready yet", n, len(s.Objects), up.ID)})
			}
		}
	}
	return out
}
