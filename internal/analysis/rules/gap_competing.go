package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// competingGap says what would decide between explanations that compete for the trouble of
// critical pods: memory (an eviction or OOM kill on a crowded node) against CPU (a liveness
// probe starved of CPU), as in IL-0070; or a restart whose reason the input does not hold. It
// asks only for the evidence the input lacks: a liveness failure already seen in Unhealthy
// and Killing events is not asked for again.
type competingGap struct{}

func (competingGap) Name() string { return "competing-causes" }

// memoryCauses and cpuCauses are the explanations that compete.
var (
	memoryCauses = []string{analysis.CapacityExhaustion, analysis.SharedPrometheus, analysis.MemoryOverRequest, analysis.SharedNodePool}
	cpuCauses    = []string{analysis.CPUStarvation}
)

func (competingGap) Gaps(in analysis.Input, r *analysis.Report) []analysis.Gap {
	explains := func(kinds []string, id string) bool {
		for _, c := range r.Causes {
			if slices.Contains(kinds, c.Kind) && slices.Contains(c.Explains, id) {
				return true
			}
		}
		return false
	}
	var gaps []analysis.Gap
	seen := map[*cluster.Object]bool{}
	for _, s := range r.Symptoms {
		memory, cpu := explains(memoryCauses, s.ID), explains(cpuCauses, s.ID)
		restart := s.Kind == analysis.ContainerRestarted
		if !(memory && cpu) && !restart {
			continue
		}
		var pods []*cluster.Object
		for _, p := range symptomPods(in.Model, s) {
			if !seen[p] && in.Critical(p) && (memory && cpu || !hasKindFor(r, p.Namespace, p.Name, analysis.LivenessProbeFailed, analysis.OOMKilled, analysis.PodEvicted)) {
				seen[p] = true
				pods = append(pods, p)
			}
		}
		if len(pods) == 0 {
			continue
		}
		who := podPhrase(pods[0].Namespace + "/" + pods[0].Name)
		if len(pods) > 1 {
			who = fmt.Sprintf("%d critical pods (%s)", len(pods), phrase.First(workloadsOf(pods), 3))
		}
		decide := wouldDecide(in, r, pods)
		if decide == "" {
			continue // the input holds all that would decide: the causes cite it
		}
		if memory && cpu {
			gaps = append(gaps, analysis.Gap{Kind: analysis.GapCompetingCauses, Summary: fmt.Sprintf("%s (%s): explained both by memory (a crowded node) and by CPU starvation; %s", who, s.ID, decide)})
		} else {
			gaps = append(gaps, analysis.Gap{Kind: analysis.GapRestartUnexplained, Summary: fmt.Sprintf("%s (%s): restarted, but the input holds no probe failure, eviction or OOM kill for it; %s", who, s.ID, decide)})
		}
	}
	return gaps
}

// symptomPods are the pods of a symptom the model holds.
func symptomPods(m *cluster.Model, s analysis.Symptom) []*cluster.Object {
	var out []*cluster.Object
	for _, ref := range s.Objects {
		if ref.Kind == cluster.KindPod {
			if p := m.Pod(ref.Namespace, ref.Name); p != nil {
				out = append(out, p)
			}
		}
	}
	if len(out) == 0 && s.Pod != nil {
		out = append(out, s.Pod)
	}
	return out
}

func workloadsOf(pods []*cluster.Object) []string {
	var out []string
	for _, p := range pods {
		out = appendUnique(out, workloadPhrase(p))
	}
	return out
}

// wouldDecide says what evidence would decide between the explanations of the pods' trouble,
// leaving out what the input holds for every one of them.
func wouldDecide(in analysis.Input, r *analysis.Report, pods []*cluster.Object) string {
	var evicted, oom, probe, termination int
	for _, p := range pods {
		if hasKindFor(r, p.Namespace, p.Name, analysis.PodEvicted) {
			evicted++
		}
		if hasKindFor(r, p.Namespace, p.Name, analysis.OOMKilled) {
			oom++
		}
		if hasKindFor(r, p.Namespace, p.Name, analysis.LivenessProbeFailed) {
			probe++
		}
		for _, cs := range cluster.ContainerStatuses(p.Pod) {
			if cs.LastTerminationState.Terminated != nil || cs.State.Terminated != nil {
				termination++
				break
			}
		}
	}
	n := len(pods)
	var items []string
	if evicted < n && oom < n && termination < n {
		// A termination reason the input holds already says whether memory killed it.
		items = append(items, "an Evicted event or an OOMKilled termination reason (events are kept for an hour, so capture them while they last)")
	}
	if probe < n {
		items = append(items, "Unhealthy and Killing events of the liveness probe")
	}
	if termination < n {
		items = append(items, "the container's last termination reason and exit code (137 after a Killing event means the probe; OOMKilled means memory)")
	}
	var memory, cpu int
	for _, p := range pods {
		if len(podSeries(in, queryContainerMem, p, "")) > 0 {
			memory++
		}
		if len(podSeries(in, queryThrottling, p, ""))+len(podSeries(in, queryContainerCPU, p, "")) > 0 {
			cpu++
		}
	}
	switch {
	case memory == n && cpu == n:
		// The metrics answer it: the causes cite them.
	case memory == n:
		items = append(items, "the pod's CPU use and throttling over the incident (the metrics read hold its memory only)")
	case cpu == n:
		items = append(items, "the pod's memory use over the incident (the metrics read hold its CPU only)")
	default:
		items = append(items, "the pod's memory use and CPU throttling over the incident (the input holds no metrics of it)")
	}
	if len(items) == 0 {
		return ""
	}
	return "what would decide: " + strings.Join(items, ", ")
}

func hasKindFor(r *analysis.Report, namespace, name string, kinds ...string) bool {
	for _, s := range r.Symptoms {
		if !slices.Contains(kinds, s.Kind) {
			continue
		}
		for _, o := range s.Objects {
			if o.Namespace == namespace && o.Name == name {
				return true
			}
		}
	}
	return false
}
