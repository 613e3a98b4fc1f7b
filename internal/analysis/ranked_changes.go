package analysis

import (
	"fmt"
	"slices"
	"sort"
)

// rankChanges makes the causes' suggestions one list for the whole incident: a change that
// two causes suggest (the same text, or the same action on the same object) is one change
// answering both; changes rank by the worst felt symptom they would have prevented, then by
// how many causes they answer, then by their causes' confidence. A suggestion that other
// evidence contradicts is dropped, and says why.
func rankChanges(rep *Report) (kept, dropped []RankedChange) {
	type item struct {
		RankedChange
		targets []ObjectRef
		nodes   int
		conf    float64
		order   int
	}
	var items []*item
	for _, c := range rep.Causes {
		for _, sg := range c.Suggestions {
			merged := false
			for _, it := range items {
				if it.Change == sg.Change || sg.Action != "" && sg.Action == it.Action && overlaps(sg.Targets, it.targets) {
					if !slices.Contains(it.Causes, c.ID) {
						it.Causes = append(it.Causes, c.ID)
					}
					it.Evidence = Unique(append(it.Evidence, sg.Evidence...))
					it.conf = max(it.conf, c.Confidence)
					merged = true
					break
				}
			}
			if !merged {
				items = append(items, &item{RankedChange: RankedChange{Change: sg.Change, Action: sg.Action, Causes: []string{c.ID},
					Evidence: slices.Clone(sg.Evidence)}, targets: sg.Targets, nodes: sg.Nodes, conf: c.Confidence, order: len(items)})
			}
		}
	}
	rank := map[string]int{} // felt symptoms by how bad, the worst 0
	for _, s := range rep.Symptoms {
		if !notFelt[s.Kind] {
			rank[s.ID] = len(rank)
		}
	}
	worst := func(it *item) int {
		w := len(rank)
		for _, id := range it.Prevents {
			w = min(w, rank[id])
		}
		return w
	}
	byID := make(map[string]*Cause, len(rep.Causes))
	for i := range rep.Causes {
		byID[rep.Causes[i].ID] = &rep.Causes[i]
	}
	for _, it := range items {
		it.Prevents = prevented(byID, it.Causes, rank)
		if why, ok := contradicted(rep, it.Action, it.targets, it.nodes); ok {
			it.Why = why
		}
	}
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if wa, wb := worst(a), worst(b); wa != wb {
			return wa < wb
		}
		if len(a.Causes) != len(b.Causes) {
			return len(a.Causes) > len(b.Causes)
		}
		if a.conf != b.conf {
			return a.conf > b.conf
		}
		return a.order < b.order
	})
	for _, it := range items {
		if it.Why != "" {
			dropped = append(dropped, it.RankedChange)
		} else {
			kept = append(kept, it.RankedChange)
		}
	}
	return kept, dropped
}

// prevented are the felt symptoms the causes explain, directly or through other causes, worst
// first.
func prevented(byID map[string]*Cause, causes []string, rank map[string]int) []string {
	seen := map[string]bool{}
	var out []string
	var walk func(id string)
	walk = func(id string) {
		if seen[id] {
			return
		}
		seen[id] = true
		if _, ok := rank[id]; ok {
			out = append(out, id)
			return
		}
		if c, ok := byID[id]; ok {
			for _, to := range c.Explains {
				walk(to)
			}
		}
	}
	for _, id := range causes {
		walk(id)
	}
	sort.SliceStable(out, func(i, j int) bool { return rank[out[i]] < rank[out[j]] })
	return out
}

// contradicted says why other evidence of the report contradicts a change: more nodes for a
// pool that a scale-up was already adding at least as many to (the pods waited for nodes on
// their way, not for more).
func contradicted(rep *Report, action string, targets []ObjectRef, nodes int) (string, bool) {
	if action != ActionAddNodes || len(targets) == 0 || nodes == 0 {
		return "", false
	}
	pool := targets[0].Name
	for _, s := range rep.Symptoms {
		if s.Kind != ScaleUp {
			continue
		}
		for _, p := range s.Pools {
			if p.Name == pool && p.Count >= nodes {
				return fmt.Sprintf("the scale-up (%s) was already adding %d node(s) to pool %s, more than the %d this change asks for: the pods waited for nodes on their way, not for more nodes",
					s.ID, p.Count, pool, nodes), true
			}
		}
	}
	return "", false
}

// overlaps reports whether two lists of objects share one.
func overlaps(a, b []ObjectRef) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(a)*len(b) <= 256 {
		for _, x := range a {
			if slices.Contains(b, x) {
				return true
			}
		}
		return false
	}
	// Thousands of targets a side (the pods of a large pool): a set of the shorter, so that
	// comparing two suggestions grows with their targets, not with their product.
	set := make(map[ObjectRef]struct{}, len(a))
	for _, x := range a {
		set[x] = struct{}{}
	}
	for _, y := range b {
		if _, ok := set[y]; ok {
			return true
		}
	}
	return false
}
