package picture

// directLinks keeps the direct links of a causal graph: a link u→v is dropped when v stays
// reachable from u through the links kept, so an effect a cause has through another cause is
// drawn once, at the cause nearest to it. Links are looked at in order and each is dropped only
// while the rest still connect its ends; so what reaches what never changes, loops included
// (where the reduction is not unique, the first links of the input are the ones dropped).
// Duplicates and self-links go.
func directLinks(links [][2]string) [][2]string {
	var uniq [][2]string
	seen := map[[2]string]bool{}
	for _, l := range links {
		if l[0] != l[1] && !seen[l] {
			seen[l] = true
			uniq = append(uniq, l)
		}
	}
	out := map[string][]int{}
	for i, l := range uniq {
		out[l[0]] = append(out[l[0]], i)
	}
	dropped := make([]bool, len(uniq))
	for i, l := range uniq {
		dropped[i] = true
		if !reaches(l[0], l[1], uniq, out, dropped) {
			dropped[i] = false
		}
	}
	var kept [][2]string
	for i, l := range uniq {
		if !dropped[i] {
			kept = append(kept, l)
		}
	}
	return kept
}

// reaches reports whether to is reachable from from over the links not dropped.
func reaches(from, to string, links [][2]string, out map[string][]int, dropped []bool) bool {
	seen := map[string]bool{from: true}
	queue := []string{from}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, i := range out[n] {
			if dropped[i] {
				continue
			}
			next := links[i][1]
			if next == to {
				return true
			}
			if !seen[next] {
				seen[next] = true
				queue = append(queue, next)
			}
		}
	}
	return false
}
