package rules

import (
	"fmt"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	vocab "github.com/rootline-dev/rootline/internal/kinds"
)

// notReadyTaints are the taints new nodes carry until their kubelet and network are up.
var notReadyTaints = map[string]bool{"node.kubernetes.io/not-ready": true, "node.kubernetes.io/network-unavailable": true,
	"node.kubernetes.io/unreachable": true, "node.cloudprovider.kubernetes.io/uninitialized": true}

// scaleUpNotReadyRule finds pods kept Pending during a scale-up by the not-ready taints of the
// nodes being added: capacity was on its way, but not yet schedulable.
type scaleUpNotReadyRule struct{}

func (scaleUpNotReadyRule) Name() string { return "scale-up-not-ready" }

// notArrivedAfter is how long a scale-up may wait for its nodes before they count as not
// arriving: a cloud VM is usually up and joined in a few minutes.
const notArrivedAfter = 10 * time.Minute

func (scaleUpNotReadyRule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	scaleUp, up := "", analysis.Symptom{}
	for _, s := range symptoms {
		if s.Kind == analysis.ScaleUp {
			scaleUp, up = s.ID, s
		}
	}
	if scaleUp == "" {
		return nil // without a scale-up, a not-ready node is just that (node_not_ready)
	}
	c := analysis.Cause{Kind: analysis.ScaleUpNotReady, Role: analysis.Contributing, Confidence: 0.5, Components: []analysis.Component{}}
	var stuck []string
	for _, g := range requestedGroups(in.Model) {
		w := g.waited()
		if g.backoff == "" && w < notArrivedAfter {
			continue
		}
		why := fmt.Sprintf("after %s only %d of %d nodes of group %s were ready", phrase.Duration(int(w.Seconds())), g.ready, g.target, shortGroup(g.name))
		if g.backoff != "" {
			why = fmt.Sprintf("the autoscaler backed off growing group %s (%s) with %d of %d nodes ready", shortGroup(g.name), g.backoff, g.ready, g.target)
		}
		stuck = append(stuck, why)
		c.Evidence = append(c.Evidence, cite(g.obj, "data.status", g.line))
	}
	for _, f := range failedScaleUps(in.Model) {
		stuck = append(stuck, f.what)
		c.Evidence = append(c.Evidence, f.ev)
	}
	if len(stuck) > 0 {
		c.Role, c.Confidence = analysis.Root, 0.7
		c.Explains = append(c.Explains, scaleUp)
		c.Missing = []string{"the cloud provider's side: quota, capacity of the instance type in the zone, or nodes failing to join (the autoscaler's log, the node group's activity)"}
	}
	most := 0
	for _, s := range symptoms {
		sch, _, ok := s.Scheduling()
		if !ok {
			continue
		}
		n := 0
		for _, r := range sch.Reasons {
			if t, ok := r.Taint(); ok && notReadyTaints[t.Key] {
				n += r.Count
			}
		}
		if n == 0 {
			continue
		}
		most = max(most, n)
		c.Explains = append(c.Explains, s.ID)
		c.Evidence = append(c.Evidence, s.Evidence[0])
	}
	if len(c.Explains) == 0 {
		return nil
	}
	if len(stuck) == 0 {
		c.Confidence += 0.3 // not-ready taints while nodes were being added
	} else if most > 0 {
		c.Confidence += 0.1 // and pods waited for them
	}
	c.Evidence = append(c.Evidence, up.Evidence[0])
	var parts []string
	if most > 0 {
		parts = append(parts, fmt.Sprintf("up to %d nodes still carried not-ready taints while pods waited for them during the scale-up (%s)", most, analysis.Mention(scaleUp)))
	}
	if len(stuck) > 0 {
		parts = append(parts, "the nodes the scale-up ("+analysis.Mention(scaleUp)+") asked for did not arrive: "+strings.Join(stuck, "; "))
	}
	c.Summary = strings.Join(parts, "; ")
	c.Follows = []string{scaleUp}
	c.FollowWhy = "the nodes a scale-up adds carry not-ready taints until their kubelet and network are up, so pods wait for capacity already on its way"
	if len(stuck) > 0 {
		c.FollowWhy = "the nodes the scale-up asked for did not arrive"
	}
	c.Components = append(c.Components, analysis.Component{Kind: vocab.Autoscaler, Name: "cluster-autoscaler"})
	c.Confidence = clamp(c.Confidence)
	return []analysis.Cause{c}
}
