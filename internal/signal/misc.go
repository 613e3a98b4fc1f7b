package signal

import (
	"regexp"
	"strings"
)

// Preemption is a Preempted event on a victim pod
// (pkg/scheduler/framework/preemption/preemption.go). Older releases name the preemptor by
// namespace/name, newer ones by UID; the other fields stay "".
type Preemption struct {
	ByNamespace, ByName, ByUID, Node string
}

// CombinedPrefix starts the message of an event that client-go's EventCorrelator aggregated
// from 10 or more similar events within 10 minutes (tools/record/events_cache.go).
const CombinedPrefix = "(combined from similar events): "

var (
	preemptedByPodRe  = regexp.MustCompile(`^Preempted by pod (\S+) on node (\S+)$`)
	preemptedByNameRe = regexp.MustCompile(`^Preempted by ([^/\s]+)/(\S+) on node (\S+)$`)
	systemOOMRe       = regexp.MustCompile(`^System OOM encountered(?:, victim process: (.*), pid: (\d+))?`)
	nodeStatusRe      = regexp.MustCompile(`^Node (\S+) status is now: (\S+)$`)
	taintEvictionRe   = regexp.MustCompile(`^Marking for deletion Pod ([^/\s]+)/(\S+)$`)
)

// ParsePreempted parses "Preempted by <ns>/<name> on node <n>" and the newer "Preempted by pod
// <uid> on node <n>".
func ParsePreempted(msg string) (Preemption, bool) {
	s, _ := StripCombined(strings.TrimSpace(msg))
	if m := preemptedByPodRe.FindStringSubmatch(s); m != nil {
		return Preemption{ByUID: m[1], Node: m[2]}, true
	}
	if m := preemptedByNameRe.FindStringSubmatch(s); m != nil {
		return Preemption{ByNamespace: m[1], ByName: m[2], Node: m[3]}, true
	}
	return Preemption{}, false
}

// ParseSystemOOM parses a node SystemOOM event, "System OOM encountered, victim process:
// <comm>, pid: <pid>" (pkg/kubelet/oom/oom_watcher_linux.go). Kubelets before the victim was
// reported write only "System OOM encountered": ok is true with victim "" and pid 0.
func ParseSystemOOM(msg string) (victim string, pid int, ok bool) {
	s, _ := StripCombined(strings.TrimSpace(msg))
	m := systemOOMRe.FindStringSubmatch(s)
	if m == nil {
		return "", 0, false
	}
	if m[2] == "" {
		return "", 0, true
	}
	pid, ok = atoi(m[2])
	if !ok {
		return "", 0, false
	}
	return m[1], pid, true
}

// ParseNodeStatus parses "Node <n> status is now: <EventReason>", written by the kubelet for
// node pressure and readiness changes and by the node lifecycle controller for NodeNotReady.
func ParseNodeStatus(msg string) (node, reason string, ok bool) {
	s, _ := StripCombined(strings.TrimSpace(msg))
	m := nodeStatusRe.FindStringSubmatch(s)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// ParseTaintEviction parses the TaintManagerEviction event "Marking for deletion Pod
// <ns>/<name>" (pkg/controller/tainteviction/taint_eviction.go).
func ParseTaintEviction(msg string) (namespace, name string, ok bool) {
	s, _ := StripCombined(strings.TrimSpace(msg))
	m := taintEvictionRe.FindStringSubmatch(s)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// StripCombined removes CombinedPrefix and reports whether it was there, that is whether the
// message stands for several events aggregated by client-go's EventCorrelator. Every parser
// in this package calls it, so callers only need it to learn about the aggregation.
func StripCombined(msg string) (string, bool) {
	return strings.CutPrefix(msg, CombinedPrefix)
}
