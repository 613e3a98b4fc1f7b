// Package signal parses the free-text messages that Kubernetes components write into events,
// pod status, conditions and logs: kubelet evictions and log lines, scheduler
// FailedScheduling diagnoses, pod failure reasons, and cluster-autoscaler decisions, logs and
// status.
//
// Every parser is pure and total: it takes one message, never panics, and reports with ok
// whether the message had the expected shape. The formats, with their variants across
// Kubernetes releases, are specified in SIGNALS.md; each parser names its source. Messages
// reach us cut short (the scheduler's NoteLengthLimit, kubectl columns, pasted excerpts), so
// parsers return what they could read rather than failing on a truncated tail.
package signal

import (
	"regexp"
	"strconv"
	"strings"
)

// countedItemRe matches one "<count> <reason>" item of a scheduler or autoscaler list.
var countedItemRe = regexp.MustCompile(`(?s)^(\d+) (\S.*)$`)

// startsWithCount reports whether s begins with "<digits> ", the start of a counted item.
func startsWithCount(s string) bool {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i > 0 && i < len(s) && s[i] == ' '
}

// splitCounted splits a ", "-joined list of "<count> <reason>" items. Reasons may themselves
// contain ", " (the 2020-era taint reason "had taint {k: v}, that the pod didn't tolerate",
// the autoscaler's "max cluster cpu, memory limit reached"), so a separator only counts when
// the next item starts with a count. The first item must start with a count; ok is false
// otherwise. Items whose count overflows an int are skipped.
func splitCounted(s string) (items []ReasonCount, ok bool) {
	if !startsWithCount(s) {
		return nil, false
	}
	var parts []string
	start := 0
	for i := 0; i+2 <= len(s); i++ {
		if s[i] == ',' && s[i+1] == ' ' && startsWithCount(s[i+2:]) {
			parts = append(parts, s[start:i])
			start = i + 2
			i++
		}
	}
	parts = append(parts, s[start:])
	for _, p := range parts {
		m := countedItemRe.FindStringSubmatch(strings.TrimSpace(p))
		if m == nil {
			continue
		}
		n, ok := atoi(m[1])
		if !ok {
			continue
		}
		items = append(items, ReasonCount{Count: n, Reason: strings.TrimSpace(m[2])})
	}
	return items, true
}

// atoi parses a non-negative decimal that fits an int.
func atoi(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// trimSentenceEnd removes trailing spaces and periods: the scheduler ends some messages with
// "..", and kubelet messages end with ". ".
func trimSentenceEnd(s string) string {
	return strings.TrimRight(s, " \t\r\n.")
}
