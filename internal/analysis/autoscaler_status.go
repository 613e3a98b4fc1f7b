package analysis

import (
	"fmt"
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/signal"
)

// requestedGroup is a node group the autoscaler was growing when its status was written:
// ScaleUp InProgress, or Backoff, with fewer nodes ready than it asked the cloud for.
type requestedGroup struct {
	name          string
	ready, target int
	since, probed time.Time // when the scale-up began; when the autoscaler last looked
	backoff       string    // the backoff's error, for a group in Backoff
	obj           *cluster.Object
	line          string // the status's own words, for evidence
}

// waited is how long the group had been waiting for its nodes when the status was written.
func (g requestedGroup) waited() time.Duration {
	if g.since.IsZero() || g.probed.IsZero() || g.probed.Before(g.since) {
		return 0
	}
	return g.probed.Sub(g.since)
}

// requestedGroups reads the cluster-autoscaler status ConfigMaps for node groups being grown.
func requestedGroups(m *cluster.Model) []requestedGroup {
	texts, objs := m.AutoscalerStatuses()
	var out []requestedGroup
	for i, text := range texts {
		st, ok := signal.ParseAutoscalerStatus(text)
		if !ok {
			continue
		}
		for _, g := range st.NodeGroups {
			up := g.ScaleUp
			target := max(up.CloudProviderTarget, g.Health.CloudProviderTarget)
			ready := up.Ready
			if ready == 0 {
				ready = g.Health.Ready
			}
			if (up.Status != "InProgress" && up.Status != "Backoff") || target <= ready {
				continue
			}
			rg := requestedGroup{name: g.Name, ready: ready, target: target, since: up.LastTransitionTime, probed: up.LastProbeTime,
				obj: objs[i], line: fmt.Sprintf("ScaleUp: %s (ready=%d cloudProviderTarget=%d)", up.Status, ready, target)}
			if up.Status == "Backoff" {
				rg.backoff = up.BackoffErrorCode
				if rg.backoff == "" {
					rg.backoff = "Backoff"
				}
			}
			if !rg.since.IsZero() {
				rg.line += " since " + rg.since.Format(time.RFC3339)
			}
			if rg.name == "" {
				rg.name = "(a node group the paste does not name)"
			}
			out = append(out, rg)
		}
	}
	return out
}
