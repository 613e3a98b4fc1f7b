package analysis

import (
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
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
	// components is cluster.PodComponent of every pod of the model, worked out once a run:
	// several rules ask it of every pod, and it was a third of the rules' time on 20,000 pods.
	// Read only once made, so that rules running at once share it. Nil (in tests) computes it.
	components map[*cluster.Object]string
	// changes are Options.Changes and the model's own history.
	changes []Change
	// metrics are the series the input holds (metrics.FromObjects of the model's others), by
	// query name.
	metrics []metrics.Answer
	// memo holds what rules ask of the whole model again and again (Once); nil computes it each
	// time.
	memo *memo
}

// memo is a run's Once values by key. The rules of a run run at once, on several goroutines:
// each value is made once, by the first rule to ask, and the others wait for it.
type memo struct {
	mu      sync.Mutex
	entries map[any]*memoEntry
}

type memoEntry struct {
	once sync.Once
	v    any
}

func newMemo() *memo { return &memo{entries: map[any]*memoEntry{}} }

// Changes are what changed in the cluster: Options.Changes and the rollouts the model's own
// ReplicaSets tell, numbered C-1… in time order.
func (in Input) Changes() []Change { return in.changes }

// Metrics are the series the input holds, by query name: Options.Metrics, or those read from
// the model.
func (in Input) Metrics() []metrics.Answer { return in.metrics }

// Once returns what make gives for key, made once for a run's symptom and cause rules: the
// indexes and readings that several rules ask of the whole model (events by pod, the
// catalogue's reading of messages). The steps after those rules (grouping, roles, links,
// amends, gaps) start a memo of their own, so what they ask is made again, once. A key is a
// value of a type of the asking package's own, so that two packages never share one. Without a
// run (an Input made by hand, in tests) it makes it each time. Rules run at once: what Once
// returns is shared by them, so it is read only, or guards itself.
func Once[T any](in Input, key any, make func() T) T {
	if in.memo == nil {
		return make()
	}
	in.memo.mu.Lock()
	e := in.memo.entries[key]
	if e == nil {
		e = &memoEntry{}
		in.memo.entries[key] = e
	}
	in.memo.mu.Unlock()
	e.once.Do(func() { e.v = make() })
	return e.v.(T)
}

// Component is cluster.PodComponent of a pod object, worked out once a run for the model's pods.
func (in Input) Component(o *cluster.Object) string {
	if c, ok := in.components[o]; ok {
		return c
	}
	return cluster.PodComponent(o.Pod)
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
	// It is called from the run's goroutine, in the rules' order.
	Observe func(name string, took time.Duration)
	// Workers is how many symptom rules, then cause rules, run at once: each rule reads the
	// model and the run's shared indexes (Once) only, and the report takes their findings in
	// the rules' order, so it is the same whatever the number. 0 is GOMAXPROCS.
	Workers int
}

// The names Observe is given for the engine's own work: the setting of the input (the
// changes, the series) and of the report (claims, merging, grouping, numbering, summary),
// and the linking of the chain, whose link rules are timed together.
const (
	EngineStep = "(engine)"
	LinkStep   = "(links)"
)

// runClock tells Observe how long each rule and step of a run took; it does nothing when
// Observe is nil.
type runClock struct {
	observe func(name string, took time.Duration)
	last    time.Time
}

// clock starts a run's clock.
func (r *Registry) clock() *runClock {
	return &runClock{observe: r.Observe, last: time.Now()}
}

// step tells Observe the time since the clock started, or since its last report, under name.
func (c *runClock) step(name string) {
	if c.observe == nil {
		return
	}
	now := time.Now()
	c.observe(name, now.Sub(c.last))
	c.last = now
}

// took tells Observe that a rule that ran beside others took d, and starts the next step now.
func (c *runClock) took(name string, d time.Duration) {
	if c.observe == nil {
		return
	}
	c.observe(name, d)
	c.last = time.Now()
}

// each runs work(0), …, work(n-1), on up to Workers goroutines at once (GOMAXPROCS when 0),
// and returns how long each took. A panic in one is raised again in the caller's goroutine,
// once every other has returned, as if the work had run there.
func (r *Registry) each(n int, work func(i int)) []time.Duration {
	took := make([]time.Duration, n)
	workers := r.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers = min(workers, n); workers <= 1 {
		for i := range n {
			start := time.Now()
			work(i)
			took[i] = time.Since(start)
		}
		return took
	}
	var (
		next     atomic.Int64
		wg       sync.WaitGroup
		panicked atomic.Pointer[any]
	)
	for range workers {
		wg.Go(func() {
			defer func() {
				if v := recover(); v != nil {
					panicked.CompareAndSwap(nil, &v)
				}
			}()
			for i := int(next.Add(1) - 1); i < n && panicked.Load() == nil; i = int(next.Add(1) - 1) {
				start := time.Now()
				work(i)
				took[i] = time.Since(start)
			}
		})
	}
	wg.Wait()
	if v := panicked.Load(); v != nil {
		panic(*v)
	}
	return took
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
	in := Input{Model: m, Options: opts, components: make(map[*cluster.Object]string, len(m.Pods)), memo: newMemo()}
	for _, p := range m.Pods {
		in.components[p] = cluster.PodComponent(p.Pod)
	}
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
	clock.step(EngineStep)
	found := make([][]Symptom, len(r.Symptoms))
	took := r.each(len(r.Symptoms), func(i int) { found[i] = r.Symptoms[i].Symptoms(in) })
	// The report's list is made at its size and each rule's list let go once copied: a symptom
	// is hundreds of bytes, and growing the list by appends left copies of it behind beside the
	// rules' own lists (about 4 MB at 20,000 pods).
	total := 0
	for _, f := range found {
		total += len(f)
	}
	rep.Symptoms = make([]Symptom, 0, total)
	for i, rule := range r.Symptoms {
		rep.Symptoms = append(rep.Symptoms, found[i]...)
		found[i] = nil
		clock.took(rule.Name(), took[i])
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
	clock.step(EngineStep)
	causes := make([][]Cause, len(r.Causes))
	took = r.each(len(r.Causes), func(i int) { causes[i] = r.Causes[i].Causes(in, rep.Symptoms) })
	for i, rule := range r.Causes {
		for _, c := range causes[i] {
			sort.SliceStable(c.Explains, func(i, j int) bool { return index[c.Explains[i]] < index[c.Explains[j]] })
			c.Evidence = Unique(c.Evidence)
			rep.Causes = append(rep.Causes, c)
		}
		clock.took(rule.Name(), took[i])
	}
	// What the rules asked Once is theirs: the steps after them (grouping, roles, links,
	// amends, gaps) ask for little of it and make that again, so that the memo (the catalogue's
	// reading of every message, events by pod, an index of the symptoms as the rules saw them)
	// is not live beside the groups: 13 MiB at 20,000 pods.
	in.memo = newMemo()
	applyClaims(in, &rep)
	rep.Causes = mergeCauses(rep.Causes)
	final := groupSymptoms(in, &rep)
	clock.step(EngineStep)
	for _, rule := range r.Roles {
		rule.Amend(in, &rep)
		clock.step(rule.Name())
	}
	orderCauses(rep.Causes, rep.Symptoms)
	numberCauses(rep.Causes)
	linkChain(in, &rep, r.Links)
	clock.step(LinkStep)
	for _, rule := range r.Amends {
		rule.Amend(in, &rep)
		clock.step(rule.Name())
	}
	for _, rule := range r.Gaps {
		rep.Gaps = append(rep.Gaps, rule.Gaps(in, &rep)...)
		clock.step(rule.Name())
	}
	rep.Gaps = mergeGaps(rep.Gaps)
	resolveReport(&rep, final)
	rep.Summary = summarize(&rep)
	clock.step(EngineStep)
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
