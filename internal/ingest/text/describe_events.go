package text

import (
	"regexp"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// oldDescribeRowRe is a describe "Events:" row as kubectl printed it before 1.10:
// FirstSeen LastSeen Count From SubObjectPath Type Reason Message.
var oldDescribeRowRe = regexp.MustCompile(`^\s*(` + ageExpr + `)\s+(` + ageExpr + `)\s+(\d+)\s+\{([^}]*)\}\s+(?:(\S+)\s+)?(Normal|Warning)\s+([A-Za-z][\w-]*)\s*(.*)$`)

// describedRow is an events row with the line it starts on.
type describedRow struct {
	r  eventRow
	ln line
}

// describeEvents emits the rows of a describe "Events:" section as events about owner (which
// may be nil when the section was pasted alone). A line that is not a row continues the
// message of the row before it: terminals and tickets wrap long messages.
func (p *parser) describeEvents(sec *node, owner *ownerRef) error {
	if sec == nil {
		return nil
	}
	var rows []describedRow
	for _, n := range sec.flat() {
		if r, ok := parseDescribeRow(n.text); ok {
			rows = append(rows, describedRow{r, n.ln})
			continue
		}
		if m := oldDescribeRowRe.FindStringSubmatch(n.text); m != nil {
			sn, _ := parseSeen(m[2])
			r := eventRow{first: m[1], seen: sn, count: m[3], source: m[4], fieldPath: m[5],
				typ: m[6], reason: m[7], message: m[8]}
			rows = append(rows, describedRow{r, n.ln})
			continue
		}
		if isEventsRule(n.text) || len(rows) == 0 {
			continue // the header, its rule, or "<none>"
		}
		rows[len(rows)-1].r.message += " " + n.text
	}
	ref := owner.ref()
	if ref.Name == "" {
		ref = scheduledPod(ref, rows)
	}
	for _, rw := range rows {
		r := rw.r
		r.kind, r.namespace, r.name = ref.Kind, ref.Namespace, ref.Name
		if err := p.emitEvent(p.event(r), rw.ln); err != nil {
			return err
		}
	}
	return nil
}

// assignedRe reads the pod out of a Scheduled event's message.
var assignedRe = regexp.MustCompile(`^Successfully assigned ([a-z0-9][a-z0-9-]*)/([a-z0-9][a-z0-9.-]*) to `)

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

// isEventsRule reports a describe events header or its dashed rule.
func isEventsRule(s string) bool {
	if strings.Trim(s, "- ") == "" {
		return true
	}
	f := strings.Fields(s)
	return len(f) >= 4 && (f[0] == "Type" || f[0] == "FirstSeen") && strings.Contains(s, "Reason")
}
