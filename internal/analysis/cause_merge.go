package analysis

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Some rules find a cause per pod or per node: CPU starvation of each critical pod with a tiny
// request, a Prometheus on each node it crowds. On a large cluster that is dozens of causes
// telling one story. Causes of one kind and role whose components are of the same kinds (the
// hub's, a DNS pod's, any pod's) are told as one, with the others as its members.

// mergeCauses folds causes of one kind, role and kinds of components into one each. A
// recent_change cause is its change's, and is folded only with those of the same changes: two
// changes (an image on one Deployment, a memory limit on another) are two causes, to be undone
// apart, and they name no components to tell them by.
func mergeCauses(causes []Cause) []Cause {
	type key struct{ kind, role, comps string }
	index := map[key]int{}
	var groups [][]Cause
	for _, c := range causes {
		k := key{c.Kind, c.Role, componentKinds(c)}
		if c.Kind == RecentChange {
			k.comps = "changes:" + strings.Join(c.Changes, ",")
		}
		i, ok := index[k]
		if !ok {
			i = len(groups)
			index[k] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], c)
	}
	out := make([]Cause, 0, len(groups))
	for _, g := range groups {
		if len(g) == 1 {
			c := g[0]
			c.Count = 1
			out = append(out, c)
			continue
		}
		out = append(out, mergedCause(g))
	}
	return out
}

// componentKinds is the sorted set of a cause's component kinds.
func componentKinds(c Cause) string {
	var kinds []string
	for _, comp := range c.Components {
		kinds = append(kinds, comp.Kind)
	}
	sort.Strings(kinds)
	return strings.Join(Unique(kinds), ",")
}

// mergedCause is one cause standing for several of one kind: the most confident member's
// summary, what they explain together, and the evidence of the first few.
func mergedCause(members []Cause) Cause {
	sort.SliceStable(members, func(i, j int) bool { return members[i].Confidence > members[j].Confidence })
	first := members[0]
	c := Cause{Kind: first.Kind, Role: first.Role, Confidence: first.Confidence, Explains: []string{}, Components: []Component{},
		Evidence: []Evidence{}, Count: len(members)}
	names := map[string]int{}
	var order []string
	for i, m := range members {
		c.Explains = append(c.Explains, m.Explains...)
		for _, comp := range m.Components {
			if !slices.Contains(c.Components, comp) {
				c.Components = append(c.Components, comp)
			}
			if names[comp.Name] == 0 {
				order = append(order, comp.Name)
			}
			names[comp.Name]++
		}
		if i < groupEvidence && len(m.Evidence) > 0 {
			c.Evidence = append(c.Evidence, m.Evidence[0])
		}
		c.Missing = append(c.Missing, m.Missing...)
		c.Changes = append(c.Changes, m.Changes...)
		for _, s := range m.Suggestions {
			if !hasSuggestion(c.Suggestions, s.Change) {
				c.Suggestions = append(c.Suggestions, s)
			}
		}
		c.Follows = append(c.Follows, m.Follows...)
		c.Nodes = append(c.Nodes, m.Nodes...)
		if c.FollowWhy == "" {
			c.FollowWhy = m.FollowWhy
		}
		m.Members = nil
		c.Members = append(c.Members, m)
	}
	c.Follows, c.Nodes = Unique(c.Follows), Unique(c.Nodes)
	c.Explains = Unique(c.Explains)
	c.Evidence = Unique(c.Evidence)
	c.Missing = Unique(c.Missing)
	c.Changes = Unique(c.Changes)
	sort.SliceStable(order, func(i, j int) bool { return names[order[i]] > names[order[j]] })
	var parts []string
	for i, n := range order {
		if i == 4 {
			parts = append(parts, fmt.Sprintf("%d more", len(order)-i))
			break
		}
		if names[n] > 1 {
			n = fmt.Sprintf("%s ×%d", n, names[n])
		}
		parts = append(parts, n)
	}
	c.Summary = fmt.Sprintf("%s; and %d more like it", first.Summary, len(members)-1)
	if len(parts) > 0 {
		c.Summary += " (" + strings.Join(parts, ", ") + ")"
	}
	return c
}

func hasSuggestion(ss []Suggestion, change string) bool {
	for _, s := range ss {
		if s.Change == change {
			return true
		}
	}
	return false
}

// numberCauses numbers causes C1… in their order, and the members of each C1.1….
func numberCauses(causes []Cause) {
	for i := range causes {
		c := &causes[i]
		c.ID = fmt.Sprintf("C%d", i+1)
		for j := range c.Members {
			c.Members[j].ID = fmt.Sprintf("%s.%d", c.ID, j+1)
		}
	}
}
