package signal

import (
	"regexp"
	"strings"
	"time"
)

// AutoscalerLogKind is what a cluster-autoscaler log line reports. The texts come from
// kubernetes/autoscaler cluster-autoscaler: core/scale_up.go (until 1.26),
// core/scaleup/orchestrator/orchestrator.go and executor.go (1.27+), core/static_autoscaler.go,
// clusterstate/clusterstate.go, core/scaledown/actuation/actuator.go and the older
// core/scale_down.go, processors/nodegroupset (ScaleUpInfo.String).
type AutoscalerLogKind string

// Kinds of cluster-autoscaler log lines, roughly in the order of one scale-up loop.
const (
	CAPodUnschedulable   AutoscalerLogKind = "pod-unschedulable"    // "Pod ns/name is unschedulable"
	CAPodsUnschedulable  AutoscalerLogKind = "pods-unschedulable"   // a count: "N other pods are also unschedulable", "… N unschedulable pods left", "No unschedulable pods" (0)
	CAUpcomingNodes      AutoscalerLogKind = "upcoming-nodes"       // "Upcoming N nodes": nodes asked for but not ready yet
	CAPodDoesNotFit      AutoscalerLogKind = "pod-does-not-fit"     // "Pod x can't be scheduled on <group>, predicate …": Detail says why
	CAMaxSizeReached     AutoscalerLogKind = "max-size-reached"     // "Skipping node group X - max size reached"
	CAResourceLimit      AutoscalerLogKind = "resource-limit"       // cluster-wide cpu/memory/gpu limits or quotas: Resources
	CAMaxTotalNodes      AutoscalerLogKind = "max-total-nodes"      // --max-nodes-total reached: Max
	CANoExpansionOptions AutoscalerLogKind = "no-expansion-options" // no node group can help: no scale-up this loop
	CABestOption         AutoscalerLogKind = "best-option"          // "Best option to resize: X"
	CAEstimated          AutoscalerLogKind = "estimated"            // "Estimated N nodes needed in X"
	CAScaleUpPlan        AutoscalerLogKind = "scale-up-plan"        // "Final scale-up plan: [{X 1->3 (max: 10)}]": Resizes
	CAScaleUp            AutoscalerLogKind = "scale-up"             // "Scale-up: setting group X size to N"
	CAScaleUpFailed      AutoscalerLogKind = "scale-up-failed"      // the cloud refused or failed the increase: ErrorClass, ErrorCode, Detail
	CAScaleUpTimedOut    AutoscalerLogKind = "scale-up-timed-out"   // nodes did not register within max-node-provision-time
	CABackoff            AutoscalerLogKind = "backoff"              // group backed off after a failure: Until, ErrorClass, ErrorCode
	CAGroupUnhealthy     AutoscalerLogKind = "group-unhealthy"      // "Node group X is not ready for scaleup - unhealthy"
	CAScaleDown          AutoscalerLogKind = "scale-down"           // "Scale-down: removing [empty] node X"
)

// AutoscalerLog is a cluster-autoscaler log line that matters for an incident. Fields the
// text does not give stay zero.
type AutoscalerLog struct {
	Kind          AutoscalerLogKind
	Group         string // node-group id as written (an ASG name, a MIG URL, "ns/machineset")
	From, To, Max int    // sizes: CAScaleUp (From only from the ScaledUpGroup event), Max for CAMaxTotalNodes
	// Count is the number the line counts: pods (CAPodsUnschedulable, CAPodDoesNotFit),
	// nodes (CAUpcomingNodes, CAEstimated, CAScaleUpFailed, CAResourceLimit's "Only N nodes").
	Count          int
	Namespace, Pod string // CAPodUnschedulable, CAPodDoesNotFit (Namespace is "" in old releases)
	Node           string // CAScaleDown
	Empty          bool   // CAScaleDown of an empty node (no pods to drain)
	Resources      []string
	Resizes        []GroupResize // CAScaleUpPlan, in the order written
	Until          time.Time     // CABackoff: end of the backoff, in UTC
	// ErrorClass and ErrorCode are the cloud provider's classification of a failed scale-up:
	// "OutOfResource" with "QUOTA_EXCEEDED", "placeholder-cannot-be-fulfilled", …; "Other"
	// with "timeout", "cloudProviderError", ….
	ErrorClass, ErrorCode string
	Detail                string // an error or reason, as written
	// Line is the klog line (time, file, prefix) when the input had a klog header.
	Line KlogLine
}

var (
	caPodUnschedRe    = regexp.MustCompile(`^Pod ([^/\s]+)/(\S+) is unschedulable$`)
	caOtherPodsRe     = regexp.MustCompile(`^(\d+) other pods are also unschedulable`)
	caPodsCountRe     = regexp.MustCompile(`^(\d+) (?:unschedulable )?pods? (?:are|is) unschedulable`)
	caDaemonSetRe     = regexp.MustCompile(`^Filtered out \d+ daemon set pods, (\d+) unschedulable pods left`)
	caUpcomingRe      = regexp.MustCompile(`^Upcoming (\d+) nodes?`)
	caCantScheduleRe  = regexp.MustCompile(`^Pod (?:([^/\s]+)/)?(\S+) can't be scheduled on (\S+), predicate (?:failed|checking error): ?(.*)$`)
	caSimilarPodsRe   = regexp.MustCompile(`^(\d+) other pods similar to (\S+) can't be scheduled on (\S+)`)
	caMaxSizeRe       = regexp.MustCompile(`^Skipping node group (\S+)\s*[-;:,]\s*max (?:node group )?size reached`)
	caAtomicRe        = regexp.MustCompile(`^Skipping node group (\S+) - atomic scale-up exceeds cluster node count limit`)
	caLimitOldRe      = regexp.MustCompile(`^Skipping node group (\S+); maximal limit exceeded for \[([^\]]*)\]`)
	caQuotaRe         = regexp.MustCompile(`^Skipping node group (\S+); "([^"]*)" quota exceeded, resources: \[([^\]]*)\]`)
	caCappingRe       = regexp.MustCompile(`^Capping scale-up size due to limit for resource (\S+)`)
	caOnlyNodesRe     = regexp.MustCompile(`^Only (\d+) nodes can be added to (\S+) due to resource quotas`)
	caMaxClusterRe    = regexp.MustCompile(`max cluster (.+?) limit reached`)
	caCapTotalRe      = regexp.MustCompile(`^Capping size to max cluster total size \((\d+)\)`)
	caMaxTotalRe      = regexp.MustCompile(`^Max total nodes in cluster reached(?::\s*(\d+))?`)
	caBestOptionRe    = regexp.MustCompile(`^Best option to resize: (\S+)`)
	caEstimatedRe     = regexp.MustCompile(`^Estimated (\d+) nodes needed in (\S+)`)
	caPlanRe          = regexp.MustCompile(`^(?:ScaleUpToNodeGroupMinSize: )?[Ff]inal scale-up plan: (.*)$`)
	caSizeSetRe       = regexp.MustCompile(`^Scale-up: group (\S+) size set to (\d+)(?: instead of (\d+) \(max: (\d+)\))?`)
	caScaleUpFailedRe = regexp.MustCompile(`^Scale-up failed for group (\S+): (.*)$`)
	caFailedAddingRe  = regexp.MustCompile(`^Failed adding (\d+) nodes(?: \(\d+ unseen previously\))? to group (\S+) due to ([^;\s]+)(?:; (?:errorMessages=|source errors: )(.*))?`)
	caTimedOutRe      = regexp.MustCompile(`^Scale-up timed out for node group (\S+) after (\S+)`)
	caNotRegisteredRe = regexp.MustCompile(`^Nodes added to group (\S+) failed to register within (\S+)`)
	caDisablingRe     = regexp.MustCompile(`^Disabling scale-up for node group (\S+) until (.+?)(?:; errorClass=(\S*); errorCode=(.*))?$`)
	caNotReadyRe      = regexp.MustCompile(`^Node group (\S+) is not ready for scaleup - (backoff|unhealthy)(?: with status: (.*))?`)
	caRemovingRe      = regexp.MustCompile(`^Scale-down: removing (empty )?node "?([^",\s]+)"?`)
)

// ParseAutoscalerLog classifies a cluster-autoscaler log line, or a bare message from one,
// across releases: the printf messages of every release, the structured ones of the newest
// (`"Scale-down: removing empty node" node="n1"`), and the event texts that repeat them on
// the kube-system/cluster-autoscaler-status ConfigMap (ScaledUpGroup, ScaleUpFailed,
// ScaleUpTimedOut, MaxNodesTotalReached, ScaleDownEmpty). ok is false for lines that are not
// among the kinds above.
func ParseAutoscalerLog(line string) (AutoscalerLog, bool) {
	l, ok := ParseKlog(line)
	if !ok {
		l = KlogLine{}
		l.Message, l.Values, l.Structured, l.Truncated = splitStructured(stripQuoteMarks(line))
	}
	msg, _ := StripCombined(strings.TrimSpace(l.Message))
	a := AutoscalerLog{Line: l}
	if !a.classify(msg) {
		return AutoscalerLog{}, false
	}
	return a, true
}

// classify sets the kind and fields from the message; it reports whether it knew the message.
func (a *AutoscalerLog) classify(msg string) bool {
	if m := caPodUnschedRe.FindStringSubmatch(msg); m != nil {
		a.Kind, a.Namespace, a.Pod = CAPodUnschedulable, m[1], m[2]
		return true
	}
	for _, re := range []*regexp.Regexp{caOtherPodsRe, caPodsCountRe, caDaemonSetRe} {
		if m := re.FindStringSubmatch(msg); m != nil {
			a.Kind, a.Count = CAPodsUnschedulable, num(m[1])
			return true
		}
	}
	if msg == "No unschedulable pods" {
		a.Kind = CAPodsUnschedulable
		return true
	}
	if m := caUpcomingRe.FindStringSubmatch(msg); m != nil {
		a.Kind, a.Count = CAUpcomingNodes, num(m[1])
		return true
	}
	if m := caCantScheduleRe.FindStringSubmatch(msg); m != nil {
		a.Kind, a.Namespace, a.Pod, a.Group, a.Detail = CAPodDoesNotFit, m[1], m[2], m[3], m[4]
		a.Count = 1
		return true
	}
	if m := caSimilarPodsRe.FindStringSubmatch(msg); m != nil {
		a.Kind, a.Count, a.Pod, a.Group = CAPodDoesNotFit, num(m[1]), m[2], m[3]
		return true
	}
	if m := caMaxSizeRe.FindStringSubmatch(msg); m != nil {
		a.Kind, a.Group = CAMaxSizeReached, m[1]
		return true
	}
	if a.classifyLimits(msg) || a.classifyScaleUp(msg) || a.classifyFailures(msg) {
		return true
	}
	if m := caRemovingRe.FindStringSubmatch(msg); m != nil {
		a.Kind, a.Empty, a.Node = CAScaleDown, m[1] != "", m[2]
		if v, ok := a.Line.Value("node"); ok {
			a.Node = v
		}
		return true
	}
	if msg == "Scale-down: removing node" || msg == "Scale-down: removing empty node" {
		// The structured form of the newest releases names the node in a key.
		v, ok := a.Line.Value("node")
		a.Kind, a.Node, a.Empty = CAScaleDown, v, strings.Contains(msg, "empty")
		return ok
	}
	return false
}

// classifyLimits recognises the cluster-wide limits: resource limits and quotas, and the
// total node count.
func (a *AutoscalerLog) classifyLimits(msg string) bool {
	if m := caLimitOldRe.FindStringSubmatch(msg); m != nil {
		a.Kind, a.Group, a.Resources = CAResourceLimit, m[1], strings.Fields(m[2])
		return true
	}
	if m := caQuotaRe.FindStringSubmatch(msg); m != nil {
		a.Kind, a.Group, a.Detail, a.Resources = CAResourceLimit, m[1], m[2], strings.Fields(m[3])
		return true
	}
	if m := caCappingRe.FindStringSubmatch(msg); m != nil {
		a.Kind, a.Resources = CAResourceLimit, []string{m[1]}
		return true
	}
	if m := caOnlyNodesRe.FindStringSubmatch(msg); m != nil {
		a.Kind, a.Count, a.Group = CAResourceLimit, num(m[1]), m[2]
		return true
	}
	if m := caMaxClusterRe.FindStringSubmatch(msg); m != nil {
		a.Kind = CAResourceLimit
		for _, r := range strings.Split(m[1], ",") {
			a.Resources = append(a.Resources, strings.TrimSpace(r))
		}
		return true
	}
	if m := caAtomicRe.FindStringSubmatch(msg); m != nil {
		a.Kind, a.Group = CAMaxTotalNodes, m[1]
		return true
	}
	if m := caCapTotalRe.FindStringSubmatch(msg); m != nil {
		a.Kind, a.Max = CAMaxTotalNodes, num(m[1])
		return true
	}
	if m := caMaxTotalRe.FindStringSubmatch(msg); m != nil {
		a.Kind, a.Max = CAMaxTotalNodes, num(m[1])
		return true
	}
	if strings.Contains(msg, "max node total count already reached") {
		a.Kind, a.Detail = CAMaxTotalNodes, msg
		return true
	}
	return false
}

// classifyScaleUp recognises the steps of a scale-up decision.
func (a *AutoscalerLog) classifyScaleUp(msg string) bool {
	if msg == "No expansion options" {
		a.Kind = CANoExpansionOptions
		return true
	}
	if m := caBestOptionRe.FindStringSubmatch(msg); m != nil {
		a.Kind, a.Group = CABestOption, m[1]
		return true
	}
	if m := caEstimatedRe.FindStringSubmatch(msg); m != nil {
		a.Kind, a.Count, a.Group = CAEstimated, num(m[1]), m[2]
		return true
	}
	if m := caPlanRe.FindStringSubmatch(msg); m != nil {
		a.Kind = CAScaleUpPlan
		for _, g := range scaleUpInfoRe.FindAllStringSubmatch(m[1], -1) {
			if r, ok := newGroupResize(g[1], g[3], g[2], g[4]); ok {
				a.Resizes = append(a.Resizes, r)
			}
		}
		return true
	}
	if g, ok := ParseScaledUpGroup(msg); ok {
		a.Kind, a.Group, a.From, a.To, a.Max = CAScaleUp, g.Group, g.From, g.To, g.Max
		return true
	}
	if m := caSizeSetRe.FindStringSubmatch(msg); m != nil {
		if g, ok := newGroupResize(m[1], m[2], m[3], m[4]); ok {
			a.Kind, a.Group, a.From, a.To, a.Max = CAScaleUp, g.Group, g.From, g.To, g.Max
			return true
		}
	}
	return false
}

// classifyFailures recognises failed and timed-out scale-ups and the backoff that follows.
func (a *AutoscalerLog) classifyFailures(msg string) bool {
	if m := caFailedAddingRe.FindStringSubmatch(msg); m != nil {
		a.Kind, a.Count, a.Group, a.Detail = CAScaleUpFailed, num(m[1]), m[2], m[4]
		a.ErrorClass, a.ErrorCode, _ = strings.Cut(m[3], ".")
		return true
	}
	if m := caScaleUpFailedRe.FindStringSubmatch(msg); m != nil {
		a.Kind, a.Group, a.Detail = CAScaleUpFailed, m[1], m[2]
		return true
	}
	if rest, ok := strings.CutPrefix(msg, "Failed to scale up: "); ok {
		a.Kind, a.Detail = CAScaleUpFailed, rest
		return true
	}
	if strings.Contains(strings.ToLower(msg), "failed to increase node group size") {
		a.Kind, a.Detail = CAScaleUpFailed, msg
		return true
	}
	for _, re := range []*regexp.Regexp{caTimedOutRe, caNotRegisteredRe} {
		if m := re.FindStringSubmatch(msg); m != nil {
			a.Kind, a.Group, a.Detail = CAScaleUpTimedOut, m[1], m[2]
			return true
		}
	}
	if m := caDisablingRe.FindStringSubmatch(msg); m != nil {
		a.Kind, a.Group, a.ErrorClass, a.ErrorCode = CABackoff, m[1], m[3], strings.TrimSpace(m[4])
		a.Until, _ = ParseGoTime(m[2])
		return true
	}
	if m := caNotReadyRe.FindStringSubmatch(msg); m != nil {
		a.Kind, a.Group, a.Detail = CABackoff, m[1], m[3]
		if m[2] == "unhealthy" {
			a.Kind = CAGroupUnhealthy
		}
		return true
	}
	return false
}

// num converts digits matched by a regexp; "" and overflowing values give 0.
func num(s string) int {
	n, _ := atoi(s)
	return n
}

// goTimeLayouts are the forms of Go's time.Time.String that the autoscaler writes in logs and
// in the text status (with nanoseconds, without them, and the ConfigMap annotation's layout).
var goTimeLayouts = []string{
	"2006-01-02 15:04:05.999999999 -0700 MST",
	"2006-01-02 15:04:05 -0700 MST",
	time.RFC3339Nano,
	"2006-01-02 15:04:05",
}

// ParseGoTime parses a time written by Go's time.Time.String, as the autoscaler logs and its
// text status show them: "2021-09-30 16:13:18.791229527 +0000 UTC m=+10531772.496293969"
// (the monotonic-clock suffix is dropped), and RFC 3339. The result is in UTC. Go's zero
// time ("0001-01-01 00:00:00 +0000 UTC", a condition never probed) gives ok false.
func ParseGoTime(s string) (time.Time, bool) {
	s = strings.Trim(strings.TrimSpace(s), `"`)
	if i := strings.Index(s, " m="); i >= 0 {
		s = s[:i]
	}
	for _, layout := range goTimeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			if t.IsZero() || t.Year() <= 1 {
				return time.Time{}, false
			}
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}
