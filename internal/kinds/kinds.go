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
	// PodStuckCreating: a pod placed on a node that cannot start (its sandbox, network or
	// volumes cannot be set up, or a Secret or ConfigMap it needs is missing).
	PodStuckCreating = "pod_stuck_creating"
	// PodCreateFailed: a controller (ReplicaSet, Job, StatefulSet, DaemonSet) cannot create
	// its pods (a quota, an admission webhook).
	PodCreateFailed = "pod_create_failed"
	// RolloutStuck: a Deployment's rollout stopped progressing (ProgressDeadlineExceeded).
	RolloutStuck = "rollout_stuck"
	// JobFailed: a Job failed (its backoff limit or deadline reached).
	JobFailed = "job_failed"
	// VolumeProvisioningFailed: a PersistentVolumeClaim could not be provisioned or bound.
	VolumeProvisioningFailed = "volume_provisioning_failed"
	// NodeOOM: the kernel's OOM killer ran on a node (SystemOOM), as opposed to a container
	// killed at its own memory limit (oom_killed).
	NodeOOM = "node_oom"
	// StartupProbeFailed: a startup probe failed (the container is killed and restarted when
	// it fails past its threshold, as for a liveness probe, but it says the container did not
	// start in time rather than that a running one stopped answering).
	StartupProbeFailed = "startup_probe_failed"
)

// Symptoms lists every symptom kind.
var Symptoms = []string{PodEvicted, PodPending, OOMKilled, LivenessProbeFailed, ReadinessProbeFailed, CrashLoopBackOff,
	ContainerRestarted, ImagePullFailed, Preempted, NodeNotReady, NodePressure, ScaleUp, EvictedPodsLingering,
	PodStuckCreating, PodCreateFailed, RolloutStuck, JobFailed, VolumeProvisioningFailed, NodeOOM, StartupProbeFailed}

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
	RecentChange          = "recent_change"
	// QuotaExceeded: a ResourceQuota (or a LimitRange) refused the pods a controller made.
	QuotaExceeded = "quota_exceeded"
	// NetworkSetupFailed: the pod's network could not be set up: the CNI plugin is not ready
	// or failed (a sandbox that cannot be made).
	NetworkSetupFailed = "network_setup_failed"
	// IPExhaustion: no IP address was left for the pod (the CNI's IPAM, a subnet, ENIs).
	IPExhaustion = "ip_exhaustion"
	// MissingObject: an object the pod needs does not exist: a Secret, a ConfigMap, a
	// PersistentVolumeClaim or a StorageClass.
	MissingObject = "missing_object"
	// VolumeAttachFailure: a volume could not be attached or mounted on the node
	// (FailedAttachVolume, Multi-Attach, a mount that times out).
	VolumeAttachFailure = "volume_attach_failure"
)

// Causes lists every cause kind.
var Causes = []string{CapacityExhaustion, SharedNodePool, SharedPrometheus, CPUStarvation, MemoryOverRequest, MemoryLimitTooLow,
	NodeOvercommitted, ScaleUpNotReady, SchedulingConstraints, Preemption, NodeDiskExhaustion, RequestExceedsNode, VolumeBinding,
	ImageUnavailable, ContainerStartFailure, RecentChange, QuotaExceeded, NetworkSetupFailed, IPExhaustion, MissingObject,
	VolumeAttachFailure}

// Gap kinds: evidence that is missing, and why. Unlike symptoms and causes, gaps are not kept
// as bits, so this list has no order to keep.
const (
	// GapNoEvents: the input holds no events.
	GapNoEvents = "no_events"
	// GapEventsExpired: the events start after the symptoms, or the input spans more than the
	// API server keeps events for.
	GapEventsExpired = "events_expired"
	// GapNoNodes: the input holds no node objects, so there is no capacity arithmetic.
	GapNoNodes = "no_nodes"
	// GapEventsCombined: events were aggregated and their own messages lost.
	GapEventsCombined = "events_combined"
	// GapMessageTruncated: scheduler messages were cut at the event size limit.
	GapMessageTruncated = "message_truncated"
	// GapCompetingCauses: a symptom is explained by two causes the input cannot tell apart.
	GapCompetingCauses = "competing_causes"
	// GapRestartUnexplained: a container restarted with nothing in the input to say why.
	GapRestartUnexplained = "restart_unexplained"
	// GapMixedIncidents: a document describes several incidents, so no cause is drawn from it.
	GapMixedIncidents = "mixed_incidents"
	// GapFileSkipped, GapFileTruncated, GapFileProse: a file given to `rootline analyze` was
	// not read, was cut short, or held only prose.
	GapFileSkipped   = "file_skipped"
	GapFileTruncated = "file_truncated"
	GapFileProse     = "file_prose"
	// GapFileNoMessage: a text file given to `rootline analyze` held no message of a
	// Kubernetes component, and no kubectl output, that Rootline knows.
	GapFileNoMessage = "file_no_message"
	// GapNoSymptoms: the input shows no symptom of any kind.
	GapNoSymptoms = "no_symptoms"
)

// Gaps lists every gap kind.
var Gaps = []string{GapNoEvents, GapEventsExpired, GapNoNodes, GapEventsCombined, GapMessageTruncated, GapCompetingCauses,
	GapRestartUnexplained, GapMixedIncidents, GapFileSkipped, GapFileTruncated, GapFileProse, GapFileNoMessage, GapNoSymptoms}

// MissingEvidence reports whether a gap kind is evidence that would decide between causes had
// the input held it (as opposed to a note on how the input was read).
func MissingEvidence(gap string) bool {
	switch gap {
	case GapNoEvents, GapEventsExpired, GapCompetingCauses, GapRestartUnexplained, GapFileTruncated:
		return true
	}
	return false
}

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

// names are the kinds' names for people: what a page shows, the id small beside it.
var names = map[string]string{
	PodEvicted:               "Pod evicted",
	PodPending:               "Pod pending",
	OOMKilled:                "Container OOM-killed",
	LivenessProbeFailed:      "Liveness probe failed",
	ReadinessProbeFailed:     "Readiness probe failed",
	CrashLoopBackOff:         "Crash loop",
	ContainerRestarted:       "Container restarted",
	ImagePullFailed:          "Image pull failed",
	Preempted:                "Pod preempted",
	NodeNotReady:             "Node not ready",
	NodePressure:             "Node under pressure",
	ScaleUp:                  "Node scale-up",
	EvictedPodsLingering:     "Evicted pods left behind",
	PodStuckCreating:         "Pod stuck creating",
	PodCreateFailed:          "Pods not created",
	RolloutStuck:             "Rollout stuck",
	JobFailed:                "Job failed",
	VolumeProvisioningFailed: "Volume not provisioned",
	NodeOOM:                  "Node out of memory",
	StartupProbeFailed:       "Startup probe failed",

	CapacityExhaustion:    "Capacity exhausted",
	SharedNodePool:        "Shared node pool",
	SharedPrometheus:      "Shared Prometheus",
	CPUStarvation:         "CPU starvation",
	MemoryOverRequest:     "Memory over request",
	MemoryLimitTooLow:     "Memory limit too low",
	NodeOvercommitted:     "Node overcommitted",
	ScaleUpNotReady:       "New nodes not ready",
	SchedulingConstraints: "Scheduling constraints",
	Preemption:            "Preemption",
	NodeDiskExhaustion:    "Node disk full",
	RequestExceedsNode:    "Request larger than any node",
	VolumeBinding:         "Volume binding",
	ImageUnavailable:      "Image unavailable",
	ContainerStartFailure: "Container cannot start",
	RecentChange:          "Recent change",
	QuotaExceeded:         "Quota exceeded",
	NetworkSetupFailed:    "Pod network not set up",
	IPExhaustion:          "IP addresses exhausted",
	MissingObject:         "Missing object",
	VolumeAttachFailure:   "Volume not attached",

	GapNoEvents:           "No events",
	GapEventsExpired:      "Events expired",
	GapNoNodes:            "No nodes",
	GapEventsCombined:     "Events combined",
	GapMessageTruncated:   "Message truncated",
	GapCompetingCauses:    "Competing causes",
	GapRestartUnexplained: "Restart unexplained",
	GapMixedIncidents:     "Several incidents",
	GapFileSkipped:        "File skipped",
	GapFileTruncated:      "File truncated",
	GapFileProse:          "File of prose",
	GapFileNoMessage:      "No known message",
	GapNoSymptoms:         "No symptoms",
}

// Name names a symptom, cause or gap kind for people ("Capacity exhausted" for
// capacity_exhaustion); a kind it does not know, as it is written. Pages show the name with
// the kind small beside it; the report's JSON keeps the kind.
func Name(kind string) string {
	if n, ok := names[kind]; ok {
		return n
	}
	return kind
}
