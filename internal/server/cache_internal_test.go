package server

import (
	"fmt"
	"testing"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/store"
)

// TestStateCacheBounds: the cache keeps at most its number of incidents and of objects,
// dropping the least recently used first, and always keeps the state used last.
func TestStateCacheBounds(t *testing.T) {
	t.Parallel()
	state := func(events int) func(*incidentState, bool) (*incidentState, error) {
		return func(*incidentState, bool) (*incidentState, error) {
			m := cluster.NewModel(nil, nil)
			for i := range events {
				m.Events = append(m.Events, &cluster.Object{Name: fmt.Sprint(i)})
			}
			return &incidentState{model: m}, nil
		}
	}
	c := newStateCache(3, 100)
	v1 := store.Version{Evidence: "e1", Record: "r1"}
	for _, id := range []string{"a", "b", "c", "d"} {
		if _, err := c.get(id, v1, state(10)); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := c.entries["a"]; ok || len(c.entries) != 3 {
		t.Errorf("by count: %v, want b, c, d", c.order)
	}
	mustGet(t, c, "b", v1, state(10)) // used: now the most recent
	mustGet(t, c, "e", v1, state(85)) // 10 + 10 + 85 > 100: the least recently used go
	if got := fmt.Sprint(c.order); got != "[b e]" {
		t.Errorf("by objects: %s, want [b e]", got)
	}
	mustGet(t, c, "f", v1, state(500)) // alone over the bound: kept, as the one used last
	if got := fmt.Sprint(c.order); got != "[f]" {
		t.Errorf("a state over the bound: %s, want [f]", got)
	}
	made, reused, from := 0, 0, 0
	build := func(prev *incidentState, same bool) (*incidentState, error) {
		made++
		if prev != nil && same {
			reused++
		}
		if prev != nil && !same {
			from++
		}
		return state(1)(prev, same)
	}
	mustGet(t, c, "f", v1, build)
	mustGet(t, c, "f", store.Version{Evidence: "e1", Record: "r2"}, build) // a note: the evidence is the same
	mustGet(t, c, "f", store.Version{Evidence: "e2", Record: "r2"}, build) // a snapshot: a load that starts from the state before
	if made != 2 || reused != 1 || from != 1 {
		t.Errorf("made %d states (%d of the same evidence, %d of other evidence, from the one before) for one cached version, a new record and new evidence; want 2 (1, 1)",
			made, reused, from)
	}
}

// mustGet gets id from the cache, failing the test on an error.
func mustGet(t *testing.T, c *stateCache, id string, v store.Version, build func(prev *incidentState, same bool) (*incidentState, error)) {
	t.Helper()
	if _, err := c.get(id, v, build); err != nil {
		t.Fatal(err)
	}
}
