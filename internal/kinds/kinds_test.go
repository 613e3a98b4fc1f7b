package kinds

import (
	"slices"
	"testing"
)

// TestLists: each list holds each kind once, and the kinds of the three lists are apart.
func TestLists(t *testing.T) {
	seen := map[string]string{}
	for name, list := range map[string][]string{"symptom": Symptoms, "cause": Causes, "component": Components, "gap": Gaps} {
		for _, k := range list {
			if k == "" {
				t.Errorf("an empty %s kind", name)
			}
			if other, ok := seen[k]; ok {
				t.Errorf("%s kind %q is listed again (as a %s kind)", name, k, other)
			}
			seen[k] = name
		}
	}
	if !slices.Contains(Causes, SharedPrometheus) || !slices.Contains(Symptoms, EvictedPodsLingering) || !slices.Contains(Components, Database) {
		t.Error("a kind is missing from its list")
	}
}

func TestComponentWord(t *testing.T) {
	for kind, want := range map[string]string{NodePool: "Node pool", Prometheus: "Prometheus", "Kubelet": "Kubelet"} {
		if got := ComponentWord(kind); got != want {
			t.Errorf("ComponentWord(%q) = %q, want %q", kind, got, want)
		}
	}
}

// Every kind has a name for people, and no two kinds share one.
func TestEveryKindHasAName(t *testing.T) {
	t.Parallel()
	seen := map[string]string{}
	for _, list := range [][]string{Symptoms, Causes, Gaps} {
		for _, k := range list {
			n := Name(k)
			if n == k || n == "" {
				t.Errorf("kind %s has no name for people", k)
			}
			if other, ok := seen[n]; ok {
				t.Errorf("kinds %s and %s share the name %q", other, k, n)
			}
			seen[n] = k
		}
	}
	if Name("something_new") != "something_new" {
		t.Error("an unknown kind is not named as it is written")
	}
}
