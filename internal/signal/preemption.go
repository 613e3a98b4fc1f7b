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

var (
	preemptedByPodRe  = regexp.MustCompile(`^Preempted by pod (\S+) on node (\S+)$`)
	preemptedByNameRe = regexp.MustCompile(`^Preempted by ([^/\s]+)/(\S+) on node (\S+)$`)
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
