package text

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// An events section pasted with nothing naming its pod (no describe header, no Scheduled row,
// no command above it, no pod named before it) may still be about the one pod the rest of the
// paste names: "kubectl logs x" under it, a pods row after it. Its pod events are held to the
// end of the file and given that pod when the file named exactly one; else they go out with no
// object, as before.

// maxOrphans bounds the events held back; past it they go out at once, with no object.
const maxOrphans = 10000

// orphan is a pod event of an events section no object was found for yet.
type orphan struct {
	ev *corev1.Event
	ln line
}

// podEventReasons are the reasons of the events the kubelet and the scheduler record about a
// pod (pkg/kubelet/events/event.go, the eviction manager's and the scheduler's): a row with one
// of them is about a pod, whichever pod the section lost.
var podEventReasons = map[string]bool{
	"Created": true, "Started": true, "Failed": true, "Killing": true, "Preempting": true, "BackOff": true,
	"ExceededGracePeriod": true, "FailedPreStopHook": true, "FailedPostStartHook": true, "Pulling": true,
	"Pulled": true, "InspectFailed": true, "ErrImageNeverPull": true, "FailedCreatePodSandBox": true,
	"FailedStatusPodSandBox": true, "FailedMount": true, "FailedAttachVolume": true, "FailedMapVolume": true,
	"NetworkNotReady": true, "Unhealthy": true, "ProbeWarning": true, "FailedSync": true, "FailedKillPod": true,
	"FailedCreatePodContainer": true, "SandboxChanged": true, "Evicted": true, "OutOfDisk": true,
	"Scheduled": true, "FailedScheduling": true, "Preempted": true, "TaintManagerEviction": true,
}

// holdOrphan keeps ev for the end of the file when it is a pod event no object was found for;
// held is false when it must go out now.
func (p *parser) holdOrphan(ev *corev1.Event, ln line) (held bool) {
	if ev.InvolvedObject.Name != "" || !podEventReasons[ev.Reason] || len(p.orphans) >= maxOrphans {
		return false
	}
	p.orphans = append(p.orphans, orphan{ev: ev, ln: ln})
	return true
}

// notePod notes a pod the paste names (an event's object, a message's, a command's, a pods
// row, a runtime's line about it), for what names none: a describe fragment, the orphans. Only
// whether the paste has named one pod so far, or more, matters.
func (p *parser) notePod(namespace, name string) {
	if !nameLike(name) || p.manyPods {
		return // no name, or a placeholder ("<pod-name>")
	}
	switch {
	case p.onePod == nil:
		p.onePod = &ownerRef{kind: cluster.KindPod, namespace: namespace, name: name}
	case p.onePod.name != name:
		p.manyPods = true
	case p.onePod.namespace == "":
		p.onePod.namespace = namespace
	}
}

// onlyPod is the one pod the paste has named so far, nil when it named none or several.
func (p *parser) onlyPod() *ownerRef {
	if p.manyPods {
		return nil
	}
	return p.onePod
}

// flushOrphans emits the held events: about the file's one pod when it named exactly one.
func (p *parser) flushOrphans() error {
	orphans := p.orphans
	p.orphans = nil
	one := p.onlyPod()
	if names := p.scan.named[cluster.KindPod]; one == nil && !p.manyPods && len(names) == 1 {
		one = &ownerRef{kind: cluster.KindPod, name: names[0]} // the one pod a manifest pasted as text names
	}
	for _, o := range orphans {
		if one != nil {
			o.ev.InvolvedObject = one.ref()
			o.ev.Namespace = one.namespace
			o.ev.Name = "" // named again for its object
		}
		if err := p.emitEvent(o.ev, o.ln); err != nil {
			return err
		}
	}
	return nil
}
