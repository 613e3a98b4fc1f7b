package analysis

import "fmt"

// mergeGaps tells the gaps of one kind as one, with the others as its members: on a large
// incident the same missing evidence is missing for dozens of groups.
func mergeGaps(gaps []Gap) []Gap {
	index := map[string]int{}
	var out []Gap
	for _, g := range gaps {
		i, ok := index[g.Kind]
		if !ok || g.Kind == "" {
			index[g.Kind] = len(out)
			out = append(out, g)
			continue
		}
		m := &out[i]
		if len(m.Members) == 0 {
			m.Members = []Gap{{Kind: m.Kind, Summary: m.Summary}}
		}
		m.Members = append(m.Members, g)
	}
	for i := range out {
		g := &out[i]
		if n := len(g.Members); n > 1 {
			g.Count = n
			g.Summary = fmt.Sprintf("%s; and %d more like it", g.Members[0].Summary, n-1)
		}
	}
	return out
}
