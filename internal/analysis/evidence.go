package analysis

import (
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// cite makes an evidence item pointing at an object's field.
func cite(o *cluster.Object, field, value string) Evidence {
	return Evidence{File: o.Source.File, Line: o.Source.Line, Ref: o.Ref(), Field: field, Value: value}
}

// citeEvent quotes an event: its reason and message.
func citeEvent(o *cluster.Object) Evidence {
	e := o.Event
	return Evidence{File: o.Source.File, Line: o.Source.Line, Ref: o.Ref(), Field: "reason " + e.Reason, Value: e.Message}
}

// ref names an object for a symptom's object list.
func ref(o *cluster.Object) ObjectRef {
	return ObjectRef{Kind: o.Kind, Namespace: o.Namespace, Name: o.Name}
}

// involved names the object an event is about.
func involved(o *cluster.Object) ObjectRef {
	io := o.Event.InvolvedObject
	return ObjectRef{Kind: io.Kind, Namespace: io.Namespace, Name: io.Name}
}

// timePtr returns a pointer to t in UTC, or nil for the zero time.
func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

// earliest returns the earlier of two optional times.
func earliest(a, b *time.Time) *time.Time {
	if a == nil || (b != nil && b.Before(*a)) {
		return b
	}
	return a
}
