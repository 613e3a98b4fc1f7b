package analysis

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

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
	// changes are Options.Changes and the model's own history.
	changes []Change
	// metrics are the series the input holds (metrics.FromObjects of the model's others), by
	// query name.
	metrics []metrics.Answer
	// memo holds what rules ask of the whole model again and again (Once); nil computes it each
	// time.
	memo map[any]any
}

// Changes are what changed in the cluster: Options.Changes and the rollouts the model's own
// ReplicaSets tell, numbered C-1… in time order.
func (in Input) Changes() []Change { return in.changes }

// Metrics are the series the input holds, by query name: Options.Metrics, or those read from
// the model.
func (in Input) Metrics() []metrics.Answer { return in.metrics }

// Once returns what make gives for key, made once a run: the indexes and readings that several
// rules ask of the whole model (events by pod, the catalogue's reading of messages). A key is a
// value of a type of the asking package's own, so that two packages never share one. Without a
// run (an Input made by hand, in tests) it makes it each time.
func Once[T any](in Input, key any, make func() T) T {
	if in.memo == nil {
		return make()
	}
	if v, ok := in.memo[key]; ok {
		return v.(T)
	}
	v := make()
	in.memo[key] = v
	return v
}

// Component is cluster.PodComponent of a pod object, worked out once a run.
func (in Input) Component(o *cluster.Object) string {
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

// defaultCriticalComponents are the components whose loss users feel at once.
var defaultCriticalComponents = []string{cluster.ComponentHub, cluster.ComponentProxy, cluster.ComponentIngress,
	cluster.ComponentDNS, cluster.ComponentAutoscaler, cluster.ComponentScheduler}

// Critical reports whether a pod is critical: one of the options' critical components, or
// running with a system priority class.
func (in Input) Critical(o *cluster.Object) bool {
	comps := in.Options.CriticalComponents
	if comps == nil {
		comps = defaultCriticalComponents
	}
	return cluster.SystemCritical(o.Pod) || slices.Contains(comps, in.Component(o))
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

// ReportRule amends the whole report once its chain is linked: a suggestion that depends on
// which cause explains which symptom.
type ReportRule interface {
	Name() string
	Amend(in Input, r *Report)
}

// Registry is the set of rules an analysis runs.
type Registry struct {
	Symptoms []SymptomRule
	Causes   []CauseRule
	// Roles settle the causes' roles once they are merged and grouped, before they are
	// ordered (roots first) and numbered.
	Roles []ReportRule
	Links []LinkRule
	// Amends amend the report once its chain is linked.
	Amends []ReportRule
	Gaps   []GapRule
	// Observe, when set, is told after each rule of a run how long it took, by the rule's
	// Name, and likewise the engine's own steps (EngineStep, LinkStep): what each costs at
	// scale (BenchmarkRules). A rule that asks Once for an index first pays for making it.
	Observe func(name string, took time.Duration)
}

// The names Observe is given for the engine's own work: the setting of the input (the
// changes, the series) and of the report (claims, merging, grouping, numbering, summary),
// and the linking of the chain, whose link rules are timed together.
const (
	EngineStep = "(engine)"
	LinkStep   = "(links)"
)

// clock returns a function that tells Observe the time since clock, or since its last call,
// under the name it is given; it does nothing when Observe is nil.
func (r *Registry) clock() func(name string) {
	if r.Observe == nil {
		return func(string) {}
	}
	last := time.Now()
	return func(name string) {
		now := time.Now()
		r.Observe(name, now.Sub(last))
		last = now
	}
}

// NewInput is the input a run gives its rules: the options' defaults filled in (the event
// retention, the time of capture), the series read, the changes numbered, and a memo for Once
// and Component. Run makes one; a benchmark that times one rule alone makes its own.
func NewInput(m *cluster.Model, opts Options) Input {
	if opts.EventTTL == 0 {
		opts.EventTTL = DefaultEventTTL
	}
	if opts.Now.IsZero() {
		_, opts.Now = m.TimeRange()
	}
	in := Input{Model: m, Options: opts, components: map[*cluster.Object]string{}, memo: map[any]any{}}
	in.metrics = opts.Metrics
	if in.metrics == nil {
		in.metrics, _ = metrics.FromObjects(m.Others)
	}
	in.changes = numberChanges(append(append([]change.Change{}, opts.Changes...), change.History(m.Others)...))
	return in
}

// Run analyses a model: symptoms first, then the causes that explain them, then the gaps.
// Symptoms are numbered S1… in time order, causes C1… roots first.
func (r *Registry) Run(m *cluster.Model, opts Options) Report {
	clock := r.clock()
	in := NewInput(m, opts)
	from, to := m.TimeRange()
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
	clock(EngineStep)
	for _, rule := range r.Symptoms {
		rep.Symptoms = append(rep.Symptoms, rule.Symptoms(in)...)
		clock(rule.Name())
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
			c.Evidence = Unique(c.Evidence)
			rep.Causes = append(rep.Causes, c)
		}
		clock(rule.Name())
	}
	applyClaims(in, &rep)
	rep.Causes = mergeCauses(rep.Causes)
	final := groupSymptoms(in, &rep)
	clock(EngineStep)
	for _, rule := range r.Roles {
		rule.Amend(in, &rep)
		clock(rule.Name())
	}
	orderCauses(rep.Causes, rep.Symptoms)
	numberCauses(rep.Causes)
	linkChain(in, &rep, r.Links)
	clock(LinkStep)
	for _, rule := range r.Amends {
		rule.Amend(in, &rep)
		clock(rule.Name())
	}
	for _, rule := range r.Gaps {
		rep.Gaps = append(rep.Gaps, rule.Gaps(in, &rep)...)
		clock(rule.Name())
	}
	rep.Gaps = mergeGaps(rep.Gaps)
	resolveReport(&rep, final)
	rep.Summary = summarize(&rep)
	clock(EngineStep)
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

// Label names a symptom's first object for people: "pod prod/web-1", "node n-1", or
// UnnamedPod when the input does not name it.
func (s Symptom) Label() string {
	if len(s.Objects) == 0 || s.Objects[0].Name == "" {
		switch s.Kind {
		case NodeNotReady, NodePressure, NodeOOM, ScaleUp:
			return UnnamedNode
		}
		return UnnamedPod
	}
	o := s.Objects[0]
	if o.Namespace == "" {
		return strings.ToLower(o.Kind) + " " + o.Name
	}
	return strings.ToLower(o.Kind) + " " + o.Namespace + "/" + o.Name
}

// Unique drops repeated items, keeping the first of each in place: the names, ids and evidence
// a rule or the engine gathers in the order it found them.
func Unique[T comparable](items []T) []T {
	seen := make(map[T]bool, len(items))
	out := items[:0]
	for _, it := range items {
		if !seen[it] {
			seen[it] = true
			out = append(out, it)
		}
	}
	return out
}
