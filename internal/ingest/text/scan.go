package text

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/catalog"
	"github.com/rootline-dev/rootline/internal/cluster"
	vocab "github.com/rootline-dev/rootline/internal/kinds"
	"github.com/rootline-dev/rootline/internal/lazyre"
)

// The scan reads every line of a paste for the messages of the catalogue (internal/catalog),
// whatever the paste's shape: the readers of tables, describe blocks and logs read what only
// structure tells (requests, conditions, owners, times), and the scan makes sure that no
// message Kubernetes wrote is lost because its wrapping was not one of theirs. A message the
// readers already turned into an event or a status is left to them; any other becomes the
// event the component records for it, about the object the message or its wrapper names.

// maxScanned bounds the messages one input may give: a log of millions of probe failures is
// read as the first of them, repeated ones counted on one event.
const maxScanned = 20000

// scanBudget bounds the tries of the catalogue's entries one input may cost (a try is an entry
// matched where its anchor stands: a few microseconds). Real logs of millions of lines stay
// well within it; a text written of anchors alone is read until it runs out, and is then
// reported read in part.
const scanBudget = 1 << 20

// scanned is a message found on a line, held until the end of the input: whether the readers
// read it too is known only once they have emitted what they hold.
type scanned struct {
	m       catalog.Match
	text    string // the text scanned: the line, joined with the next where it was wrapped
	ln      line
	section int // the run of lines without a blank one it stands in
	obj     corev1.ObjectReference
	at      time.Time
	// cmdPod is the pod the command above the line described or got by name, when it named
	// one: the output it stands in is about that pod.
	cmdPod corev1.ObjectReference
	// cmdCtl is the controller or claim the command above the line described by name
	// ("kubectl describe deployment web"): its output is about it.
	cmdCtl corev1.ObjectReference
	// cmdOut says the line follows its command with no blank line between: the command's
	// output, though nothing else marks it printed (kubectl logs).
	cmdOut bool
	// listed says obj is one of the pods the line lists (Karpenter's "Pods" key): the
	// message's own naming, as a {pod} capture is.
	listed bool
	// cmdNS is the namespace the command above the line was given (-n), when the line is its
	// output (no blank line between): the namespace of an object its message names alone.
	cmdNS string
}

// span is what the readers made of a run of lines: the reasons they emitted and the object.
type span struct {
	from, to int
	reasons  []string
	obj      corev1.ObjectReference
}

// scanState is the scan's part of the parser.
type scanState struct {
	cat     *catalog.Catalogue
	sc      *catalog.Scanner // the catalogue within the input's budget
	held    *line            // the last text line, until the next says whether it was wrapped
	section int
	found   []scanned
	dropped int
	spans   []span
	block   *span          // the span of the describe block being read, while it emits
	names   map[string]int // the names of the events emitted, to keep two apart
	// named are the objects the paste names, by kind (manifests, describe blocks), and kind
	// the kind of a manifest whose name is yet to come, on line kindLine.
	named      map[string][]string
	usedBy     bool // the line before listed the pods that use a claim
	kind       string
	kindLine   int
	kindIndent int
	header     []string // the last table header's columns
	hdrText    string
	// podNS is the namespace of each pod sent by name, or ambiguousNS when two pods of the
	// name were sent: a message of a row that shows no namespace is about the pod sent.
	podNS map[string]string
	// tolIndent is one more than the indentation of the tolerations field (YAML, JSON or a
	// describe's) whose lines are being read, 0 outside one; heldTol says the line held is
	// one of them: a taint's key there is a toleration's, no sign of a taint.
	tolIndent int
	heldTol   bool
	// cmdSection is the section the last command line began.
	cmdSection int
	// readParts are the messages of the FailedScheduling events the readers emitted (at most
	// maxReadParts), so that a part of one quoted again in a sentence, naming no pod, is not
	// taken for a second pod's.
	readParts []string
	// involved is the involvedObject of an event printed over lines (involved.go).
	involved involved
	// keyed are the pods each section names under a key of their own ("pod_name": "x", a
	// tool's record of the pod beside its scheduler's message), for the messages of the
	// section that name none.
	keyed      map[int][]string
	keyedNodes map[int][]string
	// kubeletHosts are the hosts whose kubelet's journal the paste shows: the nodes it is about.
	kubeletHosts []string
	// oomDumps are the kernel's OOM dumps read so far (oomdump.go).
	oomDumps []oomDump
}

// ambiguousNS marks a pod name sent in two namespaces.
const ambiguousNS = "\x00"

// podSent notes a pod the parser sent.
func (s *scanState) podSent(namespace, name string) {
	if s.podNS == nil {
		s.podNS = map[string]string{}
	}
	if ns, ok := s.podNS[name]; ok && ns != namespace {
		namespace = ambiguousNS
	}
	s.podNS[name] = namespace
}

// eventRowKind reports a kind an events row's KIND column holds that Rootline reads: a pod's,
// a node's, a controller's or a claim's.
func eventRowKind(kind string) bool {
	return kind == cluster.KindPod || kind == cluster.KindNode || kind == "PersistentVolumeClaim" || cluster.MakesPods(kind)
}

// scanFlat reads the messages of output flattened onto the line of its command: a
// message quoted in the command (a grep's pattern) is the command's, not output. They are
// about the object the message names, else the one the command describes.
func (p *parser) scanFlat(ln line) {
	s := &p.scan
	flat := ln
	flat.kind, flat.text, flat.code = kindText, ln.flat, true
	cmd := cmdRef(ln.cmd)
	ms := s.sc.Find(flat.text)
	for i, m := range ms {
		if m.Entry.Word || m.Start > 0 && strings.ContainsRune("\"'`", rune(flat.text[m.Start-1])) {
			continue
		}
		if len(s.found) >= maxScanned {
			s.dropped++
			return
		}
		limit := len(flat.text)
		if i+1 < len(ms) && ms[i+1].Start > m.Start {
			limit = ms[i+1].Start
		}
		sc := scanned{m: m, text: flat.text[:limit], ln: flat, section: s.section, obj: p.lineObject(flat, m)}
		if cmd.Kind == cluster.KindPod {
			sc.cmdPod, sc.cmdOut = cmd, true
		} else if cmd.Kind != cluster.KindNode && cmd.Name != "" {
			sc.cmdCtl, sc.cmdOut = cmd, true
		}
		s.found = append(s.found, sc)
	}
}

// onlyPodSent is the pod the parser sent when it sent one and only one: the pod whose output
// (a describe, a table row) the paste shows.
func (s *scanState) onlyPodSent() (namespace, name string, ok bool) {
	if len(s.podNS) != 1 {
		return "", "", false
	}
	for name, namespace = range s.podNS {
	}
	return namespace, name, namespace != ambiguousNS
}

// scanLine takes the next input line: the line held before it is scanned, joined with this one
// when it was wrapped.
func (p *parser) scanLine(ln line) {
	s := &p.scan
	if ln.kind == kindBlank || ln.kind == kindSep || ln.kind == kindCommand {
		p.scanHeld(nil)
		s.section++
		if ln.kind == kindCommand {
			s.cmdSection = s.section
		}
		s.header, s.hdrText = nil, "" // a table ends at a blank line
		if ln.flat != "" {
			p.scanFlat(ln)
		}
		return
	}
	if ln.kind != kindText {
		return
	}
	p.scanHeld(&ln) // under the header it was read under
	if cols := headerColumns(ln.text); len(cols) >= 2 {
		s.header, s.hdrText = cols, ln.text
	} else if s.header != nil && p.cmd != nil && p.cmd.verb == "get" {
		s.noteRow(p.cmd.kind(), ln)
	}
	s.noteNamed(ln)
	s.noteInvolved(ln)
	s.noteKeyed(ln)
	s.noteOOM(ln)
	if len(s.kubeletHosts) < 2 && strings.Contains(ln.text, "kubelet") {
		if r := journalHostRe.FindStringSubmatch(ln.text); r != nil && strings.HasPrefix(r[2], "kubelet") && !slices.Contains(s.kubeletHosts, r[1]) {
			s.kubeletHosts = append(s.kubeletHosts, r[1])
		}
	}
	if ns, name, ok := cniArgsPod(ln.text); ok {
		p.notePod(ns, name) // a runtime's or a plugin's line about the pod: the CNI_ARGS it was given, its labels
	}
	s.held, s.heldTol = &ln, s.noteTolerations(ln)
}

// podKeyRe finds a pod's name under a key of its own in a tool's JSON or YAML record:
// "pod_name": "x", "podName": "x", pod_name: x.
var podKeyRe = lazyre.New(`^\s*(?:-\s+)?"?(pod_name|podName|podname|pod|node_name|nodeName|nodename|node)"?\s*:\s*"?([a-z0-9][a-z0-9.-]*[a-z0-9])"?,?\s*$`)

// alertObjectRe finds the object an alerting bot's record names on the line above the message
// it forwards ("Error Occurred in Pod: ns/web-1 in prod cluster", "… in Node: ip-10-0-1-54 …"):
// the kind and the name, without its namespace.
var alertObjectRe = lazyre.New(`\bin (Pod|Node): (?:[a-z0-9][a-z0-9-]*/)?([a-z0-9][a-z0-9.-]*[a-z0-9])\b`)

// noteKeyed notes the pod or node a line names under a key of its own, for its section: a
// tool's record, an alert's labels ("node: worker-7").
func (s *scanState) noteKeyed(ln line) {
	if !strings.Contains(ln.text, "od") {
		return
	}
	r := podKeyRe.FindStringSubmatch(ln.text)
	if a := alertObjectRe.FindStringSubmatch(ln.text); r == nil && a != nil {
		r = []string{a[0], strings.ToLower(a[1]), a[2]} // an alerting bot's "Error Occurred in Pod: ns/x in prod cluster"
	}
	if r == nil || r[1] == "pod" && !podNameRe.MatchString(r[2]) || r[2] == "true" || r[2] == "false" {
		return // "pod: true", "pod: annotations": a setting, not a pod's name
	}
	keyed := &s.keyed
	if strings.HasPrefix(strings.ToLower(r[1]), "node") {
		keyed = &s.keyedNodes
	}
	if slices.Contains((*keyed)[s.section], r[2]) {
		return
	}
	if *keyed == nil {
		*keyed = map[int][]string{}
	}
	(*keyed)[s.section] = append((*keyed)[s.section], r[2])
}

// noteTolerations follows the tolerations fields of the paste (`tolerations:` of a manifest,
// `"tolerations": [` of JSON, `Tolerations:` of a describe) and reports whether ln is one of
// their lines: deeper than the field, or a list item at its depth.
func (s *scanState) noteTolerations(ln line) bool {
	body := strings.TrimLeft(ln.text, " ")
	indent := len(ln.text) - len(body)
	if s.tolIndent > 0 && (indent >= s.tolIndent || indent == s.tolIndent-1 && strings.HasPrefix(body, "- ")) {
		return true
	}
	s.tolIndent = 0
	if tolerationsRe.MatchString(body) {
		s.tolIndent = indent + 1
		return true
	}
	return false
}

var tolerationsRe = lazyre.New(`^(?:-\s+)?"?[Tt]olerations"?\s*:`)

// maxManifestHead is how far below its kind a manifest's metadata name is looked for.
const maxManifestHead = 80

// indentOf is the number of spaces a line starts with.
func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }

// noteNamed notes an object a YAML or JSON manifest pasted as text names: "kind: Job" and,
// a few lines on, "name: backup" (its metadata's), for a message of the paste that names
// no object of that kind (a Job's status pasted in a block of its own).
func (s *scanState) noteNamed(ln line) {
	// A claim's describe lists the pods that use it ("Used By:", "Mounted By:" before 1.19),
	// one a line: the pods a message about the claim's pod names none of.
	if r := serverResponseRe.FindStringSubmatch(ln.text); r != nil {
		s.name(cluster.KindPod, r[1]) // the pod of an API error kubectl printed: "(get pods/log web-1)"
	}
	if r := usedByRe.FindStringSubmatch(ln.text); r != nil {
		s.name(cluster.KindPod, r[1])
		s.usedBy = true
	} else if r := bareNameRe.FindStringSubmatch(ln.text); r != nil && s.usedBy {
		s.name(cluster.KindPod, r[1])
	} else {
		s.usedBy = false
	}
	if strings.Contains(ln.text, "kubectl ") || strings.Contains(ln.text, "oc ") && quotedOcRe.MatchString(ln.text) {
		// A command quoted in a sentence: "The command "kubectl describe pods web-1" gives …".
		for _, r := range quotedCmdRe.FindAllStringSubmatch(ln.text, 4) {
			if ref := cmdRef(parseCommand(r[1])); nameLike(ref.Name) && (cluster.MakesPods(ref.Kind) || ref.Kind == cluster.KindPod || ref.Kind == "PersistentVolumeClaim") {
				s.name(ref.Kind, ref.Name)
			}
		}
	}
	if r := manifestKindRe.FindStringSubmatch(ln.text); r != nil {
		s.kind, s.kindLine, s.kindIndent = r[1], ln.num, indentOf(ln.text)
		return
	}
	// The metadata's name a few lines on, or, further on past labels and annotations, one
	// level under the kind in YAML (metadata:'s own field), never a label's or a reference's.
	if s.kind == "" || ln.num-s.kindLine > 8 && (ln.num-s.kindLine > maxManifestHead || indentOf(ln.text) != s.kindIndent+2) {
		return
	}
	if r := manifestNameRe.FindStringSubmatch(ln.text); r != nil {
		s.name(s.kind, r[1])
		s.kind = ""
	}
}

// noteRow notes the object a row of `kubectl get <kind>` names in its NAME column, for the
// kinds of controllers and claims.
func (s *scanState) noteRow(kind string, ln line) {
	if !cluster.MakesPods(kind) && kind != "PersistentVolumeClaim" {
		return
	}
	i := slices.Index(s.header, "NAME")
	if f := strings.Fields(ln.text); i >= 0 && i < len(f) && nameLike(f[i]) && len(f) >= len(s.header)-1 {
		s.name(kind, f[i])
	}
}

// namedFor is the object the messages are about when the catalogue says they are about a
// controller or claim of one kind and the paste named one object of that kind; else none.
func (s *scanState) namedFor(messages []string) corev1.ObjectReference {
	for _, msg := range messages {
		for _, m := range s.sc.Find(msg) {
			k := catalog.ObjectKind(m.Entry.Object)
			if k == "" || m.Entry.Word {
				continue
			}
			if names := s.named[k]; len(names) == 1 {
				return corev1.ObjectReference{Kind: k, Name: names[0]}
			}
			return corev1.ObjectReference{}
		}
	}
	return corev1.ObjectReference{}
}

// name notes an object of the paste by its kind.
func (s *scanState) name(kind, name string) {
	if s.named == nil {
		s.named = map[string][]string{}
	}
	if !slices.Contains(s.named[kind], name) {
		s.named[kind] = append(s.named[kind], name)
	}
}

var (
	// quotedCmdRe finds a kubectl command quoted in a sentence, in quotes or backticks.
	quotedOcRe     = lazyre.New("[\"'`](?:sudo )?oc ")
	quotedCmdRe    = lazyre.New("[\"'`]((?:sudo )?(?:kubectl|oc) [^\"'`]{3,200})[\"'`]")
	manifestKindRe = lazyre.New(`^\s*"?kind"?\s*:\s*"?([A-Z][A-Za-z]+)"?,?\s*$`)
	manifestNameRe = lazyre.New(`^\s*"?name"?\s*:\s*"?([a-z0-9][a-z0-9.-]*[a-z0-9])"?,?\s*$`)
)

// scanHeld scans the line held, with next (nil at a break) for a message wrapped onto it.
func (p *parser) scanHeld(next *line) {
	s := &p.scan
	h := s.held
	s.held = nil
	if h == nil {
		return
	}
	ms := s.sc.Find(h.text)
	text, ms := p.joinWrap(h, next, ms)
	ms = s.valueMatches(text, len(h.text), ms)
	for i, m := range ms {
		if p.skipMatch(h, text, ms, m) {
			continue
		}
		// The next message on the line ends this one's text.
		limit := len(text)
		if i+1 < len(ms) && ms[i+1].Start > m.Start {
			limit = ms[i+1].Start
		}
		p.record(h, text, limit, m)
	}
}

// maxValueMatches bounds the messages one line may hold past the end of another (valueMatches).
const maxValueMatches = 16

// valueMatches adds to ms the messages after the end of another's. The catalogue's message
// runs to the end of the line, across whatever follows the string or value it stands in
// (messageEnd), so on a structured log line a message in one value hides those of the values
// after it (kube-scheduler's `status="… preemption: 0/401 nodes are available: …" err="0/401
// nodes are available: 1 Insufficient cpu, …"`): the text after where the message ends is
// searched again, as far as the line's own text goes (own: not the next line a wrap joined).
func (s *scanState) valueMatches(text string, own int, ms []catalog.Match) []catalog.Match {
	added := false
	for i := 0; i < len(ms) && len(ms) < maxValueMatches; i++ {
		m := ms[i]
		if m.Start >= own {
			continue
		}
		end := messageEnd(text[:own], m.Start)
		if end >= min(m.End, own) {
			continue
		}
		for _, n := range s.sc.Find(text[end+1 : own]) {
			n = n.In(end + 1)
			if len(ms) < maxValueMatches && !slices.ContainsFunc(ms, func(o catalog.Match) bool { return o.Entry == n.Entry && o.Start == n.Start }) {
				ms, added = append(ms, n), true
			}
		}
	}
	if added {
		slices.SortStableFunc(ms, func(a, b catalog.Match) int { return a.Start - b.Start })
	}
	return ms
}

// joinWrap is the text and matches of h once joined to next where a message the wrap cut runs
// onto it; else h's own. Only a line with a message, or the fixed words of one, may hold a
// message the wrap cut.
func (p *parser) joinWrap(h, next *line, ms []catalog.Match) (string, []catalog.Match) {
	s := &p.scan
	text := h.text
	if !(next != nil && (len(ms) > 0 || s.cat.HasAnchor(text) || s.cat.HasAnchor(headOf(next.text))) && joinable(*h, *next)) {
		return text, ms
	}
	// A message the wrap cut: a match that starts on this line and runs onto the next
	// replaces the one cut at the line's end. Where the line alone holds the message whole
	// but for its free tail, the next line must read as its continuation (tailJoins); where
	// its fixed words run onto the next line, they say so themselves.
	rest := strings.TrimSpace(next.text)
	if next.item {
		rest = "- " + rest // the cleaner took the hyphen that began the line for a bullet's
	}
	joined := joinWrapped(text, rest)
	var across []catalog.Match
	for _, m := range s.sc.Find(joined) {
		if m.Start >= len(text) || m.End <= len(text) {
			continue
		}
		whole := slices.ContainsFunc(ms, func(o catalog.Match) bool { return o.Entry == m.Entry && o.Start == m.Start })
		if whole && !tailJoins(*h, *next) {
			continue
		}
		across = append(across, m)
	}
	if len(across) > 0 {
		ms = slices.DeleteFunc(ms, func(m catalog.Match) bool {
			return slices.ContainsFunc(across, func(a catalog.Match) bool { return m.End > a.Start && m.Start < a.End })
		})
		ms = append(ms, across...)
		slices.SortFunc(ms, func(a, b catalog.Match) int { return a.Start - b.Start })
		text = joined
	} else if len(ms) > 0 && tailJoins(*h, *next) {
		// The message is whole on this line, and goes on on the next (the offenders of an
		// eviction a YAML scalar wrapped): its text is both.
		text = joined
	}
	return text, ms
}

// skipMatch reports whether m, found in text (held line h's, with the matches ms), is not a
// finding: a reason beside its message, a reason or key in a person's sentence, everyday words,
// a template, a toleration, a pod's NotReady, kubectl's own error, another condition's word.
func (p *parser) skipMatch(h *line, text string, ms []catalog.Match, m catalog.Match) bool {
	s := &p.scan
	if m.Entry.Word && slices.ContainsFunc(ms, func(o catalog.Match) bool { return !o.Entry.Word && o.Entry.Reason == m.Entry.Reason }) {
		return true // the reason of a message on the same line ("reason: 'OutOfcpu' Node didn't have …")
	}
	if m.Entry.Word && (!p.printed(*h) || !standalone(text, m) || !h.code && !asValue(text, m)) {
		return true // a reason in a sentence is the author's, read as a claim; a key is not a value
	}
	if m.Entry.Whole && !wholeValue(text, m) {
		return true // everyday words in a sentence ("running out of disk space"), not the component's message
	}
	if m.Entry.Word && strings.HasSuffix(text[:m.Start], grpcCode) {
		return true // a gRPC status code ("rpc error: code = DeadlineExceeded desc = …"), not a Kubernetes reason
	}
	if m.Entry.Word && templated(text) {
		return true // a template's words (an alert rule's "{{ $labels.pod }} … (reason: "CrashLoopBackOff")"), never rendered
	}
	if m.Entry.Word && s.heldTol && slices.Contains(m.Entry.In, "taint") {
		return true // a toleration of the taint, which says nothing of a node
	}
	if m.Entry.Word && m.Entry.Object == "node" && p.podsRow(*h) {
		return true // kubectl's NotReady STATUS of a pod whose containers are not ready
	}
	if m.Entry.Symptom == vocab.PodCreateFailed && kubectlErrorRe.MatchString(h.text) {
		return true // the API server's answer to the request a person made with kubectl, not a controller's pods
	}
	if strings.HasSuffix(text[:m.Start], "preemption: ") {
		return true // the preemption part of the scheduler's diagnosis (its PostFilter's), read with the diagnosis it follows
	}
	if r := conditionRowRe.FindStringSubmatch(h.text); r != nil && r[1] != "Ready" && m.Entry.Symptom == vocab.NodeNotReady {
		return true // the node controller's word on a condition other than Ready (a stale OutOfDisk): not the node's readiness
	}
	return false
}

// record adds what m, found in text up to limit on held line h, says to the findings: one, or
// one per pod for a message about several.
func (p *parser) record(h *line, text string, limit int, m catalog.Match) {
	s := &p.scan
	if len(s.found) >= maxScanned {
		s.dropped++
		return
	}
	sc := scanned{m: m, text: text[:limit], ln: *h, section: s.section, obj: p.lineObject(*h, m)}
	if c := p.cmd; c != nil && !c.allNamespaces && s.section == s.cmdSection {
		sc.cmdNS = c.namespace
	}
	if ref := p.cmdObject(); ref.Kind == cluster.KindPod {
		sc.cmdPod, sc.cmdOut = ref, s.section == s.cmdSection
	} else if ref.Kind != cluster.KindNode && ref.Name != "" {
		sc.cmdCtl, sc.cmdOut = ref, s.section == s.cmdSection
	}
	if sc.at = lineTime(h.text); sc.at.IsZero() {
		sc.at = h.at // the time the collector's record gave it
	}
	if sc.obj.Kind == cluster.KindPod && sc.obj.Name != "" {
		p.notePod(sc.obj.Namespace, sc.obj.Name) // for a describe fragment after it that names none
	}
	if kind, name := m.Workload(); nameLike(name) && m.Entry.Symptom == "" {
		s.name(kind, name) // a tool's line naming a controller, for a message after it that names none
	}
	pods := keyPods(h.text)
	if m.Entry.Object != "pod" || len(pods) == 0 || sc.obj.Name != "" && !slices.ContainsFunc(pods, func(r corev1.ObjectReference) bool { return r.Name == sc.obj.Name }) {
		s.found = append(s.found, sc)
		return
	}
	for _, ref := range pods { // a message about several pods: one finding each
		if len(s.found) >= maxScanned {
			s.dropped++
			break
		}
		one := sc
		one.obj, one.listed = ref, true
		s.found = append(s.found, one)
	}
}

// nodeLeadRe finds the node a tool names right before the message it forwards about it:
// "configuring bootstrap node(s) custom-d953: Node condition MemoryPressure is Unknown. Node
// condition Ready is Unknown." (Rancher's planner forwarding Cluster API's summary, whose
// other conditions may come first), "node ip-10-0-1-2: …".
var nodeLeadRe = lazyre.New(`\b[Nn]odes?(?:\(s\))? "?([a-z0-9][a-z0-9.-]*[a-z0-9])"?:\s*(?:Node condition [A-Za-z]+ is [A-Za-z]+\.\s*)*$`)

// serverResponseRe finds the pod an API server's error names as apimachinery writes it,
// after its message: "(get pods/log web-1)", "( pods/log web-1)" where the verb is unknown
// (k8s.io/apimachinery/pkg/api/errors, NewGenericServerResponse: "%s (%s %s %s)").
var serverResponseRe = lazyre.New(`\(\s*(?:[a-z]+ )?pods(?:/[a-z]+)? ([a-z0-9][a-z0-9.-]*[a-z0-9])\)`)

// podCellBefore returns the cell right before the message at msgAt in a row of cells set
// apart by runs of spaces, when it is a pod's generated name ("<controller>-" and five
// characters, or an ordinal): "Preempted   victim-d-llnjb   Preempted by pod …".
func podCellBefore(t string, msgAt int) (string, bool) {
	if msgAt <= 0 || msgAt > len(t) {
		return "", false
	}
	before := t[:msgAt]
	cells := strings.TrimRight(before, " ")
	if len(before)-len(cells) < 2 {
		return "", false
	}
	i := strings.LastIndex(cells, "  ")
	if i < 0 {
		return "", false
	}
	cell := strings.TrimSpace(cells[i:])
	return cell, podNameRe.MatchString(cell)
}

// eventLeadRe finds an event's namespace and name right before its message, as exporters
// print it: "openfaas-fn/curl-597fc995ff-grdpv.1547ad45cd809d7b: Failed to pull image …", the
// name its object's and an id.
var eventLeadRe = lazyre.New(`(?:^|\s)([a-z0-9][a-z0-9-]*)/([a-z0-9][a-z0-9.-]*[a-z0-9])\.[0-9a-f]{8,}:\s*$`)

// forPodRe finds the pod a message about a volume names as the one it worked for: "failed to
// attach volume pvc-1 for pod default/web-1".
var forPodRe = lazyre.New(`\bfor pod ([a-z0-9][a-z0-9-]*)/([a-z0-9][a-z0-9.-]*[a-z0-9])\b`)

// usedByRe finds the first pod a claim's describe says uses it, and bareNameRe each other,
// alone on a line under it.
var (
	usedByRe   = lazyre.New(`^\s*(?:Used By|Mounted By):\s+([a-z0-9][a-z0-9.-]*[a-z0-9])\s*$`)
	bareNameRe = lazyre.New(`^\s+([a-z0-9][a-z0-9.-]*[a-z0-9])\s*$`)
)

// conditionRowRe finds a row of a node's conditions table, its type and status: "OutOfDisk
// Unknown  Mon, 21 Jan 2019 …  NodeStatusUnknown  Kubelet stopped posting node status.".
var conditionRowRe = lazyre.New(`^\s*([A-Z][A-Za-z]+)\s+(True|False|Unknown)\s`)

// podsKeyRe finds a structured log line's list of pods, Karpenter's "Pods" key (JSON, or
// logfmt-quoted): "ns/a, ns/b, ns/c, ns/d, ns/e and 80 other(s)" (its pretty.Slice).
var podsKeyRe = lazyre.New(`"[Pp]ods"\s*:\s*"([^"]{3,1000})"|\b[Pp]ods="([^"]{3,1000})"`)

// keyPods returns the pods a structured log line lists under its "Pods" key, each named
// namespace/name; nil when it lists none. A count of the rest ("and 80 other(s)") names none.
func keyPods(t string) []corev1.ObjectReference {
	if !strings.Contains(t, "ods") {
		return nil
	}
	r := podsKeyRe.FindStringSubmatch(t)
	if r == nil {
		return nil
	}
	list := r[1] + r[2]
	if i := strings.LastIndex(list, " and "); i >= 0 && strings.HasSuffix(list, " other(s)") {
		list = list[:i]
	}
	var refs []corev1.ObjectReference
	for item := range strings.SplitSeq(list, ",") {
		ns, name, ok := strings.Cut(strings.TrimSpace(item), "/")
		if !ok || !nameLike(ns) || !nameLike(name) {
			return nil // not a list of pods as the logger writes one
		}
		refs = append(refs, podRef(ns, name))
	}
	return refs
}

// headOf is the start of a line, where the rest of a message a wrap cut would stand.
func headOf(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 80 {
		return s[:80]
	}
	return s
}

// scanWrapWidth is the shortest line the scan joins to the next: shorter than the readers'
// wrapWidth, since only a message that runs across the break is taken from the joined text.
const scanWrapWidth = 32

// joinable reports whether next may continue the text of h, which a terminal or a ticket
// broke: h long enough to have been wrapped, next right after it and starting nothing new. A
// list item is not continued by a line that is not indented under it.
func joinable(h, next line) bool {
	n := strings.TrimSpace(next.text)
	if h.raw < scanWrapWidth || next.num != h.last()+1 || n == "" {
		return false
	}
	if t := strings.TrimSpace(h.text); len(t) >= 6 && len(n) >= 6 && t[:6] == n[:6] && strings.ContainsAny(t[:6], "0123456789") {
		return false // a record dated like the one before (a log line's date or header): a new one
	}
	if sameFirstCell(h.text, next.text) {
		return false // a row of the same table, its first cell (the namespace) the same: a new one
	}
	if startsFormat(next.text) || personRe.MatchString(next.text) || callerRe.MatchString(n) {
		return false
	}
	return !h.item || strings.HasPrefix(next.text, " ")
}

// callerRe is the start of a record a Go program logged with its caller ("helm.go:75: [debug]
// …", "client.go:506] …"): a new record, never the rest of the line before.
var callerRe = lazyre.New(`^[\w.-]+\.go:\d+[:\]]\s`)

// fieldRe is a line that starts a field of its own: a YAML or JSON key ("reason: …",
// "- message: …", `"type": …`), not the rest of a message.
var fieldRe = lazyre.New(`^\s*(?:-\s+)?"?[A-Za-z][\w.-]*"?:(?:\s|$)`)

// tailJoins reports whether next reads as the rest of the free text that ends a message on h:
// h does not end its sentence, and next does not start one (a capital after a comma, a colon
// or a hyphen still continues). Kubernetes' messages end their sentences with a period.
// sameFirstCell reports whether two lines are rows of one table that begin with the same
// cell: the same first word, followed by a column gap, and more cells after it.
func sameFirstCell(a, b string) bool {
	fa, fb := strings.Fields(a), strings.Fields(b)
	if len(fa) < 4 || len(fb) < 4 || fa[0] != fb[0] {
		return false
	}
	gap := func(s string) bool {
		s = strings.TrimLeft(s, " ")
		i := strings.IndexByte(s, ' ')
		return i > 0 && strings.HasPrefix(s[i:], "  ")
	}
	return gap(a) && gap(b)
}

func tailJoins(h, next line) bool {
	t := strings.TrimSpace(h.text)
	n := strings.TrimSpace(next.text)
	if strings.HasSuffix(t, ".") || fieldRe.MatchString(next.text) {
		return false // a sentence's end, or a field of its own ("reason: …" under "message: …")
	}
	if r := rune(n[0]); r >= 'A' && r <= 'Z' && !strings.HasSuffix(t, ",") && !strings.HasSuffix(t, ":") && !strings.HasSuffix(t, "-") {
		return false
	}
	return true
}

// printed reports whether a program printed ln: output in a code block, a line of a table or
// a describe block, a log line, a JSON or YAML line.
func (p *parser) printed(ln line) bool {
	cells := len(tokensOf(ln.text))
	return ln.code || machineRe.MatchString(ln.text) || p.table != nil || p.block != nil || cells >= 3 ||
		cells >= 2 && len(p.scan.header) == cells // a row of a narrow table under its header
}

// templated reports whether a line is a template's text (a Prometheus rule's description, a
// Helm chart's): Go's template actions, "{{ … }}", that a rendering replaces.
func templated(text string) bool {
	i := strings.Index(text, "{{")
	return i >= 0 && strings.Contains(text[i:], "}}")
}

// standalone reports whether a word match stands as a value of its own: a cell of a row, the
// value of a field, a quoted string; not a key ("Unschedulable:  false") nor a piece of a
// longer word.
func standalone(text string, m catalog.Match) bool {
	before, after := text[:m.Start], text[m.End:]
	if strings.HasPrefix(after, ":") || strings.HasPrefix(after, "=") {
		return false
	}
	prevOK := before == "" || strings.ContainsAny(before[len(before)-1:], " \t\"'(:[{,=|")
	nextOK := after == "" || strings.ContainsAny(after[:1], " \t\"'),]}|.")
	return prevOK && nextOK
}

// wholeValue reports whether a message in everyday words stands as a value of its own: a
// field's or a cell's, or after a logger's header, a quote or a bracket; not after a word of a
// sentence ("are running out of disk space").
func wholeValue(text string, m catalog.Match) bool {
	if asValue(text, m) {
		return true
	}
	before := text[:m.Start]
	trimmed := strings.TrimRight(before, " \t")
	if trimmed == "" || len(before)-len(trimmed) >= 2 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(trimmed)
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != ','
}

// asValue reports whether a word stands as a value a program printed, outside a code block:
// a table's cell of its own ("CrashLoopBackOff", "NotReady,SchedulingDisabled"), or the value
// of a field ("Reason:  OOMKilled", "reason": "OOMKilled"). The same word in a sentence of a
// table people wrote ("Node entered NotReady state") is theirs.
func asValue(text string, m catalog.Match) bool {
	before := strings.TrimRight(text[:m.Start], " \t\"'")
	if strings.HasSuffix(before, ":") || strings.HasSuffix(before, "=") {
		return true
	}
	for _, cell := range cellSplitRe.Split(text, -1) {
		c := strings.Trim(strings.TrimSpace(cell), ",")
		w := m.Entry.Template
		if c == w || strings.HasPrefix(c, w+",") || strings.HasSuffix(c, ","+w) {
			return true
		}
	}
	return false
}

// grpcCode is what grpc-go's status error writes before its code (status.Error: "rpc error:
// code = %s desc = %s"): the word after it is one of gRPC's codes (DeadlineExceeded, NotFound,
// Unavailable, …), whatever reason of Kubernetes' it is spelt like.
const grpcCode = "code = "

var cellSplitRe = lazyre.New(`\s{2,}|\t|\|`)

// flatEvent reads an event a tool printed as one flat JSON object, its object's kind and name
// beside its reason and message ({"reason":"Evicted","message":"…","kind":"Pod","name":"x",
// "namespace":"y"}, as a test suite's or a watcher's log writes it): that object.
func flatEvent(t string) (corev1.ObjectReference, bool) {
	i, j := strings.IndexByte(t, '{'), strings.LastIndexByte(t, '}')
	if i < 0 || j <= i || !strings.Contains(t, `"kind"`) || !strings.Contains(t, `"reason"`) {
		return corev1.ObjectReference{}, false
	}
	var ev struct {
		Reason    *string `json:"reason"`
		Message   *string `json:"message"`
		Kind      string  `json:"kind"`
		Name      string  `json:"name"`
		Namespace string  `json:"namespace"`
	}
	if json.Unmarshal([]byte(t[i:j+1]), &ev) != nil || ev.Reason == nil || ev.Message == nil || !eventRowKind(ev.Kind) || !nameLike(ev.Name) {
		return corev1.ObjectReference{}, false
	}
	ref := corev1.ObjectReference{Kind: ev.Kind, Namespace: ev.Namespace, Name: ev.Name}
	if ref.Kind == cluster.KindPod || ref.Kind == cluster.KindNode {
		ref.APIVersion = "v1"
	}
	return ref, true
}

// maxReadParts bounds scanState.readParts.
const maxReadParts = 1000

// kubectlErrorRe is the line kubectl writes when the API server refused what it asked for
// (k8s.io/kubectl pkg/cmd/util/helpers.go: "Error from server (%s): %s", "Error from
// server: %s"; apply's "error when creating %q: %v" inside it).
var kubectlErrorRe = lazyre.New(`^\s*Error from server\b`)

// tokensOf splits a row into its cells (two spaces or more apart).
func tokensOf(s string) []string {
	return cellSepRe.Split(strings.TrimSpace(s), -1)
}

var cellSepRe = lazyre.New(`\s{2,}`)

var (
	// objectRefRe finds a controller's Event(v1.ObjectReference{Kind:"Pod", Namespace:"x",
	// Name:"y", …}) log line's object.
	objectRefRe = lazyre.New(`ObjectReference\{Kind:"(\w+)",\s*Namespace:"([^"]*)",\s*Name:"([^"]*)"`)
	// kvPodRe finds the pod of a structured log line: pod="ns/name", pod="name", "pod":"ns/name".
	// A colon without quotes is prose ("error selecting node for pod: pod has …"), not a key.
	kvPodRe = lazyre.New(`\bpod(?:=\s*"?|"\s*:\s*")([a-z0-9][a-z0-9-]*/)?([a-z0-9][a-z0-9.-]*[a-z0-9])"?`)
	// eventRowRe reads a row of the old `kubectl get events` layout (LASTSEEN FIRSTSEEN COUNT
	// NAME KIND SUBOBJECT [TYPE] REASON SOURCE MESSAGE, 1.2 to 1.13, and `oc get events`) whose
	// header the paste lost: its NAME is the involved object's, or the event's own name, the
	// object's and a hexadecimal suffix ("jenkins-1.157791108f2b2229"), and KIND its kind.
	eventRowRe = lazyre.New(`^\s*\S+\s+\S+\s+\d+\s+([a-z0-9][-a-z0-9.]*?)(?:\.[0-9a-f]{10,16})?\s+([A-Z][A-Za-z]+)\s+(?:\S+\s+)?(?:(?:Normal|Warning)\s+)?[A-Za-z]+\s`)
	// jsonInvolvedRe finds the object of an event written as JSON on a line:
	// "involvedObject":{"kind":"Pod","namespace":"prod","name":"web-1",…}.
	// Its fields come in any order (an exporter's, or a client's that writes apiVersion first).
	jsonInvolvedRe = lazyre.New(`"involvedObject"\s*:\s*\{([^{}]*)\}`)
	jsonFieldRe    = lazyre.New(`"(kind|namespace|name)"\s*:\s*"([^"]*)"`)
	// looseWorkloadRe finds a controller a line names: "replicaset/web-7d9f", and as `kubectl
	// events` prints it, "ReplicaSet/web-7d9f".
	looseWorkloadRe = lazyre.New(`\b((?i:replicaset|statefulset|daemonset|job|replicationcontroller))(?:\.apps|\.batch)?/([a-z0-9][a-z0-9.-]*[a-z0-9])`)
	// kvObjectRe and kvKindRe find the object of a structured "Event occurred" log line:
	// object="ns/name" kind="Kind" (object="name" for an object without a namespace).
	kvObjectRe = lazyre.New(`\bobject="(?:([a-z0-9][a-z0-9-]*)/)?([A-Za-z0-9][A-Za-z0-9.-]*)"`)
	kvKindRe   = lazyre.New(`\bkind="(\w+)"`)
	// logfmtObjectRe finds the object of an event an exporter wrote as logfmt, by its own keys:
	// kind=Pod namespace=prod name=web-1, in that order, each key under involvedObject. or
	// object. or none, its value quoted or not.
	logfmtObjectRe = lazyre.New(`(?:^|\s)(?:involvedObject\.|object\.)?kind="?([A-Z][A-Za-z]+)"?\s+(?:(?:involvedObject\.|object\.)?namespace="?([a-z0-9][a-z0-9-]*)"?\s+)?(?:involvedObject\.|object\.)?name="?([a-z0-9][a-z0-9.-]*[a-z0-9])"?(?:\s|$)`)
	// jsonPodRe finds the pod of a JSON log line, as logr writes a klog.ObjectRef:
	// "Pod":{"name":"web-1","namespace":"shop"}, either key first.
	jsonPodRe = lazyre.New(`"[Pp]od"\s*:\s*\{\s*(?:"name"\s*:\s*"([^"]+)"\s*,\s*"namespace"\s*:\s*"([^"]*)"|"namespace"\s*:\s*"([^"]*)"\s*,\s*"name"\s*:\s*"([^"]+)")`)
	// journalHostRe finds the host of a journald or syslog line: "May 05 13:59:56 ip-10-0-1-2.ec2.internal kubelet[2858]:",
	// rsyslog's without the pid ("… ip-10-42-10-121 kubelet:"), or the kernel's ("… node-7 kernel:").
	// journalctl -o short-iso's ("2024-05-05T13:59:56+0000 host kubelet[2858]:") too.
	journalHostRe = lazyre.New(`^(?:\w{3} [ \d]\d \d\d:\d\d:\d\d|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)) ([A-Za-z0-9][A-Za-z0-9.-]*) ([\w.-]+(?:\[\d+\])?):`)
	// kvNodeRe finds the node of a structured log line: node="name".
	kvNodeRe = lazyre.New(`\bnode(?:Name)?"?[=:]\s*"?([a-z0-9][a-z0-9.-]*[a-z0-9])"?`)
	// podNameRe is a name a controller generated for a pod: "web-6d4cf56db6-zp2lx", "db-0".
	podNameRe = lazyre.New(`^[a-z0-9][a-z0-9.-]*-(?:[a-z0-9]{5}|[0-9]+)$`)
	// isoTimeRe finds a timestamp with a date in a line.
	isoTimeRe = lazyre.New(`\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?`)
)

// lineObject is the object a message is about: the one it names, else the one its line names
// (an ObjectReference, a structured log's key, "pod/x", a pods row's first cell). Wrappers
// further out (the row a reader read, the describe block, the section's assigned pod) are
// tried at the end (resolveObject).
func (p *parser) lineObject(ln line, m catalog.Match) corev1.ObjectReference {
	e := m.Entry
	t := ln.text
	if ref, ok := p.eventObject(ln, m); ok {
		return ref
	}
	if e.Symptom == vocab.PodCreateFailed {
		return createFailedObject(t, m)
	}
	if ref, ok := namedObject(t, m); ok {
		return ref
	}
	if e.Object == "node" {
		return p.nodeObject(ln, m)
	}
	return p.podObject(ln, m)
}

// eventObject is the object of the event ln shows: written as JSON, printed over lines, or a
// row of a table of events.
func (p *parser) eventObject(ln line, m catalog.Match) (corev1.ObjectReference, bool) {
	e, t := m.Entry, ln.text
	if ref, ok := jsonInvolved(t); ok {
		return ref, true // an event written as JSON on a log line (an exporter's): its involvedObject
	}
	if ref, ok := p.scan.involvedFor(ln); ok && refKind(e.Object, ref.Kind) {
		return ref, true // an event printed over lines: the involvedObject above its message
	}
	if r := eventRowRe.FindStringSubmatch(t); r != nil && len(p.scan.header) == 0 && eventRowKind(r[2]) {
		ref := corev1.ObjectReference{Kind: r[2], Name: r[1]}
		if ref.Kind == cluster.KindPod || ref.Kind == cluster.KindNode {
			ref.APIVersion = "v1"
		}
		return ref, true
	}
	if ref, ok := nameKindCells(t, m.Start); ok && len(p.scan.header) == 0 {
		return ref, true
	}
	return corev1.ObjectReference{}, false
}

// createFailedObject is the controller that failed to create a pod, as the API server's
// refusal or the controller's message names it.
func createFailedObject(t string, m catalog.Match) corev1.ObjectReference {
	// The API server's refusal names the pod it would not make; the symptom is of the
	// controller that tried, which the wrapper names.
	if r := objectRefRe.FindStringSubmatch(t); r != nil && r[1] != cluster.KindPod {
		return corev1.ObjectReference{Kind: r[1], Namespace: r[2], Name: r[3]}
	}
	if r := kvObjectRe.FindStringSubmatch(t); r != nil {
		if k := kvKindRe.FindStringSubmatch(t); k != nil && k[1] != cluster.KindPod {
			return corev1.ObjectReference{Kind: k[1], Namespace: r[1], Name: r[2]}
		}
	}
	if kind, name := m.Workload(); name != "" {
		// The controller the message names in its own words.
		return corev1.ObjectReference{Kind: kind, Namespace: m.Capture("namespace"), Name: name}
	}
	if r := looseWorkloadRe.FindStringSubmatch(t); r != nil {
		return corev1.ObjectReference{Kind: catalog.ObjectKind(strings.ToLower(r[1])), Name: r[2]}
	}
	// The pod it names is not its object: the row's, the describe's, the paste's are
	// tried first (finishScan), the pod last.
	return corev1.ObjectReference{}
}

// namedObject is the object the message names itself, or the line names in one of the ways
// tools print an object (kind/ns/name, a forwarder's, key=value, the kernel's host).
func namedObject(t string, m catalog.Match) (corev1.ObjectReference, bool) {
	e := m.Entry
	if ns, name := m.Pod(); name != "" && (e.Object == "pod" || e.Object == "container") {
		return podRef(ns, name), true
	}
	if n := m.Node(); n != "" && e.Object == "node" {
		return nodeRef(n), true
	}
	if n := m.Capture("name"); n != "" {
		if kind := catalog.ObjectKind(e.Object); kind != "" {
			return corev1.ObjectReference{Kind: kind, Namespace: m.Capture("namespace"), Name: n}, true
		}
	}
	if r := objectRefRe.FindStringSubmatch(t); r != nil {
		ref := corev1.ObjectReference{Kind: r[1], Namespace: r[2], Name: r[3]}
		if ref.Kind == cluster.KindPod || ref.Kind == cluster.KindNode {
			ref.APIVersion = "v1"
		}
		return ref, true
	}
	if f := forwardedRe.FindStringSubmatch(t); f != nil {
		ref := corev1.ObjectReference{Kind: f[1], Namespace: f[2], Name: eventIDRe.ReplaceAllString(f[3], "")}
		if ref.Kind == cluster.KindPod || ref.Kind == cluster.KindNode {
			ref.APIVersion = "v1"
		}
		return ref, true
	}
	if r := kvObjectRe.FindStringSubmatch(t); r != nil {
		// A structured "Event occurred" line: object="ns/name" kind="Kind".
		ref := corev1.ObjectReference{Namespace: r[1], Name: r[2]}
		if k := kvKindRe.FindStringSubmatch(t); k != nil {
			ref.Kind = k[1]
		} else {
			ref.Kind = objectKind(e.Object)
		}
		if ref.Kind == cluster.KindPod || ref.Kind == cluster.KindNode {
			ref.APIVersion = "v1"
		}
		if ref.Kind == cluster.KindNode {
			ref.Name, ref.Namespace = r[1]+strings.TrimPrefix(r[2], r[1]), ""
		}
		return ref, true
	}
	if r := logfmtObjectRe.FindStringSubmatch(t); r != nil && (r[1] == cluster.KindPod || r[1] == cluster.KindNode || cluster.MakesPods(r[1])) {
		ref := corev1.ObjectReference{Kind: r[1], Namespace: r[2], Name: r[3]}
		if ref.Kind == cluster.KindPod || ref.Kind == cluster.KindNode {
			ref.APIVersion = "v1"
		}
		if ref.Kind == cluster.KindNode {
			ref.Namespace = ""
		}
		return ref, true
	}
	if r := journalHostRe.FindStringSubmatch(t); r != nil && r[2] == "kernel" && (e.Object == "node" || e.Object == "container") {
		return nodeRef(r[1]), true // the kernel's words (its OOM killer's) are about its host
	}
	return corev1.ObjectReference{}, false
}

// nodeObject is the node a node's message is about, read from the line or the row it is on.
func (p *parser) nodeObject(ln line, m catalog.Match) corev1.ObjectReference {
	e, t := m.Entry, ln.text
	if r := kvNodeRe.FindStringSubmatch(t); r != nil {
		return nodeRef(r[1])
	}
	if r := journalHostRe.FindStringSubmatch(t); r != nil && e.Component == "kubelet" {
		return nodeRef(r[1]) // the host that logged it: the kubelet's node
	}
	if m.Start <= len(t) {
		if r := e2eEventRe.FindStringSubmatch(t[:m.Start]); r != nil {
			return nodeRef(r[1]) // the e2e framework's "event for n-1: {node-controller } NodeNotReady: …"
		}
	}
	if r := nearestObject(t, m.Start); r != nil && strings.EqualFold(r[1], "node") {
		return nodeRef(r[2])
	}
	if r := looseObjectRe.FindStringSubmatch(t); r != nil && strings.EqualFold(r[1], "node") {
		return nodeRef(r[2])
	}
	if m.Start <= len(t) {
		if r := nodeLeadRe.FindStringSubmatch(t[:m.Start]); r != nil {
			return nodeRef(r[1]) // a tool's "… node(s) x: " before the message it forwards
		}
	}
	if m.Entry.Word {
		return p.rowNode(ln) // a node's STATUS cell: the node is the row's
	}
	if n := p.rowCell(ln, "NODENAME", "NODE"); nameLike(n) {
		return nodeRef(n) // a tool's table of nodes' troubles
	}
	if n, ok := p.rowEventObject(ln); ok {
		return nodeRef(n) // an event's own name in a table: its node's and a suffix
	}
	return corev1.ObjectReference{}
}

// podObject is the pod (or, for another kind, the object a row of events names) a message
// is about, read from the line or the row it is on.
func (p *parser) podObject(ln line, m catalog.Match) corev1.ObjectReference {
	e, t := m.Entry, ln.text
	if m.Start <= len(t) {
		if r := e2eEventRe.FindStringSubmatch(t[:m.Start]); r != nil {
			return podRef("", r[1]) // "At … - event for web-1: {kubelet n-1} Evicted: …"
		}
	}
	if r := kvPodRe.FindStringSubmatch(t); r != nil {
		return podRef(strings.TrimSuffix(r[1], "/"), r[2])
	}
	if r := jsonPodRe.FindStringSubmatch(t); r != nil {
		if r[1] != "" {
			return podRef(r[2], r[1])
		}
		return podRef(r[3], r[4])
	}
	if r := backOffPodRe.FindStringSubmatch(t); r != nil {
		return podRef(r[2], r[1])
	}
	if ns, name, ok := textPod(t); ok && (e.Object == "pod" || e.Object == "container") {
		return podRef(ns, name) // as a runtime or a network plugin names it: CNI_ARGS, Multus' bracket, a sandbox's name
	}
	if r := nearestObject(t, m.Start); r != nil && strings.EqualFold(r[1], "pod") {
		return podRef("", r[2]) // the object cell nearest before it: a table whose rows a paste ran together
	}
	if r := looseObjectRe.FindStringSubmatch(t); r != nil && strings.EqualFold(r[1], "pod") {
		return podRef("", r[2])
	}
	if e.Object == "pod" || e.Object == "container" {
		if ns, name := p.partPod(m, ln); name != "" {
			return podRef(ns, name) // the wrapper names none: a part of the message may
		}
		if m.Start <= len(t) {
			if r := bracketRefRe.FindStringSubmatch(t[:m.Start]); r != nil {
				return podRef(r[1], r[2]) // a tool's "[Warning][ns/pod][Failed] …" (Jenkins' Kubernetes plugin)
			}
			if r := eventLeadRe.FindStringSubmatch(t[:m.Start]); r != nil {
				return podRef(r[1], r[2]) // a forwarder's "ns/pod.1547ad45cd809d7b: " (the event's name) before the message
			}
		}
		if r := forPodRe.FindStringSubmatch(m.Text); r != nil {
			return podRef(r[1], r[2]) // a volume plugin's error naming the pod it was mounting for
		}
		if name, ok := podCellBefore(t, m.Start); ok {
			return podRef("", name) // a row without its header, a pod's generated name the cell before the message
		}
		if n, ok := p.rowEventObject(ln); ok {
			return podRef(p.rowCell(ln, "NAMESPACE"), n)
		}
		if n := p.rowCell(ln, "PODNAME", "POD"); nameLike(n) {
			return podRef(p.rowCell(ln, "NAMESPACE"), n)
		}
		if ref := p.rowPod(ln); ref.Name != "" || p.printed(ln) || m.Start > len(t) {
			return ref
		}
		if name, ok := prosePod(t[:m.Start]); ok {
			return podRef("", name) // the pod a person's sentence names before the message it quotes
		}
		return corev1.ObjectReference{}
	}
	if kind := catalog.ObjectKind(e.Object); kind != "" {
		if n, ok := p.rowEventObject(ln); ok {
			return corev1.ObjectReference{Kind: kind, Namespace: p.rowCell(ln, "NAMESPACE"), Name: n}
		}
	}
	return corev1.ObjectReference{}
}

var (
	// prosePodRe finds a pod a sentence names: "pod web-0", "the pod `web-5d8f7b9c4d-abcde`",
	// "Pod "db-0"".
	prosePodRe = lazyre.New("\\b[Pp]od[\\s:]+[\"'`]?([a-z0-9][a-z0-9.-]*[a-z0-9])[\"'`]?")
	// deployedPodRe is a name a Deployment's ReplicaSet made: "web-5d8f7b9c4d-abcde", which a
	// sentence may give without saying it is a pod's.
	deployedPodRe = lazyre.New(`\b[a-z0-9][a-z0-9-]*-[a-z0-9]{6,10}-[a-z0-9]{5}\b`)
)

// prosePod is the one pod a person's sentence names before a message it quotes ("My pod web-0
// is stuck with "0/3 nodes are available: …""): ok only when it names one, as a pod's name
// ("web-0", "web-5d8f7b9c4d-abcde"), not a Deployment's or a node's.
func prosePod(before string) (string, bool) {
	var names []string
	for _, r := range prosePodRe.FindAllStringSubmatch(before, -1) {
		if podNameRe.MatchString(r[1]) && !slices.Contains(names, r[1]) {
			names = append(names, r[1])
		}
	}
	for _, n := range deployedPodRe.FindAllString(before, -1) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if len(names) != 1 {
		return "", false
	}
	return names[0], true
}

// partPod returns the pod that a part of a message names when the message does not: the
// network plugin's "failed to set up pod "web-1_prod" network" inside the kubelet's "Failed
// create pod sandbox: …", which names none; or a part of the error a logger wrote beside it.
func (p *parser) partPod(m catalog.Match, ln line) (namespace, name string) {
	text := m.Text
	if err := logError(ln.text); err != "" {
		text += ": " + err // the error a structured logger wrote beside it: "Error syncing pod" err="…"
	}
	for _, pm := range p.scan.cat.Explain(text) {
		if pm.Entry == m.Entry {
			continue
		}
		if ns, n := pm.Pod(); nameLike(n) {
			return ns, n
		}
	}
	return "", ""
}

// rowCell returns the cell of a table row under the first of the columns the last header
// has: by the cells' order where the row has as many as the header, else by position.
func (p *parser) rowCell(ln line, cols ...string) string {
	h := p.scan.header
	if len(h) == 0 {
		return ""
	}
	cells := tokensOf(ln.text)
	for _, col := range cols {
		i := slices.Index(h, col)
		if i < 0 {
			continue
		}
		if len(cells) == len(h) {
			return cells[i]
		}
		return p.underHeader(ln.text, col)
	}
	return ""
}

// rowEventObject reads the object of an event from the event's own name in a row's NAME,
// PODNAME or OBJECT cell, which the API server makes of the object's name and a hexadecimal
// suffix ("web-1.17a71c191e6304ea").
func (p *parser) rowEventObject(ln line) (string, bool) {
	c := p.rowCell(ln, "PODNAME", "NAME", "OBJECT")
	if !eventIDRe.MatchString(c) {
		return "", false
	}
	n := eventIDRe.ReplaceAllString(c, "")
	if _, after, ok := strings.Cut(n, "/"); ok {
		n = after
	}
	return n, nameLike(n)
}

// nameKindRe finds two cells of a row, an object's name and its kind ("app-5-x5np6  Pod"), as
// the event lists of old `kubectl get events` (NAME KIND), of `-A` (NAMESPACE before them) and
// of consoles that copy as pipe rows print them.
var nameKindRe = lazyre.New(`(?:^|\s)([a-z0-9][a-z0-9.-]*[a-z0-9])\s+(Pod|Node|PersistentVolumeClaim|ReplicaSet|ReplicationController|Deployment|StatefulSet|DaemonSet|Job|CronJob)\s`)

// nameKindCells reads the object of a row without a header from its name and kind cells,
// before the message at msgAt: cells of their own, in a row of cells (two spaces or more apart).
func nameKindCells(t string, msgAt int) (corev1.ObjectReference, bool) {
	if msgAt <= 0 || msgAt > len(t) {
		return corev1.ObjectReference{}, false
	}
	t = pipeCellRe.ReplaceAllString(t[:msgAt], "   ") // "3:19:08 PM | app-5-x5np6 | Pod | …"
	if len(tokensOf(t)) < 3 {
		return corev1.ObjectReference{}, false
	}
	var ref corev1.ObjectReference
	if r := nameKindRe.FindStringSubmatchIndex(t); r != nil && cellBounded(t, r[2], r[5], false) {
		// The NAME cell of an old events table is the event's: its object's name and an id.
		ref = corev1.ObjectReference{Kind: t[r[4]:r[5]], Name: eventIDRe.ReplaceAllString(t[r[2]:r[3]], "")}
	} else if r := kindNameRe.FindStringSubmatchIndex(t); r != nil && cellBounded(t, r[2], r[5], true) {
		ref = corev1.ObjectReference{Kind: t[r[2]:r[3]], Name: t[r[4]:r[5]]}
	} else {
		return corev1.ObjectReference{}, false
	}
	if ref.Kind == cluster.KindPod || ref.Kind == cluster.KindNode {
		ref.APIVersion = "v1"
	}
	return ref, true
}

// pipeCellRe is a break between the cells of a row copied as pipe-separated text.
var pipeCellRe = lazyre.New(`\s+\|\s+`)

// nearestObject returns the last "pod/x" or "node/x" before the message at msgAt: in a row,
// its OBJECT cell; in rows a paste ran together onto one line, the row's own, not the first's.
func nearestObject(t string, msgAt int) []string {
	if msgAt <= 0 || msgAt > len(t) {
		return nil
	}
	all := looseObjectRe.FindAllStringSubmatch(t[:msgAt], -1)
	if len(all) == 0 {
		return nil
	}
	return all[len(all)-1]
}

// bracketRefRe finds the object a tool prints in brackets before an event's message,
// "[ns/name]".
var bracketRefRe = lazyre.New(`\[([a-z0-9](?:[-a-z0-9]*[a-z0-9])?)/([a-z0-9][a-z0-9.-]*[a-z0-9])\]`)

// kindNameRe finds one cell of a row that holds an object's kind and name, as test tools print
// events ("Warning	Pod web-1		FailedMount	…", kuttl's "%s %s" of kind and name).
var kindNameRe = lazyre.New(`(?:^|\s)(Pod|Node|PersistentVolumeClaim|ReplicaSet|ReplicationController|Deployment|StatefulSet|DaemonSet|Job|CronJob) ([a-z0-9][a-z0-9.-]*[a-z0-9])\s`)

// cellBounded reports whether t[from:to], a name and a kind, stands between cell breaks (two
// spaces or more, the line's ends): cells of their own, two spaces or more apart, or, kind
// first, one cell.
func cellBounded(t string, from, to int, kindFirst bool) bool {
	before := strings.TrimRight(t[:from], " ")
	after := strings.TrimLeft(t[to:], " ")
	gapBefore := len(t[:from]) - len(before)
	gapAfter := len(t[to:]) - len(after)
	// An event's type cell ends where a tab stop fell one space after it ("Warning\tPod x").
	typed := kindFirst && (strings.HasSuffix(before, "Warning") || strings.HasSuffix(before, "Normal"))
	return (before == "" || gapBefore >= 2 || typed) && (after == "" || gapAfter >= 2) &&
		(strings.Contains(t[from:to], "  ") || kindFirst)
}

// rowPod reads the pod of a table row the readers may not know: the cells under NAME (and
// NAMESPACE) of the last header, or a first cell that is a generated pod name.
func (p *parser) rowPod(ln line) corev1.ObjectReference {
	cells := tokensOf(ln.text)
	if len(cells) < 2 {
		return corev1.ObjectReference{}
	}
	if h := p.scan.header; len(h) == len(cells) {
		if i := slices.Index(h, "NAME"); i >= 0 && nameLike(cells[i]) {
			ns := ""
			if j := slices.Index(h, "NAMESPACE"); j >= 0 {
				ns = cells[j]
			}
			return podRef(ns, strings.TrimPrefix(cells[i], "pod/"))
		}
	}
	if name := p.underHeader(ln.text, "NAME"); nameLike(name) && (p.underHeader(ln.text, "KIND") == "Pod" || podNameRe.MatchString(name)) {
		return podRef(p.underHeader(ln.text, "NAMESPACE"), name)
	}
	first := strings.TrimPrefix(cells[0], "pod/")
	if podNameRe.MatchString(first) {
		return podRef("", first)
	}
	if len(cells) > 2 && podNameRe.MatchString(cells[1]) && nameLike(cells[0]) {
		return podRef(cells[0], cells[1]) // NAMESPACE NAME …
	}
	return corev1.ObjectReference{}
}

// underHeader returns the word of a row that stands under a column of the last header, as
// kubectl aligns them: the word starting where the column's name starts. Empty cells shift no
// other cell when the columns are found by position, as they are here.
func (p *parser) underHeader(row, col string) string {
	h := p.scan.hdrText
	at := -1
	for _, t := range tokens(h) {
		if t.text == col {
			at = t.start
			break
		}
	}
	if at < 0 {
		return ""
	}
	for _, t := range tokens(row) {
		if t.start >= at-1 && t.start <= at+1 {
			return t.text
		}
		if t.start > at+1 {
			break
		}
	}
	return ""
}

// rowNode reads the node of a row of `kubectl get nodes`, whatever its columns: the cell under
// NAME of the last header, or the first cell.
// podsRow reports whether ln is a row of `kubectl get pods`: under a pods header, or alone
// with its READY and RESTARTS cells.
func (p *parser) podsRow(ln line) bool {
	if h := p.scan.header; len(h) > 0 {
		return slices.Contains(h, "READY") && slices.Contains(h, "RESTARTS")
	}
	_, _, ok := headerlessPodCells(ln)
	return ok
}

func (p *parser) rowNode(ln line) corev1.ObjectReference {
	cells := tokensOf(ln.text)
	if len(cells) < 2 {
		return corev1.ObjectReference{}
	}
	if h := p.scan.header; len(h) == len(cells) {
		if i := slices.Index(h, "NAME"); i >= 0 && nameLike(cells[i]) {
			return nodeRef(strings.TrimPrefix(cells[i], "node/"))
		}
	}
	if first := strings.TrimPrefix(cells[0], "node/"); nameLike(first) {
		return nodeRef(first)
	}
	return corev1.ObjectReference{}
}

var nameLikeRe = lazyre.New(`^(?:pod/|node/)?[a-z0-9][a-z0-9.-]*[a-z0-9]$`)

func nameLike(s string) bool { return nameLikeRe.MatchString(s) }

func podRef(ns, name string) corev1.ObjectReference {
	return corev1.ObjectReference{Kind: cluster.KindPod, APIVersion: "v1", Namespace: ns, Name: name}
}

func nodeRef(name string) corev1.ObjectReference {
	return corev1.ObjectReference{Kind: cluster.KindNode, APIVersion: "v1", Name: name}
}

// lineTime is the time a line says, when it holds a full timestamp.
func lineTime(s string) time.Time {
	t := isoTimeRe.FindString(s)
	if t == "" {
		return time.Time{}
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05Z0700", "2006-01-02 15:04:05Z07:00", "2006-01-02T15:04:05", "2006-01-02 15:04:05"} {
		if v, err := time.Parse(layout, t); err == nil {
			return v
		}
	}
	return time.Time{}
}

// cover records what the readers emitted for the lines from..to: an event's reason, a pod's
// status and container reasons, and the object. Inside a describe block the whole block is
// the span.
func (p *parser) cover(from, to int, obj corev1.ObjectReference, reasons ...string) {
	s := &p.scan
	if b := s.block; b != nil {
		b.reasons = append(b.reasons, reasons...)
		if b.obj.Name == "" || obj.Kind == b.obj.Kind {
			if b.obj.Name == "" {
				b.obj = obj
			}
		}
		return
	}
	s.spans = append(s.spans, span{from: from, to: max(from, to), reasons: reasons, obj: obj})
}

// lostReasons are the reasons an earlier showing of an object said that the object merged
// from all its showings no longer says: a pod a watch showed OOMKilled, then Running.
func lostReasons(before, after []string) []string {
	var lost []string
	for _, r := range before {
		if r != "" && !slices.Contains(after, r) && !slices.Contains(lost, r) {
			lost = append(lost, r)
		}
	}
	return lost
}

// unsay takes reasons back from the spans of the earlier showings of o: the object sent says
// them no longer (a later showing replaced the state that said them), so the scan must read
// the lines that showed them, as it reads any message the readers did not keep.
func (s *scanState) unsay(o *cluster.Object, reasons []string) {
	if len(reasons) == 0 {
		return
	}
	for i := range s.spans {
		sp := &s.spans[i]
		if sp.obj.Kind != o.Kind || sp.obj.Name != o.Name {
			continue
		}
		sp.reasons = slices.DeleteFunc(sp.reasons, func(r string) bool { return slices.Contains(reasons, r) })
	}
}

// podReasons are the reasons a pod object says: its status's, and its containers' states'.
func podReasons(pod *corev1.Pod) []string {
	rs := []string{pod.Status.Reason}
	for _, list := range [][]corev1.ContainerStatus{pod.Status.ContainerStatuses, pod.Status.InitContainerStatuses} {
		for _, cs := range list {
			for _, st := range []corev1.ContainerState{cs.State, cs.LastTerminationState} {
				if st.Waiting != nil {
					rs = append(rs, st.Waiting.Reason)
				}
				if st.Terminated != nil {
					rs = append(rs, st.Terminated.Reason)
				}
			}
		}
	}
	for _, c := range pod.Status.Conditions {
		rs = append(rs, c.Reason)
	}
	return rs
}

// reasonAliases are reasons that record one fact under two names: the pod's waiting reason and
// the event the kubelet writes beside it.
var reasonAliases = map[string][]string{
	"BackOff":          {"CrashLoopBackOff", "ImagePullBackOff"},
	"CrashLoopBackOff": {"BackOff"},
	"ImagePullBackOff": {"BackOff", "Failed", "ErrImagePull"},
	"ErrImagePull":     {"Failed", "ImagePullBackOff"},
	"Failed":           {"ErrImagePull", "ImagePullBackOff"},
	"Unschedulable":    {"FailedScheduling"},
	"FailedScheduling": {"Unschedulable"},
	"OOMKilled":        {"OOMKilling"},
	"NodeNotReady":     {"NodeStatusUnknown", "KubeletNotReady"},
}

// covered reports whether the readers read the message themselves, and the object they read
// it about.
func (s *scanState) covered(sc scanned) (bool, corev1.ObjectReference) {
	r := sc.m.Entry.Reason
	var obj corev1.ObjectReference
	for _, sp := range s.spans {
		if sc.ln.num < sp.from || sc.ln.num > sp.to {
			continue
		}
		if sc.m.Entry.Object == "node" && sp.obj.Kind == cluster.KindPod {
			continue // the readers read a node's row as a pod's (an old `kubectl get nodes`)
		}
		_, name := sc.m.Pod()
		if sc.listed {
			name = sc.obj.Name
		}
		if name != "" && sp.obj.Name != name && sc.m.Entry.Object == "pod" && (sp.obj.Kind == cluster.KindPod || sp.obj.Kind == "") {
			continue // a message about the pod it names is not what a reader read of another pod, or of none
		}
		if obj.Name == "" {
			obj = sp.obj
		}
		for _, got := range sp.reasons {
			if got == r || got == sc.m.Text || slices.Contains(reasonAliases[r], got) {
				return true, sp.obj
			}
		}
	}
	return false, obj
}

// finishScan turns the messages the readers did not read into events.
func (p *parser) finishScan() error {
	p.scanHeld(nil)
	if err := p.emitOOMDumps(); err != nil {
		return err
	}
	s := &p.scan
	// The object a section is about: the pod of its "Successfully assigned" line or of a
	// tool's line that heads it, or the object of a describe block or row in it.
	sections := s.sectionObjects()
	type key struct {
		obj    corev1.ObjectReference
		reason string
		msg    string
	}
	seen := map[key]*corev1.Event{}
	// A reason word beside a message of the same reason in one section ("reason": "Evicted"
	// above "message": "The node was low on resource: …") is that message's.
	messages := s.reasonsOfMessages()
	head, more := s.messageLines()
	for i, sc := range s.found {
		e := sc.m.Entry
		if e.Symptom == "" && e.Evidence == "" && !e.Carries {
			continue // context only: it named an object, above
		}
		if head[i] >= 0 {
			continue // a line of a message above: that message's
		}
		if e.Word && messages[[2]string{fmt.Sprint(sc.section), e.Reason}] {
			continue
		}
		done, spanObj := s.covered(sc)
		if done {
			continue
		}
		obj := p.findingObject(sc, spanObj, sections)
		msg := findingMessage(sc, more[i])
		if obj.Name == "" && sc.m.Reason() == "FailedScheduling" && slices.ContainsFunc(s.readParts, func(r string) bool { return strings.Contains(r, msg) }) {
			continue // a part of the scheduler's message a reader read whole, quoted again
		}
		k := key{obj: obj, reason: sc.m.Reason(), msg: msg}
		if ev := seen[k]; ev != nil {
			ev.Count = max(ev.Count, 1) + 1 // seen again: counted as the API server counts repeats
			if !sc.at.IsZero() && sc.at.After(ev.LastTimestamp.Time) {
				ev.LastTimestamp = metav1.NewTime(sc.at)
			}
			continue
		}
		typ := corev1.EventTypeNormal
		if e.Symptom != "" {
			typ = corev1.EventTypeWarning
		}
		ev := &corev1.Event{Type: typ, Reason: sc.m.Reason(), Message: msg, InvolvedObject: obj,
			Source: corev1.EventSource{Component: e.Component, Host: lineHost(sc.ln.text, e.Component)}}
		if !sc.at.IsZero() {
			ev.FirstTimestamp, ev.LastTimestamp = metav1.NewTime(sc.at), metav1.NewTime(sc.at)
		}
		seen[k] = ev
		src := p.source(sc.ln)
		src.Loose = true
		if err := p.emitScanned(ev, sc.ln, src); err != nil {
			return err
		}
	}
	return nil
}

// sectionObjects are the objects the sections of the paste are about: the pod of a section's
// "Successfully assigned" line or of a tool's line that heads it.
func (s *scanState) sectionObjects() map[int]corev1.ObjectReference {
	sections := map[int]corev1.ObjectReference{}
	for _, sc := range s.found {
		if (sc.m.Entry.Reason == "Scheduled" || sc.m.Entry.Heads) && sc.obj.Kind == cluster.KindPod {
			if _, ok := sections[sc.section]; !ok && sc.obj.Name != "" {
				sections[sc.section] = sc.obj
			}
		}
	}
	return sections
}

// reasonsOfMessages are the reasons of the messages found, by section.
func (s *scanState) reasonsOfMessages() map[[2]string]bool {
	messages := map[[2]string]bool{}
	for _, sc := range s.found {
		if !sc.m.Entry.Word {
			messages[[2]string{fmt.Sprint(sc.section), sc.m.Entry.Reason}] = true
		}
	}
	return messages
}

// findingObject is the object a finding is about: the one its line names; else the span's or
// the section's; else one the paste implies (impliedObject) or a refused pod's name; with its
// kind and, for a pod, the namespace another showing of it gave.
func (p *parser) findingObject(sc scanned, spanObj corev1.ObjectReference, sections map[int]corev1.ObjectReference) corev1.ObjectReference {
	s := &p.scan
	e := sc.m.Entry
	obj := sc.obj
	if obj.Name == "" && spanObj.Name != "" && refKind(e.Object, spanObj.Kind) {
		obj = spanObj
	}
	if o, ok := sections[sc.section]; ok && obj.Name == "" && refKind(e.Object, o.Kind) {
		obj = o
	}
	obj = p.impliedObject(sc, obj)
	if e.Symptom == vocab.PodCreateFailed {
		obj = refusedFinding(sc, obj)
	}
	if obj.Kind == "" {
		obj.Kind = objectKind(e.Object)
	}
	if ns := s.podNS[obj.Name]; obj.Kind == cluster.KindPod && obj.Namespace == "" && ns != ambiguousNS {
		obj.Namespace = ns // the pod the paste showed, whose namespace another showing gave
	}
	if obj.Namespace == "" && obj.Name != "" && sc.cmdNS != "" && !clusterScoped[obj.Kind] {
		obj.Namespace = sc.cmdNS // the output of "kubectl … -n shop": its objects are in shop
	}
	return obj
}

// impliedObject is obj, or when it has no name, the object a finding whose line names none is about, when the paste says
// which: the one of its kind the paste names, the one pod or node its record names, the one
// kubelet's journal, the pod the command above it or the fragment shows, the controller a
// command described.
func (p *parser) impliedObject(sc scanned, obj corev1.ObjectReference) corev1.ObjectReference {
	s := &p.scan
	e := sc.m.Entry
	if k := catalog.ObjectKind(e.Object); obj.Name == "" && k != "" && len(s.named[k]) == 1 {
		obj = corev1.ObjectReference{Kind: k, Name: s.named[k][0]} // the one of its kind the paste names
	}
	if obj.Name == "" && (e.Object == "pod" || e.Object == "container") && len(s.named[cluster.KindPod]) == 1 {
		obj = podRef("", s.named[cluster.KindPod][0]) // the one pod the paste's manifests name
	}
	if names := s.keyed[sc.section]; obj.Name == "" && (e.Object == "pod" || e.Object == "container") && len(names) == 1 {
		obj = podRef("", names[0]) // the one pod its record names under a key of its own
	}
	if names := s.keyedNodes[sc.section]; obj.Name == "" && e.Object == "node" && len(names) == 1 {
		obj = nodeRef(names[0]) // the one node its record (an alert's labels) names under a key of its own
	}
	if obj.Name == "" && e.Object == "node" && len(s.kubeletHosts) == 1 {
		obj = nodeRef(s.kubeletHosts[0]) // a message that names no node, in a paste that shows one node's kubelet journal: that node's
	}
	return p.shownObject(sc, obj)
}

// shownObject is obj, or when it has no name, the object the output around the finding shows:
// the pod of the command above it or of the describe fragment, the one pod a sentence quotes,
// the controller a command described by name.
func (p *parser) shownObject(sc scanned, obj corev1.ObjectReference) corev1.ObjectReference {
	s := &p.scan
	e := sc.m.Entry
	if obj.Name == "" && (e.Object == "pod" || e.Object == "container") {
		// Output pasted about one pod (the command above it, the one pod it names); a
		// message quoted in the ticket's words, in a paste whose output shows one pod.
		printed := p.printed(sc.ln)
		if sc.cmdPod.Name != "" && (printed || sc.cmdOut) {
			obj = sc.cmdPod
		} else if ref := p.fragmentOwner(); ref != nil && printed && !namesAnotherPod(sc.ln.text, ref.name) {
			obj = ref.ref()
		} else if ns, name, ok := s.onlyPodSent(); ok && !printed {
			obj = podRef(ns, name)
		}
	}
	if obj.Name == "" && sc.cmdCtl.Name != "" && (sc.cmdOut || p.printed(sc.ln)) && describes(sc.cmdCtl.Kind, e.Object) {
		obj = sc.cmdCtl // the output of the command that described the controller or claim by name
	}
	return obj
}

// clusterScoped are the kinds of objects that have no namespace, of those messages name.
var clusterScoped = map[string]bool{cluster.KindNode: true, "Namespace": true, "PersistentVolume": true,
	"StorageClass": true, "ClusterRole": true, "ClusterRoleBinding": true, "PriorityClass": true}

// generatedPodRe finds the name of a pod its controller named: a ReplicaSet's pod
// ("api-5c6d7b9f8-q9w8x": the pod-template-hash and a random suffix, both of the letters and
// digits apimachinery's rand.SafeEncodeString and rand.String draw from), or a DaemonSet's or
// a Job's ("node-exporter-x7k2p": a random suffix, read so only with a digit in it, since
// words of five consonants are rare but not none), or an OpenShift DeploymentConfig's
// ("jenkins-1-snmgs": its version and a random suffix).
var (
	generatedPodRe = lazyre.New(`(?:^|[^a-z0-9.-])([a-z0-9](?:[-a-z0-9]*[a-z0-9])?(-[bcdfghjklmnpqrstvwxz2456789]{5,10})?-([bcdfghjklmnpqrstvwxz2456789]{5}))(?:$|[^a-z0-9.-])`)
	deployerPodRe  = lazyre.New(`-[1-9][0-9]*-[bcdfghjklmnpqrstvwxz2456789]{5}$`)
)

// namesAnotherPod reports whether line names a pod its controller named other than pod (or
// pod's ReplicaSet): a line of a layout whose fields were not read (logfmt, an export split by
// semicolons), which is that pod's, not the one pod the paste names elsewhere.
func namesAnotherPod(line, pod string) bool {
	for _, m := range generatedPodRe.FindAllStringSubmatch(line, -1) {
		if m[2] == "" && !strings.ContainsAny(m[3], "2456789") && !deployerPodRe.MatchString(m[1]) {
			continue // a DaemonSet's or Job's suffix without a digit: may be a word
		}
		if m[1] != pod && !strings.HasPrefix(pod, m[1]+"-") { // not the pod, nor its ReplicaSet
			return true
		}
	}
	return false
}

// refusedFinding is obj, or when it has no name, the pod the API server refused to make, as
// the message names it.
func refusedFinding(sc scanned, obj corev1.ObjectReference) corev1.ObjectReference {
	if ns, name := sc.m.Pod(); obj.Name == "" && name != "" {
		obj = refusedName(ns, name) // the pod it would not make (or its controller's prefix): all the message names
	}
	if obj.Name == "" && sc.m.Start <= len(sc.ln.text) {
		// The API server's refusal before the reason, which another tool quoted; else
		// inside the controller's message ("Error creating: pods "web-0" is forbidden: …").
		if obj = refusedObject(refusalEndRe, sc.ln.text[:sc.m.Start]); obj.Name == "" {
			obj = refusedObject(refusalRe, sc.ln.text[sc.m.Start:])
		}
	}
	return obj
}

// findingMessage is the text of a finding's event: its message, the error the logger wrote
// beside it, and the lines of the message below it.
func findingMessage(sc scanned, lines []string) string {
	e := sc.m.Entry
	msg := messageText(sc)
	if err := logError(sc.ln.text); err != "" && slices.Contains(e.In, "log") && !strings.Contains(msg, err) {
		msg += ": " + err // the error the logger wrote beside its message
	}
	if len(lines) > 0 {
		msg += "\n" + strings.Join(lines, "\n")
	}
	return msg
}

// oldSourceRe finds an events row's SOURCE as kubectl printed it before 1.11, "component,
// host" ("kernel-monitor, gke-pool-1-gl40   Warning   OOMKilling …"), and as describe printed
// it, "{kubelet host}".
var oldSourceRe = lazyre.New(`(?:^|\s)(?:[a-z][\w.-]*, ([a-z0-9][a-z0-9.-]*[a-z0-9])\s+(?:Normal|Warning)\s|\{[a-z][\w.-]* ([a-z0-9][a-z0-9.-]*[a-z0-9])\})`)

// nodeLocal are the components that run on every node, whose journal's hostname is the node
// their message is about.
var nodeLocal = map[string]bool{"kubelet": true, "kernel": true, "node-problem-detector": true, "containerd": true,
	"dockerd": true, "runc": true, "cri-o": true, "calico": true, "cilium": true, "flannel": true, "host-local": true}

// lineHost is the host a line says its message was written on: an old events row's source,
// or the journal's hostname of a component that runs on the node; "" when it says none.
func lineHost(text, component string) string {
	if r := journalHostRe.FindStringSubmatch(text); r != nil && nodeLocal[component] {
		return r[1]
	}
	if r := oldSourceRe.FindStringSubmatch(text); r != nil {
		return r[1] + r[2]
	}
	return ""
}

// messageLines finds the messages written on several lines (catalog.Entry.Follows): a match
// whose entry follows the entry of the match before it, or of the message that match is a
// line of, on the same line or the next, is a line of that message. head[i] is the index of
// the first line's match for such a line, else -1; more[h] are the texts of the lines under
// the message whose first line is h, as its message goes on.
func (s *scanState) messageLines() (head []int, more map[int][]string) {
	head, more = make([]int, len(s.found)), map[int][]string{}
	prev := -1 // the last match that is not a word
	for i, sc := range s.found {
		head[i] = -1
		e := sc.m.Entry
		if e.Word {
			continue
		}
		if p := prev; p >= 0 && len(e.Follows) > 0 && s.found[p].section == sc.section {
			h := p
			if head[p] >= 0 {
				h = head[p]
			}
			pl := s.found[p].ln
			sameLine := pl.num == sc.ln.num
			if (sameLine || pl.last() == sc.ln.num-1) && slices.Contains(e.Follows, s.found[h].m.Entry.ID) {
				head[i] = h
				if t := lineMessage(sc); !sameLine && !strings.Contains(messageText(s.found[h]), t) {
					more[h] = append(more[h], t) // not joined to the first line already, as a wrap
				}
			}
		}
		prev = i
	}
	return head, more
}

// logErrorRe finds the error a structured logger writes beside its message: a JSON log's
// "error" (zap, Karpenter's), a klog line's err= (logr's Error(err, msg)) or a logrus line's
// error= (containerd's WithError(err)).
var logErrorRe = lazyre.New(`"error"\s*:\s*("(?:[^"\\]|\\.)*")|\berr(?:or)?=("(?:[^"\\]|\\.)*")|\berr(?:or)?=("(?:[^"\\]|\\.)*\\?)$`)

// logError returns the error a structured log line carries beside its message, or "".
func logError(line string) string {
	r := logErrorRe.FindStringSubmatch(line)
	if r == nil {
		return ""
	}
	var v string
	if r[1] != "" {
		if json.Unmarshal([]byte(r[1]), &v) != nil {
			return ""
		}
		return v
	}
	if r[3] != "" {
		// A value the paste cut before its closing quote: as far as it goes.
		v, _ := strconv.Unquote(strings.TrimSuffix(r[3], `\`) + `"`)
		return v
	}
	v, err := strconv.Unquote(r[2])
	if err != nil {
		return ""
	}
	return v
}

// lineMessage is a match's message on its own line, without the next line a wrap joined.
func lineMessage(sc scanned) string {
	own := sc.ln.text
	if len(own) < len(sc.text) && strings.HasPrefix(sc.text, own) && sc.m.Start < len(own) {
		return messageAt(own, sc.m.Start)
	}
	return messageText(sc)
}

// emitScanned emits an event of the scan, named as the readers name theirs; a second event of
// one reason about one object on one line is told apart by a number.
func (p *parser) emitScanned(ev *corev1.Event, ln line, src cluster.Source) error {
	obj := ev.InvolvedObject.Name
	if obj == "" {
		obj = "unknown." + path.Base(p.name)
	}
	ev.Name = fmt.Sprintf("%s.%s.%d", obj, ev.Reason, ln.num)
	if p.scan.names == nil {
		p.scan.names = map[string]int{}
	}
	if n := p.scan.names[ev.Name]; n > 0 {
		p.scan.names[ev.Name] = n + 1
		ev.Name = fmt.Sprintf("%s.%d", ev.Name, n+1)
	} else {
		p.scan.names[ev.Name] = 1
	}
	return p.emitEventFrom(ev, ln, src)
}

// refKind reports whether an object of the given Kubernetes kind can be what an entry of the
// catalogue's object is about.
func refKind(object, kind string) bool {
	switch object {
	case "pod", "container":
		return kind == cluster.KindPod
	case "node":
		return kind == cluster.KindNode
	case "workload":
		return cluster.MakesPods(kind)
	}
	return kind == catalog.ObjectKind(object)
}

// objectKind is the Kubernetes kind of an entry's object, for an event whose object has no name.
func objectKind(object string) string {
	switch object {
	case "pod", "container":
		return cluster.KindPod
	case "node":
		return cluster.KindNode
	}
	return catalog.ObjectKind(object)
}

// messageText is the message a match stands for: from its start to where the line's message
// ends (a closing quote, the end of a JSON string), or the match where that leaves out its words.
func messageText(sc scanned) string {
	if sc.m.Entry.Word {
		return strings.TrimSpace(sc.m.Text) // a status cell's reason: the word is all it says
	}
	msg := messageAt(sc.text, sc.m.Start)
	if msg == "" || !strings.Contains(msg, sc.m.Entry.Anchor()) {
		msg = strings.TrimSpace(sc.m.Text) // the quotation ended before the message's own words
	}
	return msg
}

// nodeReasons are the reasons a node object says: its taints' keys, its conditions' types
// where they are not fine, and their reasons.
func nodeReasons(node *corev1.Node) []string {
	var rs []string
	for _, t := range node.Spec.Taints {
		rs = append(rs, t.Key)
	}
	for _, c := range node.Status.Conditions {
		rs = append(rs, c.Reason)
		switch {
		case c.Type == corev1.NodeReady && c.Status != corev1.ConditionTrue:
			rs = append(rs, "NodeNotReady")
		case c.Type != corev1.NodeReady && c.Status == corev1.ConditionTrue:
			rs = append(rs, string(c.Type))
		}
	}
	return rs
}

// jsonInvolved reads the involvedObject of an event written as JSON on one line, its fields in
// any order; ok is false without one that has a kind and a name.
func jsonInvolved(t string) (corev1.ObjectReference, bool) {
	if !strings.Contains(t, `"involvedObject"`) {
		return flatEvent(t)
	}
	r := jsonInvolvedRe.FindStringSubmatch(t)
	if r == nil {
		return corev1.ObjectReference{}, false
	}
	var ref corev1.ObjectReference
	for _, f := range jsonFieldRe.FindAllStringSubmatch(r[1], -1) {
		switch f[1] {
		case "kind":
			ref.Kind = f[2]
		case "namespace":
			ref.Namespace = f[2]
		case "name":
			ref.Name = f[2]
		}
	}
	if ref.Kind == "" || ref.Name == "" {
		return corev1.ObjectReference{}, false
	}
	if ref.Kind == cluster.KindPod || ref.Kind == cluster.KindNode {
		ref.APIVersion = "v1"
	}
	return ref, true
}

// describes reports whether the output of a command about an object of kind may be a message's
// about an object of its entry's object: a controller's about a controller, a claim's about a
// claim.
func describes(kind, object string) bool {
	switch object {
	case "deployment", "replicaset", "replicationcontroller", "statefulset", "daemonset", "job", "cronjob", "workload":
		return cluster.MakesPods(kind)
	case "pvc":
		return kind == "PersistentVolumeClaim"
	}
	return false
}
