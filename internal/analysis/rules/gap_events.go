package rules

import (
	"fmt"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// eventsGap reports missing events: none at all, or none from before the API server's
// retention window when the pods' own status records earlier trouble (a restart, an
// eviction, a termination) that events would have explained.
type eventsGap struct{}

func (eventsGap) Name() string { return "events-missing" }

func (eventsGap) Gaps(in analysis.Input, r *analysis.Report) []analysis.Gap {
	m := in.Model
	ttl := in.Options.EventTTL
	var oldest time.Time
	for _, e := range m.Events {
		_, first, _ := cluster.EventTimes(e.Event)
		if oldest.IsZero() || first.Before(oldest) {
			oldest = first
		}
	}
	// The earliest trouble the pods' status records.
	var trouble time.Time
	var what string
	for _, p := range m.Pods {
		for _, cs := range cluster.ContainerStatuses(p.Pod) {
			if t := cs.LastTerminationState.Terminated; t != nil && !t.FinishedAt.IsZero() {
				if trouble.IsZero() || t.FinishedAt.Time.Before(trouble) {
					trouble, what = t.FinishedAt.Time, fmt.Sprintf("container %s of %s/%s ended (%s, exit code %d)", cs.Name, p.Namespace, p.Name, t.Reason, t.ExitCode)
				}
			}
		}
		if c := disruption(p.Pod); c != nil && !c.LastTransitionTime.IsZero() && (trouble.IsZero() || c.LastTransitionTime.Time().Before(trouble)) {
			trouble, what = c.LastTransitionTime.Time(), fmt.Sprintf("%s/%s was disrupted (%s)", p.Namespace, p.Name, c.Reason)
		}
	}
	retention := fmt.Sprintf("the API server keeps events for %s by default", ttl)
	switch {
	case len(m.Events) == 0 && len(m.Pods)+len(m.Nodes) > 0:
		g := analysis.Gap{Kind: analysis.GapNoEvents, Summary: "no events in the input: reasons for evictions, OOM kills, probe failures and scheduling failures are missing; " +
			retention + ", so collect them during the incident (kubectl get events -A -o json, or rootline collect)"}
		if !trouble.IsZero() {
			g.Summary += fmt.Sprintf("; the earliest trouble the status shows is at %s: %s", trouble.UTC().Format(time.RFC3339), what)
		}
		return []analysis.Gap{g}
	case !trouble.IsZero() && !oldest.IsZero() && trouble.Before(oldest):
		return []analysis.Gap{{Kind: analysis.GapEventsExpired, Summary: fmt.Sprintf("the events start at %s, after %s at %s: earlier events had expired (%s), so whether it was evicted or OOM-killed cannot be checked from them",
			oldest.UTC().Format(time.RFC3339), what, trouble.UTC().Format(time.RFC3339), retention)}}
	case !in.Options.Now.IsZero() && !oldest.IsZero() && in.Options.Now.Sub(oldest) > ttl:
		return []analysis.Gap{{Kind: analysis.GapEventsExpired, Summary: fmt.Sprintf("the input spans more than %s before its capture: events older than that had expired and are not here", ttl)}}
	}
	return nil
}

// nodesGap reports that no node objects were given, so no capacity arithmetic was possible.
type nodesGap struct{}

func (nodesGap) Name() string { return "nodes-missing" }

func (nodesGap) Gaps(in analysis.Input, _ *analysis.Report) []analysis.Gap {
	if len(in.Model.Nodes) > 0 || len(in.Model.Pods) == 0 {
		return nil
	}
	return []analysis.Gap{{Kind: analysis.GapNoNodes, Summary: "no node objects (kubectl get nodes -o json): capacity, allocatable and node pools are unknown, so no capacity arithmetic was done"}}
}
