package change

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// Attr is the field of an object (or of one of its containers) a change is to, as kubectl
// explain names it. The zero Attr is the object itself: it appeared or went.
type Attr string

// The fields change compares.
const (
	// Of a container of a pod template.
	Image          Attr = "image"
	Command        Attr = "command"
	Args           Attr = "args"
	Env            Attr = "env"
	Requests       Attr = "requests" // Path.Resource says which
	Limits         Attr = "limits"   // Path.Resource says which
	LivenessProbe  Attr = "livenessProbe"
	ReadinessProbe Attr = "readinessProbe"
	StartupProbe   Attr = "startupProbe"
	// Of a pod template.
	NodeSelector      Attr = "nodeSelector"
	Affinity          Attr = "affinity"
	Tolerations       Attr = "tolerations"
	PriorityClassName Attr = "priorityClassName"
	// Of a workload.
	Replicas Attr = "replicas"
	Schedule Attr = "schedule"
	Suspend  Attr = "suspend"
	// Of a ConfigMap: Path.Key says which key.
	Data       Attr = "data"
	BinaryData Attr = "binaryData"
	// Of a node.
	Labels        Attr = "labels" // Path.Key says which label
	Taints        Attr = "taints"
	Unschedulable Attr = "unschedulable"
	Capacity      Attr = "capacity"    // Path.Resource says which
	Allocatable   Attr = "allocatable" // Path.Resource says which
)

// Path is where a change is, as a value: what the rules ask of it. Change.Field is the same
// place written for people.
type Path struct {
	Attr Attr
	// Template is set for a field of a workload's pod template.
	Template bool
	// Container is the container a field of a container is of, Init when it is an init
	// container.
	Container string
	Init      bool
	// Resource is the resource of a request, limit, capacity or allocatable.
	Resource corev1.ResourceName
	// Key is the label or ConfigMap key.
	Key string
}

// Object reports whether the change is of the object itself: it appeared or went.
func (p Path) Object() bool { return p.Attr == "" }

// Short names the field without its object and container: "image", "limits.memory",
// "nodeSelector", "data[app.conf]".
func (p Path) Short() string {
	switch {
	case p.Resource != "":
		return string(p.Attr) + "." + string(p.Resource)
	case p.Key != "":
		return string(p.Attr) + "[" + p.Key + "]"
	}
	return string(p.Attr)
}

// Value is Before or After of a change as a value, for the fields the rules compare; Change's
// Before and After are the same written for people.
type Value struct {
	// Absent is set when the field (or the object) is not there.
	Absent bool
	// Quantity is a request's, limit's, capacity's or allocatable's.
	Quantity *resource.Quantity
	// Taints are a node's (Path.Attr Taints), in the order of their text.
	Taints []corev1.Taint
	// Set is a flag's value: Unschedulable, Suspend.
	Set bool
	// Pool is the node pool of a node present in one reading only.
	Pool string
}

// Less reports whether a change of a quantity made it smaller, or set one where there was none
// (a limit added where there was none).
func (c Change) Less() bool {
	if c.Is.Quantity == nil {
		return false
	}
	if c.Was.Absent {
		return true
	}
	return c.Was.Quantity != nil && c.Is.Quantity.Cmp(*c.Was.Quantity) < 0
}

// GainedTaints are the taints of After that Before did not have.
func (c Change) GainedTaints() []corev1.Taint {
	var out []corev1.Taint
	for _, t := range c.Is.Taints {
		if !slices.ContainsFunc(c.Was.Taints, func(w corev1.Taint) bool { return w.MatchTaint(&t) && w.Value == t.Value }) {
			out = append(out, t)
		}
	}
	return out
}

// field is one compared field of an object: where, written for people, and as a value.
type field struct {
	path  Path
	text  string
	value Value
}

// fieldSet are the compared fields of an object by their name (Change.Field).
type fieldSet map[string]field

// texts are the fields as people read them.
func (fs fieldSet) texts() map[string]string {
	out := make(map[string]string, len(fs))
	for k, f := range fs {
		out[k] = f.text
	}
	return out
}

// set keeps a field that has a value ("" is none).
func (fs fieldSet) set(name string, p Path, text string) {
	if text != "" {
		fs[name] = field{path: p, text: text}
	}
}

// quantity keeps a quantity.
func (fs fieldSet) quantity(name string, p Path, q resource.Quantity) {
	fs[name] = field{path: p, text: q.String(), value: Value{Quantity: &q}}
}
