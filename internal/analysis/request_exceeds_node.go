package analysis

import (
	"fmt"
	"strings"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// requestExceedsNodeRule finds pending pods that request more CPU or memory than any node
// allocates: no scale-up can place them, only a larger machine type or a smaller request.
type requestExceedsNodeRule struct{}

func (requestExceedsNodeRule) Name() string { return "request-exceeds-node" }

func (requestExceedsNodeRule) Causes(in Input, symptoms []Symptom) []Cause {
	m := in.Model
	if len(m.Nodes) == 0 {
		return nil
	}
	var biggest cluster.Resources
	for _, n := range m.Nodes {
		l := m.Load(n)
		biggest.MilliCPU = max(biggest.MilliCPU, l.Allocatable.MilliCPU)
		biggest.Memory = max(biggest.Memory, l.Allocatable.Memory)
	}
	c := Cause{Kind: RequestExceedsNode, Role: Root, Confidence: 0.85, Components: []Component{}}
	var parts []string
	for _, s := range symptoms {
		if s.Kind != PodPending {
			continue
		}
		for _, ref := range s.Objects {
			p := m.Pod(ref.Namespace, ref.Name)
			if p == nil {
				continue
			}
			r := cluster.PodRequests(p.Pod)
			if r.MilliCPU <= biggest.MilliCPU && r.Memory <= biggest.Memory {
				continue
			}
			c.Explains = append(c.Explains, s.ID)
			c.Evidence = append(c.Evidence, cite(p, "spec.containers[].resources.requests", fmt.Sprintf("%s CPU, %s", cpuString(r.MilliCPU), memString(r.Memory))))
			parts = append(parts, fmt.Sprintf("%s/%s asks %s CPU and %s", p.Namespace, p.Name, cpuString(r.MilliCPU), memString(r.Memory)))
			break
		}
	}
	if len(c.Explains) == 0 {
		return nil
	}
	c.Explains = unique(c.Explains)
	c.Summary = fmt.Sprintf("pods request more than the largest node allocates (%s CPU, %s): %s",
		cpuString(biggest.MilliCPU), memString(biggest.Memory), strings.Join(parts, "; "))
	return []Cause{c}
}
