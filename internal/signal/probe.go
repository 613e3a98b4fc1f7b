package signal

import (
	"regexp"
	"strings"
)

// Probe is a kubelet probe result event (pkg/kubelet/prober/prober.go): Unhealthy for
// "failed" and "errored", ProbeWarning for "warning".
type Probe struct {
	Type    string // "Liveness", "Readiness" or "Startup"
	Outcome string // "failed", "errored" or "warning"
	Output  string // the probe's output or error, as written (may span lines)
}

// Kill causes.
const (
	KillLiveness   = "liveness"
	KillStartup    = "startup"
	KillDefinition = "definition"
	// KillOther is any other "Container <c> <why>, will be restarted"; Kill.Detail says why.
	KillOther = "other"
)

// Kill is a kubelet Killing event (pkg/kubelet/kuberuntime).
type Kill struct {
	Container string // name, or "docker://<id>" in the pre-1.11 "Killing container with id" form
	Cause     string // a Kill… constant, or "" for the plain "Stopping container <c>"
	Detail    string // the reason as written, e.g. "failed liveness probe"
}

// BackOff is a kubelet BackOff event for a crash-looping container.
type BackOff struct {
	Container, Pod, Namespace, UID string // all "" in the old bare form
}

var (
	probeRe   = regexp.MustCompile(`(?s)^(Liveness|Readiness|Startup) probe (failed|errored|warning):?\s?(.*)$`)
	restartRe = regexp.MustCompile(`(?s)^Container (\S+) (.+?),? will be restarted\.?$`)
	stopRe    = regexp.MustCompile(`^Stopping container (\S+)$`)
	// oldKillRe is the pre-1.11 "Killing container with id docker://<id>:<message>".
	oldKillRe = regexp.MustCompile(`(?s)^Killing container with id ((?:\w+://)?[^\s:]+):(.*)$`)
	backOffRe = regexp.MustCompile(`^Back-off restarting failed (?:docker )?container(?: (\S+))?(?: in pod ([^_\s]+)_([^(\s]+)\(([^)\s]*)\))?`)
)

// ParseProbe parses "<Liveness|Readiness|Startup> probe <failed|errored|warning>: <output>".
func ParseProbe(msg string) (Probe, bool) {
	s, _ := StripCombined(strings.TrimSpace(msg))
	m := probeRe.FindStringSubmatch(s)
	if m == nil {
		return Probe{}, false
	}
	return Probe{Type: m[1], Outcome: m[2], Output: strings.TrimSpace(m[3])}, true
}

// ParseKilling parses a Killing event: "Container <c> failed liveness probe, will be
// restarted" (also startup probe and "definition changed"), the default "Stopping container
// <c>", and the pre-1.11 "Killing container with id docker://<id>:<message>".
func ParseKilling(msg string) (Kill, bool) {
	s, _ := StripCombined(strings.TrimSpace(msg))
	if m := stopRe.FindStringSubmatch(s); m != nil {
		return Kill{Container: m[1]}, true
	}
	if m := restartRe.FindStringSubmatch(s); m != nil {
		return Kill{Container: m[1], Cause: killCause(m[2]), Detail: m[2]}, true
	}
	if m := oldKillRe.FindStringSubmatch(s); m != nil {
		detail := strings.TrimSpace(m[2])
		k := Kill{Container: m[1], Detail: detail}
		if detail != "" && !strings.EqualFold(detail, "Need to kill Pod") {
			k.Cause = killCause(detail)
		}
		return k, true
	}
	return Kill{}, false
}

// killCause maps the kubelet's restart reason to a Kill… constant. The pre-1.11 wordings
// ("Container failed liveness probe..", "Container spec hash changed") map the same way.
func killCause(why string) string {
	w := strings.ToLower(why)
	switch {
	case strings.Contains(w, "liveness probe"):
		return KillLiveness
	case strings.Contains(w, "startup probe"):
		return KillStartup
	case strings.Contains(w, "definition changed"), strings.Contains(w, "spec hash changed"):
		return KillDefinition
	}
	return KillOther
}

// ParseBackOff parses "Back-off restarting failed container <c> in pod <name>_<ns>(<uid>)"
// and the old bare "Back-off restarting failed container" (which names nothing).
func ParseBackOff(msg string) (BackOff, bool) {
	s, _ := StripCombined(strings.TrimSpace(msg))
	m := backOffRe.FindStringSubmatch(s)
	if m == nil {
		return BackOff{}, false
	}
	return BackOff{Container: m[1], Pod: m[2], Namespace: m[3], UID: m[4]}, true
}
