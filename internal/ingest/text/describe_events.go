package text

import (
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/lazyre"
)

// describeTimeExpr is a time as the describe of 2015–2016 printed it: "Wed, 18 Nov 2015 10:35:20 +0100".
const describeTimeExpr = `\w{3}, \d{1,2} \w{3} \d{4} \d\d:\d\d:\d\d (?:[+-]\d{4}|[A-Z]{3,4})`

// oldDescribeRowRe is a describe "Events:" row as kubectl printed it before 1.10:
// FirstSeen LastSeen Count From SubObjectPath [Type] Reason Message, the first two as ages or,
// before 1.2, as times; From in braces ("{kubelet node-1}") until 1.6, and often tab-separated.
var oldDescribeRowRe = lazyre.New(`^\s*(` + ageExpr + `|` + describeTimeExpr + `)\s+(` + ageExpr + `|` + describeTimeExpr + `)\s+(\d+)\s+` +
	`(\{[^}]*\}|\S+,\s\S+|[a-z][\w.-]*)\s+(?:((?:spec\.|\{)\S*|implicitly required container \S+)\s+)?(?:(Normal|Warning)\s+)?([A-Za-z][\w-]*)(?:\s+(.*))?$`)

// oldGetRestRe reads what follows the KIND cell of a 0.x-1.1 `kubectl get events` row:
// [SUBOBJECT] REASON {SOURCE} MESSAGE.
var oldGetRestRe = lazyre.New(`^(?:((?:spec\.|\{)\S*)\s+)?([A-Za-z][\w-]*)\s+(\{[^}]*\})\s*(.*)$`)

// parseOldRow reads one describe events row of the layouts before 1.10.
func parseOldRow(s string) (eventRow, bool) {
	m := oldDescribeRowRe.FindStringSubmatch(s)
	if m == nil || eventRowKind(m[7]) && eventRowRe.MatchString(s) {
		// Not a describe's row: a `kubectl get events` row of the same years, whose NAME
		// and KIND columns stand where the describe's From and Reason do (read by the scan).
		return eventRow{}, false
	}
	r := eventRow{count: m[3], source: strings.Trim(m[4], "{} "), fieldPath: m[5], typ: m[6], reason: oldReason(m[7]), message: m[8]}
	if eventRowKind(m[7]) && m[5] == "" && m[6] == "" {
		// A `kubectl get events` row of 0.x-1.1, its times written out: FIRSTSEEN LASTSEEN
		// COUNT NAME KIND [SUBOBJECT] REASON SOURCE MESSAGE.
		g := oldGetRestRe.FindStringSubmatch(m[8])
		if g == nil {
			return eventRow{}, false
		}
		r = eventRow{count: m[3], kind: m[7], name: m[4], fieldPath: g[1], reason: oldReason(g[2]), source: strings.TrimSpace(strings.Trim(g[3], "{}")), message: g[4]}
		if fields := strings.Fields(r.source); len(fields) == 2 {
			r.source = fields[0] + ", " + fields[1]
		}
	}
	if t, ok := parseTime(m[2]); ok {
		r.lastAt = t
		if f, ok := parseTime(m[1]); ok {
			r.firstAt = f
		}
		return r, true
	}
	sn, ok := parseSeen(m[2])
	if !ok {
		return eventRow{}, false
	}
	r.first, r.seen = m[1], sn
	if src := strings.Fields(r.source); len(src) == 2 && !strings.Contains(r.source, ",") {
		r.source = src[0] + ", " + src[1] // "{kubelet node-1}": the component and the host
	}
	return r, true
}

// describedRow is an events row with the line it starts on.
type describedRow struct {
	r  eventRow
	ln line
}

// describeHeaderRe is the header of describe's Events table; its groups are where the From and
// Message columns start.
var describeHeaderRe = lazyre.New(`^\s*Type\s+Reason\s+Age\s+(From)\s+(Message)\s*$`)

// describeEvents emits the rows of a describe "Events:" section as events about owner (which
// may be nil when the section was pasted alone). A line that is not a row continues the
// message of the row before it: terminals and tickets wrap long messages.
func (p *parser) describeEvents(sec *node, owner *ownerRef) error {
	if sec == nil {
		return nil
	}
	var rows []describedRow
	var from, msg int // where the header's From and Message columns start; 0 without one
	for _, n := range sec.flat() {
		if m := describeHeaderRe.FindStringSubmatchIndex(n.text); m != nil {
			from, msg = m[2], m[4]
			continue
		}
		if r, ok := parseDescribeRow(n.text); ok {
			if from > 0 && len(n.text) > msg && strings.TrimSpace(n.text[from:msg]) == "" && n.text[from-1] == ' ' {
				// No component under From (an event of events.k8s.io that set none): what
				// the pattern took for it is the message's first word.
				r.source, r.message = "", strings.TrimSpace(n.text[msg:])
			}
			rows = append(rows, describedRow{r, n.ln})
			continue
		}
		if r, ok := parseOldRow(n.text); ok {
			rows = append(rows, describedRow{r, n.ln})
			continue
		}
		if isEventsRule(n.text) || len(rows) == 0 {
			continue // the header, its rule, or "<none>"
		}
		rows[len(rows)-1].r.message = joinWrapped(rows[len(rows)-1].r.message, n.text)
	}
	ref := owner.ref()
	if ref.Name == "" {
		ref = scheduledPod(ref, rows)
	}
	reasons := make([]string, len(rows))
	for i, rw := range rows {
		reasons[i] = rw.r.reason
	}
	if ref.Name == "" {
		ref = p.cmdObjectOf(reasons...)
	}
	if ref.Name == "" {
		ref = creatorOf(rows)
	}
	if ref.Name == "" && len(rows) > 0 && !volumeSection(reasons) {
		// A section cut from its describe, in a paste that named one pod before it.
		if o := p.fragmentOwner(); o != nil {
			ref = o.ref()
		}
	}
	if ref.Name == "" {
		// Events of a controller (its messages say which kind), in a paste that showed one
		// object of that kind before them (a `get job` row above a describe that lost its Name).
		ref = p.scan.namedFor(rowMessages(rows))
	}
	for _, rw := range rows {
		r := rw.r
		r.kind, r.namespace, r.name = ref.Kind, ref.Namespace, ref.Name
		if ref.Name == "" {
			// Nothing names the section's pod: the row's message may, in itself or a part
			// ("Failed create pod sandbox: … failed to set up pod "web-1_prod" network: …").
			own := refusedCreator(r) // a controller's event of the pods it could not make
			if own.Name == "" {
				own = p.messagePod(r.message)
			}
			if own.Name != "" {
				r.kind, r.namespace, r.name = own.Kind, own.Namespace, own.Name
			}
		}
		ev := p.event(r)
		if p.holdOrphan(ev, rw.ln) {
			continue // a pod the file may name later
		}
		if err := p.emitEvent(ev, rw.ln); err != nil {
			return err
		}
	}
	return nil
}

// rowMessages are the messages of events rows.
func rowMessages(rows []describedRow) []string {
	out := make([]string, len(rows))
	for i, rw := range rows {
		out[i] = rw.r.message
	}
	return out
}

// assignedRe reads the pod out of a Scheduled event's message.
// Before 1.10 it says "Successfully assigned <pod> to <node>", without the namespace.
var assignedRe = lazyre.New(`^Successfully assigned (?:([a-z0-9][a-z0-9-]*)/)?([a-z0-9][a-z0-9.-]*) to `)

// scheduledPod names the pod of an events section pasted alone from its Scheduled event,
// which says "Successfully assigned <ns>/<pod> to <node>".
func scheduledPod(ref corev1.ObjectReference, rows []describedRow) corev1.ObjectReference {
	for _, rw := range rows {
		if e := rw.r; e.reason == "Scheduled" {
			if m := assignedRe.FindStringSubmatch(strings.TrimSpace(e.message)); m != nil {
				return corev1.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: m[1], Name: m[2]}
			}
		}
	}
	return ref
}

// createdPodRe reads a controller's SuccessfulCreate event: "Created pod: web-5d8f7b9c4d-abcde".
var createdPodRe = lazyre.New(`^Created pod: ([a-z0-9][a-z0-9.-]*[a-z0-9])-[a-z0-9]{5}$`)

// podCreators are the controllers that name their pods by generateName, "<owner>-" and five
// random characters (pkg/controller/controller_utils.go, getPodsPrefix), by the name each
// records its events under.
var podCreators = map[string]string{"job-controller": "Job", "replicaset-controller": "ReplicaSet", "daemonset-controller": "DaemonSet"}

// creatorOf is the controller whose events section this is when nothing else names it: one
// that records creating a pod, whose name is the controller's and a random suffix.
func creatorOf(rows []describedRow) corev1.ObjectReference {
	for _, rw := range rows {
		e := rw.r
		kind := podCreators[strings.TrimSpace(e.source)]
		if e.reason != "SuccessfulCreate" || kind == "" {
			continue
		}
		if m := createdPodRe.FindStringSubmatch(strings.TrimSpace(e.message)); m != nil {
			return corev1.ObjectReference{Kind: kind, APIVersion: ownerAPIVersion(kind), Name: m[1]}
		}
	}
	return corev1.ObjectReference{}
}

// messagePod is the pod a message names, in its own words or in a part of it; empty when it
// names none.
func (p *parser) messagePod(msg string) corev1.ObjectReference {
	for _, m := range p.scan.cat.Explain(msg) {
		if ns, name := m.Pod(); nameLike(name) && (m.Entry.Object == "pod" || m.Entry.Object == "container") {
			return podRef(ns, name)
		}
	}
	if ns, name, ok := textPod(msg); ok {
		return podRef(ns, name) // as a runtime or a network plugin names it
	}
	if name := refusedPod(refusalRe, msg); name != "" {
		return podRef("", name) // the pod the API server refused to make
	}
	if m := relayedRe.FindStringSubmatch(msg); m != nil && len(p.scan.cat.Explain(msg[len(m[0]):])) > 0 {
		return podRef(strings.TrimSuffix(m[1], "/"), m[2]) // a pod's event relayed onto another object
	}
	return corev1.ObjectReference{}
}

// relayedRe is the head of a pod's event that an operator recorded again on an object of its
// own, naming the pod before the kubelet's message ("Pod pulsar-proxy-0: Startup probe
// failed: …", KubeBlocks' event controller).
var relayedRe = lazyre.New(`^Pod ([a-z0-9][a-z0-9-]*/)?([a-z0-9][a-z0-9.-]*[a-z0-9]): `)

// isEventsRule reports a describe events header or its dashed rule.
func isEventsRule(s string) bool {
	if strings.Trim(s, "- ") == "" {
		return true
	}
	if strings.Trim(s, "─━ ") == "" {
		return true // the rule of the 2015 layout
	}
	f := strings.Fields(s)
	return len(f) >= 4 && (f[0] == "Type" || f[0] == "FirstSeen") && strings.Contains(s, "Reason")
}

// oldReasons are the reasons of Kubernetes 1.0 and 1.1 events, written in lower case, with
// the names later releases give them.
var oldReasons = map[string]string{"backoff": "BackOff", "failedScheduling": "FailedScheduling", "failedSync": "FailedSync",
	"scheduled": "Scheduled", "pulled": "Pulled", "pulling": "Pulling", "created": "Created", "started": "Started",
	"killing": "Killing", "failed": "Failed", "unhealthy": "Unhealthy", "oomKilling": "OOMKilling"}

// oldReason names an old event's reason as releases since 1.2 do.
func oldReason(r string) string {
	if n, ok := oldReasons[r]; ok {
		return n
	}
	if r != "" && r[0] >= 'a' && r[0] <= 'z' {
		// Releases before 1.2 wrote every reason in lower camel case ("failedCreate").
		return strings.ToUpper(r[:1]) + r[1:]
	}
	return r
}
