package text

import (
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/lazyre"
)

// tableParser reads the rows of an open table; ok is false for a line that is not a row,
// which closes the table and is then recognised afresh.
type tableParser interface {
	row(p *parser, ln line) (ok bool, err error)
}

// ageExpr matches an age column, with kubectl's "(x23 over 115m)" repeat suffix.
const ageExpr = `(?:<unknown>|<invalid>|\d[\dydhms]*)(?:\s+\(x\d+\s+over\s+\S+\))?`

var (
	// getRowRe is a `kubectl get events` row without its header (corpus 01):
	// [namespace] age type reason kind/name message.
	getRowRe = lazyre.New(`^\s*(?:(\S+)\s+)?(` + ageExpr + `)\s+(Normal|Warning)\s+([A-Za-z][\w-]*)\s+([a-z][a-z0-9.-]*/\S+)(?:\s+(.*))?$`)
	// describeRowRe is a describe "Events:" row: type reason age from message. From is one
	// word, or "kubelet, <node>" as kubectl printed it before 1.19.
	describeRowRe = lazyre.New(`^\s*(Normal|Warning)\s+([A-Za-z][\w-]*)\s+(` + ageExpr + `)\s+(\S+,\s\S+|\S+)(?:\s+(.*))?$`)
	reasonRe      = lazyre.New(`^[A-Za-z][\w-]*$`)
)

// eventRow is what an events table row says, whatever its layout.
type eventRow struct {
	namespace, kind, name, fieldPath string
	eventName                        string
	typ, reason, message, source     string
	seen                             seen
	first                            string      // a separate FIRST SEEN column
	count                            string      // a separate COUNT column
	firstAt, lastAt                  metav1.Time // times, where the layout prints times rather than ages
}

// event builds the core/v1 Event a row describes; a row without a namespace is in the one
// the command above it named ("kubectl get events -n jhub").
func (p *parser) event(r eventRow) *corev1.Event {
	if r.namespace == "" && r.kind != "" && r.kind != "Node" {
		r.namespace = p.cmdNamespace(cluster.KindEvent)
	}
	ev := &corev1.Event{Type: r.typ, Reason: r.reason, Message: strings.TrimSpace(r.message)}
	ev.Name, ev.Namespace = r.eventName, r.namespace
	ev.InvolvedObject = corev1.ObjectReference{Kind: r.kind, Name: r.name, FieldPath: r.fieldPath}
	if !clusterScoped[r.kind] {
		ev.InvolvedObject.Namespace = r.namespace
	}
	if r.kind == "Pod" || r.kind == "Node" {
		ev.InvolvedObject.APIVersion = "v1"
	}
	if comp, host, ok := strings.Cut(r.source, ","); ok {
		ev.Source = corev1.EventSource{Component: strings.TrimSpace(comp), Host: strings.TrimSpace(host)}
	} else if !isNone(r.source) {
		ev.Source.Component = strings.TrimSpace(r.source)
	}
	ev.Count = r.seen.count
	if n, err := strconv.ParseInt(r.count, 10, 32); err == nil {
		ev.Count = int32(n)
	}
	if !r.lastAt.IsZero() {
		ev.LastTimestamp, ev.FirstTimestamp = r.lastAt, r.lastAt
		if !r.firstAt.IsZero() {
			ev.FirstTimestamp = r.firstAt
		}
		return ev
	}
	if t := p.ago(r.seen.last, r.seen.lastOK); t != nil {
		ev.LastTimestamp = *t
		ev.FirstTimestamp = *t
	}
	first, firstOK := r.seen.first, r.seen.firstOK
	if r.first != "" {
		first, firstOK, _ = parseAge(r.first)
	}
	if t := p.ago(first, firstOK); t != nil {
		ev.FirstTimestamp = *t
	}
	return ev
}

// splitObject reads "pod/name" (or "replicaset.apps/name") into a kind and a name.
func splitObject(s string) (kind, name string) {
	res, n, ok := strings.Cut(s, "/")
	if !ok {
		return "", s
	}
	return kindOf(res), n
}

// getRows reads header-less `kubectl get events` rows.
type getRows struct{}

func (getRows) row(p *parser, ln line) (bool, error) {
	m := getRowRe.FindStringSubmatch(ln.text)
	if m == nil {
		return false, nil
	}
	sn, _ := parseSeen(m[2])
	kind, name := splitObject(m[5])
	r := eventRow{namespace: m[1], kind: kind, name: name, typ: m[3], reason: m[4], message: m[6], seen: sn}
	return true, p.rowEvent(p.event(r), ln)
}

// describeRows reads header-less rows of a describe "Events:" section, by parse:
// parseDescribeRow for the current layout (corpus 21), parseOldRow for those before 1.10
// (corpus 61). Their object is the one the command above them describes, if it names one.
type describeRows struct {
	parse func(string) (eventRow, bool)
	// assigned is the pod the rows' Scheduled event named ("Successfully assigned ns/pod to
	// node"): the rows after it are that pod's, pasted without the describe around them.
	assigned corev1.ObjectReference
}

func (t *describeRows) row(p *parser, ln line) (bool, error) {
	r, ok := t.parse(ln.text)
	if !ok {
		return false, nil
	}
	if m := assignedRe.FindStringSubmatch(strings.TrimSpace(r.message)); m != nil && r.reason == "Scheduled" {
		t.assigned = corev1.ObjectReference{Kind: cluster.KindPod, APIVersion: "v1", Namespace: m[1], Name: m[2]}
	}
	ref := p.cmdObjectOf(r.reason)
	if r.name != "" {
		ref = corev1.ObjectReference{Kind: r.kind, Name: r.name} // the row's own NAME and KIND
	}
	if ref.Name == "" {
		ref = t.assigned
	}
	if ref.Name == "" {
		ref = refusedCreator(r) // a controller's event of the pods it could not make
	}
	if ref.Name == "" {
		ref = p.messagePod(r.message) // the message's own words, or a part of it, may name it
	}
	r.kind, r.namespace, r.name = ref.Kind, ref.Namespace, ref.Name
	return true, p.rowEvent(p.event(r), ln)
}

// parseDescribeRow reads one describe "Events:" row.
func parseDescribeRow(s string) (eventRow, bool) {
	m := describeRowRe.FindStringSubmatch(s)
	if m == nil {
		return eventRow{}, false
	}
	sn, ok := parseSeen(m[3])
	if !ok {
		return eventRow{}, false
	}
	return eventRow{typ: m[1], reason: m[2], seen: sn, source: m[4], message: m[5]}, true
}

// headerlessEvents returns a reader for the header-less event rows that s starts, or nil.
func headerlessEvents(s string) tableParser {
	switch {
	case getRowRe.MatchString(s):
		return getRows{}
	case describeRowRe.MatchString(s):
		return &describeRows{parse: parseDescribeRow}
	case oldDescribeRowRe.MatchString(s):
		return &describeRows{parse: parseOldRow}
	}
	return nil
}

// refusedCreator is the controller of a FailedCreate row its controller recorded (FROM
// replicaset-controller, job-controller, daemonset-controller) whose refusal names the pod it
// would make: "<controller>-" its generateName, or the name generated from it, "<controller>-"
// and five characters (pkg/controller/controller_utils.go, getPodsPrefix); or the StatefulSet
// its controller's message names (statefulSetFailedRe).
func refusedCreator(r eventRow) corev1.ObjectReference {
	if !strings.HasPrefix(r.reason, "Failed") {
		return corev1.ObjectReference{}
	}
	if m := statefulSetFailedRe.FindStringSubmatch(r.message); m != nil {
		// The StatefulSet controller names its set in its own words; its pods' names are the
		// set's and an ordinal, which refusedController does not read.
		return corev1.ObjectReference{Kind: "StatefulSet", APIVersion: "apps/v1", Name: m[3]}
	}
	kind := podCreators[strings.TrimSpace(r.source)]
	if kind == "" || r.reason != "FailedCreate" {
		return corev1.ObjectReference{}
	}
	if name := refusedController(r.message); name != "" {
		return corev1.ObjectReference{Kind: kind, Name: name}
	}
	return corev1.ObjectReference{}
}
