package rules

import (
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// cite makes an evidence item pointing at an object's field.
func cite(o *cluster.Object, field, value string) analysis.Evidence {
	return citeObject(ref(o), o.Source, field, value)
}

// citeCondition makes an evidence item pointing at a condition of an object's status.
func citeCondition(o *cluster.Object, condition, value string) analysis.Evidence {
	e := cite(o, "status.conditions["+condition+"]", value)
	e.Condition = condition
	return e
}

// citeObject makes an evidence item pointing at a field of an object read at src.
func citeObject(obj analysis.ObjectRef, src cluster.Source, field, value string) analysis.Evidence {
	return analysis.Evidence{File: src.File, Line: int(src.Line), Object: obj, Ref: obj.String(), Field: field, Value: value}
}

// citeEvent quotes an event: its reason and message, or, for a phrase found in prose, that
// it is only that (weaker evidence: nothing says which object or when).
func citeEvent(o *cluster.Object) analysis.Evidence {
	e := o.Event
	field := "reason " + e.Reason
	if loose(o) {
		field = "phrase in text"
	}
	return citeObject(ref(o), o.Source, field, e.Message)
}

// ref names an object for a symptom's object list.
func ref(o *cluster.Object) analysis.ObjectRef {
	return analysis.ObjectRef{Kind: o.Kind, Namespace: o.Namespace, Name: o.Name}
}

// involved names the object an event is about.
func involved(o *cluster.Object) analysis.ObjectRef {
	io := o.Event.InvolvedObject
	return analysis.ObjectRef{Kind: io.Kind, Namespace: io.Namespace, Name: io.Name}
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

// loose reports whether an event was only a phrase in output, with nothing around it.
func loose(o *cluster.Object) bool { return o.Source.Loose }

// aboutPod reports whether an event is about a pod, or about an object a paste did not name
// (an events table cut from a describe, a phrase in prose): the reasons the rules ask about
// are written on pods.
func aboutPod(o *cluster.Object) bool {
	k := o.Event.InvolvedObject.Kind
	return k == cluster.KindPod || k == ""
}

// podKey names the pod an event is about; name is "" when the input does not say (an events
// section pasted alone, a phrase in output).
func podKey(o *cluster.Object) (namespace, name string) {
	io := o.Event.InvolvedObject
	return io.Namespace, io.Name
}

// podPhrase speaks of the pod "ns/name" (as podSymptoms keys it): "pod prod/web-1", or
// UnnamedPod for "".
func podPhrase(pod string) string {
	if pod == "" || strings.HasSuffix(pod, "/") {
		return analysis.UnnamedPod
	}
	return "pod " + strings.TrimPrefix(pod, "/")
}
