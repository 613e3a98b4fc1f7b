package analysis

import (
	"fmt"
	"slices"
	"strings"
)

// competingGap says what would decide between explanations that compete for one symptom of a
// critical pod: memory (an eviction or OOM kill on a crowded node) against CPU (a liveness
// probe starved of CPU), as in IL-0070; or a restart whose reason the input does not hold.
type competingGap struct{}

func (competingGap) Name() string { return "competing-causes" }

// decide says what evidence would decide between the explanations of a pod's trouble.
func decide(pod string) string {
	return "what would decide: an Evicted event or an OOMKilled termination reason for the container of " + strings.TrimPrefix(pod, "/") +
		" (events are kept for an hour, so capture them while it lasts), Unhealthy and Killing events for its liveness probe, " +
		"the container's last termination reason and exit code (137 after a Killing event means the probe), " +
		"and the pod's memory use and CPU throttling over the incident"
}

func (competingGap) Gaps(in Input, r *Report) []Gap {
	m := in.Model
	explains := func(kinds []string, id string) bool {
		for _, c := range r.Causes {
			if slices.Contains(kinds, c.Kind) && slices.Contains(c.Explains, id) {
				return true
			}
		}
		return false
	}
	var gaps []Gap
	seen := map[string]bool{}
	for _, s := range r.Symptoms {
		p := podOf(m, s)
		if p == nil || !critical(in, p) || seen[p.Namespace+"/"+p.Name] {
			continue
		}
		memory := explains([]string{CapacityExhaustion, SharedPrometheus, MemoryOverRequest, SharedNodePool}, s.ID)
		cpu := explains([]string{CPUStarvation}, s.ID)
		switch {
		case memory && cpu:
			seen[p.Namespace+"/"+p.Name] = true
			gaps = append(gaps, Gap{Kind: "competing_causes", Summary: fmt.Sprintf("%s (%s) is explained both by memory (a crowded node) and by CPU starvation; %s", podPhrase(p.Namespace+"/"+p.Name), s.ID, decide(p.Namespace+"/"+p.Name))})
		case s.Kind == ContainerRestarted && !hasKindFor(r, p.Namespace, p.Name, LivenessProbeFailed, OOMKilled, PodEvicted):
			seen[p.Namespace+"/"+p.Name] = true
			gaps = append(gaps, Gap{Kind: "restart_unexplained", Summary: fmt.Sprintf("%s restarted (%s) but the input holds no probe failure, eviction or OOM kill for it; %s", podPhrase(p.Namespace+"/"+p.Name), s.ID, decide(p.Namespace+"/"+p.Name))})
		}
	}
	return gaps
}

func hasKindFor(r *Report, namespace, name string, kinds ...string) bool {
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
