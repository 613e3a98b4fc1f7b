package rules

import (
	"strings"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// podSymptoms gathers one symptom per pod, in the order pods are first met, for rules that
// find the same pod's trouble in its status and in its events.
type podSymptoms struct {
	kind  string
	byPod map[string]*analysis.Symptom
	order []string
}

func newPodSymptoms(kind string) *podSymptoms {
	return &podSymptoms{kind: kind, byPod: map[string]*analysis.Symptom{}}
}

// get returns the pod's symptom, creating it on first use.
func (c *podSymptoms) get(namespace, name string) *analysis.Symptom {
	key := namespace + "/" + name
	if s, ok := c.byPod[key]; ok {
		return s
	}
	s := &analysis.Symptom{Kind: c.kind, Objects: []analysis.ObjectRef{{Kind: cluster.KindPod, Namespace: namespace, Name: name}}}
	c.byPod[key] = s
	c.order = append(c.order, key)
	return s
}

// pod returns the symptom of a pod object; a pod the input does not name (a describe
// fragment) is one of its own.
func (c *podSymptoms) pod(o *cluster.Object) *analysis.Symptom {
	var s *analysis.Symptom
	if o.Name != "" {
		s = c.get(o.Namespace, o.Name)
	} else {
		s = c.anon("\x00" + o.Source.String())
	}
	s.Pod = o
	return s
}

// anon returns the symptom kept under key for a pod the input does not name.
func (c *podSymptoms) anon(key string) *analysis.Symptom {
	if s, ok := c.byPod[key]; ok {
		return s
	}
	s := &analysis.Symptom{Kind: c.kind, Objects: []analysis.ObjectRef{}, Details: analysis.Details{Object: analysis.UnnamedPod}}
	c.byPod[key] = s
	c.order = append(c.order, key)
	return s
}

// event returns the symptom of the pod an event is about. Events that name no pod (an events
// section pasted alone) share one symptom per file: a paste is about one pod more often than
// not, and the symptom names no object it cannot.
func (c *podSymptoms) event(o *cluster.Object) *analysis.Symptom {
	ns, name := podKey(o)
	if name != "" {
		return c.get(ns, name)
	}
	return c.anon("\x00" + o.Source.File)
}

// list returns the symptoms, each given its summary by the rule (pod is "ns/name", or "" for a
// pod the input does not name).
func (c *podSymptoms) list(summary func(pod string, s *analysis.Symptom) string) []analysis.Symptom {
	out := make([]analysis.Symptom, 0, len(c.order))
	for _, key := range c.order {
		s := c.byPod[key]
		if strings.HasPrefix(key, "\x00") {
			key = ""
		}
		s.Summary = summary(key, s)
		out = append(out, *s)
	}
	return out
}
