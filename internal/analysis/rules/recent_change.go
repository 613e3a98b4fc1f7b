package rules

import (
	"fmt"
	"slices"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/change"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// The recent_change rules (recent_change_*.go) each take one mechanism by which a change to a
// workload hurts its own pods: a change of the right field, made before symptoms of the right
// kind of the same workload's pods, explains them. What they share is here: which workload and
// ReplicaSet a pod runs from, and how a change is cited.

// workload is the workload a pod runs from, as a change names it ("Deployment", "prod", "hub"),
// and which of its templates the pod runs: the ReplicaSet between them, if any, or, for a
// StatefulSet's or DaemonSet's pod, its controller-revision-hash label.
type workload struct {
	kind, namespace, name string
	replicaSet            string
	revisionHash          string
}

// workloadOf finds the workload of a pod: its controller, or, for a ReplicaSet, the Deployment
// that owns the ReplicaSet (from the ReplicaSet itself when the input holds it, else from the
// name the Deployment controller gives it: the Deployment's name and the pod-template-hash).
// A StatefulSet's or DaemonSet's pod names the revision it runs in its controller-revision-hash.
func workloadOf(owners map[string]string, p *cluster.Object) (workload, bool) {
	kind, name := cluster.Owner(p.Pod)
	if kind == "" {
		return workload{}, false
	}
	if kind == "StatefulSet" || kind == "DaemonSet" {
		return workload{kind: kind, namespace: p.Namespace, name: name, revisionHash: p.Pod.Labels[appsv1.ControllerRevisionHashLabelKey]}, true
	}
	if kind != "ReplicaSet" {
		return workload{kind: kind, namespace: p.Namespace, name: name}, true
	}
	if d, ok := owners[p.Namespace+"/"+name]; ok {
		return workload{kind: "Deployment", namespace: p.Namespace, name: d, replicaSet: name}, true
	}
	if h := p.Pod.Labels["pod-template-hash"]; h != "" && strings.HasSuffix(name, "-"+h) {
		return workload{kind: "Deployment", namespace: p.Namespace, name: strings.TrimSuffix(name, "-"+h), replicaSet: name}, true
	}
	return workload{kind: kind, namespace: p.Namespace, name: name}, true
}

// replicaSetOwners maps "namespace/name" of each ReplicaSet the input holds to the Deployment
// that controls it.
// replicaSetsKey is the key of a run's replicaSetOwners (analysis.Once).
type replicaSetsKey struct{}

// replicaSetsOf is replicaSetOwners of the run's model, read once.
func replicaSetsOf(in analysis.Input) map[string]string {
	return analysis.Once(in, replicaSetsKey{}, func() map[string]string { return replicaSetOwners(in.Model) })
}

func replicaSetOwners(m *cluster.Model) map[string]string {
	out := map[string]string{}
	for _, o := range m.Others {
		if d := change.DeploymentOf(o); d != "" {
			out[o.Namespace+"/"+o.Name] = d
		}
	}
	return out
}

// of reports whether a change is to w.
func (w workload) of(c change.Change) bool {
	return c.Kind == w.kind && c.Namespace == w.namespace && c.Name == w.name
}

// before reports whether a symptom began before a change could have been made: before the
// start of its window. A symptom without a time is not known to.
func before(s analysis.Symptom, c change.Change) bool {
	start := c.Since
	if start.IsZero() {
		start = c.Until
	}
	return s.At != nil && !start.IsZero() && s.At.Before(start)
}

// citeChange cites a change: the object it was read from, the field, before → after and when.
func citeChange(c change.Change) analysis.Evidence {
	value := c.Before + " → " + c.After
	switch {
	case c.Revision > 0:
		value += fmt.Sprintf(" (revision %d, %s, rolled out %s)", c.Revision, c.Evidence, c.When().Format(time.RFC3339))
	case !c.Since.IsZero() && !c.Until.IsZero():
		value += fmt.Sprintf(" (between %s and %s)", c.Since.Format(time.RFC3339), c.Until.Format(time.RFC3339))
	}
	return citeObject(analysis.ObjectRef{Kind: c.Kind, Namespace: c.Namespace, Name: c.Name}, c.Source, c.Field, value)
}

// mechanism is how a change hurts a workload's pods: the changes it takes (matches), the kinds
// of symptom they lead to, and, where a kind is too broad, which of its symptoms fit (nil: all);
// what says it in words, and confidence is the cause's when nothing speaks against it.
type mechanism struct {
	matches    func(change.Change) bool
	kinds      []string
	fits       func(analysis.Symptom) bool
	what       string
	confidence float64
}

// changeCauses builds one recent_change cause per change the mechanism matches, explaining the
// symptoms of its kinds of the workload's pods that began after it: the new pods' only, when
// the change says which ReplicaSet or controller-revision-hash runs the new template. Symptoms
// of the same workload and kinds that began before the change, or of its old pods, speak
// against it, and lower its confidence.
func changeCauses(in analysis.Input, symptoms []analysis.Symptom, mech mechanism) []analysis.Cause {
	if len(in.Changes()) == 0 {
		return nil
	}
	owners := replicaSetsOf(in)
	if owners == nil { // an Input not made by Run
		owners = replicaSetOwners(in.Model)
	}
	var out []analysis.Cause
	for _, ch := range in.Changes() {
		if !mech.matches(ch.Change) {
			continue
		}
		c := analysis.Cause{Kind: analysis.RecentChange, Role: analysis.Root, Confidence: mech.confidence, Components: []analysis.Component{},
			Evidence: []analysis.Evidence{citeChange(ch.Change)}, Changes: []string{ch.ID}}
		var against []analysis.Evidence
		for _, s := range symptoms {
			if !slices.Contains(mech.kinds, s.Kind) || mech.fits != nil && !mech.fits(s) {
				continue
			}
			p := podOf(in.Model, s)
			if p == nil {
				continue
			}
			w, ok := workloadOf(owners, p)
			if !ok || !w.of(ch.Change) {
				continue
			}
			switch {
			case before(s, ch.Change):
				against = append(against, beganBefore(s))
			case ch.ReplicaSet != "" && w.replicaSet != "" && w.replicaSet != ch.ReplicaSet:
				against = append(against, citeSymptom(s, fmt.Sprintf("%s is of a pod of the earlier template (ReplicaSet %s): something else made it", analysis.Mention(s.ID), w.replicaSet)))
			case ch.RevisionHash != "" && w.revisionHash != "" && w.revisionHash != ch.RevisionHash:
				against = append(against, citeSymptom(s, fmt.Sprintf("%s is of a pod of an earlier template (controller-revision-hash %s): something else made it", analysis.Mention(s.ID), w.revisionHash)))
			default:
				c.Explains = append(c.Explains, s.ID)
				if len(s.Evidence) > 0 {
					c.Evidence = append(c.Evidence, s.Evidence[0])
				}
			}
		}
		if len(c.Explains) == 0 {
			continue
		}
		c.Summary = fmt.Sprintf("%s %s/%s: %s changed from %s to %s, then %d of its pods' symptoms followed (%s)",
			ch.Kind, ch.Namespace, ch.Name, ch.Field, ch.Before, ch.After, len(c.Explains), mech.what)
		weigh(&c, against, "the status of the workload's pods of the earlier template after the change: if they failed the same way, the change is not the cause")
		out = append(out, c)
	}
	return out
}

// weigh puts what speaks against a change cause into its against list, lowering its
// confidence; or, when nothing does, says in missing what would.
func weigh(c *analysis.Cause, against []analysis.Evidence, wouldContradict string) {
	if len(against) > 0 {
		c.Confidence = min(c.Confidence, 0.4)
		c.Against = append(c.Against, against...)
		return
	}
	c.Missing = append(c.Missing, wouldContradict)
}

// citeSymptom is a symptom as evidence against a cause: where its first evidence points (the
// symptom's object when it has none), and why it speaks against the cause.
func citeSymptom(s analysis.Symptom, why string) analysis.Evidence {
	e := analysis.Evidence{Ref: s.Label()}
	if len(s.Objects) > 0 && s.Objects[0].Name != "" {
		e.Object = s.Objects[0]
	}
	if len(s.Evidence) > 0 {
		e = s.Evidence[0]
	}
	e.Field, e.Value, e.Condition = "symptom "+analysis.Mention(s.ID), why, ""
	return e
}

// beganBefore is a symptom that began before a change, as evidence against it.
func beganBefore(s analysis.Symptom) analysis.Evidence {
	return citeSymptom(s, fmt.Sprintf("%s began before the change (%s): something else made it", analysis.Mention(s.ID), s.At.Format(time.RFC3339)))
}
