package rules

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// sharedPoolRule finds critical pods that shared a node with heavy ones when they suffered:
// the pool that mixes them lets a heavy neighbour take what the critical pod needs.
type sharedPoolRule struct{}

func (sharedPoolRule) Name() string { return "shared-node-pool" }

// sufferings are the symptom kinds a critical pod shows when its node is contended.
var sufferings = map[string]bool{analysis.PodEvicted: true, analysis.OOMKilled: true, analysis.LivenessProbeFailed: true,
	analysis.ReadinessProbeFailed: true, analysis.StartupProbeFailed: true, analysis.ContainerRestarted: true, analysis.CrashLoopBackOff: true}

func (sharedPoolRule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	m := in.Model
	c := analysis.Cause{Kind: analysis.SharedNodePool, Role: analysis.Contributing, Confidence: 0.5}
	pools, heavies := map[string]bool{}, map[string]analysis.Component{}
	mixes := map[string]*poolMix{}
	var parts []string
	for _, s := range symptoms {
		if !sufferings[s.Kind] {
			continue
		}
		pod, node := podOf(m, s), m.Node(nodeOf(m, s))
		if pod == nil || node == nil || !in.Critical(pod) {
			continue
		}
		l := m.Load(node)
		var hs []string
		for _, o := range l.Pods {
			if o != pod && heavy(in, o, l) {
				r := m.PodRequests(o)
				hs = append(hs, fmt.Sprintf("%s/%s (%s CPU, %s)", o.Namespace, o.Name, cpuString(r.MilliCPU), memString(r.Memory)))
				if comp := in.Component(o); comp != "" {
					heavies[comp] = analysis.Component{Kind: comp, Name: cluster.WorkloadName(o.Pod)}
				}
			}
		}
		if len(hs) == 0 {
			continue
		}
		c.Explains = append(c.Explains, s.ID)
		c.Nodes = append(c.Nodes, node.Name)
		pools[l.Pool] = true
		part := fmt.Sprintf("%s %s/%s shared node %s (pool %s) with %s", strings.ToLower(in.Component(pod)), pod.Namespace, pod.Name, node.Name, l.Pool, strings.Join(hs, ", "))
		parts = append(parts, strings.TrimSpace(part))
		c.Evidence = append(c.Evidence, cite(pod, "spec.nodeName", node.Name), cite(node, "pods", strings.Join(hs, ", ")))
		mix := mixes[l.Pool]
		if mix == nil {
			mix = &poolMix{}
			mixes[l.Pool] = mix
			mix.evidence = c.Evidence[len(c.Evidence)-2:]
		}
		if w := workloadPhrase(pod); !mix.seen[w] {
			mix.critical = append(mix.critical, w)
			mix.note(w)
		}
		for _, o := range l.Pods {
			if o != pod && heavy(in, o, l) {
				if w := workloadPhrase(o); !mix.seenHeavy[w] {
					mix.heavy = append(mix.heavy, w)
					mix.targets = append(mix.targets, workloadRef(o))
					mix.noteHeavy(w)
				}
			}
		}
		c.Confidence += 0.1
	}
	if len(c.Explains) == 0 {
		return nil
	}
	for _, p := range slices.Sorted(maps.Keys(pools)) {
		c.Components = append(c.Components, analysis.Component{Kind: cluster.ComponentNodePool, Name: p})
	}
	for _, k := range slices.Sorted(maps.Keys(heavies)) {
		c.Components = append(c.Components, heavies[k])
	}
	for _, p := range slices.Sorted(maps.Keys(mixes)) {
		mix := mixes[p]
		c.Suggestions = append(c.Suggestions, analysis.Suggestion{Change: fmt.Sprintf("keep the heavy pods (%s) off the nodes of the critical ones (%s) in pool %s: a pool of their own, or podAntiAffinity between them",
			phrase.First(mix.heavy, 4), phrase.First(mix.critical, 4), p), Evidence: mix.evidence, Action: analysis.ActionIsolate, Targets: mix.targets})
	}
	c.Confidence = clamp(c.Confidence)
	c.Explains, c.Nodes = analysis.Unique(c.Explains), analysis.Unique(c.Nodes)
	c.Summary = "critical and heavy pods shared a node pool: " + phrase.Parts(analysis.Unique(parts), "; ")
	return []analysis.Cause{c}
}

// poolMix is what a pool mixes: the workloads of critical pods and of heavy pods beside them.
type poolMix struct {
	critical, heavy []string
	targets         []analysis.ObjectRef // the heavy workloads, as objects
	evidence        []analysis.Evidence
	// seen and seenHeavy are critical and heavy as sets: a pool of thousands of pods has as
	// many workloads, and looking each up in the lists was quadratic.
	seen, seenHeavy map[string]bool
}

func (m *poolMix) note(w string) {
	if m.seen == nil {
		m.seen = map[string]bool{}
	}
	m.seen[w] = true
}

func (m *poolMix) noteHeavy(w string) {
	if m.seenHeavy == nil {
		m.seenHeavy = map[string]bool{}
	}
	m.seenHeavy[w] = true
}
