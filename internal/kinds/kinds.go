// Package kinds is Rootline's vocabulary as its report format, its API and its pages name it:
// the kinds of symptom, of cause and of platform component. Every package that needs them takes
// them from here (analysis finds them, cluster recognises components, the store keeps sets of
// them, the pages and the generated library list them), so that a new kind is added once.
//
// The lists only ever grow at the end: the store keeps an incident's kinds as a set of bits by
// position in these lists, and its tests pin the positions.
package kinds

// Symptom kinds: what users of the cluster felt, or its direct sign.
const (
	PodEvicted           = "pod_evicted"
	PodPending           = "pod_pending"
	OOMKilled            = "oom_killed"
	LivenessProbeFailed  = "liveness_probe_failed"
	ReadinessProbeFailed = "readiness_probe_failed"
	CrashLoopBackOff     = "crash_loop_backoff"
	ContainerRestarted   = "container_restarted"
	ImagePullFailed      = "image_pull_failed"
	Preempted            = "preempted"
	NodeNotReady         = "node_not_ready"
	NodePressure         = "node_pressure"
	ScaleUp              = "scale_up"
	EvictedPodsLingering = "evicted_pods_lingering"
)

// Symptoms lists every symptom kind.
var Symptoms = []string{PodEvicted, PodPending, OOMKilled, LivenessProbeFailed, ReadinessProbeFailed, CrashLoopBackOff,
	ContainerRestarted, ImagePullFailed, Preempted, NodeNotReady, NodePressure, ScaleUp, EvictedPodsLingering}

// Cause kinds: why the symptoms happened.
const (
	CapacityExhaustion    = "capacity_exhaustion"
	SharedNodePool        = "shared_node_pool"
	SharedPrometheus      = "shared_prometheus"
	CPUStarvation         = "cpu_starvation"
	MemoryOverRequest     = "memory_over_request"
	MemoryLimitTooLow     = "memory_limit_too_low"
	NodeOvercommitted     = "node_overcommitted"
	ScaleUpNotReady       = "scale_up_not_ready"
	SchedulingConstraints = "scheduling_constraints"
	Preemption            = "preemption"
	NodeDiskExhaustion    = "node_disk_exhaustion"
	RequestExceedsNode    = "request_exceeds_node"
	VolumeBinding         = "volume_binding"
	ImageUnavailable      = "image_unavailable"
	ContainerStartFailure = "container_start_failure"
)

// Causes lists every cause kind.
var Causes = []string{CapacityExhaustion, SharedNodePool, SharedPrometheus, CPUStarvation, MemoryOverRequest, MemoryLimitTooLow,
	NodeOvercommitted, ScaleUpNotReady, SchedulingConstraints, Preemption, NodeDiskExhaustion, RequestExceedsNode, VolumeBinding,
	ImageUnavailable, ContainerStartFailure}

// Component kinds: the parts of a platform an incident involves. People may name others.
const (
	NodePool   = "NodePool"
	Prometheus = "Prometheus"
	Hub        = "Hub"
	Proxy      = "Proxy"
	Ingress    = "Ingress"
	DNS        = "DNS"
	Autoscaler = "Autoscaler"
	Scheduler  = "Scheduler"
	Database   = "Database"
)

// Components lists every component kind.
var Components = []string{NodePool, Prometheus, Hub, Proxy, Ingress, DNS, Autoscaler, Scheduler, Database}

// componentWords names component kinds for people, where the kind is not a word.
var componentWords = map[string]string{NodePool: "Node pool"}

// ComponentWord names a component kind for people: "Node pool" for NodePool; any other kind,
// listed or not, as it is written.
func ComponentWord(kind string) string {
	if w, ok := componentWords[kind]; ok {
		return w
	}
	return kind
}
