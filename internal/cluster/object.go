// Package cluster holds Rootline's model of a Kubernetes cluster: the typed objects that every
// input (a file, an upload, a snapshot, a collector batch) is decoded into, each with the
// provenance that lets evidence point back to where it came from.
//
// The package depends only on k8s.io/api and apimachinery, so that ingestion, storage and
// analysis share one vocabulary without importing each other, and on k8s.io/component-helpers,
// so that a pod's requests and where it may run are worked out by Kubernetes' own code rather
// than a copy of it.
package cluster

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// Kinds that Rootline models with typed fields. Other kinds are kept as redacted raw JSON.
const (
	KindPod   = "Pod"
	KindNode  = "Node"
	KindEvent = "Event"
)

// Source says where an object came from: the file (inside an archive, "archive.tgz:pods.json"),
// the 1-based line where the object starts (0 when unknown), and the byte offset of that start
// in the decompressed file.
type Source struct {
	File   string `json:"file"`
	Offset int64  `json:"offset"`
	// ObservedAt is when `rootline collect` saw the object (nil for any other input): the
	// server takes it from the item of the collector's batch that carries the object
	// (internal/wire). A pointer, so that the objects of every other input (all those of a
	// paste or a snapshot) do not carry a time.Time's 24 bytes each: at 70,000 objects this
	// puts a cluster.Object in the 208-byte size class rather than the 224 (issue 30).
	ObservedAt *time.Time `json:"observed_at,omitempty"`
	// Deleted says that `rootline collect` saw the object deleted, at ObservedAt: what it
	// sends is the object as it was last.
	Deleted bool `json:"deleted,omitempty"`
	// Loose marks an event the text parser built from a phrase found in output with nothing
	// around it (no table, no describe), so that analysis gives it less weight.
	Loose bool `json:"loose,omitempty"`
	// Line is the line of File the object was read on, 1-based, or 0 when it was not read from
	// lines. An int32 beside the two flags, so that a Source is 40 bytes and a cluster.Object
	// 176, not 184 (issue 30).
	Line int32 `json:"line,omitempty"`
}

// Observed is when `rootline collect` saw an object, as Source.ObservedAt holds it: nil for
// the zero time.
func Observed(at time.Time) *time.Time {
	if at.IsZero() {
		return nil
	}
	return &at
}

// Allocation is a row of the "Allocated resources" table of kubectl describe node: the
// resource, and the requests and limits of the node's pods as printed ("1500m (75%)").
type Allocation struct {
	Resource string `json:"resource"`
	Requests string `json:"requests"`
	Limits   string `json:"limits"`
}

// String formats the source as "file:line", or "file@offset" when the line is unknown.
func (s Source) String() string {
	if s.Line > 0 {
		return fmt.Sprintf("%s:%d", s.File, s.Line)
	}
	return fmt.Sprintf("%s@%d", s.File, s.Offset)
}

// Object is one Kubernetes object decoded from any input, already redacted.
//
// Exactly one of Pod, Node and Event is set for those kinds; every other kind keeps only Raw.
// Events of events.k8s.io/v1 (and v1beta1) are converted to core/v1 Events, the way kubectl
// shows them, so the rest of Rootline knows one Event type; APIVersion keeps the original.
//
// Objects are read-only once decoded: objects decoded together share equal strings and
// equal resource lists (ingest's interner), so a change made to one would show in others.
type Object struct {
	APIVersion string
	Kind       string
	Namespace  string
	Name       string
	UID        string
	Source     Source

	Pod   *Pod
	Node  *corev1.Node
	Event *Event

	// Printed is what kubectl printed of the object that its type has no field for (Allocated,
	// ListedAge); nil for any object but some read from pasted text, so that the others do not
	// carry its fields.
	Printed *Printed

	// Raw is the object's redacted JSON. For a kind without a typed field it is all Rootline
	// keeps of the object. For a Pod, Node or Event (Typed) it is the JSON as it was decoded,
	// whole (Stored): what the server stores of it, since the typed field holds only what
	// Rootline reads; nil when the decoder was told its objects are only analysed, and for
	// objects made by hand. One field for both, not two, so that a cluster.Object is 184
	// bytes, in the 192-byte size class rather than the 208 (issue 30).
	Raw json.RawMessage
}

// Printed is what kubectl printed of an object that its type has no field for.
type Printed struct {
	// Allocated is the "Allocated resources" table of a node read from kubectl describe node:
	// what kubectl summed of its pods, kept as printed.
	Allocated []Allocation
	// Age is the AGE a kubectl listing printed for a pod read from pasted text whose time of
	// capture is unknown, so that its CreationTimestamp could not be set, and for a claim of a
	// claims listing whatever is known of that time: how long the object had existed when the
	// listing was taken.
	Age time.Duration
}

// NewPrinted is what kubectl printed of an object, or nil when it printed nothing of the kind.
func NewPrinted(allocated []Allocation, age time.Duration) *Printed {
	if allocated == nil && age == 0 {
		return nil
	}
	return &Printed{Allocated: allocated, Age: age}
}

// Allocated is the "Allocated resources" table kubectl describe node printed of o (Printed),
// or nil.
func (o *Object) Allocated() []Allocation {
	if o.Printed == nil {
		return nil
	}
	return o.Printed.Allocated
}

// ListedAge is the AGE a kubectl listing printed of o (Printed), or zero.
func (o *Object) ListedAge() time.Duration {
	if o.Printed == nil {
		return 0
	}
	return o.Printed.Age
}

// Unstored is a copy of o without its stored JSON: what analysis reads of an object the store
// has its JSON of. It shares o's typed object.
func (o *Object) Unstored() *Object {
	c := *o
	if c.Typed() != nil {
		c.Raw = nil
	}
	return &c
}

// Stored is the JSON of a typed object as it was decoded (Raw), or nil: for an object kept as
// Raw, and a typed one whose JSON was not kept.
func (o *Object) Stored() json.RawMessage {
	if o.Typed() == nil {
		return nil
	}
	return o.Raw
}

// Ref names the object the way evidence cites it: "Pod prod/hub-7c9", "Node gke-core-1".
func (o *Object) Ref() string {
	if o.Namespace == "" {
		return o.Kind + " " + o.Name
	}
	return o.Kind + " " + o.Namespace + "/" + o.Name
}

// Typed is the typed object o holds (its *Pod, *corev1.Node or *Event), or nil when it is kept
// as Raw.
func (o *Object) Typed() any {
	switch {
	case o.Pod != nil:
		return o.Pod
	case o.Node != nil:
		return o.Node
	case o.Event != nil:
		return o.Event
	}
	return nil
}

// JSON returns the redacted object as JSON: Raw (the JSON it was decoded from, or all Rootline
// keeps of an untyped object), else its typed object marshalled (an Event as the core/v1 Event
// it holds the fields of).
func (o *Object) JSON() ([]byte, error) {
	if o.Raw != nil {
		return o.Raw, nil
	}
	v := o.Marshalled()
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("marshal %s: %w", o.Ref(), err)
	}
	return b, nil
}

// Marshalled is the value whose JSON is o's when it has no Raw JSON: its *corev1.Node, the
// *corev1.Pod or *corev1.Event its Pod or Event holds the fields of, or nil when it is kept as
// Raw.
func (o *Object) Marshalled() any {
	switch {
	case o.Event != nil:
		return o.Event.Core()
	case o.Pod != nil:
		return o.Pod.Core()
	}
	return o.Typed()
}

// LineOf is line n as a Source holds it: 0 (unknown) past what an int32 holds, which only a
// file of more than two billion lines reaches.
func LineOf(n int) int32 {
	if n < 0 || n > math.MaxInt32 {
		return 0
	}
	return int32(n)
}
