package cluster

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// TestModelKeepsAnEventOnce: the same event listed twice (core/v1 and events.k8s.io/v1, or
// two snapshots) counts once, with its highest count; events without a uid are all kept.
func TestModelKeepsAnEventOnce(t *testing.T) {
	ev := func(uid string, count int32) *Object {
		return &Object{Event: &corev1.Event{ObjectMeta: metav1.ObjectMeta{UID: types.UID(uid)}, Count: count}}
	}
	m := NewModel(nil, []*Object{ev("a", 3), ev("b", 1), ev("a", 5), ev("a", 4), ev("", 1), ev("", 1)})
	if len(m.Events) != 4 {
		t.Fatalf("%d events, want 4 (a, b and two without uid)", len(m.Events))
	}
	if got := m.Events[0].Event.Count; got != 5 {
		t.Errorf("event a kept with count %d, want 5", got)
	}
}
