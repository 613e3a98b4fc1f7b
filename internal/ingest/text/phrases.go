package text

import (
	"regexp"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// phrase is a signal recognised in prose, with the event it stands for.
type phrase struct {
	re     *regexp.Regexp
	reason string
	typ    string
}

// phrases are tried in order; the first that matches a line makes its event. The more
// specific signals come first: an eviction message often mentions OOM, a BackOff line
// mentions CrashLoopBackOff.
var phrases = []phrase{
	{regexp.MustCompile(`The node was low on resource: `), "Evicted", corev1.EventTypeWarning},
	{regexp.MustCompile(`\b\d+/\d+ nodes are available: `), "FailedScheduling", corev1.EventTypeWarning},
	{regexp.MustCompile(`System OOM encountered`), "SystemOOM", corev1.EventTypeWarning},
	{regexp.MustCompile(`(?:Liveness|Readiness|Startup) probe (?:failed|errored)`), "Unhealthy", corev1.EventTypeWarning},
	{regexp.MustCompile(`Back-off restarting failed container`), "BackOff", corev1.EventTypeWarning},
	{regexp.MustCompile(`\bOOMKilled\b`), "OOMKilled", corev1.EventTypeWarning},
	{regexp.MustCompile(`\bCrashLoopBackOff\b`), "BackOff", corev1.EventTypeWarning},
	{regexp.MustCompile(`pod triggered scale-up`), "TriggeredScaleUp", corev1.EventTypeNormal},
}

var (
	// looseObjectRe finds an object a prose line names: "pod/x", "node/y".
	looseObjectRe = regexp.MustCompile(`\b(pod|node)/([a-z0-9][a-z0-9.-]*[a-z0-9])`)
	// backOffPodRe finds the pod in "Back-off restarting failed container c in pod name_ns(uid)".
	backOffPodRe = regexp.MustCompile(`in pod ([a-z0-9][a-z0-9.-]*)_([a-z0-9][a-z0-9-]*)\(`)
	// forwardedRe finds the object of an event a forwarder (kube-eventer, a webhook) printed as
	// "Kind:Pod \nNamespace:ns \nName:pod.17a71c191e6304ea"; the suffix is the event's own id.
	forwardedRe = regexp.MustCompile(`Kind:\s*(\w+)(?:\s|\\+n)*Namespace:\s*([a-z0-9-]+)(?:\s|\\+n)*Name:\s*([a-z0-9.-]*[a-z0-9])`)
	eventIDRe   = regexp.MustCompile(`\.[0-9a-f]{8,}$`)
	// messageEndRe cuts a message where an enclosing JSON or Python string ends.
	messageEndRe = regexp.MustCompile(`\\+n|"[,}\]]|'$`)
)

// phrase emits a loose event for a prose line that carries a known signal.
func (p *parser) phrase(ln line) error {
	for _, ph := range phrases {
		loc := ph.re.FindStringIndex(ln.text)
		if loc == nil {
			continue
		}
		msg := ln.text[loc[0]:]
		if loc[0] > 0 && strings.ContainsRune("\"'`", rune(ln.text[loc[0]-1])) {
			if end := strings.IndexByte(msg, ln.text[loc[0]-1]); end >= 0 {
				msg = msg[:end] // the phrase was quoted: keep the quotation
			}
		}
		if e := messageEndRe.FindStringIndex(msg); e != nil {
			msg = msg[:e[0]]
		}
		ev := &corev1.Event{Type: ph.typ, Reason: ph.reason, Message: strings.TrimSpace(msg)}
		ev.Annotations = map[string]string{LoosePhraseAnnotation: "true"}
		if m := backOffPodRe.FindStringSubmatch(ln.text); m != nil {
			ev.InvolvedObject = corev1.ObjectReference{Kind: "Pod", APIVersion: "v1", Name: m[1], Namespace: m[2]}
		} else if m := forwardedRe.FindStringSubmatch(ln.text); m != nil {
			ev.InvolvedObject = corev1.ObjectReference{Kind: m[1], Namespace: m[2], Name: eventIDRe.ReplaceAllString(m[3], "")}
			if m[1] == "Pod" || m[1] == "Node" {
				ev.InvolvedObject.APIVersion = "v1"
			}
		} else if m := looseObjectRe.FindStringSubmatch(ln.text); m != nil {
			ev.InvolvedObject = corev1.ObjectReference{Kind: kindOf(m[1]), APIVersion: "v1", Name: m[2]}
		}
		return p.emitEvent(ev, ln)
	}
	return nil
}
