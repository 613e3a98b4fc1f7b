package analysis

// Details is what a symptom's rule read from its evidence. Each symptom kind has a part of its
// own, a struct named after it; a symptom fills the part of its kind and leaves the others
// empty. The parts are embedded so that JSON readers see one flat object, as "details": the
// field names are distinct across the parts (TestDetailsKeysDistinct holds it), since
// encoding/json drops a name two embedded structs share.
//
// Rules that read another rule's details (the causes reading what the symptom rules found) read
// these typed fields: a change of type is a compile error, not a failed assertion.
type Details struct {
	// AtFrom says where a time the analysis borrowed came from, when the symptom's own
	// evidence held none (any kind; see borrowTimes).
	AtFrom string `json:"at_from,omitempty"`
	// Object names the pod of a symptom whose input does not name it (a describe fragment, an
	// events section pasted alone).
	Object string `json:"object,omitempty"`
	// Members is how many symptoms a group stands for.
	Members int `json:"members,omitempty"`
	// Restarts is how many times the container restarted: its restart count
	// (container_restarted, crash_loop_backoff), or the restarts the kubelet made for a failing
	// liveness probe.
	Restarts int `json:"restarts,omitempty"`

	EvictionDetails
	PressureDetails
	OOMDetails
	PendingDetails
	RestartDetails
	ProbeDetails
	ScaleUpDetails
	NotReadyDetails
	PreemptionDetails
}

// EvictionDetails is what an eviction's message says (pod_evicted).
type EvictionDetails struct {
	// Resource is the resource the node was low on ("memory", "ephemeral-storage").
	Resource string `json:"resource,omitempty"`
	// Condition is the node condition or taint the pod was evicted for, when the message
	// names no resource.
	Condition string `json:"condition,omitempty"`
	// Offenders are the containers that used more than they requested.
	Offenders []Offender `json:"offenders,omitempty"`
}

// Offender is a container an eviction message names as using more than its request.
type Offender struct {
	Container string `json:"container"`
	Usage     string `json:"usage"`
	Request   string `json:"request"`
}

// PressureDetails is which pressure a node reported (node_pressure).
type PressureDetails struct {
	// Resources are the pressures, "memory", "disk", "pids", in the order first seen.
	Resources []string `json:"resources,omitempty"`
}

// OOMDetails names the containers the OOM killer ended (oom_killed).
type OOMDetails struct {
	Containers []string `json:"containers,omitempty"`
}

// PendingDetails is the scheduler's or the kubelet's word on a pod that could not run
// (pod_pending).
type PendingDetails struct {
	// Message is the fullest scheduler message read; rules that need all of them read the
	// evidence.
	Message string `json:"message,omitempty"`
	// Refused is the reason the kubelet of the node it was placed on refused the pod
	// ("OutOfcpu", "NodeAffinity"); RefusedResource the resource it lacked, if any.
	Refused         string `json:"refused,omitempty"`
	RefusedResource string `json:"refused_resource,omitempty"`
	// Stuck is what kept a pod placed on a node from starting there (the pod_stuck_creating
	// symptom of the same pod says more): "FailedMount: …".
	Stuck string `json:"stuck,omitempty"`
	// Nodes and Reasons are the scheduler's count of nodes and of nodes per reason.
	Nodes   int            `json:"nodes,omitempty"`
	Reasons map[string]int `json:"reasons,omitempty"`
}

// RestartDetails is a container's restarts and its last termination (container_restarted,
// crash_loop_backoff); the count is Details.Restarts.
type RestartDetails struct {
	Container string `json:"container,omitempty"`
	Reason    string `json:"reason,omitempty"`
	// ExitCode is the last termination's exit code; nil when the input holds no termination.
	ExitCode *int32 `json:"exit_code,omitempty"`
}

// ProbeDetails is what a failing probe's events say (liveness_probe_failed,
// readiness_probe_failed); the restarts it caused are Details.Restarts.
type ProbeDetails struct {
	Failures int    `json:"failures,omitempty"`
	Output   string `json:"output,omitempty"`
}

// ScaleUpDetails is a burst of new nodes and the autoscaler's groups (scale_up).
type ScaleUpDetails struct {
	NodesCreated  int `json:"nodes_created,omitempty"`
	WindowSeconds int `json:"window_seconds,omitempty"`
	// Groups are the node groups scaled, "group from→to" or "group (tried)".
	Groups []string `json:"groups,omitempty"`
}

// NotReadyDetails is the pool of the nodes that were not ready (node_not_ready).
type NotReadyDetails struct {
	Pool string `json:"pool,omitempty"`
}

// PreemptionDetails says what ended a preempted pod (preempted): one of signal's Preemption
// kinds, empty for the scheduler's preemption.
type PreemptionDetails struct {
	By string `json:"by,omitempty"`
}
