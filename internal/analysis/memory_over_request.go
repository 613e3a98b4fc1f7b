package analysis

import (
	"fmt"

	"github.com/rootline-dev/rootline/internal/signal"
)

// memoryOverRequestRule finds evictions of containers that used more memory than they
// requested (a request of 0 included): the kubelet evicts those first when the node runs low.
type memoryOverRequestRule struct{}

func (memoryOverRequestRule) Name() string { return "memory-over-request" }

func (memoryOverRequestRule) Causes(in Input, symptoms []Symptom) []Cause {
	c := Cause{Kind: MemoryOverRequest, Role: Contributing, Confidence: 0.6}
	var parts []string
	for _, s := range symptoms {
		if s.Kind != PodEvicted {
			continue
		}
		for _, e := range s.Evidence {
			ev, ok := signal.ParseEviction(e.Value)
			if !ok || (ev.Resource != "memory" && ev.Resource != "") {
				continue
			}
			found := false
			for _, off := range ev.Offenders {
				use, ok1 := signal.Bytes(off.Usage)
				req, ok2 := signal.Bytes(off.Request)
				if !ok1 || !ok2 || use <= req {
					continue
				}
				found = true
				parts = append(parts, fmt.Sprintf("container %s of %s used %s against a request of %s", off.Name, objectLabel(s), memString(use), memString(req)))
				who := objectLabel(s)
				if p := podOf(in.Model, s); p != nil {
					who = workloadPhrase(p)
				}
				c.Suggestions = append(c.Suggestions, Suggestion{
					Change: fmt.Sprintf("raise the memory request of container %s of %s from %s to at least %s, what it used when it was evicted: under memory pressure the kubelet evicts first the pods that use more than they request",
						off.Name, who, memString(req), memString(use)),
					Evidence: []Evidence{e}})
			}
			if found {
				c.Explains = append(c.Explains, s.ID)
				if n := nodeOf(in.Model, s); n != "" {
					c.nodes = append(c.nodes, n)
				}
				c.Evidence = append(c.Evidence, e)
				break
			}
		}
	}
	if len(c.Explains) == 0 {
		return nil
	}
	c.nodes = unique(c.nodes)
	c.Summary = "evicted containers used more memory than they requested: " + summaryParts(unique(parts), "; ")
	c.Components = []Component{}
	return []Cause{c}
}
