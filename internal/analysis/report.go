// Package analysis turns a cluster model into a report: the symptoms users felt, the causes
// that explain them, the evidence behind each, and the evidence that is missing. It is a pure
// function of the model (Run), with one rule per file and a registry; it never reads a
// database or an API server, so the same analysis serves `rootline analyze` and the server.
package analysis

import (
	"time"

	"github.com/rootline-dev/rootline/internal/change"
	"github.com/rootline-dev/rootline/internal/cluster"
	vocab "github.com/rootline-dev/rootline/internal/kinds"
	"github.com/rootline-dev/rootline/internal/signal"
)

// Report is the analysis, in the JSON shape docs/report-format.md describes.
type Report struct {
	Inputs   Inputs    `json:"inputs"`
	Symptoms []Symptom `json:"symptoms"`
	Causes   []Cause   `json:"causes"`
	Gaps     []Gap     `json:"gaps"`
	// Claims are what people wrote in the input about why things happened: listed for the
	// reader, never counted as observed evidence.
	Claims []ClaimRef `json:"claims,omitempty"`
	// Context is what the input shows that is not a symptom of the incident, and why.
	Context []ContextNote `json:"context,omitempty"`
	// Changes are what changed in the cluster as the analysis read it (Options.Changes and the
	// rollouts the input's ReplicaSets tell), numbered X1… in time order; a recent_change
	// cause names those it stands on (Cause.Changes).
	Changes []Change `json:"changes,omitempty"`
	// Summary is the report in a few sentences, with one ranked list of changes for the whole
	// incident: what the pages, the text report and the exports lead with. Nil when the report
	// has no symptom.
	Summary *Summary `json:"summary,omitempty"`
}

// Change is a change to the cluster the analysis read, with its id.
type Change struct {
	ID string `json:"id"`
	change.Change
}

// Inputs summarises what was analysed.
type Inputs struct {
	Files  int        `json:"files"`
	Nodes  int        `json:"nodes"`
	Pods   int        `json:"pods"`
	Events int        `json:"events"`
	From   *time.Time `json:"from,omitempty"`
	To     *time.Time `json:"to,omitempty"`
	// Series is how many metric series the input holds, and Queries the queries they answer.
	Series  int      `json:"series,omitempty"`
	Queries []string `json:"queries,omitempty"`
}

// ObjectRef names a Kubernetes object.
type ObjectRef struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

// String names the object for people: "Pod prod/hub-1", "Node core-1".
func (o ObjectRef) String() string {
	if o.Namespace == "" {
		return o.Kind + " " + o.Name
	}
	return o.Kind + " " + o.Namespace + "/" + o.Name
}

// Evidence points back into the input: the file and line, the object, and the field and value
// that show what is claimed.
type Evidence struct {
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
	// Object is the object the evidence shows, for the code that reads evidence (the timeline,
	// the pictures, the histories): zero for a metric's and the author's. Metric is the query
	// of a metric's evidence. Ref says the same for people ("Pod prod/hub-1", "Metric
	// container_throttling{…}"); it is made with them and never read back.
	Object ObjectRef `json:"object,omitzero"`
	Metric string    `json:"metric,omitempty"`
	Ref    string    `json:"ref"`
	// Condition is the type of the status condition Field names, when it names one.
	Condition string `json:"condition,omitempty"`
	Field     string `json:"field,omitempty"`
	Value     string `json:"value,omitempty"`
}

// Symptom kinds: see internal/kinds, the vocabulary's one home.
const (
	PodEvicted               = vocab.PodEvicted
	PodPending               = vocab.PodPending
	OOMKilled                = vocab.OOMKilled
	LivenessProbeFailed      = vocab.LivenessProbeFailed
	ReadinessProbeFailed     = vocab.ReadinessProbeFailed
	StartupProbeFailed       = vocab.StartupProbeFailed
	CrashLoopBackOff         = vocab.CrashLoopBackOff
	ContainerRestarted       = vocab.ContainerRestarted
	ImagePullFailed          = vocab.ImagePullFailed
	Preempted                = vocab.Preempted
	NodeNotReady             = vocab.NodeNotReady
	NodePressure             = vocab.NodePressure
	ScaleUp                  = vocab.ScaleUp
	EvictedPodsLingering     = vocab.EvictedPodsLingering
	PodStuckCreating         = vocab.PodStuckCreating
	PodCreateFailed          = vocab.PodCreateFailed
	RolloutStuck             = vocab.RolloutStuck
	JobFailed                = vocab.JobFailed
	VolumeProvisioningFailed = vocab.VolumeProvisioningFailed
	NodeOOM                  = vocab.NodeOOM
)

// SymptomKinds lists every symptom kind (kinds.Symptoms).
var SymptomKinds = vocab.Symptoms

// Symptom is something users of the cluster felt, or its direct sign.
type Symptom struct {
	ID       string      `json:"id"`
	Kind     string      `json:"kind"`
	At       *time.Time  `json:"at,omitempty"`
	Node     string      `json:"node,omitempty"`
	Objects  []ObjectRef `json:"objects"`
	Summary  string      `json:"summary"`
	Evidence []Evidence  `json:"evidence"`
	// Details holds what the rule read from the evidence, in the part of its kind.
	Details Details `json:"details,omitzero"`
	// Reason is what the members of a group have in common beyond their kind: the resource a
	// pod was evicted for, the scheduler's first reason, the probe's failure.
	Reason string `json:"reason,omitempty"`
	// Until is the time of the group's last member, when it differs from At.
	Until *time.Time `json:"until,omitempty"`
	// Count is how many pods or nodes the symptom stands for.
	Count int `json:"count"`
	// Workloads and Pools say which workloads and node pools a group's members belong to, most
	// members first.
	Workloads []Share `json:"workloads,omitempty"`
	Pools     []Share `json:"pools,omitempty"`
	// Critical is set when a member is a critical component (the hub, DNS, an ingress, …).
	Critical bool `json:"critical,omitempty"`
	// Severity orders symptoms worst first, the same in every view; higher is worse.
	Severity int `json:"severity"`
	// Members are the symptoms a group stands for, each with its own time, objects and
	// evidence; empty when the symptom is one fact.
	Members []Symptom `json:"members,omitempty"`
	// Pod is the pod object the symptom is about, when there is one (a pod the input does not
	// name cannot be looked up by its name): for the cause rules, not the report.
	Pod *cluster.Object `json:"-"`
	// formerID is a lone symptom's id before the groups are numbered.
	formerID string
}

// Cause kinds: see internal/kinds.
const (
	CapacityExhaustion    = vocab.CapacityExhaustion
	SharedNodePool        = vocab.SharedNodePool
	SharedPrometheus      = vocab.SharedPrometheus
	CPUStarvation         = vocab.CPUStarvation
	MemoryOverRequest     = vocab.MemoryOverRequest
	MemoryLimitTooLow     = vocab.MemoryLimitTooLow
	NodeOvercommitted     = vocab.NodeOvercommitted
	ScaleUpNotReady       = vocab.ScaleUpNotReady
	SchedulingConstraints = vocab.SchedulingConstraints
	Preemption            = vocab.Preemption
	NodeDiskExhaustion    = vocab.NodeDiskExhaustion
	RequestExceedsNode    = vocab.RequestExceedsNode
	VolumeBinding         = vocab.VolumeBinding
	ImageUnavailable      = vocab.ImageUnavailable
	ContainerStartFailure = vocab.ContainerStartFailure
	RecentChange          = vocab.RecentChange
	QuotaExceeded         = vocab.QuotaExceeded
	NetworkSetupFailed    = vocab.NetworkSetupFailed
	IPExhaustion          = vocab.IPExhaustion
	MissingObject         = vocab.MissingObject
	VolumeAttachFailure   = vocab.VolumeAttachFailure
)

// CauseKinds lists every cause kind (kinds.Causes).
var CauseKinds = vocab.Causes

// Cause roles.
const (
	Root         = "root"
	Contributing = "contributing"
)

// Component is a part of the platform a cause involves (a node pool, Prometheus, the hub).
type Component struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
}

// Cause explains symptoms.
type Cause struct {
	ID         string      `json:"id"`
	Kind       string      `json:"kind"`
	Role       string      `json:"role"`
	Confidence float64     `json:"confidence"`
	Explains   []string    `json:"explains"`
	Components []Component `json:"components"`
	Summary    string      `json:"summary"`
	Evidence   []Evidence  `json:"evidence"`
	Missing    []string    `json:"missing,omitempty"`
	// Against is evidence that speaks against the cause (a metric that contradicts it), each
	// item saying why; the cause's confidence is lowered for each.
	Against []Evidence `json:"against,omitempty"`
	// Changes are the ids of the changes (Report.Changes) a recent_change cause stands on.
	Changes []string `json:"changes,omitempty"`
	// Links say why each id of Explains follows from this cause, one link per id that is a
	// cause or that the cause reaches through a cause: the edges of the causal chain.
	Links []Link `json:"links,omitempty"`
	// Suggestions are the changes the evidence points to, each with the evidence it came from.
	Suggestions []Suggestion `json:"suggestions,omitempty"`
	// Count is how many causes of one kind this cause stands for (one per pod or node found by
	// the rule); Members lists them when there are several.
	Count   int     `json:"count"`
	Members []Cause `json:"members,omitempty"`

	// What a rule tells the engine beside the report, which the engine reads and the report
	// does not carry:

	// Follows are the symptoms the cause builds on (the scale-up that multiplied Prometheus's
	// scrape targets), and FollowWhy says how: the chain links their causes to this one.
	Follows   []string `json:"-"`
	FollowWhy string   `json:"-"`
	// Nodes are the nodes the cause is about, where it is about nodes.
	Nodes []string `json:"-"`
	// Pod is the pod a cause of one pod is about, for the rules that weigh its metrics.
	Pod *cluster.Object `json:"-"`
}

// Link is an edge of the causal chain: the cause it starts from leads to To (a cause or a
// symptom id) because of Why.
type Link struct {
	To  string `json:"to"`
	Why string `json:"why"`
}

// Suggestion is a change that would have prevented or shortened the incident, computed from the
// evidence, with the evidence it came from.
type Suggestion struct {
	Change   string     `json:"change"`
	Evidence []Evidence `json:"evidence,omitempty"`
	// Action is what the change does (one of the Action constants), and Targets the objects it
	// changes: two causes suggesting the same action on the same object suggest one change.
	Action  string      `json:"action,omitempty"`
	Targets []ObjectRef `json:"targets,omitempty"`
	// Nodes is how many nodes an add_nodes change adds.
	Nodes int `json:"nodes,omitempty"`
}

// Actions of suggestions.
const (
	// ActionAddNodes: more nodes in a pool (Targets: the pool, as kind NodePool).
	ActionAddNodes = "add_nodes"
	// ActionPriorityClass: a PriorityClass for a workload.
	ActionPriorityClass = "priority_class"
	// ActionIsolate: heavy workloads kept off the nodes of critical ones (Targets: the heavy).
	ActionIsolate = "isolate"
	// ActionMemoryRequest, ActionCPURequest: a container's request raised.
	ActionMemoryRequest = "raise_memory_request"
	ActionCPURequest    = "raise_cpu_request"
)

// Share is a name and how many members of a group it has.
type Share struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// Gap kinds: see internal/kinds.
const (
	GapNoEvents           = vocab.GapNoEvents
	GapEventsExpired      = vocab.GapEventsExpired
	GapNoNodes            = vocab.GapNoNodes
	GapEventsCombined     = vocab.GapEventsCombined
	GapMessageTruncated   = vocab.GapMessageTruncated
	GapCompetingCauses    = vocab.GapCompetingCauses
	GapRestartUnexplained = vocab.GapRestartUnexplained
	GapMixedIncidents     = vocab.GapMixedIncidents
	GapFileSkipped        = vocab.GapFileSkipped
	GapFileTruncated      = vocab.GapFileTruncated
	GapFileProse          = vocab.GapFileProse
	GapFileNoMessage      = vocab.GapFileNoMessage
	GapNoSymptoms         = vocab.GapNoSymptoms
)

// Gap is evidence that is missing, and why.
type Gap struct {
	Kind    string `json:"kind,omitempty"`
	Summary string `json:"summary"`
	// Count is how many gaps of one kind this one stands for; Members lists them.
	Count   int   `json:"count,omitempty"`
	Members []Gap `json:"members,omitempty"`
}

// MissingEvidence reports whether the gap is evidence that would decide between causes, had the
// input held it, rather than a note on how the input was read.
func (g Gap) MissingEvidence() bool { return vocab.MissingEvidence(g.Kind) }

// Scheduling parses the scheduler's message of a pod_pending symptom; ok is false for
// other symptoms and for messages that do not parse.
func (s Symptom) Scheduling() (sch signal.Scheduling, msg string, ok bool) {
	if s.Kind != PodPending {
		return sch, "", false
	}
	msg = s.Details.Message
	sch, ok = signal.ParseFailedScheduling(msg)
	return sch, msg, ok
}

// UnnamedPod is how summaries speak of a pod the input does not name.
const UnnamedPod = "a pod the input does not name"

// UnnamedNode stands for the node of a node's symptom whose input does not name it.
const UnnamedNode = "a node the input does not name"
