package signal

import (
	"regexp"
	"strings"
)

// FailureClass says why the kubelet or a controller ended or refused a pod, in a few
// classes that hold across releases and cloud providers.
type FailureClass string

// Failure classes.
const (
	FailureUnknown FailureClass = "unknown"
	// FailureEviction is the kubelet's eviction for node pressure (or a local-storage limit):
	// reason Evicted, DisruptionTarget TerminationByKubelet with an eviction message.
	FailureEviction FailureClass = "eviction"
	// FailureAPIEviction is an eviction through the Eviction API (kubectl drain, the
	// autoscaler's scale-down): DisruptionTarget EvictionByEvictionAPI.
	FailureAPIEviction FailureClass = "api-eviction"
	// FailurePreemption is a pod ended to make room or because its node went away on
	// purpose; PodFailure.Kind says which (the Preemption… constants).
	FailurePreemption FailureClass = "preemption"
	// FailureAdmission is the kubelet refusing a pod for lack of a resource: OutOfcpu,
	// OutOfmemory, OutOfpods, OutOfephemeral-storage, OutOf<extended resource>, and
	// UnexpectedAdmissionError from the device manager.
	FailureAdmission FailureClass = "admission"
	// FailureNodeAffinity is the kubelet refusing a pod whose node selector or affinity no
	// longer matches its node (NodeAffinity, MatchNodeSelector before 1.2x).
	FailureNodeAffinity FailureClass = "node-affinity"
	// FailureTaintEviction is the taint manager deleting a pod that does not tolerate a
	// NoExecute taint (node not ready or unreachable), or the kubelet refusing one.
	FailureTaintEviction FailureClass = "taint-eviction"
	// FailureLost is a pod or container the kubelet lost track of: ContainerStatusUnknown,
	// a pod of a deleted node (DeletionByPodGC), the old NodeLost. Weak evidence by itself.
	FailureLost FailureClass = "lost"
)

// Kinds of FailurePreemption.
const (
	// PreemptionCriticalPod is the kubelet's preemption to admit a critical pod
	// (pkg/kubelet/preemption/preemption.go): reason Preempting.
	PreemptionCriticalPod = "critical-pod"
	// PreemptionScheduler is the scheduler's preemption for a higher-priority pod: event
	// Preempted, DisruptionTarget PreemptionByScheduler.
	PreemptionScheduler = "scheduler"
	// PreemptionNodeShutdown is graceful node shutdown (pkg/kubelet/nodeshutdown): reason
	// Terminated (Shutdown in 1.21), or NodeShutdown for a pod refused while shutting down.
	// GKE spot and preemptible reclaims reach pods this way; the text cannot tell them apart.
	PreemptionNodeShutdown = "node-shutdown"
	// PreemptionSpot is a node shutdown on a spot or preemptible node, set by OnNode.
	PreemptionSpot = "spot"
)

// PodFailure is the classification of a pod's failure reason and message.
type PodFailure struct {
	Class FailureClass
	Kind  string // the Preemption… kind for FailurePreemption; "" otherwise
	// Resource is the resource the text names: the starved resource of an eviction
	// (normalised by EvictionResource), the insufficient one of an admission refusal.
	Resource string
	// Condition is the node condition of an eviction that names no resource
	// ("The node had condition: [DiskPressure]").
	Condition string
	// Admission reports that the kubelet refused the pod at admission: it never ran there.
	Admission bool
	// Namespace and Name are the pod named by a TaintManagerEviction message; Cancelled is
	// set for "Cancelling deletion of Pod …", after which the pod was not deleted.
	Namespace, Name string
	Cancelled       bool
}

var (
	// outOfResourceRe is the kubelet's "Node didn't have enough resource: cpu, requested: …"
	// (pkg/kubelet/lifecycle/predicate.go InsufficientResourceError).
	outOfResourceRe = regexp.MustCompile(`didn't have enough resource: ([^,\s]+)`)
	// devicesRe is the device manager's refusal: "requested number of devices unavailable for nvidia.com/gpu".
	devicesRe       = regexp.MustCompile(`devices unavailable for (\S+?)\.?(?:\s|$)`)
	taintCancelRe   = regexp.MustCompile(`^Cancelling deletion of Pod ([^/\s]+)/(\S+)`)
	predicateNameRe = regexp.MustCompile(`^Predicate (\w+) failed`)
)

// Texts of graceful node shutdown (pkg/kubelet/nodeshutdown/nodeshutdown_manager_linux.go).
const (
	shutdownMessage       = "Pod was terminated in response to imminent node shutdown."
	shutdownMessage121    = "Node is shutting, evicting pods"
	shutdownRejectMessage = "Pod was rejected as the node is shutting down."
	criticalPodMessage    = "Preempted in order to admit critical pod"
)

// ClassifyPodFailure classifies a pod's failure from a reason and message as the pod status,
// a DisruptionTarget condition, a pod event or kubectl's STATUS column give them (pass ""
// for a message you do not have). The texts are those of pkg/kubelet/lifecycle/predicate.go,
// pkg/kubelet/preemption/preemption.go, pkg/kubelet/nodeshutdown, pkg/kubelet/eviction,
// pkg/controller/tainteviction and the DisruptionTarget reasons of
// staging/src/k8s.io/api/core/v1/types.go. It never fails: unknown texts give FailureUnknown.
func ClassifyPodFailure(reason, message string) PodFailure {
	reason = strings.TrimSpace(reason)
	msg, _ := StripCombined(strings.TrimSpace(message))
	r := strings.ToLower(reason)
	if f, ok := preemptionFailure(r, msg); ok {
		return f
	}
	if f, ok := otherNamedFailure(reason, r, msg); ok {
		return f
	}
	if ev, ok := ParseEviction(msg); ok {
		return evictionFailure(ev)
	}
	if r == "evicted" {
		return PodFailure{Class: FailureEviction}
	}
	if m := predicateNameRe.FindStringSubmatch(msg); m != nil && m[1] == "TaintToleration" {
		return PodFailure{Class: FailureTaintEviction, Admission: true}
	}
	return PodFailure{Class: FailureUnknown}
}

// preemptionFailure classifies the preemptions: by a critical pod, by the scheduler, by a
// node's shutdown. r is the reason in lower case.
func preemptionFailure(r, msg string) (PodFailure, bool) {
	switch {
	case r == "preempting" || strings.HasPrefix(msg, criticalPodMessage):
		return PodFailure{Class: FailurePreemption, Kind: PreemptionCriticalPod}, true
	case r == "preempted" || r == "preemptionbyscheduler" || r == "preemptionbykubescheduler":
		return PodFailure{Class: FailurePreemption, Kind: PreemptionScheduler}, true
	case r == "nodeshutdown" || strings.HasPrefix(msg, shutdownRejectMessage):
		return PodFailure{Class: FailurePreemption, Kind: PreemptionNodeShutdown, Admission: true}, true
	case r == "shutdown" || strings.HasPrefix(msg, shutdownMessage121) ||
		strings.Contains(msg, "imminent node shutdown") ||
		(r == "terminated" && (msg == "" || strings.Contains(strings.ToLower(msg), "shutdown"))):
		return PodFailure{Class: FailurePreemption, Kind: PreemptionNodeShutdown}, true
	}
	return PodFailure{}, false
}

// otherNamedFailure classifies the failures a reason or a message's start names: the taint
// manager's, the Eviction API's, admission's refusals and the pods lost with their node.
func otherNamedFailure(reason, r, msg string) (PodFailure, bool) {
	switch {
	case r == "taintmanagereviction" || r == "deletionbytaintmanager" || r == "tainttoleration" ||
		strings.HasPrefix(msg, "Taint manager:") || strings.HasPrefix(msg, "Marking for deletion Pod ") ||
		strings.HasPrefix(msg, "Cancelling deletion of Pod "):
		return taintFailure(r, msg), true
	case r == "evictionbyevictionapi" || strings.HasPrefix(msg, "Eviction API:"):
		return PodFailure{Class: FailureAPIEviction}, true
	case strings.HasPrefix(reason, "OutOf"):
		return PodFailure{Class: FailureAdmission, Resource: reason[len("OutOf"):], Admission: true}, true
	case outOfResourceRe.MatchString(msg):
		return PodFailure{Class: FailureAdmission, Resource: submatch(outOfResourceRe, msg, 1), Admission: true}, true
	case r == "unexpectedadmissionerror":
		return PodFailure{Class: FailureAdmission, Resource: submatch(devicesRe, msg, 1), Admission: true}, true
	case r == "nodeaffinity" || r == "matchnodeselector" ||
		strings.HasPrefix(msg, "Predicate NodeAffinity failed") || strings.HasPrefix(msg, "Predicate MatchNodeSelector failed"):
		return PodFailure{Class: FailureNodeAffinity, Admission: true}, true
	case r == "containerstatusunknown" || r == "deletionbypodgc" || r == "nodelost" ||
		strings.HasPrefix(msg, "PodGC:") || strings.HasPrefix(msg, "The container could not be located"):
		return PodFailure{Class: FailureLost}, true
	}
	return PodFailure{}, false
}

// taintFailure classifies the taint manager's texts, naming the pod where they do.
func taintFailure(r, msg string) PodFailure {
	f := PodFailure{Class: FailureTaintEviction, Admission: r == "tainttoleration"}
	if ns, name, ok := ParseTaintEviction(msg); ok {
		f.Namespace, f.Name = ns, name
	} else if m := taintCancelRe.FindStringSubmatch(msg); m != nil {
		f.Namespace, f.Name, f.Cancelled = m[1], m[2], true
	}
	return f
}

// evictionFailure turns a parsed eviction message into a PodFailure.
func evictionFailure(ev Eviction) PodFailure {
	f := PodFailure{Class: FailureEviction, Resource: EvictionResource(ev.Resource), Condition: ev.Condition}
	switch {
	case f.Resource != "":
	case ev.Limit != nil:
		f.Resource = "ephemeral-storage"
	case ev.Condition == "MemoryPressure":
		f.Resource = "memory"
	case ev.Condition == "PIDPressure":
		f.Resource = "pids"
	}
	return f
}

// spotLabels are node labels that mark spot or preemptible capacity, with the value that
// does ("" for any value).
var spotLabels = map[string]string{
	"cloud.google.com/gke-spot":             "true",
	"cloud.google.com/gke-preemptible":      "true",
	"eks.amazonaws.com/capacityType":        "SPOT",
	"karpenter.sh/capacity-type":            "spot",
	"kubernetes.azure.com/scalesetpriority": "spot",
}

// IsSpotNode reports whether a node's labels mark it as spot or preemptible capacity: GKE
// (cloud.google.com/gke-spot, gke-preemptible), EKS managed node groups
// (eks.amazonaws.com/capacityType=SPOT), Karpenter, AKS spot pools.
func IsSpotNode(labels map[string]string) bool {
	for k, want := range spotLabels {
		if v, ok := labels[k]; ok && strings.EqualFold(v, want) {
			return true
		}
	}
	return false
}

// OnNode refines a node-shutdown preemption to PreemptionSpot when the labels of the pod's
// node mark spot or preemptible capacity: the cloud reclaimed the VM. Other failures are
// returned unchanged.
func (f PodFailure) OnNode(labels map[string]string) PodFailure {
	if f.Class == FailurePreemption && f.Kind == PreemptionNodeShutdown && !f.Admission && IsSpotNode(labels) {
		f.Kind = PreemptionSpot
	}
	return f
}
