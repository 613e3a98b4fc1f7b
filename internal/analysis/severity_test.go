package analysis

import (
	"testing"

	vocab "github.com/rootline-dev/rootline/internal/kinds"
)

// TestSeverity pins the order of symptoms: critical components before other critical pods
// before ordinary ones; then the kind; then how many.
func TestSeverity(t *testing.T) {
	hubRestart := severityOf(Symptom{Kind: ContainerRestarted, Count: 1, Critical: true}, true)
	dnsPending := severityOf(Symptom{Kind: PodPending, Count: 1, Critical: true}, false)
	pending := severityOf(Symptom{Kind: PodPending, Count: 100000}, false)
	evicted := severityOf(Symptom{Kind: PodEvicted, Count: 1}, false)
	fewPending := severityOf(Symptom{Kind: PodPending, Count: 2}, false)
	if !(hubRestart > dnsPending && dnsPending > pending && pending > fewPending && evicted > fewPending) {
		t.Errorf("hub restart %d, DNS pending %d, 100,000 pending %d, evicted %d, 2 pending %d", hubRestart, dnsPending, pending, evicted, fewPending)
	}
}

// TestSeverityEveryKind: every symptom kind has its rank, its own or another's.
func TestSeverityEveryKind(t *testing.T) {
	t.Parallel()
	for _, k := range vocab.Symptoms {
		if s := severityOf(Symptom{Kind: k, Count: 1}, false); s < kindWeight {
			t.Errorf("%s: severity %d, no rank of its kind", k, s)
		}
	}
	if a, b := severityOf(Symptom{Kind: StartupProbeFailed}, false), severityOf(Symptom{Kind: LivenessProbeFailed}, false); a != b {
		t.Errorf("a failing startup probe ranks %d, a failing liveness probe %d: both restart the container", a, b)
	}
}

// TestGroupNoun checks that a group's summary names its members by their kind.
func TestGroupNoun(t *testing.T) {
	t.Parallel()
	rc := func(n string) ObjectRef { return ObjectRef{Kind: "ReplicationController", Name: n} }
	for _, tt := range []struct {
		objs []ObjectRef
		want string
	}{
		{nil, "pods"},
		{[]ObjectRef{{Kind: "Pod", Name: "a"}, {Kind: "Pod", Name: "b"}}, "pods"},
		{[]ObjectRef{{Kind: "Node", Name: "n"}}, "nodes"},
		{[]ObjectRef{rc("router-1"), rc("registry-1")}, "ReplicationControllers"},
		{[]ObjectRef{rc("router-1"), {Kind: "ReplicaSet", Name: "web-1"}}, "controllers"},
		{[]ObjectRef{rc("router-1"), {Kind: "Pod", Name: "web-1"}}, "objects"},
	} {
		if got := groupNoun(tt.objs); got != tt.want {
			t.Errorf("groupNoun(%v) = %q, want %q", tt.objs, got, tt.want)
		}
	}
}
