package text

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/lazyre"
	"github.com/rootline-dev/rootline/internal/signal"
)

// klogHeaderRe finds the header of a klog line ("I0528 16:05:50.514706"), wherever a prefix
// (journald, kubectl logs --prefix) puts it.
var klogHeaderRe = lazyre.New(`\b[IWEF]\d{4} \d\d:\d\d:\d\d`)

// LogAnnotation marks an event read from a log line rather than from the API: its value is the
// component that logged it (kubelet, cluster-autoscaler). Its reason is the event the component
// records for what the line says, and its message keeps the line's own words.
const LogAnnotation = "rootline.dev/log"

// logLine reads a kubelet eviction-manager or cluster-autoscaler log line into the event that
// stands for it; ok is false for any other line.
func (p *parser) logLine(ln line) (bool, error) {
	if !klogHeaderRe.MatchString(ln.text) {
		return false, nil
	}
	if k, ok := signal.ParseKubeletLog(ln.text); ok {
		if ev := p.kubeletEvent(k); ev != nil {
			return true, p.emitEvent(ev, ln)
		}
		return true, nil
	}
	if a, ok := signal.ParseAutoscalerLog(ln.text); ok {
		if ev := p.autoscalerEvent(a); ev != nil {
			return true, p.emitEvent(ev, ln)
		}
		return true, nil
	}
	return false, nil
}

// kubeletEvent is the event the kubelet records for an eviction-manager line, or nil for a
// line that says nothing the analysis uses.
func (p *parser) kubeletEvent(k signal.KubeletLog) *corev1.Event {
	node := k.Node
	if node == "" {
		node = k.Line.Prefix.Host
	}
	if r := kvNodeRe.FindStringSubmatch(k.Line.Message); node == "" && r != nil {
		node = r[1] // a structured line's node="…"
	}
	ev := &corev1.Event{Type: corev1.EventTypeWarning, Source: corev1.EventSource{Component: "kubelet", Host: node}}
	msg := strings.TrimSpace(k.Line.Message)
	switch k.Kind {
	case signal.KubeletReclaim, signal.KubeletMustEvict, signal.KubeletThreshold, signal.KubeletRanked, signal.KubeletUnableToEvict:
		ev.Reason = "EvictionThresholdMet"
		ev.InvolvedObject = corev1.ObjectReference{Kind: cluster.KindNode, APIVersion: "v1", Name: node}
		ev.Message = msg
		if k.Resource != "" {
			ev.Message = fmt.Sprintf("Attempting to reclaim %s (%s)", k.Resource, msg)
		}
	case signal.KubeletEvicted:
		if len(k.Pods) == 0 {
			return nil
		}
		pod := k.Pods[0]
		ev.Reason = "Evicted"
		ev.InvolvedObject = corev1.ObjectReference{Kind: cluster.KindPod, APIVersion: "v1", Namespace: pod.Namespace, Name: pod.Name}
		ev.Message = msg
	default:
		return nil
	}
	ev.Annotations = map[string]string{LogAnnotation: "kubelet"}
	p.logTime(ev, k.Line)
	return ev
}

// autoscalerEvent is the event cluster-autoscaler records for a log line, or nil for a line
// that says nothing the analysis uses.
func (p *parser) autoscalerEvent(a signal.AutoscalerLog) *corev1.Event {
	msg := strings.TrimSpace(a.Line.Message)
	ev := &corev1.Event{Type: corev1.EventTypeNormal, Message: msg, Source: corev1.EventSource{Component: "cluster-autoscaler"}}
	switch a.Kind {
	case signal.CAPodUnschedulable:
		ev.Type, ev.Reason = corev1.EventTypeWarning, "FailedScheduling"
		ev.InvolvedObject = corev1.ObjectReference{Kind: cluster.KindPod, APIVersion: "v1", Namespace: a.Namespace, Name: a.Pod}
	case signal.CAPodsUnschedulable:
		if a.Count == 0 {
			return nil // "No unschedulable pods"
		}
		ev.Type, ev.Reason = corev1.EventTypeWarning, "FailedScheduling" // pods the log does not name
	case signal.CAMaxSizeReached, signal.CAMaxTotalNodes, signal.CAResourceLimit, signal.CANoExpansionOptions:
		ev.Reason = "NotTriggerScaleUp"
	case signal.CAScaleUp:
		ev.Reason = "ScaledUpGroup"
		if a.Group != "" && a.To > 0 {
			ev.Message = fmt.Sprintf("Scale-up: setting group %s size to %d", a.Group, a.To)
			if a.From > 0 || a.Max > 0 {
				ev.Message += fmt.Sprintf(" instead of %d (max: %d)", a.From, a.Max)
			}
		}
	case signal.CAScaleUpFailed, signal.CAScaleUpTimedOut, signal.CABackoff:
		ev.Type, ev.Reason = corev1.EventTypeWarning, "ScaleUpFailed"
	default:
		return nil
	}
	ev.Annotations = map[string]string{LogAnnotation: "cluster-autoscaler"}
	p.logTime(ev, a.Line)
	return ev
}

// logTime dates an event read from a log line: by the line's own date when it has a year, or
// in the year of the capture time when that is known. A klog line has neither year nor zone.
func (p *parser) logTime(ev *corev1.Event, l signal.KlogLine) {
	t, ok := l.Time.Time()
	if !ok && !l.Time.IsZero() && !p.now.IsZero() {
		t, ok = l.Time.In(p.now.Year()), true
	}
	if ok {
		ev.FirstTimestamp, ev.LastTimestamp = metav1.NewTime(t), metav1.NewTime(t)
		ev.Count = 1
	}
}
