package analysis

import (
	"fmt"
	"sort"

	"github.com/rootline-dev/rootline/internal/change"
)

// numberChanges orders the changes an analysis reads by when they were made (the end of their
// window; those of unknown time last), drops those found twice (a rollout both two snapshots
// and the ReplicaSets tell: the one with a revision, which dates it exactly, is kept) and
// numbers them X1….
func numberChanges(cs []change.Change) []Change {
	type same struct{ kind, namespace, name, field, before, after string }
	kept := map[same]int{}
	var out []Change
	for _, c := range cs {
		k := same{c.Kind, c.Namespace, c.Name, c.Field, c.Before, c.After}
		if i, ok := kept[k]; ok {
			if out[i].Revision == 0 && c.Revision > 0 {
				out[i].Change = c
			}
			continue
		}
		kept[k] = len(out)
		out = append(out, Change{Change: c})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Change.When(), out[j].Change.When()
		if a.IsZero() != b.IsZero() {
			return !a.IsZero()
		}
		return a.Before(b)
	})
	for i := range out {
		out[i].ID = fmt.Sprintf("X%d", i+1)
	}
	return out
}
