// Package catalog is the catalogue of the messages Kubernetes components write: the kubelet,
// the scheduler, the controllers, the API server, the cluster-autoscaler, Karpenter and the
// common CNI and cloud messages that reach their events. Each entry is a message as its
// component's source formats it (its fixed words, and its verbs as named captures), with the
// releases that write it, where in the source it was read, and what it means: the symptom it is
// a sign of, what it says about a cause, and the object it is about.
//
// The catalogue is data (messages.yaml, reviewed like code) compiled once into matchers. Find
// reads any text for the messages it holds, wherever they sit in it: in a table row, a describe
// field, a log line, a JSON string or a person's paragraph. Reading by message rather than by
// the shape of the paste around it is what lets Rootline read pastes whose layout it has never
// seen.
package catalog

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	ahocorasick "github.com/petar-dambovaliev/aho-corasick"
	"sigs.k8s.io/yaml"

	"github.com/rootline-dev/rootline/internal/kinds"
)

// Entry is one message of the catalogue.
type Entry struct {
	// ID names the entry: "<component>/<slug>".
	ID string `json:"id"`
	// Component is the program that writes the message: kubelet, kube-scheduler,
	// kube-controller-manager, kube-apiserver, cluster-autoscaler, karpenter, …
	Component string `json:"component"`
	// Reason is the event reason the component records the message under or, for a message
	// that is not an event (a log line, a pod's status), the reason of the event that records
	// the same fact. Rootline files what it reads under it.
	Reason string `json:"reason"`
	// In says where the component writes it: event, status, condition, log, waiting,
	// terminated, taint, configmap, alert (a Prometheus alert's description).
	In []string `json:"in"`
	// Template is the message: fixed words and {name:type} captures (see compile).
	Template string `json:"template"`
	// Word marks a message of one word (OOMKilled, CrashLoopBackOff): a reason, which people
	// write in sentences as often as programs print it, so it is read only where a program
	// printed it.
	Word bool `json:"word,omitempty"`
	// Whole marks a message written in everyday words ("out of disk space"): read only as a
	// whole value, a cell of a row or a field's value, never inside a person's sentence.
	Whole bool `json:"whole,omitempty"`
	// Part marks a part of a longer message (one reason of the scheduler's diagnosis, the
	// threshold sentence of an eviction): it tells what the message says, never a message of
	// its own.
	Part bool `json:"part,omitempty"`
	// Carries marks a message that wraps the message that says what happened (the kubelet's
	// "Error syncing pod, skipping: …" of its sync result before 1.7): it is a sign of nothing
	// itself, and its event is a sign of what the message inside it is a sign of.
	Carries bool `json:"carries,omitempty"`
	// Heads marks a tool's line that names the object of the lines under it: gitlab-runner's
	// "Waiting for pod ns/x to be running, status is Pending", the pod's conditions under it.
	// It is a sign of nothing itself.
	Heads bool `json:"heads,omitempty"`
	// Items names the capture that holds a list of the parts of the entries of the same
	// component and reason, each after its count and joined by ", " (the scheduler's
	// diagnosis, "1 node(s) had untolerated taint {…}, 2 Insufficient cpu", written
	// fmt.Sprintf("%v %v", count, reason)). People quote that list without the words before
	// it; found on its own, it is this message with those words left out.
	Items string `json:"items,omitempty"`
	// Behind is how far before its anchor the message may start, for a template whose
	// captures before its fixed words hold paths longer than the scanner's look-behind (the
	// kernel's "Task in <cgroup> killed as a result of …"): at most maxBehind; 0 for the
	// scanner's own.
	Behind int `json:"behind,omitempty"`
	// Follows names the entries whose message this one continues on the next line: a
	// component that writes a message of several lines (the scheduler's FitError before 1.6,
	// "pod (x) failed to fit in any node" and a line per node under it). Found on the line
	// right after one of them, or after another line of the same message, it is part of that
	// message and about its object.
	Follows []string `json:"follows,omitempty"`
	// Versions are the releases that write it, as read from the source ("1.9+", "1.2-1.8").
	Versions string `json:"versions"`
	// Source lists where it was read: module or repository at a version, path, format string.
	Source []string `json:"source"`
	// Symptom is the symptom kind the message is a sign of (kinds.Symptoms), or "" for a
	// message that is context only (a pod assigned to a node).
	Symptom string `json:"symptom,omitempty"`
	// Evidence is what the message says about a cause, as a short tag (insufficient_resource,
	// quota_exceeded, ip_exhausted, …), or "".
	Evidence string `json:"evidence,omitempty"`
	// Object is the kind of object the message is about: pod, node, container, deployment,
	// replicaset, job, statefulset, daemonset, pvc, pv, nodegroup, workload.
	Object string `json:"object"`
	// Example is the message as the component writes it: its format string with the verbs
	// filled in. It must match the template (TestExamples).
	Example string `json:"example"`
	// Note is a remark for the reader of the catalogue.
	Note string `json:"note,omitempty"`

	// re is the template's expression, compiled on first use (compile): a run reads a few
	// dozen of the catalogue's hundreds of messages, and compiled they held 4 MB.
	re       func() *regexp.Regexp
	anchor   string   // the longest run of fixed text without spaces: every match holds it
	fixed    int      // how many bytes of the template are fixed text: the more, the more specific
	captures []string // the capture of each group of re, by index (1…)
	tail     bool     // the last capture takes the rest of the text
}

// Catalogue is a compiled set of entries.
type Catalogue struct {
	Entries []*Entry
	// messages are the anchors of the entries that are messages, each with the entries that
	// hold it, and of the parts that are items of a list (Entry.Items), each with those parts;
	// all are those of every entry, parts included.
	messages, all *anchorSet
	// lists are the entries whose message is a list of parts (Entry.Items), and items the
	// parts that are their items.
	lists []*Entry
	items map[*Entry]bool
}

type anchor struct {
	text    string
	entries []*Entry
	items   []item // the parts that hold it as items of a list
}

// item is a part of the entries that are items of a list: the list's entry (in lists) and the
// part.
type item struct {
	list int
	part *Entry
}

// anchorSet is a set of anchors with the automaton that finds them all in one pass.
//
// The automaton starts as a non-deterministic one, which takes 2 ms to build and reads the
// corpus at 65-75 MB/s, and becomes deterministic once the set has read dfaAfter bytes: the
// DFA reads at 115-190 MB/s but takes 33-37 ms and a million allocations (16 MB) to build,
// more than a paste costs to read whole (BenchmarkAutomaton). Each analyze built both sets'
// DFAs: a third of the time of a one-file paste. Both automata find the same anchors in the
// same order (TestAutomataAgree).
type anchorSet struct {
	anchors []anchor
	nfa     ahocorasick.AhoCorasick
	read    atomic.Int64 // bytes read so far, to choose the automaton
	dfa     func() ahocorasick.AhoCorasick
	built   atomic.Bool // whether dfa was called
}

// dfaAfter is how much text a set reads before its DFA is built: about where the DFA's faster
// reading has paid for its build.
const dfaAfter = 4 << 20

func newAnchorSet(m map[string][]*Entry, items map[string][]item) *anchorSet {
	set := &anchorSet{anchors: anchors(m, items)}
	texts := make([]string, len(set.anchors))
	for i, a := range set.anchors {
		texts[i] = a.text
	}
	set.nfa = buildAutomaton(texts, false)
	set.dfa = sync.OnceValue(func() ahocorasick.AhoCorasick {
		set.built.Store(true)
		return buildAutomaton(texts, true)
	})
	return set
}

func buildAutomaton(texts []string, dfa bool) ahocorasick.AhoCorasick {
	b := ahocorasick.NewAhoCorasickBuilder(ahocorasick.Opts{MatchKind: ahocorasick.StandardMatch, DFA: dfa})
	return b.Build(texts)
}

// automaton is the automaton to read text with (above).
func (s *anchorSet) automaton(text string) ahocorasick.AhoCorasick {
	if s.built.Load() || s.read.Add(int64(len(text))) > dfaAfter { // once built, no more counting
		return s.dfa()
	}
	return s.nfa
}

//go:embed messages.yaml
var messagesYAML []byte

var defaultCatalogue = sync.OnceValues(func() (*Catalogue, error) { return parse(messagesYAML, false) })

// Default is the catalogue of messages.yaml, compiled on first use. It panics if the embedded
// catalogue does not compile, which TestDefault rules out.
func Default() *Catalogue {
	c, err := defaultCatalogue()
	if err != nil {
		panic(fmt.Sprintf("catalog: the embedded messages.yaml: %v", err))
	}
	return c
}

// Parse reads a catalogue in YAML (a list of entries, unknown fields refused) and compiles it.
// Every entry is checked: its fields, its template, its kinds and that its example matches.
func Parse(data []byte) (*Catalogue, error) { return parse(data, true) }

// parse is Parse; without examples, the entries' expressions are neither compiled nor tried
// on their examples until they are used: for the embedded catalogue, which TestDefault parses
// with them.
func parse(data []byte, examples bool) (*Catalogue, error) {
	var entries []*Entry
	if err := yaml.UnmarshalStrict(data, &entries); err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	c := &Catalogue{Entries: entries}
	ids := map[string]bool{}
	byAnchor, allByAnchor := map[string][]*Entry{}, map[string][]*Entry{}
	for i, e := range entries {
		if e == nil {
			return nil, fmt.Errorf("catalog: entry %d is empty", i+1)
		}
		if err := e.check(); err != nil {
			return nil, fmt.Errorf("catalog: entry %d (%s): %w", i+1, e.ID, err)
		}
		if ids[e.ID] {
			return nil, fmt.Errorf("catalog: entry %d: id %s is used twice", i+1, e.ID)
		}
		ids[e.ID] = true
		if err := e.compile(examples); err != nil {
			return nil, fmt.Errorf("catalog: entry %d (%s): %w", i+1, e.ID, err)
		}
		if !e.Part {
			byAnchor[e.anchor] = append(byAnchor[e.anchor], e)
		}
		allByAnchor[e.anchor] = append(allByAnchor[e.anchor], e)
	}
	items := map[string][]item{}
	c.items = map[*Entry]bool{}
	for i, e := range entries {
		if e.Items == "" {
			continue
		}
		if !slices.Contains(e.captures, e.Items) {
			return nil, fmt.Errorf("catalog: entry %d (%s): items %q is not one of its captures", i+1, e.ID, e.Items)
		}
		n := 0
		for _, p := range entries {
			if p.Part && p.Component == e.Component && p.Reason == e.Reason {
				items[p.anchor] = append(items[p.anchor], item{list: len(c.lists), part: p})
				c.items[p] = true
				n++
			}
		}
		if n == 0 {
			return nil, fmt.Errorf("catalog: entry %d (%s): items %q, but no part of %s's %s is catalogued", i+1, e.ID, e.Items, e.Component, e.Reason)
		}
		c.lists = append(c.lists, e)
	}
	for i, e := range entries {
		for _, id := range e.Follows {
			if !ids[id] || id == e.ID {
				return nil, fmt.Errorf("catalog: entry %d (%s): follows %q, which is not another entry", i+1, e.ID, id)
			}
		}
	}
	c.messages, c.all = newAnchorSet(byAnchor, items), newAnchorSet(allByAnchor, nil)
	return c, nil
}

// anchors lists the anchors of the maps, longest first.
func anchors(m map[string][]*Entry, items map[string][]item) []anchor {
	var out []anchor
	for text, es := range m {
		out = append(out, anchor{text: text, entries: es, items: items[text]})
	}
	for text, its := range items {
		if _, ok := m[text]; !ok {
			out = append(out, anchor{text: text, items: its})
		}
	}
	slices.SortFunc(out, func(a, b anchor) int {
		if d := len(b.text) - len(a.text); d != 0 {
			return d
		}
		return strings.Compare(a.text, b.text)
	})
	return out
}

// objects are the kinds of object an entry may be about.
var objects = []string{"pod", "node", "container", "deployment", "replicaset", "replicationcontroller", "job", "cronjob",
	"statefulset", "daemonset", "pvc", "pv", "nodegroup", "nodeclaim", "workload", "cluster", "service"}

// objectKinds are the Kubernetes kinds of the objects an entry may be about that are
// controllers of pods or claims, by Entry.Object.
var objectKinds = map[string]string{"deployment": "Deployment", "replicaset": "ReplicaSet",
	"replicationcontroller": "ReplicationController", "statefulset": "StatefulSet", "daemonset": "DaemonSet",
	"job": "Job", "cronjob": "CronJob", "pvc": "PersistentVolumeClaim", "pv": "PersistentVolume"}

// ObjectKind returns the Kubernetes kind of a controller or claim that Entry.Object (or a
// capture of that name) names, or "" for any other object.
func ObjectKind(object string) string { return objectKinds[object] }

// symptomObjects are the objects a sign of each symptom kind may be about: a message is a sign
// of a symptom of the object it names, so that the symptom can name it.
var symptomObjects = map[string][]string{
	kinds.PodEvicted: {"pod", "container"}, kinds.PodPending: {"pod", "container"}, kinds.OOMKilled: {"pod", "container"},
	kinds.LivenessProbeFailed: {"pod", "container"}, kinds.ReadinessProbeFailed: {"pod", "container"},
	kinds.StartupProbeFailed: {"pod", "container"},
	kinds.CrashLoopBackOff:   {"pod", "container"}, kinds.ContainerRestarted: {"pod", "container"},
	kinds.ImagePullFailed: {"pod", "container"}, kinds.Preempted: {"pod", "container"}, kinds.PodStuckCreating: {"pod", "container"},
	kinds.NodeNotReady: {"node", "cluster"}, kinds.NodePressure: {"node"}, kinds.NodeOOM: {"node"},
	kinds.PodCreateFailed: {"pod", "replicaset", "replicationcontroller", "job", "cronjob", "statefulset", "daemonset", "workload"},
	kinds.RolloutStuck:    {"deployment", "replicaset"}, kinds.JobFailed: {"job", "cronjob"},
	kinds.VolumeProvisioningFailed: {"pvc"}, kinds.ScaleUp: {"pod", "nodegroup", "cluster", "nodeclaim", "node"},
}

// places are where a component may write a message.
var places = []string{"event", "status", "condition", "log", "waiting", "terminated", "taint", "configmap", "alert"}

// minAnchor is the shortest anchor an entry may have: the scanner looks for anchors first.
// A part of a message ("Too many pods") is only looked for inside messages, and may have a
// shorter one.
const (
	minAnchor     = 5
	minPartAnchor = 4
)

// check reports what is missing or wrong in an entry's fields, before it is compiled.
func (e *Entry) check() error {
	switch {
	case !idRe.MatchString(e.ID):
		return fmt.Errorf("id %q is not <component>/<slug> in lower case", e.ID)
	case e.Component == "":
		return fmt.Errorf("no component")
	case e.Template == "":
		return fmt.Errorf("no template")
	case e.Versions == "":
		return fmt.Errorf("no versions")
	case len(e.Source) == 0:
		return fmt.Errorf("no source: every entry cites where it was read")
	case e.Carries && e.Symptom != "":
		return fmt.Errorf("carries another message and is a sign of %s itself: a carrier's sign is the message inside it", e.Symptom)
	case e.Heads && (e.Symptom != "" || e.Evidence != "" || e.Object != "pod"):
		return fmt.Errorf("heads the lines under it: it names their pod and is a sign of nothing itself")
	case e.Behind < 0 || e.Behind > maxBehind:
		return fmt.Errorf("behind %d is not within 0-%d", e.Behind, maxBehind)
	case e.Example == "":
		return fmt.Errorf("no example")
	case !slices.Contains(objects, e.Object):
		return fmt.Errorf("object %q is not one of %s", e.Object, strings.Join(objects, ", "))
	case e.Symptom != "" && !slices.Contains(kinds.Symptoms, e.Symptom):
		return fmt.Errorf("symptom %q is not a symptom kind", e.Symptom)
	case e.Word && e.Part:
		return fmt.Errorf("a word is a message of its own, not a part")
	}
	if e.Symptom != "" && !e.Part { // a part describes what the message is about in pieces (a node's reason)
		if allowed, ok := symptomObjects[e.Symptom]; ok && !slices.Contains(allowed, e.Object) {
			return fmt.Errorf("a sign of %s is about a %s, not a %s", e.Symptom, strings.Join(allowed, " or "), e.Object)
		}
	}
	for _, p := range e.In {
		if !slices.Contains(places, p) {
			return fmt.Errorf("in: %q is not one of %s", p, strings.Join(places, ", "))
		}
	}
	if len(e.In) == 0 {
		return fmt.Errorf("no in: say where the component writes it")
	}
	return nil
}

var idRe = regexp.MustCompile(`^[a-z0-9-]+/[a-z0-9][a-z0-9.-]*$`)

// Lookup returns the entry with the given id, or nil.
func (c *Catalogue) Lookup(id string) *Entry {
	for _, e := range c.Entries {
		if e.ID == id {
			return e
		}
	}
	return nil
}

// Anchor is the fixed text every match of the entry holds.
func (e *Entry) Anchor() string { return e.anchor }

// Match reports whether s is the entry's message, whole (leading and trailing space aside).
func (e *Entry) Match(s string) (Match, bool) {
	s = strings.TrimSpace(s)
	loc := e.re().FindStringSubmatchIndex(s)
	if loc == nil || loc[0] != 0 || strings.TrimRight(s[loc[1]:], " .") != "" {
		return Match{}, false
	}
	return newMatch(e, s, loc), true
}

// Words returns the entries that are the one word w (a status or waiting reason).
func (c *Catalogue) Words(w string) []*Entry {
	var out []*Entry
	for _, e := range c.Entries {
		if e.Word && e.Template == w {
			out = append(out, e)
		}
	}
	return out
}
