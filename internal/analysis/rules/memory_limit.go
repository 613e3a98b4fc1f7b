package rules

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// memoryLimitRule finds containers OOM-killed with a memory limit set: the kernel kills a
// container that reaches its limit, however much the node has free.
type memoryLimitRule struct{}

func (memoryLimitRule) Name() string { return "memory-limit-too-low" }

func (memoryLimitRule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	c := analysis.Cause{Kind: analysis.MemoryLimitTooLow, Role: analysis.Root, Confidence: 0.7, Components: []analysis.Component{}}
	var parts []string
	for _, s := range symptoms {
		p := podOf(in.Model, s)
		if s.Kind != analysis.OOMKilled || p == nil {
			continue
		}
		names := s.Details.Containers
		for _, ctr := range p.Pod.Spec.Containers {
			lim, ok := cluster.MemoryBytes(ctr.Resources.Limits)
			if !ok || !slices.Contains(names, ctr.Name) {
				continue
			}
			c.Explains = append(c.Explains, s.ID)
			c.Evidence = append(c.Evidence, cite(p, fmt.Sprintf("spec.containers[%s].resources.limits.memory", ctr.Name), ctr.Resources.Limits.Memory().String()))
			who := "a container of " + podPhrase(p.Namespace+"/"+p.Name)
			if ctr.Name != "" {
				who = "container " + ctr.Name + " of " + podPhrase(p.Namespace+"/"+p.Name)
			}
			parts = append(parts, fmt.Sprintf("%s (limit %s)", who, limitString(lim)))
		}
	}
	if len(c.Explains) == 0 {
		return nil
	}
	c.Explains = analysis.Unique(c.Explains)
	c.Summary = "containers were OOM-killed at their memory limit: " + phrase.Parts(parts, ", ")
	c.Missing = []string{"the containers' memory use before the kill (metrics), to size the limit"}
	return []analysis.Cause{c}
}

// limitString writes a memory limit as it was most likely written: in binary units when it is
// a whole number of MiB ("512Mi", "2Gi"), else in decimal ones ("3G", not a rounded "3Gi").
func limitString(b int64) string {
	if b%(1<<20) == 0 {
		return memString(b)
	}
	return resource.NewQuantity(b, resource.DecimalSI).String()
}
