package analysis

// Test-only helpers: no production path calls them.

// Reachable lists the ids the cause id reaches along Explains, itself included.
func (r Report) Reachable(id string) map[string]bool {
	by := map[string]Cause{}
	for _, c := range r.Causes {
		by[c.ID] = c
	}
	seen := map[string]bool{}
	stack := []string{id}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[id] {
			continue
		}
		seen[id] = true
		if c, ok := by[id]; ok {
			stack = append(stack, c.Explains...)
		}
	}
	return seen
}
