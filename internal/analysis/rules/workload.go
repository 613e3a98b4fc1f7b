package rules

import (
	"encoding/json"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// The objects other than pods, nodes and events that some rules read (Deployments,
// ReplicaSets, Jobs, PersistentVolumeClaims) are kept in the model as their JSON; these read
// what those rules need of them.

// workloadCondition is a condition of a workload's status, as every apps and batch kind
// writes it.
type workloadCondition struct {
	Type               string    `json:"type"`
	Status             string    `json:"status"`
	Reason             string    `json:"reason"`
	Message            string    `json:"message"`
	LastTransitionTime time.Time `json:"lastTransitionTime"`
}

// conditions reads the status conditions of an object kept as JSON; nil when it has none or
// its JSON is not an object's.
func conditions(o *cluster.Object) []workloadCondition {
	if len(o.Raw) == 0 {
		return nil
	}
	var v struct {
		Status struct {
			Conditions []workloadCondition `json:"conditions"`
		} `json:"status"`
	}
	if json.Unmarshal(o.Raw, &v) != nil {
		return nil
	}
	return v.Status.Conditions
}

// others returns the model's objects of the given kinds.
func others(m *cluster.Model, kinds ...string) []*cluster.Object {
	var out []*cluster.Object
	for _, o := range m.Others {
		for _, k := range kinds {
			if o.Kind == k {
				out = append(out, o)
				break
			}
		}
	}
	return out
}

// objectSymptoms gathers one symptom per object (kind, namespace, name), in the order objects
// are first met, for the rules about workloads and claims.
type objectSymptoms struct {
	kind  string
	byKey map[string]*analysis.Symptom
	order []string
}

func newObjectSymptoms(kind string) *objectSymptoms {
	return &objectSymptoms{kind: kind, byKey: map[string]*analysis.Symptom{}}
}

// get returns the symptom of the object, creating it on first use; an object the input does
// not name is one per file.
func (c *objectSymptoms) get(r analysis.ObjectRef, file string) *analysis.Symptom {
	key := r.Kind + "/" + r.Namespace + "/" + r.Name
	if r.Name == "" {
		key = r.Kind + "/\x00" + file
	}
	if s, ok := c.byKey[key]; ok {
		return s
	}
	s := &analysis.Symptom{Kind: c.kind, Objects: []analysis.ObjectRef{}}
	if r.Name != "" {
		s.Objects = []analysis.ObjectRef{r}
	}
	c.byKey[key] = s
	c.order = append(c.order, key)
	return s
}

// list returns the symptoms, each given its summary.
func (c *objectSymptoms) list(summary func(s *analysis.Symptom) string) []analysis.Symptom {
	out := make([]analysis.Symptom, 0, len(c.order))
	for _, key := range c.order {
		s := c.byKey[key]
		s.Summary = summary(s)
		out = append(out, *s)
	}
	return out
}

// objectPhrase speaks of a symptom's object for people: "ReplicaSet prod/web-7d9", or "a
// <kind> the input does not name".
func objectPhrase(s *analysis.Symptom, kind string) string {
	if len(s.Objects) == 0 {
		return "a " + kind + " the input does not name"
	}
	o := s.Objects[0]
	if o.Kind == "" {
		o.Kind = kind // a controller whose kind the input does not say
	}
	if o.Namespace == "" {
		return o.Kind + " " + o.Name
	}
	return o.Kind + " " + o.Namespace + "/" + o.Name
}

// eventObject is the object an event is about, as a symptom names it.
func eventObject(in analysis.Input, o *cluster.Object, defaultKind string) analysis.ObjectRef {
	r := involved(o)
	if r.Name == "" {
		// The input lost the event's object (an Events section pasted apart from its
		// describe): the controller its message names, if it names one.
		if m := messages(in).message(o.Event.Message); m != nil {
			if kind, name := m.Workload(); name != "" {
				r = analysis.ObjectRef{Kind: kind, Namespace: m.Capture("namespace"), Name: name}
			}
		}
		if r.Kind == "ReplicaSet" && defaultKind == "Deployment" {
			// A rollout's message names its new ReplicaSet, which the Deployment named after
			// itself and its pod template's hash.
			if d, ok := cluster.DeploymentOf(r.Name); ok {
				r.Kind, r.Name = "Deployment", d
			}
		}
	}
	if r.Kind == "" {
		r.Kind = defaultKind
	}
	return r
}

// fromConditions adds a symptom for each object of the kinds whose status holds a condition
// match accepts, citing it; the message of the first is the symptom's.
func (c *objectSymptoms) fromConditions(in analysis.Input, kinds []string, match func(workloadCondition) bool) {
	for _, o := range others(in.Model, kinds...) {
		for _, cond := range conditions(o) {
			if !match(cond) {
				continue
			}
			s := c.get(ref(o), o.Source.File)
			s.Evidence = append(s.Evidence, citeCondition(o, cond.Type, cond.Reason+": "+cond.Message))
			s.At = earliest(s.At, timePtr(cond.LastTransitionTime))
			if s.Details.Message == "" {
				s.Reason, s.Details.Message = cond.Reason, firstLine(cond.Message)
			}
		}
	}
}

// fromEvents adds the events match accepts to the symptom of their object (of defaultKind
// where the event does not say), citing each; the message of the first is the symptom's.
func (c *objectSymptoms) fromEvents(in analysis.Input, defaultKind string, match func(o *cluster.Object) bool) {
	for _, o := range in.Model.Events {
		if !match(o) {
			continue
		}
		e := o.Event
		s := c.get(eventObject(in, o, defaultKind), o.Source.File)
		s.Evidence = append(s.Evidence, citeEvent(o))
		_, first, _ := cluster.EventTimes(e)
		s.At = earliest(s.At, timePtr(first))
		if s.Details.Message == "" {
			s.Reason, s.Details.Message = e.Reason, firstLine(e.Message)
		}
	}
}
