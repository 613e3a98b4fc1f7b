package collect

import (
	"encoding/json"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// observedAtAnnotation is how the collector tells the server when it saw an object it sends:
// an RFC 3339 time in this annotation, written by encode and taken off by the server
// (TakeObservedAt) before anything reads or stores the object. It is the collector's wire
// format, read by no other package.
const observedAtAnnotation = "rootline.dev/observed-at"

// deletedAnnotation marks a node the collector saw deleted ("true"), sent as it was last:
// taken off by the server with the time (TakeObservedAt), into Source.Deleted.
const deletedAnnotation = "rootline.dev/deleted"

// TakeObservedAt moves the time a collector saw o, when o carries one, from its annotation into
// o.Source.ObservedAt (and its mark of a deleted node into o.Source.Deleted) (to the microsecond, as databases keep times; an unreadable time is
// dropped), so that what is stored of the object is what the cluster held. The server calls it
// on each object of a collector's batch as it decodes it, before anything else reads it.
func TakeObservedAt(o *cluster.Object) {
	var m *metav1.ObjectMeta
	switch {
	case o.Pod != nil:
		m = &o.Pod.ObjectMeta
	case o.Node != nil:
		m = &o.Node.ObjectMeta
	case o.Event != nil:
		m = &o.Event.ObjectMeta
	case o.Raw != nil:
		takeRawObservedAt(o)
		return
	default:
		return
	}
	if m.Annotations[deletedAnnotation] == "true" {
		o.Source.Deleted = true
	}
	delete(m.Annotations, deletedAnnotation)
	v, ok := m.Annotations[observedAtAnnotation]
	if !ok {
		if len(m.Annotations) == 0 {
			m.Annotations = nil
		}
		return
	}
	delete(m.Annotations, observedAtAnnotation)
	if len(m.Annotations) == 0 {
		m.Annotations = nil
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		o.Source.ObservedAt = t.UTC().Truncate(time.Microsecond)
	}
}

// takeRawObservedAt is TakeObservedAt for an object kept as its JSON (a workload, a
// ConfigMap): the annotation is taken out of the JSON, which is written again without it (and
// without annotations when it was the only one). JSON that is not an object with metadata is
// left as it is.
func takeRawObservedAt(o *cluster.Object) {
	var top map[string]json.RawMessage
	if json.Unmarshal(o.Raw, &top) != nil {
		return
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(top["metadata"], &meta) != nil {
		return
	}
	var ann map[string]string
	if json.Unmarshal(meta["annotations"], &ann) != nil {
		return
	}
	v, ok := ann[observedAtAnnotation]
	if !ok {
		return
	}
	delete(ann, observedAtAnnotation)
	if len(ann) == 0 {
		delete(meta, "annotations")
	} else if b, err := json.Marshal(ann); err == nil {
		meta["annotations"] = b
	}
	b, err := json.Marshal(meta)
	if err != nil {
		return
	}
	top["metadata"] = b
	raw, err := json.Marshal(top)
	if err != nil {
		return
	}
	o.Raw = raw
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		o.Source.ObservedAt = t.UTC().Truncate(time.Microsecond)
	}
}
