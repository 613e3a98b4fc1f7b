package history

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/change"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// revision is what a workload's history reads of one of its template revisions: a
// Deployment's ReplicaSet, or a StatefulSet's or DaemonSet's ControllerRevision (change.Revision).
type revision = change.Revision

// revisions reads the ReplicaSets and ControllerRevisions of the model, by kind, namespace
// and name.
func revisions(m *cluster.Model) map[string]revision {
	out := map[string]revision{}
	if m == nil {
		return out
	}
	for _, o := range m.Others {
		if r, ok := change.RevisionOf(o); ok {
			out[o.Kind+"/"+o.Namespace+"/"+o.Name] = r
		}
	}
	return out
}

// owners are the objects a pod runs from: its controller and, for a ReplicaSet, the Deployment
// that owns it (as the ReplicaSet says, else as the name the Deployment controller gives it
// says: the Deployment's name and the pod-template-hash), as analysis reads a pod's workload.
func owners(revs map[string]revision, p *cluster.Object) []Object {
	kind, name := cluster.Owner(p.Pod)
	if kind == "" {
		return nil
	}
	out := []Object{{Kind: kind, Namespace: p.Namespace, Name: name}}
	if kind != "ReplicaSet" {
		return out
	}
	if rs, ok := revs["ReplicaSet/"+p.Namespace+"/"+name]; ok && rs.OwnerKind == "Deployment" {
		return append(out, Object{Kind: "Deployment", Namespace: p.Namespace, Name: rs.Owner})
	}
	if h := p.Pod.Labels["pod-template-hash"]; h != "" && strings.HasSuffix(name, "-"+h) {
		return append(out, Object{Kind: "Deployment", Namespace: p.Namespace, Name: strings.TrimSuffix(name, "-"+h)})
	}
	return out
}

// workload is a workload's (or ConfigMap's) lanes: its template revisions (a Deployment's
// ReplicaSets, a StatefulSet's or DaemonSet's ControllerRevisions, each from its creation to the
// next's), the changes the analysis read of it,
// the events about it and its ReplicaSets, and the symptoms of its pods; then a group per pod,
// at most maxPods of them (those with symptoms first). False when nothing names it.
func (b *builder) workload(o Object, notes *[]string) ([]Group, bool) {
	g := Group{Object: o}
	all := revisions(b.in.Model)
	revs := revisionsOf(all, o)
	eventsOf := []Object{o}
	for _, r := range revs {
		if r.Kind == "ReplicaSet" {
			eventsOf = append(eventsOf, Object{Kind: r.Kind, Namespace: o.Namespace, Name: r.Name})
		}
	}
	if len(revs) > 0 {
		g.Lanes = append(g.Lanes, revisionLane(revs))
	}
	g.Lanes = append(g.Lanes, b.changesLane("changes", func(c analysis.Change) bool {
		return c.Kind == o.Kind && c.Namespace == o.Namespace && c.Name == o.Name ||
			o.Kind == "ReplicaSet" && c.Namespace == o.Namespace && c.ReplicaSet == o.Name
	}))
	pods := b.workloadPods(all, o)
	isPod := map[string]bool{}
	for _, p := range pods {
		isPod[p.Name] = true
	}
	g.Lanes = append(g.Lanes,
		Lane{Name: "events", Marks: b.eventMarks(eventsOf...)},
		Lane{Name: "symptoms of its pods", Marks: b.symptomMarks(func(r analysis.ObjectRef) bool {
			return r.Namespace == o.Namespace && (r.Kind == cluster.KindPod && isPod[r.Name] || r.Kind == o.Kind && r.Name == o.Name)
		}, "")})
	if len(revs) == 0 && len(pods) == 0 && !named(g) && !b.holds(o) {
		return nil, false
	}
	return append([]Group{g}, b.podGroups(o, pods, notes)...), true
}

// revisionsOf are the template revisions of a workload, in the order of their numbers.
func revisionsOf(all map[string]revision, o Object) []revision {
	var revs []revision
	for _, r := range all {
		if r.OwnerKind == o.Kind && r.Owner == o.Name && r.Namespace == o.Namespace {
			revs = append(revs, r)
		}
	}
	slices.SortFunc(revs, func(a, b revision) int {
		return cmp.Or(cmp.Compare(a.Number, b.Number), a.Created.Compare(b.Created), strings.Compare(a.Name, b.Name))
	})
	return revs
}

// revisionLane draws each template revision from its creation to the next's, the last one
// current.
func revisionLane(revs []revision) Lane {
	l := Lane{Name: "template revisions"}
	for i, r := range revs {
		if r.Created.IsZero() {
			continue
		}
		sp := Span{From: r.Created.UTC(), State: fmt.Sprintf("revision %d: %s %s", r.Number, r.Kind, r.Name), Tone: ToneInfo}
		if i == len(revs)-1 {
			sp.Tone = ToneOK
		} else if !revs[i+1].Created.IsZero() {
			sp.To = revs[i+1].Created.UTC()
		}
		l.Spans = append(l.Spans, sp)
	}
	return l
}

// workloadPods are the pods of the model a workload runs, by their owners.
func (b *builder) workloadPods(all map[string]revision, o Object) []*cluster.Object {
	var pods []*cluster.Object
	if b.in.Model == nil {
		return nil
	}
	for _, p := range b.in.Model.Pods {
		if p.Namespace == o.Namespace && slices.Contains(owners(all, p), o) {
			pods = append(pods, p)
		}
	}
	return pods
}

// holds reports whether the model holds the object itself.
func (b *builder) holds(o Object) bool {
	if b.in.Model == nil {
		return false
	}
	return slices.ContainsFunc(b.in.Model.Others, func(x *cluster.Object) bool {
		return x.Kind == o.Kind && x.Namespace == o.Namespace && x.Name == o.Name
	})
}

// podGroups are a group per pod of a workload: pods with symptoms first, then by name; at most
// maxPods, chosen before their lanes are made (a Deployment may have thousands), the rest said
// in notes.
func (b *builder) podGroups(o Object, pods []*cluster.Object, notes *[]string) []Group {
	symptoms := b.podSymptoms(o.Namespace)
	slices.SortStableFunc(pods, func(a, b *cluster.Object) int {
		return cmp.Or(cmp.Compare(symptoms[b.Name], symptoms[a.Name]), strings.Compare(a.Name, b.Name))
	})
	if len(pods) > maxPods {
		*notes = append(*notes, fmt.Sprintf("%s has %d pods; %d are drawn (those with symptoms first): each pod's own history has the rest",
			o, len(pods), maxPods))
		pods = pods[:maxPods]
	}
	var groups []Group
	for _, p := range pods {
		pg, _ := b.pod(Object{Kind: cluster.KindPod, Namespace: p.Namespace, Name: p.Name})
		groups = append(groups, pg)
	}
	return groups
}

// podSymptoms counts the symptoms (a group's members one by one) naming each pod of a
// namespace.
func (b *builder) podSymptoms(namespace string) map[string]int {
	out := map[string]int{}
	var visit func(s analysis.Symptom)
	visit = func(s analysis.Symptom) {
		for _, m := range s.Members {
			visit(m)
		}
		if len(s.Members) > 0 {
			return
		}
		for _, r := range s.Objects {
			if r.Kind == cluster.KindPod && r.Namespace == namespace {
				out[r.Name]++
			}
		}
	}
	for _, s := range b.in.Report.Symptoms {
		visit(s)
	}
	return out
}

// Related are the objects whose histories go with a pod's: the workload it runs from (its
// ReplicaSet and that one's Deployment) and its node. None for other kinds: a workload's
// history holds its pods.
func Related(m *cluster.Model, o Object) []Object {
	if m == nil || o.Kind != cluster.KindPod {
		return nil
	}
	p := m.Pod(o.Namespace, o.Name)
	if p == nil {
		return nil
	}
	out := owners(revisions(m), p)
	if n := p.Pod.Spec.NodeName; n != "" {
		out = append(out, Object{Kind: cluster.KindNode, Name: n})
	}
	return slices.DeleteFunc(out, func(r Object) bool { return r.Validate() != nil })
}
