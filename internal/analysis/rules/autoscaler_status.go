package rules

import (
	"fmt"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
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

// autoscalerNote is what cluster-autoscaler said it could not do, from its events or its log.
type autoscalerNote struct {
	what string // for people: "node group X is at its maximum size"
	ev   analysis.Evidence
	at   time.Time
}

// autoscalerLimits lists what kept cluster-autoscaler from adding nodes: a node group at its
// maximum size, the cluster's node or resource limits. NotTriggerScaleUp events say it, and so
// do the autoscaler's log lines (read as such events).
func autoscalerLimits(m *cluster.Model) []autoscalerNote {
	var out []autoscalerNote
	for _, o := range m.Events {
		e := o.Event
		if e.Reason != "NotTriggerScaleUp" {
			continue
		}
		what := ""
		if reasons, maxTotal, ok := signal.ParseNotTriggerScaleUp(e.Message); ok {
			switch {
			case maxTotal:
				what = "the cluster is at its maximum number of nodes"
			default:
				for _, r := range reasons {
					if l := strings.ToLower(r.Reason); strings.Contains(l, "max node group size") || strings.Contains(l, "limit reached") {
						what = fmt.Sprintf("%d node group(s) at their maximum size or limit (%s)", r.Count, r.Reason)
						break
					}
				}
			}
		} else if a, ok := signal.ParseAutoscalerLog(e.Message); ok {
			switch a.Kind {
			case signal.CAMaxSizeReached:
				what = fmt.Sprintf("node group %s is at its maximum size", shortGroup(a.Group))
			case signal.CAMaxTotalNodes:
				what = "the cluster is at its maximum number of nodes"
			case signal.CAResourceLimit:
				what = "the cluster's resource limits are reached (" + strings.Join(a.Resources, ", ") + ")"
			}
		}
		if what != "" {
			out = append(out, autoscalerNote{what: what, ev: citeEvent(o), at: cluster.EventTime(o)})
		}
	}
	return out
}

// failedScaleUps lists the scale-ups cluster-autoscaler tried and the cloud refused or did not
// deliver: ScaleUpFailed events, and its log lines that say so.
func failedScaleUps(m *cluster.Model) []autoscalerNote {
	var out []autoscalerNote
	for _, o := range m.Events {
		e := o.Event
		if e.Reason != "ScaleUpFailed" && e.Reason != "FailedToScaleUpGroup" && e.Reason != "ScaleUpTimedOut" {
			continue
		}
		what := firstLine(e.Message)
		if a, ok := signal.ParseAutoscalerLog(e.Message); ok && (a.Kind == signal.CAMaxTotalNodes || a.Kind == signal.CAResourceLimit) {
			continue // "Failed to scale up: max node total count already reached": its own limit, no scale-up tried
		} else if ok && a.Group != "" {
			what = fmt.Sprintf("growing node group %s failed", shortGroup(a.Group))
			if a.ErrorCode != "" || a.ErrorClass != "" {
				what += " (" + strings.Trim(a.ErrorClass+"."+a.ErrorCode, ".") + ")"
			}
		}
		out = append(out, autoscalerNote{what: what, ev: citeEvent(o), at: cluster.EventTime(o)})
	}
	return out
}
