package text

import (
	"strings"
	"unicode"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/lazyre"
)

// heldRow is a table row's event not yet sent, and how long its line was.
type heldRow struct {
	ev *corev1.Event
	ln line
}

// wrapWidth is the shortest line that may have been hard-wrapped: terminals, mail and ticket
// systems wrap at 72 to 80 columns, so a shorter line ended where its writer ended it.
const wrapWidth = 60

// rowEvent holds the event of a table row, sending the row held before it.
func (p *parser) rowEvent(ev *corev1.Event, ln line) error {
	if err := p.flushRow(); err != nil {
		return err
	}
	p.row = &heldRow{ev: ev, ln: ln}
	return nil
}

// flushRow sends the row held, if any.
func (p *parser) flushRow() error {
	r := p.row
	if r == nil {
		return nil
	}
	p.row = nil
	if p.holdOrphan(r.ev, r.ln) {
		return nil // a pod the file may name later
	}
	return p.emitEvent(r.ev, r.ln)
}

// continueRow appends ln to the message of the row held when the row's line was long enough
// to have been wrapped and ln is not the start of something else: the rest of a message a
// terminal or a ticket broke onto the next line.
func (p *parser) continueRow(ln line) bool {
	r := p.row
	if r == nil || r.ln.raw < wrapWidth || ln.num != r.ln.last()+1 || startsFormat(ln.text) || personRe.MatchString(ln.text) {
		return false
	}
	r.ev.Message = joinWrapped(r.ev.Message, strings.TrimSpace(ln.text))
	r.ln.raw = ln.raw // a message wrapped twice continues on the next line too
	r.ln.end = ln.num
	return true
}

// personRe finds a person's words, which no Kubernetes message has: a line with them after
// a table is the writer speaking again, not the rest of a row.
var personRe = lazyre.New(`(?:^|\s)I(?:'m)?\s|(?i)\b(?:we|we're|my|our|any idea|please|thanks|help|anyone)\b`)

// rowStartRe is the start of an events row, even one cut short: its type after at most two
// cells (namespace, age), or an age first.
var rowStartRe = lazyre.New(`^\s*(?:\S+\s+){0,2}(?:Normal|Warning)\b|^\s*(?:\d+[ydhms][\dydhms]*|<unknown>|<invalid>)\s+\S`)

// startsFormat reports whether s opens a table, a describe block, a row or a log line.
func startsFormat(s string) bool {
	return rowStartRe.MatchString(s) || newEventsTable(s) != nil || newPodsTable(s) != nil || newNodesTable(s) != nil || newClaimsTable(s) != nil || startsBlock(s) ||
		headerlessEvents(s) != nil || newCSVEventsTable(s) != nil || klogHeaderRe.MatchString(s) || statusStartRe.MatchString(s) || headerColumns(s) != nil
}

// joinWrapped joins a line to the next one of the text a hard wrap cut: with a space, unless
// the wrap fell inside a word ("which e" + "xceeds its request" is "which exceeds its
// request"), which shows when the two pieces make one word Kubernetes writes and are not
// words themselves.
func joinWrapped(a, b string) string {
	if a == "" {
		return b
	}
	la := lastWord(a)
	fb := firstWord(b)
	if la != "" && fb != "" && messageWords[strings.ToLower(la+fb)] && !(messageWords[strings.ToLower(la)] && messageWords[strings.ToLower(fb)]) {
		return a + b
	}
	return a + " " + b
}

func lastWord(s string) string {
	i := strings.LastIndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' })
	return s[i+1:]
}

func firstWord(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' })
	if i < 0 {
		return s
	}
	return s[:i]
}

// messageWords are the words of the messages the kubelet, the scheduler and the autoscaler
// write, in lower case: the ones a hard wrap may cut in two.
var messageWords = wordSet(`the node was low on resource resources memory ephemeral-storage inodes pids container containers
pod pods was using which exceeds exceeded its request requests limit limits is has larger consumption of threshold quantity
available had condition conditions nodes are available insufficient cpu too many didn't match pod's node affinity selector
taint taints untolerated that tolerate tolerated preemption not helpful for scheduling victims found incoming no persistent
volumes volume bind binding unbound immediate persistentvolumeclaims persistentvolumeclaim predicates following all
matchnodeselector podfitsresources liveness readiness startup probe failed errored warning get http https dial tcp connect
connection refused deadline context client timeout awaiting headers statuscode back-off backoff restarting pulling image
images error err failed killing stopping started created pulled scheduled successfully assigned triggered scale-up
didn't trigger group size setting instead max reached evicted eviction evicting terminated terminating reason exit code
memorypressure diskpressure pidpressure kubelet insufficient stopped posting status unknown ready notready critical admit
order preempted preempting runtime executable file found path unschedulable cordoned`)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}
