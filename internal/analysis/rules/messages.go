package rules

import (
	"slices"
	"strings"
	"sync"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/catalog"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// What the message catalogue (internal/catalog) says of the messages in the model: which
// message of which component an event's text is, the symptom it is a sign of, and what its
// parts say about a cause. Rules that read a kind of message ask here rather than match its
// words themselves, so that every wording the catalogue knows (across releases) counts.

// messageCache remembers the catalogue's reading of each message text for one analysis. The
// rules of the analysis run at once: the catalogue reads a text outside the lock (twice at
// worst, when two rules ask at once, with the same answer).
type messageCache struct {
	mu    sync.Mutex
	cat   *catalog.Catalogue
	first map[string]*catalog.Match // the first message of the catalogue in a text, or nil
	parts map[string][]part
	// reasons are the event reasons each symptom kind's messages are recorded under, as
	// written and in lower case; read only once made.
	reasons map[string]map[string]bool
	// carriers are the reasons of the messages that carry another (catalog.Entry.Carries):
	// an event of one may be a sign of any kind.
	carriers map[string]bool
	// lower are the reasons of the model's events in lower case, by reason, so that recorded,
	// asked of every event by every rule that reads messages, does not lower each again; read
	// only once made.
	lower map[string]string
}

// messagesKey is the key of a run's messageCache (analysis.Once).
type messagesKey struct{}

// messages is the run's reading of messages by the catalogue.
func messages(in analysis.Input) *messageCache {
	return analysis.Once(in, messagesKey{}, func() *messageCache {
		c := newMessageCache(catalog.Default())
		for _, o := range in.Model.Events {
			if r := o.Event.Reason; c.lower[r] == "" {
				c.lower[r] = strings.ToLower(r)
			}
		}
		return c
	})
}

// recorded reports whether an event reason is one that messages of the symptom kind are
// recorded under (in any case), or the reason of the same fact (sameFact).
func (c *messageCache) recorded(kind, reason string) bool {
	set := c.reasons[kind]
	if set[reason] || c.carriers[reason] {
		return true
	}
	lower, ok := c.lower[reason]
	if !ok {
		lower = strings.ToLower(reason)
	}
	return set[lower]
}

// newMessageCache reads a catalogue's reasons by symptom kind, for recorded.
func newMessageCache(cat *catalog.Catalogue) *messageCache {
	c := &messageCache{cat: cat, reasons: map[string]map[string]bool{}, carriers: map[string]bool{}, lower: map[string]string{}}
	add := func(kind, reason string) {
		if c.reasons[kind] == nil {
			c.reasons[kind] = map[string]bool{}
		}
		c.reasons[kind][reason] = true
		c.reasons[kind][strings.ToLower(reason)] = true
	}
	for _, e := range cat.Entries {
		if e.Carries {
			c.carriers[e.Reason] = true
		}
		if e.Symptom == "" {
			continue
		}
		add(e.Symptom, e.Reason)
		for _, pair := range sameFacts {
			if pair[0] == e.Reason {
				add(e.Symptom, pair[1])
			}
			if pair[1] == e.Reason {
				add(e.Symptom, pair[0])
			}
		}
	}
	return c
}

// message returns the first message of the catalogue that text holds, or nil.
func (c *messageCache) message(text string) *catalog.Match {
	if text == "" {
		return nil
	}
	c.mu.Lock()
	m, ok := c.first[text]
	c.mu.Unlock()
	if ok {
		return m
	}
	var out *catalog.Match
	ms := c.cat.Find(text)
	for _, m := range ms {
		if !m.Entry.Word {
			out = &m
			break
		}
	}
	if out == nil && len(ms) == 1 && ms[0].Text == strings.TrimSpace(text) {
		out = &ms[0] // a reason word read alone from a table's cell: the event's whole message
	}
	c.mu.Lock()
	if c.first == nil {
		c.first = map[string]*catalog.Match{}
	}
	c.first[text] = out
	c.mu.Unlock()
	return out
}

// part is a message or part the catalogue found in a text: its entry and its words, which is
// what the rules that read parts ask of it. Not the whole catalog.Match with its captures: at
// 20,000 pods the rules ask of some 12,000 texts holding 40,000 parts, and the matches were 6
// MB of what the rules held at their most (issue 30).
type part struct {
	Entry *catalog.Entry
	Text  string
}

// explain returns every message and part the catalogue finds in text.
func (c *messageCache) explain(text string) []part {
	c.mu.Lock()
	ps, ok := c.parts[text]
	c.mu.Unlock()
	if ok {
		return ps
	}
	if ms := c.cat.Explain(text); len(ms) > 0 {
		ps = make([]part, len(ms))
		for i, m := range ms {
			ps[i] = part{Entry: m.Entry, Text: m.Text}
		}
	}
	c.mu.Lock()
	if c.parts == nil {
		c.parts = map[string][]part{}
	}
	c.parts[text] = ps
	c.mu.Unlock()
	return ps
}

// eventSign returns the catalogue's entry for an event's message when it is a sign of the
// symptom kind, or nil. The event's own reason must be one the entry is recorded under, or
// the event must be one Rootline made of a message it read (a paste's line): a message quoted
// inside another event's (a controller quoting the kubelet) is not the kubelet's event.
func eventSign(in analysis.Input, o *cluster.Object, kind string) *catalog.Entry {
	e := o.Event
	if e == nil || e.Message == "" {
		return nil
	}
	mc := messages(in)
	if !loose(o) && !mc.recorded(kind, e.Reason) {
		return nil // no message of the kind is recorded under this reason: no need to read it
	}
	m := mc.message(e.Message)
	if m == nil {
		return nil
	}
	if !strings.EqualFold(e.Reason, m.Entry.Reason) && !loose(o) && !sameFact(e.Reason, m.Entry.Reason) {
		return nil
	}
	if m.Entry.Carries {
		return mc.carried(e.Message, kind)
	}
	if m.Entry.Symptom != kind {
		return nil
	}
	return m.Entry
}

// carried returns the entry of the first message or reason inside a carrier's text (the
// kubelet's sync result: `failed to "StartContainer" for "app" with CrashLoopBackOff: "…"`)
// that is a sign of the symptom kind, or nil.
func (c *messageCache) carried(text, kind string) *catalog.Entry {
	for _, p := range c.explain(text) {
		if !p.Entry.Carries && p.Entry.Symptom == kind {
			return p.Entry
		}
	}
	return nil
}

// sameFact reports reasons that record one fact: an event and the status reason beside it.
func sameFact(a, b string) bool {
	for _, pair := range sameFacts {
		if a == pair[0] && b == pair[1] || a == pair[1] && b == pair[0] {
			return true
		}
	}
	return false
}

// sameFacts are the pairs of reasons that record one fact.
var sameFacts = [][2]string{{"BackOff", "CrashLoopBackOff"}, {"Failed", "ErrImagePull"}, {"BackOff", "ImagePullBackOff"},
	{"FailedScheduling", "Unschedulable"}, {"OOMKilling", "SystemOOM"}, {"NodeNotReady", "NodeStatusUnknown"}}

// evidenceTags are the catalogue's evidence tags of every message and part in text, in order,
// each once.
func evidenceTags(in analysis.Input, text string) []string {
	var tags []string
	for _, m := range messages(in).explain(text) {
		if t := m.Entry.Evidence; t != "" && !slices.Contains(tags, t) {
			tags = append(tags, t)
		}
	}
	return tags
}

// statusSign returns the catalogue's entry when a pod's status or condition message is a sign
// of the symptom kind, or nil.
func statusSign(in analysis.Input, msg, kind string) *catalog.Entry {
	m := messages(in).message(strings.TrimSpace(msg))
	if m == nil || m.Entry.Symptom != kind {
		return nil
	}
	return m.Entry
}

// waitingSign returns the reason a container waits for when the catalogue files it under the
// symptom kind (CrashLoopBackOff, RunContainerError; CreateContainerConfigError).
func waitingSign(cs cluster.ContainerStatus, kind string) (string, bool) {
	w := cs.State.Waiting
	if w == nil || w.Reason == "" {
		return "", false
	}
	return w.Reason, wordSign(w.Reason, kind)
}

// wordSign reports whether the catalogue files the one word under the symptom kind.
func wordSign(word, kind string) bool {
	for _, e := range catalog.Default().Words(word) {
		if e.Symptom == kind {
			return true
		}
	}
	return false
}

// eventNode is the node an event is about: its involved object when that is a node; else,
// for an event whose object the input lost (an events section pasted apart from its
// describe), the node its message names ("Node n-1 status is now: NodeNotReady") or the host
// of the kubelet that wrote it. "" when nothing says.
func eventNode(in analysis.Input, o *cluster.Object) string {
	e := o.Event
	io := e.InvolvedObject
	if io.Kind == cluster.KindNode {
		return io.Name
	}
	if io.Kind != "" && io.Name != "" {
		return ""
	}
	if m := messages(in).message(e.Message); m != nil && m.Entry.Object == "node" && m.Node() != "" {
		return m.Node()
	}
	if e.Source.Component == "kubelet" || e.Source.Host != "" && io.Name == "" {
		return e.Source.Host
	}
	return ""
}

// aboutNode reports whether an event is about a node: its object a node, or lost, with a node
// its message or its source names.
func aboutNode(in analysis.Input, o *cluster.Object) bool {
	io := o.Event.InvolvedObject
	return io.Kind == cluster.KindNode || (io.Name == "" && (io.Kind == "" || io.Kind == cluster.KindNode) && eventNode(in, o) != "")
}

// scheduledNode is the node the scheduler's "Successfully assigned ns/pod to node" event
// says it placed the pod on, for a pod whose object does not say (a pods table row, an events
// section pasted apart): "" when no such event is in the input.
func scheduledNode(in analysis.Input, namespace, name string) string {
	if name == "" {
		return ""
	}
	for _, o := range podEvents(in)[name] {
		e := o.Event
		if ns := e.InvolvedObject.Namespace; ns != "" && namespace != "" && ns != namespace {
			continue
		}
		if m := messages(in).message(e.Message); m != nil && m.Entry.Reason == "Scheduled" && m.Node() != "" {
			return m.Node()
		}
	}
	return ""
}
