package signal

import (
	"regexp"
	"strings"
)

var (
	systemOOMRe  = regexp.MustCompile(`^System OOM encountered(?:, victim process: (.*), pid: (\d+))?`)
	nodeStatusRe = regexp.MustCompile(`^Node (\S+) status is now: (\S+)$`)
)

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
