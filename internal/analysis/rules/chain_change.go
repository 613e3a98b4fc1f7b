package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/change"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// changeLink starts the chain at a change: a recent_change cause and a cause that plainly
// shows how the same symptoms came about (the image could not be pulled, the containers were
// killed at their limit, no node matched the selector) tell one story, in which the change came
// first. The change links to that cause, saying how it led to it, and the cause is no longer a
// root of its own (changeRoles).
//
// Preconditions, all of them, for an edge from change cause X to cause Y:
//   - X and Y explain a symptom in common. A recent_change cause explains only symptoms begun
//     after it of the pods it touched (its workload's new pods, the pods on or waiting for its
//     node, the critical pods its heavy pods were moved beside), so they are about the same pods;
//   - the change is of a field that leads to Y's kind (changeLeads gives a reason for it): a
//     probe tightened does not make CPU starve, a lowered memory limit does not make an image
//     unpullable;
//   - Y is not a root: every symptom Y explains is explained by changes that lead to it, or Y
//     is contributing of its own kind (cpu_starvation, shared_node_pool). A root cause that
//     also explains symptoms no change does (an image no pod of any revision could pull) stays
//     a root beside the change, unlinked: it is not split.
type changeLink struct{}

func (changeLink) Name() string { return "recent-change" }

func (changeLink) Links(_ analysis.Input, r *analysis.Report) []analysis.Edge {
	var out []analysis.Edge
	for _, l := range changeLeadsIn(r) {
		if y := r.Causes[l.led]; y.Role != analysis.Root {
			out = append(out, analysis.Edge{From: r.Causes[l.change].ID, To: y.ID, Why: l.why})
		}
	}
	return out
}

// changeRoles makes contributing each root cause whose every symptom is explained by changes
// that lead to it (changeLink's preconditions): the change is the root, and the cause how it
// hurt. It runs on the causes as the rules found them, before they are ordered and linked.
type changeRoles struct{}

func (changeRoles) Name() string { return "recent-change-roles" }

func (changeRoles) Amend(_ analysis.Input, r *analysis.Report) {
	covered := map[int]map[string]bool{}
	for _, l := range changeLeadsIn(r) {
		if covered[l.led] == nil {
			covered[l.led] = map[string]bool{}
		}
		for _, id := range r.Causes[l.change].Explains {
			covered[l.led][id] = true
		}
	}
	for i, ids := range covered {
		y := &r.Causes[i]
		if y.Role == analysis.Root && !slices.ContainsFunc(y.Explains, func(id string) bool { return !ids[id] }) {
			y.Role = analysis.Contributing
		}
	}
}

// changeLead is a recent_change cause (by index) that leads to another cause, and how.
type changeLead struct {
	change, led int
	why         string
}

// changeLeadsIn finds, for each recent_change cause, the causes of other kinds that explain a
// symptom it explains and that its change leads to.
func changeLeadsIn(r *analysis.Report) []changeLead {
	changes := map[string]change.Change{}
	for _, c := range r.Changes {
		changes[c.ID] = c.Change
	}
	var out []changeLead
	for i, x := range r.Causes {
		if x.Kind != analysis.RecentChange {
			continue
		}
		for j, y := range r.Causes {
			lead, ok := changeLeads[y.Kind]
			if !ok || !slices.ContainsFunc(y.Explains, func(id string) bool { return slices.Contains(x.Explains, id) }) {
				continue
			}
			for _, id := range x.Changes {
				ch, ok := changes[id]
				if !ok {
					continue
				}
				if why := lead(ch, y); why != "" {
					out = append(out, changeLead{change: i, led: j, why: why})
					break
				}
			}
		}
	}
	return out
}

// changeLeads says, for each kind of cause a change may lead to, how a change led to it, or ""
// when a change of that field (or, for shared_prometheus, of that workload: the Prometheus the
// cause names) does not lead to such a cause.
var changeLeads = map[string]func(c change.Change, led analysis.Cause) string{
	analysis.ImageUnavailable: func(c change.Change, _ analysis.Cause) string {
		if c.Path.Attr == change.Image {
			return fmt.Sprintf("the new image %s could not be pulled", c.After)
		}
		return ""
	},
	analysis.ContainerStartFailure: func(c change.Change, _ analysis.Cause) string {
		if c.Path.Attr == change.Image {
			return fmt.Sprintf("the new image %s does not start", c.After)
		}
		return ""
	},
	analysis.MemoryLimitTooLow: func(c change.Change, _ analysis.Cause) string {
		if lowered(c) {
			return fmt.Sprintf("the containers were OOM-killed at the memory limit the change set (%s, was %s)", c.After, c.Before)
		}
		return ""
	},
	analysis.CPUStarvation: func(c change.Change, _ analysis.Cause) string {
		if cutCPU(c) {
			return fmt.Sprintf("the change cut the pods' CPU (%s: %s → %s), so on a busy node they got too little to answer their probes", c.Path.Short(), c.Before, c.After)
		}
		return ""
	},
	analysis.SchedulingConstraints: func(c change.Change, _ analysis.Cause) string {
		if placement(c) {
			return fmt.Sprintf("the new %s (%s) is matched by no node the new pods may run on", c.Path.Short(), c.After)
		}
		if gained := gainedTaints(c); len(gained) > 0 {
			var ts []string
			for _, t := range gained {
				ts = append(ts, t.ToString())
			}
			return fmt.Sprintf("node %s gained the taint %s, which the pods do not tolerate", c.Name, strings.Join(ts, ", "))
		}
		return ""
	},
	analysis.SharedNodePool: func(c change.Change, _ analysis.Cause) string {
		if placement(c) {
			return fmt.Sprintf("the new %s of %s %s/%s (%s) sent its heavy pods onto the nodes of the critical pods", c.Path.Short(), c.Kind, c.Namespace, c.Name, c.After)
		}
		return ""
	},
	analysis.SharedPrometheus: func(c change.Change, led analysis.Cause) string {
		if placement(c) && slices.Contains(led.Components, analysis.Component{Kind: cluster.ComponentPrometheus, Name: c.Name}) {
			return fmt.Sprintf("the new %s of %s %s/%s (%s) sent it onto the node of the critical pods", c.Path.Short(), c.Kind, c.Namespace, c.Name, c.After)
		}
		return ""
	},
	analysis.CapacityExhaustion: func(c change.Change, _ analysis.Cause) string {
		switch {
		case removed(c):
			was := "present"
			if c.Was.Pool != "" {
				was = "in pool " + c.Was.Pool
			}
			return fmt.Sprintf("node %s went (it was %s), and what was left had no room for the pods waiting", c.Name, was)
		case cordoned(c):
			return fmt.Sprintf("node %s was cordoned, and the nodes left had no room for the pods waiting", c.Name)
		}
		return ""
	},
}
