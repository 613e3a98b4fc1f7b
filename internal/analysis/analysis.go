package analysis

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/catalog"
	"github.com/rootline-dev/rootline/internal/change"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/metrics"
)

// DefaultEventTTL is how long kube-apiserver keeps events unless told otherwise (--event-ttl).
const DefaultEventTTL = time.Hour

// Options tune an analysis.
type Options struct {
	// Now is when the inputs were captured, for judging what has expired; zero means the
	// latest time the inputs record.
	Now time.Time
	// EventTTL is the API server's event retention; zero means DefaultEventTTL.
	EventTTL time.Duration
	// CriticalComponents are the component kinds whose pods count as critical (besides pods of
	// the system priority classes); nil means hub, proxy, ingress, DNS, autoscaler, scheduler.
	CriticalComponents []string
	// Changes are what changed in the cluster that the model alone cannot tell: the
	// differences between two snapshots of it (change.Between), found by the caller, which
	// reads the snapshots apart. The rollouts the model's own ReplicaSets tell are added to
	// them (change.History).
	Changes []change.Change
	// Metrics are the series the input holds, when the caller has read them already
	// (metrics.FromObjects of the model's others, which the server keeps with the model); nil
	// reads them from the model.
	Metrics []metrics.Answer
}

// Input is what every rule sees: the model and the options.
type Input struct {
	Model   *cluster.Model
	Options Options
	// components remembers cluster.PodComponent for the run: several rules ask it of every
	// pod, and it was a third of the rules' time on 20,000 pods. Nil (in tests) computes it.
	components map[*cluster.Object]string
	// changes are Options.Changes and the model's own history; replicaSets maps each
	// ReplicaSet ("namespace/name") to its Deployment, read once for the change rules and only
	// when there are changes.
	changes     []Change
	replicaSets map[string]string
	// metrics are the series the input holds (metrics.FromObjects of the model's others), by
	// query name.
	metrics []metrics.Answer
	// cache holds what rules ask of the whole model again and again; nil computes it each time.
	cache *runCache
}

// runCache is what an analysis works out once for all its rules.
type runCache struct {
	podEvents map[string][]*cluster.Object // events about pods, by the pod's name
	parsed    map[string]parsedScheduling  // scheduler messages, parsed (see better)
	messages  *messageCache                // the catalogue's reading of messages
}

// component is cluster.PodComponent of a pod object.
func (in Input) component(o *cluster.Object) string {
	if in.components == nil {
		return cluster.PodComponent(o.Pod)
	}
	c, ok := in.components[o]
	if !ok {
		c = cluster.PodComponent(o.Pod)
		in.components[o] = c
	}
	return c
}

// SymptomRule finds one kind of symptom.
type SymptomRule interface {
	Name() string
	Symptoms(in Input) []Symptom
}

// CauseRule finds one kind of cause among the symptoms found.
type CauseRule interface {
	Name() string
	Causes(in Input, symptoms []Symptom) []Cause
}

// GapRule reports one kind of missing evidence, knowing what was found.
type GapRule interface {
	Name() string
	Gaps(in Input, r *Report) []Gap
}

// Registry is the set of rules an analysis runs.
type Registry struct {
	Symptoms []SymptomRule
	Causes   []CauseRule
	Links    []LinkRule
	Gaps     []GapRule
}

// Run analyses a model with the default rules.
func Run(m *cluster.Model, opts Options) Report {
	return DefaultRegistry().Run(m, opts)
}

// Run analyses a model: symptoms first, then the causes that explain them, then the gaps.
// Symptoms are numbered S1… in time order, causes C1… roots first.
func (r *Registry) Run(m *cluster.Model, opts Options) Report {
	if opts.EventTTL == 0 {
		opts.EventTTL = DefaultEventTTL
	}
	from, to := m.TimeRange()
	if opts.Now.IsZero() {
		opts.Now = to
	}
	in := Input{Model: m, Options: opts, components: map[*cluster.Object]string{}, cache: &runCache{messages: newMessageCache(catalog.Default())}}
	in.metrics = opts.Metrics
	if in.metrics == nil {
		in.metrics, _ = metrics.FromObjects(m.Others)
	}
	in.changes = numberChanges(append(append([]change.Change{}, opts.Changes...), change.History(m.Others)...))
	if len(in.changes) > 0 {
		in.replicaSets = replicaSetOwners(m)
	}
	rep := Report{Inputs: Inputs{Files: len(m.Files), Nodes: len(m.Nodes), Pods: len(m.Pods), Events: len(m.Events)},
		Symptoms: []Symptom{}, Causes: []Cause{}, Gaps: []Gap{}, Changes: in.changes}
	if !from.IsZero() {
		rep.Inputs.From, rep.Inputs.To = &from, &to
	}
	for _, a := range in.metrics {
		rep.Inputs.Series += len(a.Series)
		if !slices.Contains(rep.Inputs.Queries, a.Name) {
			rep.Inputs.Queries = append(rep.Inputs.Queries, a.Name)
		}
	}
	for _, rule := range r.Symptoms {
		rep.Symptoms = append(rep.Symptoms, rule.Symptoms(in)...)
	}
	rep.Symptoms, rep.Context = separateBackground(rep.Symptoms)
	borrowTimes(m, rep.Symptoms)
	sort.SliceStable(rep.Symptoms, func(i, j int) bool { return symptomLess(rep.Symptoms[i], rep.Symptoms[j]) })
	for i := range rep.Symptoms {
		rep.Symptoms[i].ID = fmt.Sprintf("S%d", i+1)
		if rep.Symptoms[i].Objects == nil {
			rep.Symptoms[i].Objects = []ObjectRef{} // "[]" when the input names none, as docs/report-format says
		}
	}
	index := map[string]int{}
	for i, s := range rep.Symptoms {
		index[s.ID] = i
	}
	for _, rule := range r.Causes {
		for _, c := range rule.Causes(in, rep.Symptoms) {
			sort.SliceStable(c.Explains, func(i, j int) bool { return index[c.Explains[i]] < index[c.Explains[j]] })
			c.Evidence = uniqueEvidence(c.Evidence)
			rep.Causes = append(rep.Causes, c)
		}
	}
	applyClaims(in, &rep)
	rep.Causes = mergeCauses(rep.Causes)
	final := groupSymptoms(in, &rep)
	rootChanges(&rep)
	orderCauses(rep.Causes, rep.Symptoms)
	numberCauses(rep.Causes)
	linkChain(in, &rep, r.Links)
	suggestPriority(in, &rep)
	for _, rule := range r.Gaps {
		rep.Gaps = append(rep.Gaps, rule.Gaps(in, &rep)...)
	}
	rep.Gaps = mergeGaps(rep.Gaps)
	resolveReport(&rep, final)
	rep.Summary = summarize(&rep)
	return rep
}

// symptomLess orders symptoms by time (undated last), then kind, then first object.
func symptomLess(a, b Symptom) bool {
	switch {
	case a.At != nil && b.At != nil && !a.At.Equal(*b.At):
		return a.At.Before(*b.At)
	case (a.At == nil) != (b.At == nil):
		return a.At != nil
	case a.Kind != b.Kind:
		return a.Kind < b.Kind
	}
	return firstObject(a) < firstObject(b)
}

func firstObject(s Symptom) string {
	if len(s.Objects) == 0 {
		return ""
	}
	o := s.Objects[0]
	return o.Kind + "/" + o.Namespace + "/" + o.Name
}

// objectLabel names a symptom's first object for people: "pod prod/web-1", "node n-1", or
// unnamedPod when the input does not name it.
func objectLabel(s Symptom) string {
	if len(s.Objects) == 0 || s.Objects[0].Name == "" {
		switch s.Kind {
		case NodeNotReady, NodePressure, NodeOOM, ScaleUp:
			return unnamedNode
		}
		return unnamedPod
	}
	o := s.Objects[0]
	if o.Namespace == "" {
		return strings.ToLower(o.Kind) + " " + o.Name
	}
	return strings.ToLower(o.Kind) + " " + o.Namespace + "/" + o.Name
}

// DefaultRegistry holds every rule Rootline has.
func DefaultRegistry() *Registry {
	r := &Registry{
		Symptoms: []SymptomRule{
			evictedRule{}, lingeringRule{}, pendingRule{}, oomRule{},
			probeRule{probe: "Liveness", kind: LivenessProbeFailed},
			probeRule{probe: "Readiness", kind: ReadinessProbeFailed},
			probeRule{probe: "Startup", kind: StartupProbeFailed},
			crashLoopRule{}, restartedRule{}, imagePullRule{}, preemptedRule{},
			nodeNotReadyRule{}, nodePressureRule{}, scaleUpRule{}, stuckCreatingRule{}, podCreateFailedRule{},
			rolloutStuckRule{}, jobFailedRule{}, volumeProvisioningRule{}, nodeOOMRule{},
		},
		Causes: []CauseRule{
			capacityRule{}, sharedPoolRule{}, sharedPrometheusRule{}, cpuStarvationRule{},
			memoryOverRequestRule{}, scaleUpNotReadyRule{}, schedulingConstraintsRule{},
			memoryLimitRule{}, requestExceedsNodeRule{}, volumeBindingRule{}, overcommitRule{}, nodeDiskRule{}, startFailureRule{},
			changedImageRule{}, loweredMemoryLimitRule{}, cutCPURule{}, tightenedProbeRule{}, movedPlacementRule{},
			cordonedNodeRule{}, taintedNodeRule{}, removedNodeRule{}, movedNeighbourRule{}, missingClassRule{},
		},
		Links: defaultLinks(),
		Gaps:  []GapRule{eventsGap{}, nodesGap{}, messagesGap{}, competingGap{}, quietGap{}},
	}
	r.Causes = append(r.Causes, directRules()...)
	r.Causes = append(r.Causes, tagRules()...)
	return r
}

// uniqueEvidence drops repeated evidence items (one object cited for several symptoms).
func uniqueEvidence(es []Evidence) []Evidence {
	seen := map[Evidence]bool{}
	out := es[:0]
	for _, e := range es {
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out
}
