package rules

import (
	"fmt"
	"strings"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/change"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// movedNeighbourRule: a heavy workload's node selector, affinity or tolerations changed, and its
// pods of the new template then ran on the node of a critical pod that suffered (evicted,
// OOM-killed, failing its probes, restarting) or on a node under pressure: the change brought
// the heavy neighbour that shared_node_pool and shared_prometheus find beside the critical pod.
// The changed workload's own pods are matched by workload, as changeCauses does; the symptoms
// they led to are other pods', matched by node.
type movedNeighbourRule struct{}

func (movedNeighbourRule) Name() string { return "recent-change-heavy-neighbour" }

func (movedNeighbourRule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	if len(in.Changes()) == 0 {
		return nil
	}
	owners := replicaSetsOf(in)
	if owners == nil { // an Input not made by Run
		owners = replicaSetOwners(in.Model)
	}
	m := in.Model
	var out []analysis.Cause
	for _, ch := range in.Changes() {
		if !placement(ch.Change) {
			continue
		}
		c := analysis.Cause{Kind: analysis.RecentChange, Role: analysis.Root, Confidence: 0.6, Components: []analysis.Component{},
			Evidence: []analysis.Evidence{citeChange(ch.Change)}, Changes: []string{ch.ID}}
		var against []analysis.Evidence
		var moved []string
		for _, s := range symptoms {
			if !sufferings[s.Kind] && s.Kind != analysis.NodePressure {
				continue
			}
			node := m.Node(nodeOf(m, s))
			victim := podOf(m, s)
			if node == nil || s.Kind != analysis.NodePressure && (victim == nil || !in.Critical(victim)) {
				continue
			}
			heavies := movedHeavies(in, owners, ch.Change, node, victim)
			if len(heavies) == 0 {
				continue
			}
			if before(s, ch.Change) {
				against = append(against, beganBefore(s))
				continue
			}
			c.Explains = append(c.Explains, s.ID)
			c.Nodes = appendUnique(c.Nodes, node.Name)
			for _, h := range heavies {
				moved = appendUnique(moved, h.Namespace+"/"+h.Name+" on node "+node.Name)
				c.Evidence = append(c.Evidence, cite(h, "spec.nodeName", node.Name))
			}
			if len(s.Evidence) > 0 {
				c.Evidence = append(c.Evidence, s.Evidence[0])
			}
		}
		if len(c.Explains) == 0 {
			continue
		}
		c.Summary = fmt.Sprintf("%s %s/%s: %s changed from %s to %s, and its heavy pods then ran beside critical ones (%s), whose %d symptom(s) followed",
			ch.Kind, ch.Namespace, ch.Name, ch.Field, ch.Before, ch.After, strings.Join(moved, ", "), len(c.Explains))
		weigh(&c, against, "where the workload's pods of the earlier template ran: if they already shared the critical pods' nodes, the change did not bring them")
		out = append(out, c)
	}
	return out
}

// movedHeavies lists the heavy pods on a node that the change placed there: pods of the changed
// workload, of its new template (its ReplicaSet or controller-revision-hash, when the change
// says which; else made after the change began), other than the victim.
func movedHeavies(in analysis.Input, owners map[string]string, ch change.Change, node, victim *cluster.Object) []*cluster.Object {
	l := in.Model.Load(node)
	var out []*cluster.Object
	for _, o := range l.Pods {
		if o == victim || !heavy(in, o, l) {
			continue
		}
		w, ok := workloadOf(owners, o)
		if !ok || !w.of(ch) {
			continue
		}
		switch {
		case ch.ReplicaSet != "":
			ok = w.replicaSet == ch.ReplicaSet
		case ch.RevisionHash != "":
			ok = w.revisionHash == ch.RevisionHash
		default:
			start := ch.Since
			if start.IsZero() {
				start = ch.Until
			}
			ok = !start.IsZero() && !o.Pod.CreationTimestamp.Time.Before(start)
		}
		if ok {
			out = append(out, o)
		}
	}
	return out
}
