package text

import (
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// describeEvent reads `kubectl describe event` (or `kubectl get event -o yaml` turned into
// describe's layout by a ticket): an Event's own fields, its object under "Involved Object:".
func (p *parser) describeEvent(roots []*node, b *block) error {
	ev := &corev1.Event{Reason: find(roots, "Reason").valOr(""), Message: find(roots, "Message").valOr(""),
		Type: find(roots, "Type").valOr("")}
	ev.Name = find(roots, "Name").valOr("")
	ev.Namespace = find(roots, "Namespace").valOr("")
	if io := find(roots, "Involved Object"); io != nil {
		ev.InvolvedObject = corev1.ObjectReference{Kind: find(io.kids, "Kind").valOr(""), Namespace: find(io.kids, "Namespace").valOr(""),
			Name: find(io.kids, "Name").valOr(""), FieldPath: find(io.kids, "Field Path").valOr("")}
		if k := ev.InvolvedObject.Kind; k == cluster.KindPod || k == cluster.KindNode {
			ev.InvolvedObject.APIVersion = "v1"
		}
	}
	if n, err := strconv.Atoi(find(roots, "Count").valOr("")); err == nil && n > 0 {
		ev.Count = int32(n)
	}
	if t, ok := parseTime(find(roots, "First Timestamp").valOr("")); ok {
		ev.FirstTimestamp = t
	}
	if t, ok := parseTime(find(roots, "Last Timestamp").valOr("")); ok {
		ev.LastTimestamp = t
	}
	if src := find(roots, "Source"); src != nil {
		ev.Source = corev1.EventSource{Component: find(src.kids, "Component").valOr(""), Host: find(src.kids, "Host").valOr("")}
	}
	if ev.Reason == "" && ev.Message == "" {
		return nil
	}
	ev.Reason = strings.TrimSpace(ev.Reason)
	if ev.Reason == "" {
		// A paste cut before its Reason: the message says what the component recorded it as.
		for _, m := range p.scan.cat.Find(ev.Message) {
			if !m.Entry.Word {
				ev.Reason = m.Entry.Reason
				break
			}
		}
	}
	return p.emitEvent(ev, b.lines[0])
}
