package text

import (
	"encoding/json"
	"fmt"
	"path"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// ownerRef is the object a describe block was about; its events point at it.
type ownerRef struct {
	kind, namespace, name string
}

// ref returns the involved-object reference for events about o.
func (o *ownerRef) ref() corev1.ObjectReference {
	if o == nil {
		return corev1.ObjectReference{}
	}
	r := corev1.ObjectReference{Kind: o.kind, Namespace: o.namespace, Name: o.name}
	if o.kind == cluster.KindPod || o.kind == cluster.KindNode {
		r.APIVersion = "v1"
	}
	return r
}

// source is the provenance of an object starting on ln.
func (p *parser) source(ln line) cluster.Source {
	return cluster.Source{File: p.name, Line: cluster.LineOf(ln.num), Offset: ln.off}
}

// emitEvent completes ev (kind, a stable name when it has none) and emits it.
func (p *parser) emitEvent(ev *corev1.Event, ln line) error {
	return p.emitEventFrom(ev, ln, p.source(ln))
}

// emitEventFrom is emitEvent with the event's provenance given.
func (p *parser) emitEventFrom(ev *corev1.Event, ln line, src cluster.Source) error {
	ev.Kind, ev.APIVersion = cluster.KindEvent, "v1"
	if ev.Namespace == "" {
		ev.Namespace = ev.InvolvedObject.Namespace
	}
	if ev.Name == "" {
		obj := ev.InvolvedObject.Name
		if obj == "" {
			// The object is unknown: the file keeps apart the events of two pastes of one upload.
			obj = "unknown." + path.Base(p.name)
		}
		ev.Name = fmt.Sprintf("%s.%s.%d", obj, ev.Reason, ln.num)
	}
	if io := ev.InvolvedObject; io.Kind == cluster.KindPod && io.Name != "" {
		p.notePod(io.Namespace, io.Name)
		p.held.noteNamespace(io.Namespace, io.Name)
	}
	p.cover(ln.num, ln.last(), ev.InvolvedObject, ev.Reason)
	if ev.Reason == "FailedScheduling" && !src.Loose && len(p.scan.readParts) < maxReadParts {
		p.scan.readParts = append(p.scan.readParts, ev.Message)
	}
	o := &cluster.Object{APIVersion: "v1", Kind: cluster.KindEvent, Namespace: ev.Namespace,
		Name: ev.Name, Source: src, Event: cluster.EventOf(ev)}
	return p.send(o)
}

// fragmentOwner is the pod a describe fragment without a Name line is about: the pod the
// command above it describes, else the one pod the paste named before it (a forwarded event
// about it, then its container's state); nil when that is not known.
func (p *parser) fragmentOwner() *ownerRef {
	if ref := p.cmdObject(); ref.Kind == cluster.KindPod {
		return &ownerRef{kind: ref.Kind, namespace: ref.Namespace, name: ref.Name}
	}
	return p.onlyPod()
}

// emitPod completes pod's type meta and emits it.
func (p *parser) emitPod(pod *corev1.Pod, ln line) error {
	return p.emitListed(pod, 0, ln)
}

// emitListed emits the pod of a listing's row, with the age the row printed where the time of
// the paste is unknown (cluster.Object.ListedAge).
func (p *parser) emitListed(pod *corev1.Pod, listed time.Duration, ln line) error {
	pod.Kind, pod.APIVersion = cluster.KindPod, "v1"
	p.notePod(pod.Namespace, pod.Name)
	p.cover(ln.num, ln.last(), podRef(pod.Namespace, pod.Name), podReasons(pod)...)
	o := &cluster.Object{APIVersion: "v1", Kind: cluster.KindPod, Namespace: pod.Namespace,
		Name: pod.Name, Source: p.source(ln), Printed: cluster.NewPrinted(nil, listed)}
	p.held.setPod(o, pod)
	prevPod := (*corev1.Pod)(nil)
	if held, prev := p.held.hold(o); held {
		if prev != nil {
			prevPod = p.held.pod(prev)
			delete(p.held.pods, prev) // merged into pod, which o holds now
		}
		if prevPod != nil {
			p.scan.unsay(o, lostReasons(podReasons(prevPod), podReasons(pod)))
		}
		return p.ctx.Err()
	}
	return p.send(o)
}

// emitNode completes node's type meta and emits it.
func (p *parser) emitNode(node *corev1.Node, alloc []cluster.Allocation, ln line) error {
	node.Kind, node.APIVersion = cluster.KindNode, "v1"
	p.cover(ln.num, ln.last(), nodeRef(node.Name), nodeReasons(node)...)
	o := &cluster.Object{APIVersion: "v1", Kind: cluster.KindNode, Name: node.Name,
		Source: p.source(ln), Node: node, Printed: cluster.NewPrinted(alloc, 0)}
	if held, prev := p.held.hold(o); held {
		if prev != nil && prev.Node != nil {
			p.scan.unsay(o, lostReasons(nodeReasons(prev.Node), nodeReasons(o.Node)))
		}
		return p.ctx.Err()
	}
	return p.send(o)
}

func (p *parser) send(o *cluster.Object) error {
	if err := p.ctx.Err(); err != nil {
		return err
	}
	if pod := p.held.pod(o); pod != nil {
		// What Rootline reads of the pod, and the whole of what the paste said of it (its
		// ports, its containers' ids…) for the store, made before the pod is dropped.
		raw, err := json.Marshal(pod)
		if err != nil {
			return fmt.Errorf("text: %s: %w", o.Ref(), err)
		}
		o.Pod, o.Raw = cluster.PodOf(pod), raw
		delete(p.held.pods, o)
	}
	if err := p.emit(o); err != nil {
		return err
	}
	p.res.Objects++
	if o.Kind == cluster.KindPod {
		p.scan.podSent(o.Namespace, o.Name)
	}
	return nil
}
