package text

import (
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/lazyre"
)

// An event printed as indented JSON or YAML (`kubectl get events -o yaml`, an event exported
// to Cloud Logging as a jsonPayload) names its object in an involvedObject field of its own
// lines, above its message. The scan keeps the last such object of its section for the
// message lines under it.

var (
	// involvedKeyRe opens an involvedObject field: `"involvedObject": {` or `involvedObject:`.
	involvedKeyRe = lazyre.New(`^"?involvedObject"?\s*:\s*\{?\s*$`)
	// involvedFieldRe is one of its fields: `"kind": "Node",` or `name: web-1`.
	involvedFieldRe = lazyre.New(`^"?(kind|name|namespace)"?\s*:\s*"?([A-Za-z0-9][A-Za-z0-9._-]*)"?,?\s*$`)
	// messageKeyRe is an event's message field: `"message": "…"` or `message: …`.
	messageKeyRe = lazyre.New(`^\s*"?message"?\s*:`)
)

// maxInvolvedGap is how many lines below its involvedObject an event's message may stand.
const maxInvolvedGap = 40

// involved is the involvedObject being read, or the last one read.
type involved struct {
	indent  int // one more than the indentation of its key, while its fields are read; else 0
	ref     corev1.ObjectReference
	line    int // the line of its key
	section int
}

// noteInvolved reads the involvedObject fields of an event printed over lines.
func (s *scanState) noteInvolved(ln line) {
	body := strings.TrimLeft(ln.text, " ")
	indent := len(ln.text) - len(body)
	inv := &s.involved
	if inv.indent > 0 {
		if indent >= inv.indent {
			if m := involvedFieldRe.FindStringSubmatch(body); m != nil {
				switch m[1] {
				case "kind":
					inv.ref.Kind = m[2]
				case "name":
					inv.ref.Name = m[2]
				case "namespace":
					inv.ref.Namespace = m[2]
				}
			}
			return
		}
		inv.indent = 0 // the field ended
	}
	if involvedKeyRe.MatchString(body) {
		*inv = involved{indent: indent + 1, line: ln.num, section: s.section}
	}
}

// involvedFor returns the object of the event whose message field ln is: the involvedObject
// read above it in its section.
func (s *scanState) involvedFor(ln line) (corev1.ObjectReference, bool) {
	inv := s.involved
	if inv.ref.Name == "" || inv.ref.Kind == "" || inv.indent > 0 || inv.section != s.section ||
		ln.num-inv.line > maxInvolvedGap || ln.num < inv.line || !messageKeyRe.MatchString(ln.text) {
		return corev1.ObjectReference{}, false
	}
	ref := inv.ref
	if ref.Kind == cluster.KindPod || ref.Kind == cluster.KindNode {
		ref.APIVersion = "v1"
	}
	if ref.Kind == cluster.KindNode {
		ref.Namespace = ""
	}
	return ref, true
}
