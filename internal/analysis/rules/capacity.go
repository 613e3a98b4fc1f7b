package rules

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/signal"
)

// capacityRule finds capacity exhaustion: pods Pending because no node had the CPU or memory
// they request, with the shortfall per pool, and pods evicted from nodes whose memory was all
// but fully requested. It is the root cause when it explains the symptoms.
type capacityRule struct{}

func (capacityRule) Name() string { return "capacity-exhaustion" }

// poolLimitTags are the catalogue's tags of a provisioner saying a node pool reached its limits
// (Karpenter's "all available instance types exceed limits for nodepool").
var poolLimitTags = []string{"nodepool_limit_reached"}

// fullShare is the requested share of a node's allocatable above which the node is full.
const fullShare = 0.9

func (capacityRule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	m := in.Model
	c := analysis.Cause{Kind: analysis.CapacityExhaustion, Role: analysis.Root, Confidence: 0.4}
	pools := map[string]bool{}

	// Pending pods that did not fit; and, when the autoscaler said it could add no nodes,
	// pending pods whose scheduler message the input does not hold.
	limits := autoscalerLimits(m)
	pending, short := shortPending(in, &c, symptoms, limits)
	parts := shortParts(m, &c, pending, limits, pools)
	if len(limits) > 0 && len(pending) > 0 {
		c.Confidence += 0.1
	}
	if short > 0 {
		c.Confidence += 0.25
	}
	// Evictions and pressure on full nodes.
	parts = append(parts, fullNodes(m, &c, symptoms, pools)...)
	if len(c.Explains) == 0 {
		return nil
	}
	if len(m.Nodes) == 0 {
		c.Missing = append(c.Missing, "node objects (kubectl get nodes -o json): without them the shortfall cannot be computed")
	} else {
		c.Confidence += 0.15
	}
	c.Confidence = clamp(c.Confidence)
	c.Explains = analysis.Unique(c.Explains)
	for _, p := range slices.Sorted(maps.Keys(pools)) {
		if p != "" {
			c.Components = append(c.Components, analysis.Component{Kind: cluster.ComponentNodePool, Name: p})
		}
	}
	c.Summary = "the cluster ran out of requestable capacity: " + phrase.Parts(parts, "; ")
	weighNodeUse(in, &c, symptoms)
	return []analysis.Cause{c}
}

// shortPending are the pending symptoms short of capacity, which the cause explains and cites:
// the scheduler said nodes lacked room (short counts those), the kubelet found its node short,
// a provisioner said its pool was at its limits, or, when the autoscaler said it could add no
// nodes, the input holds no word of the scheduler. A pod no node could hold is not short of
// capacity.
func shortPending(in analysis.Input, c *analysis.Cause, symptoms []analysis.Symptom, limits []autoscalerNote) (pending []analysis.Symptom, short int) {
	m := in.Model
	largest := largestNode(m)
	for _, s := range symptoms {
		sch, _, ok := s.Scheduling()
		unknown := s.Kind == analysis.PodPending && !ok && len(limits) > 0
		admitted := s.Details.RefusedResource != "" // the kubelet found its node short (OutOfcpu)
		var pool analysis.Evidence
		limited := false
		if s.Kind == analysis.PodPending && !ok {
			// A provisioner's own words (Karpenter's): every instance type of the pool would
			// pass the pool's limits, so the pool could not grow for the pod.
			pool, _, limited = tagShown(in, s, poolLimitTags)
		}
		if !unknown && !admitted && !limited && (!ok || !insufficient(sch) || tooBig(m, largest, s)) {
			continue
		}
		if !unknown && (!admitted || limited || ok && insufficient(sch)) {
			// A kubelet's refusal alone (OutOfcpu) says the node the scheduler chose was short
			// by the kubelet's own count, not that no node had room: it adds no weight.
			short++
		}
		pending = append(pending, s)
		c.Explains = append(c.Explains, s.ID)
		c.Evidence = append(c.Evidence, s.Evidence[0])
		if limited && pool != s.Evidence[0] {
			c.Evidence = append(c.Evidence, pool)
		}
	}
	return pending, short
}

// shortParts says what the pending pods lacked: the autoscaler's limits, and each pool's
// shortfall (with a suggestion), or how many pods fit nowhere; the pools short are noted.
func shortParts(m *cluster.Model, c *analysis.Cause, pending []analysis.Symptom, limits []autoscalerNote, pools map[string]bool) []string {
	if len(pending) == 0 {
		return nil
	}
	var parts []string
	for _, l := range limits {
		c.Evidence = append(c.Evidence, l.ev)
		parts = append(parts, "the autoscaler could not add nodes: "+l.what)
		c.Components = appendComponent(c.Components, analysis.Component{Kind: cluster.ComponentAutoscaler, Name: "cluster-autoscaler"})
	}
	lack := shortfall(m, pending)
	for _, sh := range lack {
		pools[sh.pool] = true
		parts = append(parts, sh.String())
		if sg, ok := sh.suggestion(m, len(limits) > 0); ok {
			c.Suggestions = append(c.Suggestions, sg)
		}
	}
	if len(lack) == 0 {
		pods, refused := 0, map[string]int{}
		for _, s := range pending {
			if _, _, ok := s.Scheduling(); !ok && s.Details.RefusedResource != "" {
				refused[s.Details.RefusedResource] += max(len(s.Objects), 1)
				continue
			}
			pods += max(len(s.Objects), 1)
		}
		if pods > 0 {
			parts = append(parts, fmt.Sprintf("%s pod(s) did not fit on any node", phrase.Thousands(pods)))
		}
		for _, r := range slices.Sorted(maps.Keys(refused)) {
			parts = append(parts, fmt.Sprintf("%s pod(s) refused for lack of %s by the kubelet of the node the scheduler placed them on", phrase.Thousands(refused[r]), r))
		}
	}
	return parts
}

// fullNodes explains the evictions and pressure on nodes whose memory was (nearly) all
// requested, and says each node once; their pools are noted.
func fullNodes(m *cluster.Model, c *analysis.Cause, symptoms []analysis.Symptom, pools map[string]bool) []string {
	var parts []string
	noted := map[string]bool{} // nodes already described
	for _, t := range memoryTrouble(m, symptoms) {
		s, node, l := t.symptom, t.node, t.load
		cpu, mem := l.RequestedFraction()
		if mem < fullShare && !(s.Kind == analysis.PodEvicted && mem >= 0.8) {
			continue
		}
		c.Explains = append(c.Explains, s.ID)
		if !pools[l.Pool] && l.Pool != "" {
			pools[l.Pool] = true
		}
		note := fmt.Sprintf("node %s had %.0f%% of its CPU and %.0f%% of its memory requested", node.Name, cpu*100, mem*100)
		if !noted[node.Name] {
			noted[node.Name] = true
			c.Nodes = append(c.Nodes, node.Name)
			parts = append(parts, note)
			c.Evidence = append(c.Evidence, cite(node, "status.allocatable", fmt.Sprintf("%s; requested by %d pods: %s", note, len(l.Pods), topPods(m, l, 3))))
		}
		c.Confidence += 0.1
	}
	return parts
}

// weighNodeUse cites what the full nodes of the cause actually used, when the input holds node
// metrics (node_exporter's, else cAdvisor's root cgroup): memory and CPU in use at their peak over the symptoms, against the
// node's allocatable. Requests decide scheduling, so use neither confirms nor refutes a pending
// pod's shortfall; it says whether the nodes were full in fact as well as on paper.
func weighNodeUse(in analysis.Input, c *analysis.Cause, symptoms []analysis.Symptom) {
	from, to, ok := symptomSpan(in, symptoms, c.Explains)
	if !ok {
		return
	}
	for _, name := range c.Nodes {
		node := in.Model.Node(name)
		if node == nil {
			continue
		}
		alloc := in.Model.Load(node).Allocatable
		if top, best, ok := highest(nodeUse(in, queryNodeMemory, queryNodeMemoryCA, node), from, to); ok && alloc.Memory > 0 {
			c.Evidence = append(c.Evidence, citeMetric(top, fmt.Sprintf("node %s had %s of memory in use at %s, %s of its allocatable %s",
				name, memString(int64(best.Value)), hhmm(best.At), pct(best.Value/float64(alloc.Memory)), memString(alloc.Memory))))
		}
		if top, best, ok := highest(nodeUse(in, queryNodeCPU, queryNodeCPUCA, node), from, to); ok && alloc.MilliCPU > 0 {
			used := int64(best.Value * 1000)
			c.Evidence = append(c.Evidence, citeMetric(top, fmt.Sprintf("node %s had %s CPU in use at %s, %s of its allocatable %s",
				name, cpuString(used), hhmm(best.At), pct(float64(used)/float64(alloc.MilliCPU)), cpuString(alloc.MilliCPU))))
		}
	}
}

// insufficient reports whether a scheduling failure was for lack of CPU, memory or pods.
func insufficient(s signal.Scheduling) bool {
	for _, r := range s.Reasons {
		if c := r.Class(); c == signal.ClassInsufficient || c == signal.ClassTooManyPods {
			return true
		}
	}
	return false
}

// poolShortfall is what one pool lacked for the pods waiting for it.
type poolShortfall struct {
	pool    string
	pods    int
	lack    cluster.Resources
	pending cluster.Resources
}

func (p poolShortfall) String() string {
	var lacks []string
	if p.lack.MilliCPU > 0 {
		lacks = append(lacks, fmt.Sprintf("%s CPU", cpuString(p.lack.MilliCPU)))
	}
	if p.lack.Memory > 0 {
		lacks = append(lacks, memString(p.lack.Memory)+" of memory")
	}
	return fmt.Sprintf("pool %s lacked %s for %d pending pods", p.pool, strings.Join(lacks, " and "), p.pods)
}

// suggestion says how many nodes of the pool's usual shape would have held the pods that
// waited for it, from that node's allocatable.
func (p poolShortfall) suggestion(m *cluster.Model, atLimit bool) (analysis.Suggestion, bool) {
	alloc, node := poolShape(m, p.pool)
	n := nodesToHold(p.lack, alloc)
	if node == nil || n == 0 {
		return analysis.Suggestion{}, false
	}
	like := node.Name
	if t := cluster.InstanceType(node.Node.Labels); t != "" {
		like += " (" + t + ")"
	}
	change := fmt.Sprintf("pool %s needed %d more node(s) like %s, with %s CPU and %s allocatable each, to hold the %d pods that waited for it",
		p.pool, n, like, cpuString(alloc.MilliCPU), memString(alloc.Memory), p.pods)
	if atLimit {
		change += fmt.Sprintf("; the autoscaler was at its limit, so raise the node group's maximum size by at least %d", n)
	}
	return analysis.Suggestion{Change: change, Evidence: []analysis.Evidence{cite(node, "status.allocatable",
		fmt.Sprintf("%s CPU, %s memory", cpuString(alloc.MilliCPU), memString(alloc.Memory)))},
		Action: analysis.ActionAddNodes, Targets: []analysis.ObjectRef{{Kind: cluster.ComponentNodePool, Name: p.pool}}, Nodes: n}, true
}

// shortfall works out, for the pending pods the model holds, which pool they wait for (the
// pool whose nodes match their node selector) and how much it lacked: their requests less what
// the pool's Ready nodes had free.
func shortfall(m *cluster.Model, pending []analysis.Symptom) []poolShortfall {
	by := map[string]*poolShortfall{}
	loads := map[string]cluster.PoolLoad{}
	for _, p := range m.Pools() {
		loads[p.Pool] = p
	}
	for _, s := range pending {
		for _, ref := range s.Objects {
			p := m.Pod(ref.Namespace, ref.Name)
			if p == nil {
				continue
			}
			pool := poolFor(m, p)
			if pool == "" {
				continue
			}
			sh, ok := by[pool]
			if !ok {
				sh = &poolShortfall{pool: pool}
				by[pool] = sh
			}
			sh.pods++
			sh.pending = sh.pending.Add(m.PodRequests(p))
		}
	}
	var out []poolShortfall
	for _, pool := range slices.Sorted(maps.Keys(by)) {
		sh := by[pool]
		free := loads[pool].Free()
		sh.lack = cluster.Resources{MilliCPU: max(sh.pending.MilliCPU-max(free.MilliCPU, 0), 0), Memory: max(sh.pending.Memory-max(free.Memory, 0), 0)}
		if sh.lack.MilliCPU > 0 || sh.lack.Memory > 0 {
			out = append(out, *sh)
		}
	}
	return out
}

// poolFor returns the pool the pod's nodeSelector, required node affinity and tolerations
// send it to (cluster.Model.PoolFor: the scheduler's own rules).
func poolFor(m *cluster.Model, p *cluster.Object) string {
	return m.PoolFor(p)
}

func topPods(m *cluster.Model, l cluster.NodeLoad, n int) string {
	var names []string
	for i, p := range l.Pods {
		if i == n {
			break
		}
		r := m.PodRequests(p)
		names = append(names, fmt.Sprintf("%s/%s (%s CPU, %s)", p.Namespace, p.Name, cpuString(r.MilliCPU), memString(r.Memory)))
	}
	return strings.Join(names, ", ")
}

func cpuString(milli int64) string {
	if milli%1000 == 0 {
		return fmt.Sprintf("%d", milli/1000)
	}
	if milli >= 1000 {
		return fmt.Sprintf("%.1f", float64(milli)/1000)
	}
	return fmt.Sprintf("%dm", milli)
}

func memString(b int64) string {
	const gi = 1 << 30
	if b == 0 {
		return "0"
	}
	if b >= gi {
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(b)/gi), ".0") + "Gi"
	}
	return fmt.Sprintf("%dMi", b>>20)
}

// tooBig reports whether every pod of a pending symptom that the model holds asks more than a
// node can give (requestExceedsNodeRule's case).
func tooBig(m *cluster.Model, largest cluster.Resources, s analysis.Symptom) bool {
	n := 0
	for _, ref := range s.Objects {
		p := m.Pod(ref.Namespace, ref.Name)
		if p == nil {
			return false
		}
		if _, ok := exceedsNode(m, largest, p, s); !ok {
			return false
		}
		n++
	}
	return n > 0
}

// appendComponent adds a component once.
func appendComponent(cs []analysis.Component, c analysis.Component) []analysis.Component {
	for _, have := range cs {
		if have == c {
			return cs
		}
	}
	return append(cs, c)
}
