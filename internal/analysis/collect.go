package analysis

import "github.com/rootline-dev/rootline/internal/cluster"

// podSymptoms gathers one symptom per pod, in the order pods are first met, for rules that
// find the same pod's trouble in its status and in its events.
type podSymptoms struct {
	kind  string
	byPod map[string]*Symptom
	order []string
}

func newPodSymptoms(kind string) *podSymptoms {
	return &podSymptoms{kind: kind, byPod: map[string]*Symptom{}}
}

// get returns the pod's symptom, creating it on first use.
func (c *podSymptoms) get(namespace, name string) *Symptom {
	key := namespace + "/" + name
	if s, ok := c.byPod[key]; ok {
		return s
	}
	s := &Symptom{Kind: c.kind, Objects: []ObjectRef{{Kind: cluster.KindPod, Namespace: namespace, Name: name}}, Details: map[string]any{}}
	c.byPod[key] = s
	c.order = append(c.order, key)
	return s
}

// list returns the symptoms, each given its summary by the rule; empty Details are dropped.
func (c *podSymptoms) list(summary func(pod string, s *Symptom) string) []Symptom {
	out := make([]Symptom, 0, len(c.order))
	for _, key := range c.order {
		s := c.byPod[key]
		s.Summary = summary(key, s)
		if len(s.Details) == 0 {
			s.Details = nil
		}
		out = append(out, *s)
	}
	return out
}
