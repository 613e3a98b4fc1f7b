package text

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/rootline-dev/rootline/internal/catalog"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/lazyre"
)

var (
	// looseObjectRe finds an object a line names: "pod/x", "node/y", and as `kubectl events`
	// prints its OBJECT column, "Pod/x".
	looseObjectRe = lazyre.New(`\b([Pp]od|[Nn]ode)/([a-z0-9][a-z0-9.-]*[a-z0-9])`)
	// backOffPodRe finds the pod in "Back-off restarting failed container c in pod name_ns(uid)".
	backOffPodRe = lazyre.New(`in pod ([a-z0-9][a-z0-9.-]*)_([a-z0-9][a-z0-9-]*)\(`)
	// cniPodNameRe and cniPodNSRe find the pod in the CNI_ARGS a container runtime passes a
	// network plugin ("IgnoreUnknown=1;K8S_POD_NAMESPACE=ns;K8S_POD_NAME=x;K8S_POD_INFRA_CONTAINER_ID=…",
	// containerd's and CRI-O's), which plugins' errors print back (multus' "CNI request failed
	// with status 400: '&{… Args:…}'"), or as a protobuf's text (the AWS VPC CNI's ipamd:
	// K8S_POD_NAME:\"x\").
	cniPodNameRe = lazyre.New(`\bK8S_POD_NAME(?:=|:\\?")([a-z0-9][a-z0-9.-]*[a-z0-9])(?:[;,'"\\\s)]|$)`)
	cniPodNSRe   = lazyre.New(`\bK8S_POD_NAMESPACE(?:=|:\\?")([a-z0-9][a-z0-9-]*[a-z0-9])(?:[;,'"\\\s)]|$)`)
	// labelPodNameRe and labelPodNSRe find the pod in the labels the kubelet puts on every
	// container it makes (io.kubernetes.pod.name, io.kubernetes.pod.namespace), which a
	// runtime's events and inspections print (`docker events`' attributes, crictl inspect).
	labelPodNameRe = lazyre.New(`\bio\.kubernetes\.pod\.name"?[=:]\s*"?([a-z0-9][a-z0-9.-]*[a-z0-9])(?:[;,'"\s)]|$)`)
	labelPodNSRe   = lazyre.New(`\bio\.kubernetes\.pod\.namespace"?[=:]\s*"?([a-z0-9][a-z0-9-]*[a-z0-9])(?:[;,'"\s)]|$)`)
	// runtimeNameRe finds the name a container runtime gives a pod's sandbox or container
	// (dockershim's makeSandboxName and makeContainerName, "k8s_POD_<pod>_<ns>_<uid>_<attempt>"
	// and "k8s_<container>_<pod>_<ns>_<uid>_<attempt>"; CRI-O's sandbox,
	// "k8s_<pod>_<ns>_<uid>_<attempt>"): names hold no underscore, so the parts are plain.
	runtimeNameRe = lazyre.New(`\bk8s_(?:([a-z0-9][a-z0-9-]*|POD)_)?([a-z0-9][a-z0-9.-]*[a-z0-9])_([a-z0-9][a-z0-9-]*[a-z0-9])_([0-9a-f][0-9a-f-]{3,})_([0-9]+)\b`)
	// multusPodRe finds the pod Multus names before its error: "Multus: [ns/pod]: …" (cmdErr),
	// and before a delegate's error "[ns/pod:network]: error adding container to network …"
	// (cmdPluginErr); with the pod's UID since its thick plugin ("[ns/pod/uid]", "[ns/pod/uid:network]").
	multusPodRe = lazyre.New(`\bMultus: \[([a-z0-9][a-z0-9-]*)/([a-z0-9][a-z0-9.-]*[a-z0-9])(?:/[0-9a-f-]+)?\]|\[([a-z0-9][a-z0-9-]*)/([a-z0-9][a-z0-9.-]*[a-z0-9])(?:/[0-9a-f-]+)?:[\w.-]+\]: error`)
	// e2eEventRe finds the object of an event the end-to-end test framework dumped into its log
	// (test/e2e/framework: Logf("At %v - event for %v: %v %v: %v", e.FirstTimestamp,
	// e.InvolvedObject.Name, e.Source, e.Reason, e.Message)), right before the message.
	e2eEventRe = lazyre.New(`\bevent for ([a-z0-9][a-z0-9.-]*[a-z0-9]): \{[^{}]*\} [A-Za-z]+: $`)
	// forwardedRe finds the object of an event a forwarder (kube-eventer, a webhook) printed as
	// "Kind:Pod \nNamespace:ns \nName:pod.17a71c191e6304ea"; the suffix is the event's own id.
	forwardedRe = lazyre.New(`Kind:\s*(\w+)(?:\s|\\+n)*Namespace:\s*([a-z0-9-]+)(?:\s|\\+n)*Name:\s*([a-z0-9.-]*[a-z0-9])`)
	eventIDRe   = lazyre.New(`\.[0-9a-f]{8,}$`)
	// messageEndRe cuts a message where an enclosing JSON or Python string ends, or a klog or
	// logfmt value does: at the quote before the next key (`err="0/401 nodes are available:
	// …" pod="ns/x"`), since a structured line's values are each a message of their own.
	messageEndRe = lazyre.New(`\\+n|"[,}\]]|'$|",?$|"\s+[A-Za-z_][\w.-]*=`)
	// machineRe matches a line a program wrote rather than a person: a JSON or YAML key, an
	// aligned "Key:   value", a klog, journald, syslog or ISO-timestamped log line, logfmt, a
	// forwarder's webhook body.
	machineRe = lazyre.New(`^\s*(?:"[\w.-]+"\s*:|[a-z][A-Za-z0-9]*:\s|[A-Z][\w ()-]*:\s{2,}|[IWEF]\d{4} \d\d:\d\d:\d\d|` +
		`\w{3} [ \d]\d \d\d:\d\d:\d\d |\d{4}-\d\d-\d\d[T ]\d\d:\d\d|time="|level=|\[?\{")|b'\{"|\\n[A-Z]\w*:`)
	// causalRe finds a person saying why: the sentences that become claims.
	causalRe = lazyre.New(`(?i)\b(?:root[ -]cause|caused|causing|because|due to|as a result|led to|leading to|let to|resulted in|result of|the reason|filling up|filled up|fills up|ran out|running out|run out|was too (?:small|low)|were too (?:small|low)|exhausted|exhaustion)\b`)
	// domainRe keeps claims to what Rootline analyses.
	domainRe = lazyre.New(`(?i)pod|node|memory|cpu|disk|storage|volume|limit|request|evict|oom|crash|schedul|autoscal|capacity|cluster|image|taint|affinity|selector|pvc|prometheus|quota|preempt|spot|ephemeral|inode`)
	// headingIncidentRe finds a heading about one incident: a date, or an incident word.
	headingIncidentRe = lazyre.New(`(?i)\b\d{4}-\d\d-\d\d\b|\b(?:incident|outage|postmortem|post-mortem)\b`)
	dateRe            = lazyre.New(`\b\d{4}-\d\d-\d\d\b`)
	rootCauseLineRe   = lazyre.New(`(?i)^(?:\W*)root[ -]cause`)
)

// maxPhrases bounds the signal phrases and claims one input may hold.
const maxPhrases = 2000

// maxClaimText bounds the text a claim keeps.
const maxClaimText = 400

// pendingPhrase is a line a person may have written, with a signal phrase or a causal
// sentence, held until the end of the input: whether it is output or the author's claim
// depends on the whole paste.
type pendingPhrase struct {
	ln      line
	reports bool   // a sentence that may report a symptom
	reason  string // the reason a person named in a sentence (OOMKilled), or "" for a causal sentence
	at      int    // where the reason (or the causal words) starts in ln.text
	para    int    // the paragraph the line is in, index in prose.paras; -1 for none
	off     int    // where the line starts in its paragraph's text
}

// prose tracks what the paste says about itself: whether it is a document people wrote
// (paragraphs, fences around output, headings) and how many incidents it describes.
type prose struct {
	lines        int             // sentences outside code
	items        int             // Markdown list items of several words outside code
	headings     int             // Markdown headings ("## …", or "# …" on the first line)
	fenced       bool            // output set apart in fences or <pre>
	incidents    map[string]bool // headings about an incident
	rootCauses   int             // lines starting "Root cause"
	pending      []pendingPhrase
	pendingCount int
	// paras are the paragraphs of prose, each its lines joined with spaces, so that a claim
	// is the sentence a hard-wrapped paragraph holds, not the piece of it on one line.
	paras    []string
	paraLine int  // the number of the last line added to the last paragraph
	paraRaw  int  // and its length: a short line ended where its writer ended it
	paraItem bool // and whether it was a list item
}

// maxParagraph bounds a paragraph of prose kept for claims.
const maxParagraph = 8 << 10

// inParagraph adds a line of prose to the paragraph the line before it is in, or starts one;
// it returns the paragraph and where the line starts in it.
func (pr *prose) inParagraph(ln line) (para, off int) {
	t := strings.TrimSpace(ln.text)
	// A list item starts a paragraph, and so does the line after one unless indented under it.
	wrapped := pr.paraLine == ln.num-1 && pr.paraRaw >= wrapWidth-10 && !ln.item &&
		(!pr.paraItem || strings.HasPrefix(ln.text, " "))
	pr.paraLine, pr.paraRaw, pr.paraItem = ln.num, ln.raw, ln.item
	if len(pr.paras) > 0 && wrapped && len(pr.paras[len(pr.paras)-1])+len(t) < maxParagraph {
		i := len(pr.paras) - 1
		pr.paras[i] += " "
		off = len(pr.paras[i])
		pr.paras[i] += t
		return i, off
	}
	pr.paras = append(pr.paras, t)
	return len(pr.paras) - 1, 0
}

// sentence returns the sentence of a paragraph around byte at: from the end of the sentence
// before it to the end of its own.
func (pr *prose) sentence(para, at int) string {
	text := pr.paras[para]
	at = min(max(at, 0), len(text))
	start := 0
	for _, end := range []string{". ", "? ", "! "} {
		if i := strings.LastIndex(text[:at], end); i >= 0 && i+len(end) > start {
			start = i + len(end)
		}
	}
	stop := len(text)
	for _, end := range []string{". ", "? ", "! "} {
		if i := strings.Index(text[at:], end); i >= 0 && at+i+1 < stop {
			stop = at + i + 1
		}
	}
	return strings.TrimSpace(text[start:stop])
}

// heading notes a Markdown heading; level is its number of "#".
func (p *parser) heading(s string, level, num int) {
	if level >= 2 || num == 1 {
		p.prose.headings++
	}
	if !headingIncidentRe.MatchString(s) {
		return
	}
	if p.prose.incidents == nil {
		p.prose.incidents = map[string]bool{}
	}
	key := strings.ToLower(s)
	if d := dateRe.FindString(s); d != "" {
		key = d
	}
	p.prose.incidents[key] = true
}

// phrase looks at a line no format claimed. A message of the catalogue is output, whatever
// is around it: the scan reads it (scan.go), and the line is not a person's writing. A reason a
// person names in a sentence (OOMKilled) and a causal sentence are held for finishPhrases; the
// line counts towards telling a document from a plain paste.
func (p *parser) phrase(ln line) error {
	machine := machineRe.MatchString(ln.text)
	if !ln.code && rootCauseLineRe.MatchString(ln.text) {
		p.prose.rootCauses++
	}
	para, off := -1, 0
	if !ln.code && !machine {
		para, off = p.prose.inParagraph(ln)
	}
	ms := p.scan.sc.Find(ln.text)
	rest, word := ownWords(ln.text, ms)
	if len(ms) > 0 && word < 0 || (word >= 0 && p.printed(ln)) {
		// Output, read by the scan. What a person wrote around it may still be a claim.
		if !ln.code && !machine && p.prose.pendingCount < maxPhrases {
			if loc := causalRe.FindStringIndex(rest); loc != nil && domainRe.MatchString(rest) {
				p.hold(pendingPhrase{ln: ln, at: loc[0], para: para, off: off})
			}
		}
		return nil
	}
	if word >= 0 && p.scan.heldTol && slices.Contains(ms[word].Entry.In, "taint") {
		return nil // a toleration's key (scanState.noteTolerations), neither output nor a claim
	}
	if word >= 0 {
		if p.prose.pendingCount < maxPhrases {
			p.hold(pendingPhrase{ln: ln, reason: ms[word].Entry.Reason, at: ms[word].Start, para: para, off: off})
		}
		return nil
	}
	p.countProse(ln, machine)
	if p.prose.pendingCount >= maxPhrases {
		return nil
	}
	if ln.code || machine {
		return nil // a program's line: not a person's words
	}
	if loc := causalRe.FindStringIndex(ln.text); loc != nil && domainRe.MatchString(ln.text) {
		p.hold(pendingPhrase{ln: ln, at: loc[0], para: para, off: off})
	} else if loc := reportRe.FindStringIndex(ln.text); loc != nil {
		p.hold(pendingPhrase{ln: ln, at: loc[0], para: para, off: off, reports: true})
	}
	return nil
}

// countProse counts ln, a line without a message, as a person's sentence or list item when it
// reads as one. Only lines without a message count as a person's writing: a kubelet message
// reads like a sentence too.
func (p *parser) countProse(ln line, machine bool) {
	if !ln.code && !machine && sentence(ln.text) {
		p.prose.lines++
	}
	if ln.item && !machine && words(ln.text) >= 3 {
		p.prose.items++
	}
}

// ownWords is text without the messages ms found in it, blanked: the person's own words; and
// the index of the first match that is a word of the catalogue rather than a message, or -1.
func ownWords(text string, ms []catalog.Match) (rest string, word int) {
	rest, word = text, -1
	for i := len(ms) - 1; i >= 0; i-- {
		m := ms[i]
		if m.Entry.Word {
			word = i
			continue
		}
		rest = rest[:m.Start] + strings.Repeat(" ", m.End-m.Start) + rest[m.End:]
	}
	return rest, word
}

// reportRe finds a person's words that may report a symptom ("the pods were evicted", "it
// kept crashlooping"): such a sentence is kept as a claim, and the analysis says which
// symptoms, if any, it reports.
var reportRe = lazyre.New(`(?i)\bevict|\bpending\b|\bunschedulable\b|crash[- ]?loop|\boom|\brestart(?:ed|ing)\b|\bprobes?\b|not ?ready|\bunready\b|pressure\b|\bscal(?:ed|ing) up\b|\bnodes? (?:were|was) added\b|\bpreempted\b|imagepull|errimagepull|containercreating|failedmount|failedcreatepodsandbox|backofflimit|\bjobs? failed\b|could(?:n't| not) pull`)

func (p *parser) hold(pp pendingPhrase) {
	p.prose.pending = append(p.prose.pending, pp)
	p.prose.pendingCount++
}

// sentence reports a line people wrote: six words or more, most of them words of letters.
func sentence(s string) bool {
	f := strings.Fields(s)
	if len(f) < 6 {
		return false
	}
	words := 0
	for _, w := range f {
		w = strings.Trim(w, ".,;:!?()\"'`*_")
		if len(w) > 1 && strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' && r != '\'' }) < 0 {
			words++
		}
	}
	return words*3 >= len(f)*2
}

// finishPhrases makes claims of what people wrote: the sentence around a reason they named
// or around their causal words. (Messages of the catalogue, wherever they stood, were read by
// the scan as evidence.)
func (p *parser) finishPhrases() error {
	p.res.Prose = p.isDocument()
	said := map[string]bool{} // claims already made: two lines of one sentence make one
	for _, pp := range p.prose.pending {
		c := p.claimOf(pp)
		if said[c.Text] {
			continue
		}
		said[c.Text] = true
		if err := p.emitClaim(c, pp.ln); err != nil {
			return err
		}
	}
	p.prose.pending = nil
	if n := p.mixedIncidents(); n > 0 {
		c := cluster.Claim{Text: fmt.Sprintf("this document describes %d incidents", n), Incidents: n}
		return p.emitClaim(c, line{num: 1})
	}
	return nil
}

// isDocument reports whether the paste is a document people wrote: sentences, fences around
// output, headings, lists.
func (p *parser) isDocument() bool {
	return p.prose.lines >= 2 || p.prose.fenced || p.prose.headings > 0 || p.prose.items >= 2
}

// mixedIncidents is how many incidents a document lists, when it lists several: three or more
// headings about different incidents, or three or more root causes.
func (p *parser) mixedIncidents() int {
	n := max(len(p.prose.incidents), p.prose.rootCauses)
	if n < 3 {
		return 0
	}
	return n
}

// words counts the words of letters in s, leaving out quoted and code spans.
func words(s string) int {
	n := 0
	for _, w := range strings.Fields(s) {
		if strings.ContainsAny(w, "`\"{}[]") {
			continue
		}
		if strings.IndexFunc(w, unicode.IsLetter) >= 0 {
			n++
		}
	}
	return n
}

// messageAt returns the message a phrase starts at position at of s: to the end of the line,
// or to the end of the quotation or string around it (messageEnd).
func messageAt(s string, at int) string {
	msg := s[at:messageEnd(s, at)]
	if at > 0 && s[at-1] == '"' && strings.Contains(msg, `\"`) {
		msg = strings.ReplaceAll(msg, `\"`, `"`)
	}
	return strings.TrimSpace(msg)
}

// messageEnd returns where the message a phrase starts at position at of s ends: at the
// closing quote of a quotation the phrase opens (not an escaped one: a JSON string or a klog
// value quotes the object names in it as \"), where an enclosing JSON or Python string or a
// structured log line's value ends (messageEndRe), or, for a message in no string, at an
// escaped line end or a logger's fields (bareMessageEndRe); else at the end of s.
func messageEnd(s string, at int) int {
	if at > 0 && strings.ContainsRune("\"'`", rune(s[at-1])) {
		if end := closingQuote(s, at, s[at-1]); end >= 0 {
			return end
		}
		return len(s)
	}
	end := messageEndRe
	if !inDoubleQuotes(s[:at]) {
		end = bareMessageEndRe // a message not inside a string: its own quoted words ("provisioner "dev", daemonset …") do not end it
	}
	if e := end.FindStringIndex(s[at:]); e != nil {
		return at + e[0]
	}
	return len(s)
}

// closingQuote is the index in s of the first quote q from position at that no backslash
// escapes and, for a single quote, that is no apostrophe: where the quotation ends; -1 when it
// does not end in s.
func closingQuote(s string, at int, q byte) int {
	for i := at; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == q && !(q == '\'' && apostrophe(s, i)) {
			return i
		}
	}
	return -1
}

// apostrophe reports whether the single quote at s[i] stands between two letters ("didn't",
// "pod's"): a word's, not the one that closes a quotation.
func apostrophe(s string, i int) bool {
	return i > 0 && i+1 < len(s) && isLetter(s[i-1]) && isLetter(s[i+1])
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// bareMessageEndRe cuts a message that no double quote opened before it: at an escaped line
// end, a Python string's closing quote, or the fields zap's console encoder writes after the
// message, a JSON object after a tab (Karpenter's `ERROR controller <message>\t{"pod": "ns/x"}`).
var bareMessageEndRe = lazyre.New(`\\+n|'$|(?:\t|\s{2,})\{"`)

// inDoubleQuotes reports whether the text before a message leaves a double-quoted string open
// (the message is inside a JSON string or a logfmt value), counting quotes not escaped.
func inDoubleQuotes(before string) bool {
	open := false
	for i := 0; i < len(before); i++ {
		switch before[i] {
		case '\\':
			i++
		case '"':
			open = !open
		}
	}
	return open
}

// claimOf is what a person wrote, as the author's claim: the sentence around the phrase or the
// causal words (across the lines of a hard-wrapped paragraph), with the Kubernetes message it
// quotes, if any.
func (p *parser) claimOf(pp pendingPhrase) cluster.Claim {
	text := strings.TrimSpace(pp.ln.text)
	if pp.para >= 0 {
		text = p.prose.sentence(pp.para, pp.off+pp.at)
	}
	c := cluster.Claim{Text: clipText(text, maxClaimText), Reports: pp.reports}
	if pp.reason != "" {
		c.Reason = pp.reason
		c.Quote = clipText(messageAt(pp.ln.text, pp.at), maxClaimText)
	}
	return c
}

// emitClaim emits a claim object, named by the file and line so that the claims of several
// files of one snapshot stay apart.
func (p *parser) emitClaim(c cluster.Claim, ln line) error {
	o, err := cluster.NewClaimObject(c, fmt.Sprintf("%s:%d", path.Base(p.name), ln.num), p.source(ln))
	if err != nil {
		return err
	}
	return p.send(o)
}

// clipText cuts s to at most n bytes, at a rune boundary.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// cniArgsPod returns the pod a line's CNI_ARGS, or the kubelet's labels of a container,
// name.
func cniArgsPod(t string) (namespace, name string, ok bool) {
	nameRe, nsRe := cniPodNameRe, cniPodNSRe
	switch {
	case strings.Contains(t, "K8S_POD_NAME"):
	case strings.Contains(t, "io.kubernetes.pod.name"):
		nameRe, nsRe = labelPodNameRe, labelPodNSRe
	default:
		return "", "", false
	}
	n := nameRe.FindStringSubmatch(t)
	if n == nil {
		return "", "", false
	}
	if ns := nsRe.FindStringSubmatch(t); ns != nil {
		namespace = ns[1]
	}
	return namespace, n[1], true
}

// textPod returns the pod a runtime's or a network plugin's text names in its own way: the
// CNI_ARGS or the kubelet's labels it repeats, Multus' bracket, the runtime's name for the
// pod's sandbox or container.
func textPod(t string) (namespace, name string, ok bool) {
	if namespace, name, ok = cniArgsPod(t); ok {
		return namespace, name, true
	}
	if r := multusPodRe.FindStringSubmatch(t); r != nil {
		return r[1] + r[3], r[2] + r[4], true
	}
	return runtimePod(t)
}

// runtimePod reads the pod out of the name a container runtime gave its sandbox or one of its
// containers, where a runtime's error quotes it ("error creating pod sandbox with name
// "k8s_grafana-ff56fd59c-z7hdx_openshift-monitoring_23d28aab-…_0": layer not known").
func runtimePod(t string) (namespace, name string, ok bool) {
	if !strings.Contains(t, "k8s_") {
		return "", "", false
	}
	r := runtimeNameRe.FindStringSubmatch(t)
	if r == nil {
		return "", "", false
	}
	return r[3], r[2], true
}
