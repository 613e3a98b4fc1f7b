package signal

import (
	"regexp"
	"strings"
)

// ReasonCount is one "<count> <reason>" item of a scheduler or autoscaler diagnosis.
type ReasonCount struct {
	Count  int
	Reason string // as written minus the count, e.g. "Insufficient cpu"
}

// Taint is the taint named by a scheduler reason. Value may be "".
type Taint struct {
	Key, Value string
}

// ReasonClass is a small vocabulary of scheduling reasons for analysis rules, stable across
// the wordings of different Kubernetes releases.
type ReasonClass string

// Reason classes.
const (
	ClassInsufficient   ReasonClass = "insufficient"    // "Insufficient cpu"
	ClassTooManyPods    ReasonClass = "too-many-pods"   // "Too many pods", older "Insufficient pods"
	ClassTaint          ReasonClass = "taint"           // every taint wording
	ClassAffinity       ReasonClass = "affinity"        // node affinity or node selector
	ClassPodAffinity    ReasonClass = "pod-affinity"    // inter-pod affinity and anti-affinity
	ClassTopologySpread ReasonClass = "topology-spread" // pod topology spread constraints
	ClassUnschedulable  ReasonClass = "unschedulable"   // cordoned nodes
	ClassVolume         ReasonClass = "volume"          // PV/PVC binding, volume zone or node affinity
	// ClassNodeCondition is the 1.9–1.12 wording of node conditions ("node(s) had memory
	// pressure", "node(s) were not ready"); later releases express them as taints.
	ClassNodeCondition ReasonClass = "node-condition"
	ClassOther         ReasonClass = "other"
)

// taintRe matches the "{<key>: <value>}" of the 2020+ taint reasons.
var taintRe = regexp.MustCompile(`\{([^{}:]+):\s?([^{}]*)\}`)

// Class maps the reason to its class. The order of the checks matters: a taint is a taint
// whatever its key says (node.kubernetes.io/memory-pressure), and "volume node affinity
// conflict" is a volume problem, not a node-affinity one.
func (r ReasonCount) Class() ReasonClass {
	s := strings.ToLower(strings.TrimSpace(r.Reason))
	switch {
	case s == "too many pods" || s == "insufficient pods":
		return ClassTooManyPods
	case strings.HasPrefix(s, "insufficient ") || strings.HasPrefix(s, "podexceedsfree") || s == "podfitsresources":
		// PodFitsResources is the pre-1.10 predicate for requests no node had room for.
		return ClassInsufficient
	case strings.Contains(s, "taint"):
		return ClassTaint
	case containsAny(s, "volume", "pvc", "disk conflict", "nodiskconflict", "free storage"):
		return ClassVolume
	case containsAny(s, "pod affinity", "anti-affinity", "podaffinity", "antiaffinity"):
		return ClassPodAffinity
	case strings.Contains(s, "spread"):
		return ClassTopologySpread
	case containsAny(s, "affinity", "selector"):
		return ClassAffinity
	case strings.Contains(s, "unschedulable"):
		return ClassUnschedulable
	case containsAny(s, "pressure", "not ready", "notready", "out of disk", "outofdisk",
		"network unavailable", "networkunavailable", "checknodecondition"):
		return ClassNodeCondition
	}
	return ClassOther
}

// Resource returns the resource of an insufficient-resource reason: "Insufficient cpu" gives
// "cpu", "Insufficient nvidia.com/gpu" gives "nvidia.com/gpu", and "Too many pods" gives
// "pods". It returns "" for other reasons.
func (r ReasonCount) Resource() string {
	s := strings.TrimSpace(r.Reason)
	if rest, ok := strings.CutPrefix(s, "Insufficient "); ok {
		return strings.TrimSpace(rest)
	}
	switch strings.ToLower(s) {
	case "too many pods":
		return "pods"
	case "podexceedsfreecpu":
		return "cpu"
	case "podexceedsfreememory":
		return "memory"
	}
	return ""
}

// Taint returns the taint named by the reason, from "node(s) had taint {k: v}, that the pod
// didn't tolerate" and "node(s) had untolerated taint {k: v}". The oldest wording ("had
// taints that the pod didn't tolerate") and the newest ("had untolerated taint(s)", since
// kubernetes PR #134740) name no taint: ok is false although Class is ClassTaint.
func (r ReasonCount) Taint() (Taint, bool) {
	if r.Class() != ClassTaint {
		return Taint{}, false
	}
	m := taintRe.FindStringSubmatch(r.Reason)
	if m == nil {
		return Taint{}, false
	}
	tn := Taint{Key: strings.TrimSpace(m[1]), Value: strings.TrimSpace(m[2])}
	return tn, tn.Key != ""
}

// containsAny reports whether s contains any of the substrings.
func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
