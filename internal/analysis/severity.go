package analysis

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/rootline-dev/rootline/internal/signal"
)

// severity orders symptom kinds for people, worst first: what users felt before what only
// explains it.
var severity = []string{PodEvicted, OOMKilled, NodeOOM, CrashLoopBackOff, LivenessProbeFailed, JobFailed, ContainerRestarted,
	Preempted, PodPending, PodStuckCreating, PodCreateFailed, RolloutStuck, ImagePullFailed, VolumeProvisioningFailed,
	NodeNotReady, NodePressure, ReadinessProbeFailed, ScaleUp, EvictedPodsLingering}

// severityAs ranks a kind as another: a failing startup probe restarts its container as a
// failing liveness probe does.
var severityAs = map[string]string{StartupProbeFailed: LivenessProbeFailed}

// Weights of a symptom's severity: a critical component users reach (the hub, its proxy, DNS,
// an ingress) outranks any number of ordinary pods (a hub restart before a thousand Pending
// user pods), and other critical pods (system priority classes) outrank ordinary ones; then
// the kind, then how many members, on a log scale so that a kind never falls behind the next
// kind by count alone unless by hundreds.
const (
	componentWeight = 2000
	// CriticalWeight is the severity of a critical pod's symptom before its kind and count:
	// a symptom at or above it hurt a critical component.
	CriticalWeight = 1000
	kindWeight     = 20
	countWeight    = 10
	maxCountBonus  = 100
)

// severityOf scores a symptom or group; higher is worse. component says that its members are
// pods of a critical component. A kind users did not feel (notFelt) gets no weight for its
// pods' importance: the hub's evicted pod left behind is a leftover, not a second failure.
func severityOf(s Symptom, component bool) int {
	score := 0
	switch {
	case notFelt[s.Kind]: // evicted pods left behind, a scale-up: never what users felt
	case component:
		score += componentWeight
	case s.Critical:
		score += CriticalWeight
	}
	kind := s.Kind
	if as, ok := severityAs[kind]; ok {
		kind = as
	}
	if i := slices.Index(severity, kind); i >= 0 {
		score += (len(severity) - i) * kindWeight
	}
	return score + min(int(math.Log2(float64(max(s.Count, 1))+1)*countWeight), maxCountBonus)
}

// worse orders symptoms worst first: by severity, then the earlier, then by kind and object.
func worse(a, b Symptom) bool {
	if a.Severity != b.Severity {
		return a.Severity > b.Severity
	}
	return symptomLess(a, b)
}

// orderCauses orders causes worst first, the same in every view: roots first, then by the worst
// symptom each explains, then by confidence.
func orderCauses(causes []Cause, symptoms []Symptom) {
	sev := map[string]int{}
	for _, s := range symptoms {
		sev[s.ID] = s.Severity
	}
	worst := func(c Cause) int {
		w := 0
		for _, id := range c.Explains {
			w = max(w, sev[id])
		}
		return w
	}
	sort.SliceStable(causes, func(i, j int) bool {
		a, b := causes[i], causes[j]
		if (a.Role == Root) != (b.Role == Root) {
			return a.Role == Root
		}
		if wa, wb := worst(a), worst(b); wa != wb {
			return wa > wb
		}
		return a.Confidence > b.Confidence
	})
}

// groupReason is what members of one group have in common beyond their kind.
func groupReason(s Symptom) string {
	switch s.Kind {
	case PodPending:
		if r := s.Details.Refused; r != "" {
			return "the kubelet refused it (" + r + ")"
		}
		sch, _, ok := s.Scheduling()
		if !ok {
			return ""
		}
		return schedulingReason(sch)
	case PodEvicted:
		if r := s.Details.Resource; r != "" {
			return "the node was low on " + r
		}
		return s.Details.Condition
	case OOMKilled:
		if len(s.Objects) > 0 && s.Objects[0].Kind == "Node" {
			return "the kernel's OOM killer"
		}
		return "OOMKilled"
	case LivenessProbeFailed, ReadinessProbeFailed, StartupProbeFailed:
		return probeFailure(s.Details.Output)
	case ContainerRestarted, CrashLoopBackOff:
		if r := s.Details.Reason; r != "" {
			if code := s.Details.ExitCode; code != nil {
				return fmt.Sprintf("%s, exit code %d", r, *code)
			}
			return r
		}
	case Preempted:
		return s.Details.By
	case NodePressure:
		return strings.Join(s.Details.Resources, ", ")
	}
	return ""
}

// schedulingReason is the scheduler's main reason: the resources nodes lacked, when any did,
// else its most frequent reason.
func schedulingReason(sch signal.Scheduling) string {
	var lacks []string
	top := signal.ReasonCount{}
	for _, r := range sch.Reasons {
		if r.Class() == signal.ClassInsufficient || r.Class() == signal.ClassTooManyPods {
			lacks = append(lacks, r.Reason)
		}
		if r.Count > top.Count {
			top = r
		}
	}
	if len(lacks) > 0 {
		sort.Strings(lacks)
		return strings.Join(Unique(lacks), ", ")
	}
	if sch.PreFilter != "" {
		return sch.PreFilter
	}
	return top.Reason
}

// probeFailure sorts a probe's output into how it failed.
func probeFailure(out string) string {
	l := strings.ToLower(out)
	switch {
	case out == "":
		return ""
	case strings.Contains(l, "deadline exceeded") || strings.Contains(l, "timeout") || strings.Contains(l, "timed out"):
		return "timed out"
	case strings.Contains(l, "connection refused"):
		return "connection refused"
	case strings.Contains(l, "statuscode"):
		rest := strings.TrimLeft(l[strings.Index(l, "statuscode")+len("statuscode"):], ": ")
		if f := strings.Fields(rest); len(f) > 0 {
			return "HTTP status " + f[0]
		}
		return "HTTP error"
	case strings.Contains(l, "exit"):
		return "command failed"
	}
	return "failed"
}
