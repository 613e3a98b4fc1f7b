package signal

import (
	"regexp"
	"strings"
)

// GroupResize is one node-group resize decided by cluster-autoscaler.
type GroupResize struct {
	Group string // node-group id as written; may be a URL ("ibm://acc///cluster1/nodegroup1")
	From  int    // current size; 0 when the message does not say (older ScaledUpGroup)
	To    int    // new size
	Max   int    // the group's maximum size; 0 when the message does not say
}

const (
	triggeredPrefix    = "pod triggered scale-up:"
	notTriggeredPrefix = "pod didn't trigger scale-up"
	// wouldNotFit is the older releases' qualifier of notTriggeredPrefix.
	wouldNotFit = "(it wouldn't fit if a new node is added)"
	// maxTotalMsg is the whole reason text when the cluster-wide node limit was reached.
	maxTotalMsg = "max total nodes in cluster reached"
)

var (
	// scaleUpInfoRe matches ScaleUpInfo.String: "{<group> <cur>-><new> (max: <max>)}".
	scaleUpInfoRe = regexp.MustCompile(`\{([^{}]*?) (\d+)->(\d+) \(max: (\d+)\)\}`)
	// scaledUpGroupRe matches the ScaledUpGroup event; "instead of … (max: …)" was added to the
	// message in later releases.
	// "Scale-up: setting group …" until the wording became "Scale-up: group … size set to …".
	scaledUpGroupRe = regexp.MustCompile(`^Scale-up: (?:setting group (.+?) size to|group (.+?) size set to) (\d+)(?: instead of (\d+) \(max: (\d+)\))?\.?$`)
	// oldTriggeredRe matches the TriggeredScaleUp event of cluster-autoscaler 0.x-1.1 (core
	// scale_up.go): "pod triggered scale-up, group: <group>, sizes (current/new): <cur>/<new>".
	oldTriggeredRe = regexp.MustCompile(`(?:^|[\s:])pod triggered scale-up, group: (\S+?), sizes \(current/new\): (\d+)/(\d+)`)
)

// ParseTriggeredScaleUp parses a TriggeredScaleUp event, "pod triggered scale-up: [{<group>
// <cur>-><new> (max: <max>)} …]" (cluster-autoscaler processors/status). Groups are returned
// in message order; a group cut off by truncation is left out. ok is true when the prefix is
// present, even if no group could be read, also after words of a component that quoted the
// event; and the 0.x-1.1 form "pod triggered scale-up, group: <group>, sizes (current/new):
// <cur>/<new>", whose one group has no maximum.
func ParseTriggeredScaleUp(msg string) ([]GroupResize, bool) {
	s, _ := StripCombined(strings.TrimSpace(msg))
	if m := oldTriggeredRe.FindStringSubmatch(s); m != nil {
		if g, ok := newGroupResize(m[1], m[3], m[2], ""); ok {
			return []GroupResize{g}, true
		}
		return nil, true
	}
	i := strings.Index(s, triggeredPrefix)
	if i < 0 || i > 0 && !strings.ContainsRune(" :", rune(s[i-1])) {
		return nil, false
	}
	rest := s[i+len(triggeredPrefix):] // after another component's words, where it quoted the event ("Reissued from pod/x: ")
	var groups []GroupResize
	for _, m := range scaleUpInfoRe.FindAllStringSubmatch(rest, -1) {
		g, ok := newGroupResize(m[1], m[3], m[2], m[4])
		if ok {
			groups = append(groups, g)
		}
	}
	return groups, true
}

// ParseScaledUpGroup parses a ScaledUpGroup event, "Scale-up: setting group <id> size to <new>
// instead of <cur> (max: <max>)", and the older "Scale-up: setting group <id> size to <new>".
func ParseScaledUpGroup(msg string) (GroupResize, bool) {
	s, _ := StripCombined(strings.TrimSpace(msg))
	m := scaledUpGroupRe.FindStringSubmatch(s)
	if m == nil {
		return GroupResize{}, false
	}
	return newGroupResize(m[1]+m[2], m[3], m[4], m[5])
}

// newGroupResize builds a GroupResize from matched text; empty numbers stay 0.
func newGroupResize(group, to, from, maxSize string) (GroupResize, bool) {
	g := GroupResize{Group: strings.TrimSpace(group)}
	for _, f := range []struct {
		s   string
		dst *int
	}{{to, &g.To}, {from, &g.From}, {maxSize, &g.Max}} {
		if f.s == "" {
			continue
		}
		n, ok := atoi(f.s)
		if !ok {
			return GroupResize{}, false
		}
		*f.dst = n
	}
	return g, g.Group != ""
}

// ParseNotTriggerScaleUp parses a NotTriggerScaleUp event, "pod didn't trigger scale-up: 1 max
// node group size reached, 2 Insufficient cpu", the older "pod didn't trigger scale-up (it
// wouldn't fit if a new node is added): …", and "… max total nodes in cluster reached", which
// sets maxTotalReached. The autoscaler joins the reasons in Go map order, so their order
// means nothing; callers must not rely on it.
func ParseNotTriggerScaleUp(msg string) (reasons []ReasonCount, maxTotalReached bool, ok bool) {
	s, _ := StripCombined(strings.TrimSpace(msg))
	rest, found := strings.CutPrefix(s, notTriggeredPrefix)
	if !found {
		return nil, false, false
	}
	rest = strings.TrimSpace(rest)
	rest = strings.TrimSpace(strings.TrimPrefix(rest, wouldNotFit))
	rest = strings.TrimSpace(strings.TrimPrefix(rest, ":"))
	rest = trimSentenceEnd(rest)
	if rest == maxTotalMsg {
		return nil, true, true
	}
	reasons, _ = splitCounted(rest)
	return reasons, false, true
}
