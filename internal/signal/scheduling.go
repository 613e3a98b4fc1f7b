package signal

import (
	"regexp"
	"strings"
)

// Scheduling is the diagnosis of a scheduler FailedScheduling event or of the
// PodScheduled=False condition (pkg/scheduler/framework/types.go, FitError.Error).
type Scheduling struct {
	Available, Total int // "0/126 nodes are available"; Total is 0 in the pre-1.11 predicate form
	// Reasons are the Filter rejections in message order (the scheduler sorts them as strings).
	Reasons []ReasonCount
	// PreFilter is set instead of Reasons when a PreFilter plugin rejected the pod, e.g.
	// `persistentvolumeclaim "x" not found`. Classify it with ReasonCount{Reason: PreFilter}.
	PreFilter string
	// PostFilter is the raw text after the diagnosis, e.g. "preemption: 0/3 nodes are …".
	PostFilter string
	// Preemption holds the items of "preemption: 0/N nodes are available: …", also when it
	// follows the DRA plugin's "no new claims to deallocate, ".
	Preemption []ReasonCount
	// Truncated reports a message that ended with " ..." (the scheduler cuts at
	// NoteLengthLimit) or was visibly cut. An item that may have been cut is dropped.
	Truncated bool
}

// noNodesMsg is the scheduler's ErrNoNodesAvailable, written when the cluster has no nodes.
const noNodesMsg = "no nodes available to schedule pods"

var (
	availableRe = regexp.MustCompile(`^(\d+)/(\d+) nodes are available(?::|\.|\s*$)`)
	// oldFitRe is the 1.0 and 1.1 schedulers' FitError: "For each of these fitness predicates,
	// pod x failed on at least one node: PodFitsResources, PodFitsPorts." (1.0) and "Failed for
	// reason PodFitsResources and possibly others" (1.1); it counts no nodes.
	oldFitRe = regexp.MustCompile(`^(?:For each of these fitness predicates, pod \S+ failed on at least one node: (.+?)\.?|Failed for reason (\S+) and possibly others)$`)
	// predicatesRe starts the pre-1.11 forms, whose items are "<reason> (<count>)".
	predicatesRe    = regexp.MustCompile(`^(?:No nodes are available that match all of the (?:following )?predicates:+|(?:pod \([^)]*\) failed to fit in any node\s+)?fit failure summary on nodes\s*:)`)
	predicateItemRe = regexp.MustCompile(`\s*\((\d+)\)(?:,\s*|$)`)
	preemptionRe    = regexp.MustCompile(`preemption: (\d+)/(\d+) nodes are available:?`)
	// quotedRe finds the scheduler's message where another component quoted it after words of
	// its own: Kubeflow's notebook controller ("Reissued from pod/x: 0/2 nodes are available:
	// …"), a CI plugin's or an operator's status ("Unschedulable: 0/3 nodes are available: …").
	quotedRe = regexp.MustCompile(`(?:^|[\s:(\["'])(\d+/\d+ nodes are available(?::|\.|\s*$)|No nodes are available that match all of the|no nodes available to schedule pods)`)
	// headlessRe starts the diagnosis quoted without the "0/N nodes are available: " before
	// it, as people quote it and the text scan gives it (catalog's Entry.Items): its first
	// item, "<count> <reason>" of a 1.10+ reason.
	headlessRe = regexp.MustCompile(`^\d+ (?:node\(s\) |Insufficient |Too many pods)`)
)

// ParseFailedScheduling parses a FailedScheduling message: the "0/N nodes are available: …"
// grammar with its PreFilter and PostFilter (preemption, DRA) parts, and the pre-1.11
// "No nodes are available that match all of the following predicates:: R (k), …" form, and
// the diagnosis quoted without its count of nodes ("1 node(s) had untolerated taint {…}, 2
// Insufficient cpu.": Available and Total are 0, as in the predicate form).
// The "(combined from similar events): " prefix is ignored.
func ParseFailedScheduling(msg string) (Scheduling, bool) {
	s, _ := StripCombined(strings.TrimSpace(msg))
	if m := oldFitRe.FindStringSubmatch(s); m != nil {
		var sc Scheduling
		for _, r := range strings.Split(m[1]+m[2], ",") {
			if r = strings.TrimSpace(r); r != "" {
				sc.Reasons = append(sc.Reasons, ReasonCount{Reason: r})
			}
		}
		return sc, len(sc.Reasons) > 0
	}
	headless := headlessRe.MatchString(s)
	if !headless && !availableRe.MatchString(s) && !predicatesRe.MatchString(s) && !strings.HasPrefix(strings.ToLower(s), noNodesMsg) {
		m := quotedRe.FindStringSubmatchIndex(s)
		if m == nil || strings.HasSuffix(s[:m[2]], "preemption: ") {
			return Scheduling{}, false
		}
		s = s[m[2]:] // the scheduler's words, after another component's
	}
	var sc Scheduling
	if cut, ok := strings.CutSuffix(s, " ..."); ok {
		s, sc.Truncated = cut, true
	}
	if strings.HasPrefix(strings.ToLower(s), noNodesMsg) {
		return Scheduling{PreFilter: noNodesMsg}, true
	}
	if loc := predicatesRe.FindStringIndex(s); loc != nil {
		sc.Reasons, sc.Truncated = parsePredicates(s[loc[1]:], sc.Truncated)
		return sc, true
	}
	head := 0 // where the diagnosis starts: after the count of nodes, unless it was left out
	if !headless {
		m := availableRe.FindStringSubmatch(s)
		if m == nil {
			return Scheduling{}, false
		}
		var ok1, ok2 bool
		sc.Available, ok1 = atoi(m[1])
		sc.Total, ok2 = atoi(m[2])
		if !ok1 || !ok2 {
			return Scheduling{}, false
		}
		head = len(m[0])
	}
	filter, post, hasPost := cutSentence(strings.TrimSpace(s[head:]))
	if items, ok := splitCounted(trimSentenceEnd(filter)); ok {
		// A cut message loses its last item, unless a period shows that the list ended.
		var cut bool
		sc.Reasons, cut = dropCut(items, sc.Truncated && !hasPost && !strings.HasSuffix(filter, "."))
		sc.Truncated = sc.Truncated || cut
	} else {
		sc.PreFilter = trimSentenceEnd(filter)
	}
	if hasPost {
		sc.PostFilter = strings.TrimSpace(post)
		if loc := preemptionRe.FindStringIndex(sc.PostFilter); loc != nil {
			list := strings.TrimSpace(sc.PostFilter[loc[1]:])
			items, _ := splitCounted(trimSentenceEnd(list))
			var cut bool
			sc.Preemption, cut = dropCut(items, sc.Truncated && !strings.HasSuffix(list, "."))
			sc.Truncated = sc.Truncated || cut
		}
	}
	return sc, true
}

// cutSentence splits s at the first ". " outside braces: the scheduler ends the filter
// diagnosis with "." and joins the PostFilter message with a space. Taint keys such as
// "node.kubernetes.io/not-ready" contain periods but never ". ".
func cutSentence(s string) (before, after string, found bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth = max(depth-1, 0)
		case '.':
			if depth == 0 && i+1 < len(s) && s[i+1] == ' ' {
				return s[:i], s[i+2:], true
			}
		}
	}
	return s, "", false
}

// dropCut removes the last item when the message was cut inside the list (cut), or when the
// item is visibly incomplete (an unclosed taint brace). It returns the items and whether the
// message was cut.
func dropCut(items []ReasonCount, cut bool) ([]ReasonCount, bool) {
	if len(items) == 0 {
		return items, cut
	}
	last := items[len(items)-1].Reason
	if strings.Count(last, "{") > strings.Count(last, "}") {
		cut = true
	}
	if cut {
		items = items[:len(items)-1]
	}
	return items, cut
}

// parsePredicates reads the pre-1.11 items "Insufficient cpu (2), MatchNodeSelector (1)".
// Text after the last complete item means the message was cut there.
func parsePredicates(s string, cut bool) ([]ReasonCount, bool) {
	s = trimSentenceEnd(s)
	var items []ReasonCount
	prev := 0
	for _, loc := range predicateItemRe.FindAllStringSubmatchIndex(s, -1) {
		reason := strings.TrimSpace(s[prev:loc[0]])
		n, ok := atoi(s[loc[2]:loc[3]])
		prev = loc[1]
		if reason == "" || !ok {
			continue
		}
		items = append(items, ReasonCount{Count: n, Reason: reason})
	}
	if strings.TrimSpace(s[prev:]) != "" {
		cut = true
	}
	return items, cut
}
