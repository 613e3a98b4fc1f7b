// Package change finds what changed in a cluster between two readings of it: the fields of
// workloads, nodes and ConfigMaps that people change and that change how pods run (an image, a
// memory limit, a probe, a node's taints, a ConfigMap's keys), each difference a Change with its
// object, field, before and after, and the window in which it happened. Status churn (ready
// replicas, conditions, heartbeats) is not a change.
//
// It is a pure function of two sets of cluster objects, as the analysis is: the snapshots of an
// incident, or a snapshot and what the collector saw, are read by the caller.
package change

import (
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// Change is one field of one object that differs between two readings of the cluster.
type Change struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	// Field is where the difference is, as kubectl explain names it, with containers, keys and
	// labels by name: "spec.template.spec.containers[hub].resources.limits.memory",
	// "data[jupyterhub_config.py]", "metadata.labels[cloud.google.com/gke-nodepool]". An object
	// that appeared or went is the field "" with Before or After "absent".
	Field  string `json:"field"`
	Before string `json:"before"`
	After  string `json:"after"`
	// Path is Field as a value, and Was and Is are Before and After as values, for the rules
	// to read: Field, Before and After are for people, and never read back.
	Path Path  `json:"-"`
	Was  Value `json:"-"`
	Is   Value `json:"-"`
	// Since and Until bound when it happened: after the first reading was taken, no later than
	// the second (zero when a reading's time is unknown).
	Since time.Time `json:"since,omitzero"`
	Until time.Time `json:"until,omitzero"`
	// Revision is the Deployment's revision that made the change, when its ReplicaSets tell it
	// (History).
	Revision int `json:"revision,omitempty"`
	// Evidence names the object that shows the change when it is not the changed one: the
	// ReplicaSet of the revision (History).
	Evidence string `json:"evidence,omitempty"`
	// ReplicaSet is the ReplicaSet that runs the changed template (History): its pods are the
	// new ones, the Deployment's other ReplicaSets' pods the old.
	ReplicaSet string `json:"replica_set,omitempty"`
	// RevisionHash is the controller-revision-hash label of the pods that run the changed
	// template of a StatefulSet or DaemonSet (History, from its ControllerRevisions): they are
	// the new pods, those with another hash the old.
	RevisionHash string `json:"revision_hash,omitempty"`
	// Source is where the object that shows the change was read: the later reading's object
	// (Between), the revision's ReplicaSet (History).
	Source cluster.Source `json:"source"`
}

// Absent is Before or After of an object that is in one reading and not in the other.
const Absent = "absent"

// Reading is the cluster as one snapshot (or the collector at one moment) saw it.
type Reading struct {
	Objects []*cluster.Object
	// At is when it was taken; zero when unknown.
	At time.Time
}

// Between compares the objects two readings share by kind, namespace and name, and those only
// one holds, and returns the changes in the order of kind, namespace, name and field. Only the
// kinds Rootline compares are read (see Watched); an object of such a kind whose JSON does not
// decode is left out, as are objects that only one reading can say anything about because the
// other holds none of their kind (a snapshot of pods alone says nothing of Deployments).
func Between(before, after Reading) []Change {
	b, a := index(before.Objects), index(after.Objects)
	src := func(k key) cluster.Source {
		if s := a[k]; s != nil {
			return s.source
		}
		return b[k].source
	}
	var out []Change
	for _, key := range keys(b, a) {
		if !hasKind(b, key.kind) || !hasKind(a, key.kind) {
			continue
		}
		was, is := b[key], a[key]
		switch {
		case was == nil:
			out = append(out, Change{Kind: key.kind, Namespace: key.namespace, Name: key.name, Before: Absent, After: is.summary,
				Was: Value{Absent: true}, Is: is.whole})
		case is == nil:
			out = append(out, Change{Kind: key.kind, Namespace: key.namespace, Name: key.name, Before: was.summary, After: Absent,
				Was: was.whole, Is: Value{Absent: true}})
		default:
			out = append(out, differences(key, was.fields, is.fields)...)
		}
	}
	for i := range out {
		c := &out[i]
		c.Since, c.Until, c.Source = before.At, after.At, src(key{c.Kind, c.Namespace, c.Name})
	}
	return out
}

// differences are the changes of the fields of one object between two readings of it.
func differences(k key, was, is fieldSet) []Change {
	var out []Change
	for _, f := range fieldNames(was, is) {
		if was[f].text == is[f].text {
			continue
		}
		b, bv := orAbsent(was, f)
		a, av := orAbsent(is, f)
		p := was[f].path
		if _, ok := is[f]; ok {
			p = is[f].path
		}
		if p.Attr == Data || p.Attr == BinaryData {
			b, a = hiddenValue(b, ValueBefore), hiddenValue(a, ValueAfter)
		}
		out = append(out, Change{Kind: k.kind, Namespace: k.namespace, Name: k.name, Field: f, Path: p,
			Before: b, After: a, Was: bv, Is: av})
	}
	return out
}

// What a change of a ConfigMap's value shows of the values: that there was one and that it
// changed, never the value's hash, which anyone could match against the values they guess
// (the hash of "hunter2" is the same in every cluster).
const (
	ValueBefore = "a value"
	ValueAfter  = "another value"
)

// hiddenValue is what a change shows of a ConfigMap's value: Absent as it is, else shown.
func hiddenValue(text, shown string) string {
	if text == Absent {
		return text
	}
	return shown
}

// orAbsent is a field's text and value, Absent when it is not there.
func orAbsent(fields fieldSet, f string) (string, Value) {
	if v, ok := fields[f]; ok {
		return v.text, v.value
	}
	return Absent, Value{Absent: true}
}

// Across compares each reading with the one before it, readings in the order they were taken
// (each At an upper bound of when it was taken: a snapshot's upload). The window of a change
// starts at the latest time the earlier reading records (it was taken no earlier: a snapshot of
// last year's incident is uploaded today) and ends at the later reading's At.
func Across(readings []Reading) []Change {
	var out []Change
	for i := 1; i < len(readings); i++ {
		before := Reading{Objects: readings[i-1].Objects, At: recorded(readings[i-1].Objects)}
		out = append(out, Between(before, readings[i])...)
	}
	return out
}

// recorded is the latest time the pods and nodes of a reading record: when they were created,
// started, changed condition, or their containers changed state.
func recorded(objs []*cluster.Object) time.Time {
	var latest time.Time
	note := func(t time.Time) {
		if t.After(latest) {
			latest = t
		}
	}
	for _, o := range objs {
		switch {
		case o.Pod != nil:
			p := o.Pod
			note(p.CreationTimestamp.Time)
			if p.Status.StartTime != nil {
				note(p.Status.StartTime.Time)
			}
			for _, c := range p.Status.Conditions {
				note(c.LastTransitionTime.Time())
			}
			for _, cs := range append(append([]cluster.ContainerStatus{}, p.Status.InitContainerStatuses...), p.Status.ContainerStatuses...) {
				for _, st := range []corev1.ContainerState{cs.State, cs.LastTerminationState} {
					if st.Running != nil {
						note(st.Running.StartedAt.Time)
					}
					if st.Terminated != nil {
						note(st.Terminated.FinishedAt.Time)
					}
				}
			}
		case o.Node != nil:
			note(o.Node.CreationTimestamp.Time)
			for _, c := range o.Node.Status.Conditions {
				note(c.LastTransitionTime.Time)
			}
		}
	}
	return latest.UTC()
}

// When is when a change was seen: the time by which it had happened (Until), or, when that is
// not known, the time before which it had not (Since).
func (c Change) When() time.Time {
	if !c.Until.IsZero() {
		return c.Until
	}
	return c.Since
}
