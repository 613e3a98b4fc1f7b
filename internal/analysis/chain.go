package analysis

import (
	"slices"
	"sort"
)

// The causal chain. Cause rules each find one kind of cause from the symptoms; link rules then
// say how the causes follow from one another and reach the symptoms: the pods that did not fit
// triggered the scale-up, the scale-up multiplied Prometheus's scrape targets, Prometheus
// crowded the hub's node, the hub starved. A link is an edge with a reason. It adds its target
// to the cause's Explains (the contract's chain: every symptom is reachable from the root along
// the ids of Explains) and its reason to the cause's Links. A link rule states the preconditions
// it needs in the evidence, and draws no edge without them.

// Edge is one link of the chain: cause From leads to To (a cause or a symptom id) because Why.
type Edge struct {
	From, To, Why string
}

// LinkRule finds one kind of link between causes, or from a cause to a symptom.
type LinkRule interface {
	Name() string
	Links(in Input, r *Report) []Edge
}

// linkChain runs the link rules in order, each seeing the edges of those before it.
func linkChain(in Input, r *Report, rules []LinkRule) {
	index := map[string]int{}
	for i, c := range r.Causes {
		index[c.ID] = i
	}
	for _, rule := range rules {
		for _, e := range rule.Links(in, r) {
			i, ok := index[e.From]
			if !ok || e.From == e.To || r.Reaches(e.To, e.From) {
				continue // never a loop
			}
			c := &r.Causes[i]
			if slices.Contains(c.Explains, e.To) {
				continue // explained already, by the cause's own finding or an earlier link
			}
			c.Explains = append(c.Explains, e.To)
			c.Links = append(c.Links, Link{To: e.To, Why: e.Why})
		}
	}
	order := map[string]int{}
	for i, s := range r.Symptoms {
		order[s.ID] = len(r.Causes) + i
	}
	for i, c := range r.Causes {
		order[c.ID] = i
	}
	for i := range r.Causes {
		c := &r.Causes[i]
		sort.SliceStable(c.Explains, func(a, b int) bool { return order[c.Explains[a]] < order[c.Explains[b]] })
	}
}

// Reaches reports whether id from reaches id to along the causes' Explains.
func (r *Report) Reaches(from, to string) bool {
	by := map[string]*Cause{}
	for i := range r.Causes {
		by[r.Causes[i].ID] = &r.Causes[i]
	}
	seen := map[string]bool{}
	stack := []string{from}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if id == to {
			return true
		}
		if seen[id] {
			continue
		}
		seen[id] = true
		if c, ok := by[id]; ok {
			stack = append(stack, c.Explains...)
		}
	}
	return false
}

// Explaining lists the causes whose Explains hold id.
func (r *Report) Explaining(id string) []*Cause {
	var out []*Cause
	for i := range r.Causes {
		if slices.Contains(r.Causes[i].Explains, id) {
			out = append(out, &r.Causes[i])
		}
	}
	return out
}

// SymptomByID returns the report's symptom of an id.
func (r *Report) SymptomByID(id string) (Symptom, bool) {
	for _, s := range r.Symptoms {
		if s.ID == id {
			return s, true
		}
	}
	return Symptom{}, false
}
