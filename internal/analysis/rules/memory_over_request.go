package rules

import (
	"fmt"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/signal"
)

// memoryOverRequestRule finds evictions of containers that used more memory than they
// requested (a request of 0 included): the kubelet evicts those first when the node runs low.
type memoryOverRequestRule struct{}

func (memoryOverRequestRule) Name() string { return "memory-over-request" }

func (memoryOverRequestRule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	c := analysis.Cause{Kind: analysis.MemoryOverRequest, Role: analysis.Contributing, Confidence: 0.6}
	var parts []string
	for _, s := range symptoms {
		if s.Kind != analysis.PodEvicted {
			continue
		}
		before := len(c.Explains) // what explained the symptoms before s (each is explained once)
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
				parts = append(parts, fmt.Sprintf("container %s of %s used %s against a request of %s", off.Name, s.Label(), memString(use), memString(req)))
				who := s.Label()
				var targets []analysis.ObjectRef
				if p := podOf(in.Model, s); p != nil {
					who = workloadPhrase(p)
					targets = []analysis.ObjectRef{workloadRef(p)}
				}
				c.Suggestions = append(c.Suggestions, analysis.Suggestion{
					Change: fmt.Sprintf("raise the memory request of container %s of %s from %s to at least %s, what it used when it was evicted: under memory pressure the kubelet evicts first the pods that use more than they request",
						off.Name, who, memString(req), memString(use)),
					Evidence: []analysis.Evidence{e}, Action: analysis.ActionMemoryRequest, Targets: targets})
			}
			if found {
				c.Explains = append(c.Explains, s.ID)
				if n := nodeOf(in.Model, s); n != "" {
					c.Nodes = append(c.Nodes, n)
				}
				c.Evidence = append(c.Evidence, e)
				break
			}
		}
		if len(c.Explains) == before { // s's eviction message named no offender over its request
			workingSetOver(in, &c, s, &parts)
		}
	}
	if len(c.Explains) == 0 {
		return nil
	}
	c.Nodes = analysis.Unique(c.Nodes)
	c.Summary = "evicted containers used more memory than they requested: " + phrase.Parts(analysis.Unique(parts), "; ")
	// The components whose pods were evicted (the hub): the incident involved them.
	c.Components = []analysis.Component{}
	explained := idSet(c.Explains)
	for _, s := range symptoms {
		if !explained[s.ID] {
			continue
		}
		if p := podOf(in.Model, s); p != nil {
			if k := cluster.PodComponent(p.Pod); k != "" {
				c.Components = appendComponent(c.Components, analysis.Component{Kind: k, Name: cluster.WorkloadName(p.Pod)})
			}
		}
	}
	return []analysis.Cause{c}
}

// workingSetOver reads the working set of an evicted pod's containers before its eviction, when
// the input holds it and the eviction message does not say: a container above its memory
// request was among the first the kubelet evicts.
func workingSetOver(in analysis.Input, c *analysis.Cause, s analysis.Symptom, parts *[]string) {
	pod := podOf(in.Model, s)
	if pod == nil || s.At == nil {
		return
	}
	from, to := s.At.Add(-metricsLeadWindow), *s.At
	for _, ct := range pod.Pod.Spec.Containers {
		req := ct.Resources.Requests.Memory().Value()
		top, best, ok := highest(podSeries(in, queryContainerMem, pod, ct.Name), from, to)
		if !ok || top.series.Labels["container"] == "" || best.Value <= float64(req) {
			continue
		}
		use := int64(best.Value)
		c.Explains = append(c.Explains, s.ID)
		if n := nodeOf(in.Model, s); n != "" {
			c.Nodes = append(c.Nodes, n)
		}
		ev := citeMetric(top, fmt.Sprintf("working set of container %s peaked at %s at %s, before the eviction, against a request of %s", ct.Name, memString(use), hhmm(best.At), memString(req)))
		c.Evidence = append(c.Evidence, ev)
		*parts = append(*parts, fmt.Sprintf("container %s of %s used %s against a request of %s (metrics)", ct.Name, s.Label(), memString(use), memString(req)))
		c.Suggestions = append(c.Suggestions, analysis.Suggestion{
			Change: fmt.Sprintf("raise the memory request of container %s of %s from %s to at least %s, its working set before it was evicted: under memory pressure the kubelet evicts first the pods that use more than they request",
				ct.Name, workloadPhrase(pod), memString(req), memString(use)),
			Evidence: []analysis.Evidence{ev}, Action: analysis.ActionMemoryRequest, Targets: []analysis.ObjectRef{workloadRef(pod)}})
		return
	}
}
