package analysis

import (
	"fmt"
	"slices"
	"testing"
)

// TestOverlaps: two lists of objects overlap when they share one, whether they are short
// (compared one by one) or long (through a set of the shorter), whichever is longer.
func TestOverlaps(t *testing.T) {
	t.Parallel()
	refs := func(prefix string, n int) []ObjectRef {
		out := make([]ObjectRef, n)
		for i := range out {
			out[i] = ObjectRef{Kind: "Pod", Namespace: "prod", Name: fmt.Sprintf("%s-%d", prefix, i)}
		}
		return out
	}
	for _, n := range []int{1, 10, 2000} {
		a, b := refs("a", n), refs("b", n+3)
		if overlaps(a, b) || overlaps(b, a) {
			t.Errorf("%d: lists of different pods overlap", n)
		}
		shared := append(slices.Clone(b), a[n-1])
		if !overlaps(a, shared) || !overlaps(shared, a) {
			t.Errorf("%d: lists sharing a pod do not overlap", n)
		}
		other := append(slices.Clone(b), ObjectRef{Kind: "Node", Name: a[n-1].Name})
		if overlaps(a, other) {
			t.Errorf("%d: a node named as a pod is the pod", n)
		}
	}
	if overlaps(nil, refs("a", 3)) {
		t.Error("an empty list overlaps")
	}
}
