package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/api/validate/content"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/jsonscan"
	"github.com/rootline-dev/rootline/internal/textcheck"
)

// Rootline refuses the names and values the API server refuses, by their length rather than
// its whole grammar: pastes carry odd and redacted names ("<pod>", "web-xxxxx") that are
// evidence all the same. A name too long for an index row was a 500 on PostgreSQL, and a
// 10 MB label value or 300,000 labels were stored. Each limit is the API server's.
const (
	maxName      = content.DNS1123SubdomainMaxLength // metadata.name, a node's name, a uid
	maxNamespace = content.DNS1123LabelMaxLength
	maxKind      = content.DNS1123LabelMaxLength
	maxVersion   = content.DNS1123SubdomainMaxLength + 1 + content.DNS1123LabelMaxLength // group/version
	// A label's key is a qualified name: an optional DNS subdomain prefix and a name.
	maxLabelPrefix = content.DNS1123SubdomainMaxLength
	maxLabelName   = 63 // content's labelKeyMaxLength, unexported
	maxLabelValue  = content.LabelValueMaxLength
	// maxAnnotationBytes is apimachinery's TotalAnnotationSizeLimitB: keys and values together.
	maxAnnotationBytes = 256 << 10
	// maxLabels has no counterpart in the API server, which bounds labels only by the size of
	// the object (1.5 MiB in etcd). Nodes carry the most: a few hundred with node feature
	// discovery. At this many, an object's labels are at most 800 KB.
	maxLabels = 2048
)

// fault is a value refused: the field that holds it, what is wrong with it, and where it is in
// the object's JSON (off, or else the keys that lead to it there, to look for; -1 and none when
// unknown).
type fault struct {
	path string
	msg  string
	off  int
	keys []string
}

// err reports f as malformed input at its line: the object's, counted on to the fault when its
// place in raw is known.
func (f fault) err(src cluster.Source, raw []byte) error {
	off := f.off
	if off < 0 && len(f.keys) > 0 {
		off = locate(raw, f.keys...)
	}
	e := &Error{File: src.File, Line: int(src.Line), Offset: src.Offset, Msg: f.path + " " + f.msg, Err: ErrMalformed}
	if off > 0 && off <= len(raw) {
		if e.Line > 0 {
			e.Line += bytes.Count(raw[:off], []byte{'\n'})
		}
		e.Offset += int64(off)
	}
	return e
}

// metaFault checks the kind, apiVersion, name and namespace every object has, kept or skipped
// (a skipped one is listed by them).
func metaFault(tm typeMeta) (fault, bool) {
	if f, ok := stringFault("kind", tm.Kind, maxKind); ok {
		return f.at("kind"), true
	}
	if f, ok := stringFault("apiVersion", tm.APIVersion, maxVersion); ok {
		return f.at("apiVersion"), true
	}
	if f, ok := stringFault("metadata.name", tm.Name, maxName); ok {
		return f.at("metadata", "name"), true
	}
	if f, ok := stringFault("metadata.namespace", tm.Namespace, maxNamespace); ok {
		return f.at("metadata", "namespace"), true
	}
	return fault{}, false
}

// at is f, found at keys in the object's JSON.
func (f fault) at(keys ...string) fault {
	f.keys = keys
	return f
}

// stringFault checks a name: at most max bytes, no control character.
func stringFault(path, v string, max int) (fault, bool) {
	switch {
	case len(v) > max:
		return fault{path: path, msg: fmt.Sprintf("is %d bytes, longer than %d", len(v), max), off: -1}, true
	case textcheck.ControlAt(v, false) >= 0:
		return fault{path: path, msg: "holds a control character", off: -1}, true
	}
	return fault{}, false
}

// objectMetaFault checks an object's metadata as the API server would.
func objectMetaFault(m *metav1.ObjectMeta) (fault, bool) {
	if f, ok := stringFault("metadata.name", m.Name, maxName); ok {
		return f.at("metadata", "name"), true
	}
	if f, ok := stringFault("metadata.namespace", m.Namespace, maxNamespace); ok {
		return f.at("metadata", "namespace"), true
	}
	if f, ok := stringFault("metadata.uid", string(m.UID), maxName); ok {
		return f.at("metadata", "uid"), true
	}
	if f, ok := stringFault("metadata.resourceVersion", m.ResourceVersion, maxName); ok {
		return f.at("metadata", "resourceVersion"), true
	}
	if len(m.Labels) > maxLabels {
		f := fault{path: "metadata.labels", msg: fmt.Sprintf("has %d labels, more than %d", len(m.Labels), maxLabels), off: -1}
		return f.at("metadata", "labels"), true
	}
	for k, v := range m.Labels {
		if f, ok := labelFault(k, v); ok {
			return f.at("metadata", "labels", k), true
		}
	}
	total := 0
	for k, v := range m.Annotations {
		total += len(k) + len(v)
	}
	if total > maxAnnotationBytes {
		f := fault{path: "metadata.annotations", msg: fmt.Sprintf("hold %d bytes, more than %d", total, maxAnnotationBytes), off: -1}
		return f.at("metadata", "annotations"), true
	}
	return fault{}, false
}

// labelFault checks a label: its key a qualified name, its value short, neither with control
// characters.
func labelFault(k, v string) (fault, bool) {
	prefix, name, ok := strings.Cut(k, "/")
	if !ok {
		prefix, name = "", k
	}
	switch {
	case len(prefix) > maxLabelPrefix:
		return fault{path: fieldPath("metadata.labels", k), msg: fmt.Sprintf("has a prefix of %d bytes, longer than %d", len(prefix), maxLabelPrefix), off: -1}, true
	case len(name) > maxLabelName:
		return fault{path: fieldPath("metadata.labels", k), msg: fmt.Sprintf("has a name of %d bytes, longer than %d", len(name), maxLabelName), off: -1}, true
	}
	if textcheck.ControlAt(k, false) >= 0 {
		return fault{path: "metadata.labels", msg: "has a key with a control character", off: -1}, true
	}
	if len(v) > maxLabelValue || textcheck.ControlAt(v, false) >= 0 {
		return stringFault(fieldPath("metadata.labels", k), v, maxLabelValue)
	}
	return fault{}, false
}

// typedFault checks what the API server checks of a decoded Pod, Node or Event, and what
// Rootline indexes by: a pod's node, an event's object.
func typedFault(v any) (fault, bool) {
	switch t := v.(type) {
	case *corev1.Pod:
		if f, ok := objectMetaFault(&t.ObjectMeta); ok {
			return f, true
		}
		if f, ok := stringFault("spec.nodeName", t.Spec.NodeName, maxName); ok {
			return f.at("spec", "nodeName"), true
		}
	case *corev1.Node:
		return objectMetaFault(&t.ObjectMeta)
	case *corev1.Event:
		if f, ok := objectMetaFault(&t.ObjectMeta); ok {
			return f, true
		}
		return refFault("involvedObject", &t.InvolvedObject)
	case *cluster.Pod: // what Rootline keeps of one: decoded straight into it, or from text
		m := t.ObjectMeta.Core()
		if f, ok := objectMetaFault(&m); ok {
			return f, true
		}
		if f, ok := stringFault("spec.nodeName", t.Spec.NodeName, maxName); ok {
			return f.at("spec", "nodeName"), true
		}
	case *cluster.Event:
		m := metav1.ObjectMeta{Name: t.Name, Namespace: t.Namespace, UID: t.UID, Annotations: t.Annotations}
		if f, ok := objectMetaFault(&m); ok {
			return f, true
		}
		ref := t.InvolvedObject.Core()
		return refFault("involvedObject", &ref)
	case *eventsv1.Event:
		if f, ok := objectMetaFault(&t.ObjectMeta); ok {
			return f, true
		}
		return refFault("regarding", &t.Regarding)
	}
	return fault{}, false
}

// refFault checks the names an object gives of another, at the field parent.
func refFault(parent string, r *corev1.ObjectReference) (fault, bool) {
	for _, c := range [...]struct {
		key, v string
		max    int
	}{{"kind", r.Kind, maxKind}, {"namespace", r.Namespace, maxNamespace}, {"name", r.Name, maxName}, {"uid", string(r.UID), maxName}} {
		if len(c.v) > c.max || textcheck.ControlAt(c.v, false) >= 0 { // the path is made only for a fault
			f, _ := stringFault(parent+"."+c.key, c.v, c.max)
			return f.at(parent, c.key), true
		}
	}
	return fault{}, false
}

// rawMetaFault checks the metadata of an object kept as raw JSON.
func rawMetaFault(raw []byte) (fault, bool) {
	var o struct {
		Metadata metav1.ObjectMeta `json:"metadata"`
	}
	if json.Unmarshal(raw, &o) != nil {
		return fault{}, false // the object's own decode reports it
	}
	return objectMetaFault(&o.Metadata)
}

// locate returns the offset in the JSON object raw of the value at keys, or -1 when it cannot
// tell (a key with escapes, for one).
func locate(raw []byte, keys ...string) int {
	i := 0
	for _, want := range keys {
		i = jsonscan.SkipWS(raw, i)
		if i >= len(raw) || raw[i] != '{' {
			return -1
		}
		i = jsonscan.SkipWS(raw, i+1)
		found := false
		for !found {
			key, j, ok := jsonscan.Key(raw, i)
			if !ok {
				return -1
			}
			if string(key) == want {
				i, found = j, true
				break
			}
			if i, ok = jsonscan.SkipValue(raw, j); !ok {
				return -1
			}
			if i = jsonscan.SkipWS(raw, i); i >= len(raw) || raw[i] != ',' {
				return -1
			}
			i = jsonscan.SkipWS(raw, i+1)
		}
	}
	return i
}

// textFault checks an object read from pasted text, which can hold anything the paste does:
// its values as for JSON, its names as the API server's.
func textFault(o *cluster.Object) error {
	raw, err := o.JSON()
	if err != nil {
		return fmt.Errorf("ingest: %s: %w", o.Source, err)
	}
	f, ok := valueFault(raw)
	if !ok {
		f, ok = metaFault(typeMeta{APIVersion: o.APIVersion, Kind: o.Kind, Name: o.Name, Namespace: o.Namespace})
	}
	if v := o.Typed(); !ok && v != nil {
		f, ok = typedFault(v)
	}
	if !ok {
		return nil
	}
	return f.err(o.Source, nil) // raw is made here: the fault's line is the object's
}
