package signal

import (
	"regexp"
	"strings"
)

// ContainerUsage is one offending container (or pod, with pod-level resources) of an eviction.
// Quantities are kept as written ("1900004Ki", "471859200", "0"); use Bytes to compare them.
type ContainerUsage struct {
	Name     string
	Pod      bool   // true for the pod-level "Pod <p> was using …" part
	Usage    string // working set (memory) or rootfs+logs (ephemeral-storage) at eviction time
	Request  string // "" when unknown (annotations, or a message cut before the request)
	Resource string // "memory" from "has larger consumption of memory"; "" in the old form
}

// Eviction is what a kubelet eviction message (pod status, DisruptionTarget condition or
// Evicted event) says about why the pod was evicted.
type Eviction struct {
	// Resource is the starved resource of "The node was low on resource: X" ("memory",
	// "ephemeral-storage", "inodes", "pids"; older kubelets wrote "nodefs", "imagefs", …).
	// It is "" for the old admission form "The node was low on resource: [DiskPressure]".
	Resource string
	// Condition is the node condition of "The node had condition: [X]" or of the old
	// bracketed form, without brackets. Several conditions stay space-separated as written.
	Condition            string
	Threshold, Available string // from "Threshold quantity: <q>, available: <a>"
	Offenders            []ContainerUsage
	Limit                *LimitEviction // set for the limit-based variants, nil otherwise
	// Unparsed is trailing text that matched no known part: a new format or a cut message.
	Unparsed string
	// Truncated reports that the message ended in the middle of a part.
	Truncated bool
}

// Kinds of LimitEviction.
const (
	LimitContainerEphemeralStorage = "container-ephemeral-storage"
	LimitPodEphemeralStorage       = "pod-ephemeral-storage"
	LimitEmptyDir                  = "emptydir"
)

// LimitEviction is an eviction for exceeding a local-storage limit rather than node pressure.
type LimitEviction struct {
	Kind      string // one of the Limit… constants
	Container string // for LimitContainerEphemeralStorage
	Volume    string // for LimitEmptyDir
	Limit     string // the limit as written
}

// partEnd ends every part of an eviction message: the kubelet writes ". " after each, but
// stored messages lose the trailing space and pasted ones the final period.
const partEnd = `(?:\.(?:\s+|$)|\s*$)`

var (
	// A condition list ends at its bracket, whatever follows it in a person's sentence
	// ("…: [DiskPressure], when loading my workspace").
	lowOnResourceRe  = regexp.MustCompile(`^The node was low on resource: (?:(\[[^\]]*\])(?:,\s|` + partEnd + `)|(\S+?)` + partEnd + `)`)
	hadConditionRe   = regexp.MustCompile(`^The node had condition: (?:(\[[^\]]*\])(?:,\s|` + partEnd + `)|(\S+?)` + partEnd + `)`)
	thresholdRe      = regexp.MustCompile(`^Threshold quantity: (\S+?), available: (\S+?)` + partEnd)
	usageRe          = regexp.MustCompile(`^(Container|Pod) (\S+) was using (\S+?), request is (\S+?), has larger consumption of (\S+?)` + partEnd)
	oldUsageRe       = regexp.MustCompile(`^(Container|Pod) (\S+) was using (\S+?), which exceeds its request of (\S+?)` + partEnd)
	containerLimitRe = regexp.MustCompile(`^Container (\S+) exceeded its local ephemeral storage limit "([^"]*)"` + partEnd)
	podLimitRe       = regexp.MustCompile(`^Pod ephemeral local storage usage exceeds the total limit of containers (\S+?)` + partEnd)
	emptyDirRe       = regexp.MustCompile(`^Usage of EmptyDir volume "([^"]*)" exceeds the limit "([^"]*)"` + partEnd)
	// partialUsageRe reads what is certain of a usage part cut short: a value counts only
	// when the comma after it shows that it was written whole.
	partialUsageRe = regexp.MustCompile(`^(Container|Pod) (\S+) was using ([^\s,]+),(?: request is ([^\s,]+),)?`)
)

// ParseEviction parses a kubelet eviction message (pkg/kubelet/eviction/helpers.go), in both
// container-usage forms (before and after kubernetes PR #111597), the pod-level form, the
// limit-based variants and the old "[DiskPressure]" admission form. What comes before "The
// node …" ("Pod ", "Pod was rejected: ") and the "(combined from similar events): " prefix are
// ignored. ok is true when the leading sentence parsed; a truncated tail is returned in
// Unparsed, with any offender that can still be read from it.
func ParseEviction(msg string) (Eviction, bool) {
	s, _ := StripCombined(strings.TrimSpace(msg))
	if !strings.HasPrefix(s, "The node ") {
		// "Pod The node …" (seen in the wild), "Pod was rejected: The node had condition: …"
		// (the kubelet's admission of a pod on a node under pressure): the sentence after.
		for _, lead := range []string{"The node was low on resource: ", "The node had condition: "} {
			if i := strings.Index(s, lead); i > 0 && i <= 64 {
				s = s[i:]
				break
			}
		}
	}
	var ev Eviction
	lead := true
	for s != "" {
		n := ev.parsePart(s, lead)
		if n == 0 {
			break
		}
		lead = false
		s = strings.TrimLeft(s[n:], " \t\r\n")
	}
	if lead {
		return Eviction{}, false
	}
	if s != "" {
		if m := partialUsageRe.FindStringSubmatch(s); m != nil {
			ev.Offenders = append(ev.Offenders, ContainerUsage{Name: m[2], Pod: m[1] == "Pod", Usage: m[3], Request: m[4]})
		}
		ev.Unparsed = s
		ev.Truncated = !strings.HasSuffix(s, ".")
	}
	return ev, true
}

// parsePart consumes one part at the start of s into ev and returns its length, or 0 when no
// part matches. Only the sentences the kubelet writes first are accepted when lead is set.
func (ev *Eviction) parsePart(s string, lead bool) int {
	if m := lowOnResourceRe.FindStringSubmatch(s); m != nil {
		if inner, ok := bracketed(m[1]); ok {
			ev.Condition = inner
		} else {
			ev.Resource = m[2]
		}
		return len(m[0])
	}
	if m := hadConditionRe.FindStringSubmatch(s); m != nil {
		inner, _ := bracketed(m[1] + m[2])
		ev.Condition = inner
		return len(m[0])
	}
	if m := containerLimitRe.FindStringSubmatch(s); m != nil {
		ev.setLimit(LimitEviction{Kind: LimitContainerEphemeralStorage, Container: m[1], Limit: m[2]})
		return len(m[0])
	}
	if m := podLimitRe.FindStringSubmatch(s); m != nil {
		ev.setLimit(LimitEviction{Kind: LimitPodEphemeralStorage, Limit: m[1]})
		return len(m[0])
	}
	if m := emptyDirRe.FindStringSubmatch(s); m != nil {
		ev.setLimit(LimitEviction{Kind: LimitEmptyDir, Volume: m[1], Limit: m[2]})
		return len(m[0])
	}
	if lead {
		return 0
	}
	if m := thresholdRe.FindStringSubmatch(s); m != nil {
		ev.Threshold, ev.Available = m[1], m[2]
		return len(m[0])
	}
	if m := usageRe.FindStringSubmatch(s); m != nil {
		ev.Offenders = append(ev.Offenders, ContainerUsage{Name: m[2], Pod: m[1] == "Pod", Usage: m[3], Request: m[4], Resource: m[5]})
		return len(m[0])
	}
	if m := oldUsageRe.FindStringSubmatch(s); m != nil {
		ev.Offenders = append(ev.Offenders, ContainerUsage{Name: m[2], Pod: m[1] == "Pod", Usage: m[3], Request: m[4]})
		return len(m[0])
	}
	return 0
}

// setLimit keeps the first limit part; the kubelet writes only one per message.
func (ev *Eviction) setLimit(l LimitEviction) {
	if ev.Limit == nil {
		ev.Limit = &l
	}
}

// bracketed returns the text inside "[…]" as written by fmt's %v of a condition slice.
func bracketed(s string) (string, bool) {
	if len(s) >= 2 && s[0] == '[' && s[len(s)-1] == ']' {
		return strings.TrimSpace(s[1 : len(s)-1]), true
	}
	return s, false
}

// Annotation keys the kubelet puts on an Evicted event (pkg/kubelet/eviction/helpers.go).
const (
	AnnotationOffendingContainers      = "offending_containers"
	AnnotationOffendingContainersUsage = "offending_containers_usage"
	AnnotationStarvedResource          = "starved_resource"
	AnnotationOffendingPod             = "offending_pod"
	AnnotationOffendingPodUsage        = "offending_pod_usage"
)

// EvictionFromAnnotations reads the machine-readable annotations of an Evicted event. Prefer
// them over the message when present: they are never truncated and do not depend on the
// message's wording, which changed across releases. The container and usage lists are comma-separated and paired by position; starved_resource is
// one resource, but a list with one entry per container is paired the same way. Requests are
// not annotated, so Request stays "". ok is false when none of the keys is present.
func EvictionFromAnnotations(ann map[string]string) (Eviction, bool) {
	starved, hasStarved := ann[AnnotationStarvedResource]
	names, hasNames := ann[AnnotationOffendingContainers]
	pod, hasPod := ann[AnnotationOffendingPod]
	if !hasStarved && !hasNames && !hasPod {
		return Eviction{}, false
	}
	var ev Eviction
	resources := splitList(starved)
	if len(resources) > 0 {
		ev.Resource = resources[0]
	}
	containers := splitList(names)
	usages := splitList(ann[AnnotationOffendingContainersUsage])
	for i, name := range containers {
		u := ContainerUsage{Name: name, Resource: ev.Resource}
		if i < len(usages) {
			u.Usage = usages[i]
		}
		if len(resources) == len(containers) {
			u.Resource = resources[i]
		}
		ev.Offenders = append(ev.Offenders, u)
	}
	if pod = strings.TrimSpace(pod); pod != "" {
		ev.Offenders = append(ev.Offenders, ContainerUsage{
			Name: pod, Pod: true, Usage: strings.TrimSpace(ann[AnnotationOffendingPodUsage]), Resource: ev.Resource,
		})
	}
	return ev, true
}

// splitList splits a comma-separated annotation value, keeping positions (so that names and
// usages stay paired) but returning nil for an empty value.
func splitList(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// taintEvictionRe is the message of a TaintManagerEviction event.
var taintEvictionRe = regexp.MustCompile(`^Marking for deletion Pod ([^/\s]+)/(\S+)$`)

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

// diskSignals are the eviction signals of disk, as kubelets of every release name them.
var diskSignals = map[string]bool{"ephemeral-storage": true, "inodes": true, "nodefs": true, "imagefs": true,
	"nodefs.available": true, "nodefs.inodesFree": true, "imagefs.available": true, "imagefs.inodesFree": true}

// DiskEviction reports whether an eviction's resource or condition is the node's disk.
func DiskEviction(resource, condition string) bool {
	return diskSignals[resource] || strings.Contains(condition, "DiskPressure")
}
