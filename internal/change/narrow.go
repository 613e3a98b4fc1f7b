package change

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// scaledUp reads the Deployment controller's ScalingReplicaSet message: "Scaled up replica set
// hub-5d8f7c9b4 to 1", and since Kubernetes 1.26 "… to 2 from 1"
// (k8s.io/kubernetes/pkg/controller/deployment/sync.go, scaleReplicaSet).
var scaledUp = regexp.MustCompile(`^Scaled up replica set (\S+) to \d+`)

// autoscalerTaint is the taint cluster-autoscaler puts on a node it is about to remove
// (k8s.io/autoscaler/cluster-autoscaler/utils/taints).
const autoscalerTaint = "ToBeDeletedByClusterAutoscaler"

// Narrow dates changes more closely by the events that mark them: when an event of the kind
// below falls within a change's window, the change was made by the event's time, and its
// window closes on it. The changes are returned anew; those no event marks are as they were.
//
//   - A change to a Deployment's pod template: the first ScalingReplicaSet event of the
//     Deployment in the window that scales up a ReplicaSet no earlier event scaled up: the
//     rollout of the new template began then, and that ReplicaSet runs it (ReplicaSet, and
//     Evidence names the event).
//   - A node cordoned (spec.unschedulable to true) or uncordoned: its NodeNotSchedulable or
//     NodeSchedulable event (the node lifecycle controller's, and the kubelet's).
//   - A node gone: its RemovingNode event (the node lifecycle controller's "Removing Node n
//     from Controller"), else cluster-autoscaler's ScaleDown of it ("marked the node as
//     toBeDeleted/unschedulable"), which came first.
//   - A node given cluster-autoscaler's ToBeDeletedByClusterAutoscaler taint: that ScaleDown.
//
// A change with no window (Since and Until both zero) or already dated exactly is left.
func Narrow(changes []Change, events []*cluster.Object) []Change {
	byObject := marksOf(events)
	out := make([]Change, len(changes))
	copy(out, changes)
	for i := range out {
		c := &out[i]
		if c.Since.IsZero() && c.Until.IsZero() || !c.Since.IsZero() && c.Since.Equal(c.Until) {
			continue
		}
		found, replicaSet := dating(*c, byObject[c.Kind+"/"+c.Namespace+"/"+c.Name])
		if found == nil {
			continue
		}
		c.Since, c.Until = found.at, found.at
		if replicaSet != "" && c.ReplicaSet == "" {
			c.ReplicaSet = replicaSet
		}
		if c.Evidence == "" {
			c.Evidence = "Event " + strings.TrimPrefix(found.namespace+"/", "/") + found.name + " (" + found.reason + ")"
		}
	}
	return out
}

// marksOf are the events that may date a change, by "Kind/namespace/name" of their object, each
// object's in time order.
func marksOf(events []*cluster.Object) map[string][]mark {
	byObject := map[string][]mark{}
	for _, o := range events {
		e := o.Event
		if e == nil {
			continue
		}
		switch e.Reason {
		case "ScalingReplicaSet", "NodeNotSchedulable", "NodeSchedulable", "RemovingNode", "ScaleDown":
		default:
			continue
		}
		_, first, _ := cluster.EventTimes(e)
		if first.IsZero() {
			continue
		}
		k := e.InvolvedObject.Kind + "/" + e.InvolvedObject.Namespace + "/" + e.InvolvedObject.Name
		byObject[k] = append(byObject[k], mark{at: first.UTC(), reason: e.Reason, name: e.Name, namespace: e.Namespace, msg: e.Message})
	}
	for k := range byObject {
		sort.SliceStable(byObject[k], func(i, j int) bool { return byObject[k][i].at.Before(byObject[k][j].at) })
	}
	return byObject
}

// dating is the mark of a change's object that dates it (nil when none does), and for a
// Deployment's rollout the ReplicaSet it scaled up.
func dating(c Change, marks []mark) (found *mark, replicaSet string) {
	in := func(t time.Time) bool {
		return (c.Since.IsZero() || !t.Before(c.Since)) && (c.Until.IsZero() || !t.After(c.Until))
	}
	reason := func(want string) func(time.Time, string) bool {
		return func(at time.Time, r string) bool { return r == want && in(at) }
	}
	switch {
	case c.Kind == "Deployment" && c.Path.Template:
		return rollout(marks, in)
	case c.Kind == cluster.KindNode && c.Path.Attr == Unschedulable:
		if c.Is.Set {
			return firstMark(marks, reason("NodeNotSchedulable")), ""
		}
		return firstMark(marks, reason("NodeSchedulable")), ""
	case c.Kind == cluster.KindNode && c.Path.Object() && c.Is.Absent:
		if found = firstMark(marks, reason("RemovingNode")); found == nil {
			found = firstMark(marks, reason("ScaleDown"))
		}
		return found, ""
	case c.Kind == cluster.KindNode && c.Path.Attr == Taints && hasTaint(c.Is, autoscalerTaint) && !hasTaint(c.Was, autoscalerTaint):
		return firstMark(marks, reason("ScaleDown")), ""
	}
	return nil, ""
}

// rollout is the first ScalingReplicaSet mark in the window that scales up a ReplicaSet no
// earlier mark scaled up, and that ReplicaSet.
func rollout(marks []mark, in func(time.Time) bool) (*mark, string) {
	earlier := map[string]bool{}
	for j := range marks {
		m := &marks[j]
		sub := scaledUp.FindStringSubmatch(m.msg)
		if m.reason != "ScalingReplicaSet" || sub == nil {
			continue
		}
		if in(m.at) && !earlier[sub[1]] {
			return m, sub[1]
		}
		earlier[sub[1]] = true
	}
	return nil, ""
}

// mark is an event that may date a change: when, why, its name and namespace, its message.
type mark struct {
	at                           time.Time
	reason, name, namespace, msg string
}

// firstMark is the first of marks (in time order) that fits.
func firstMark(marks []mark, fits func(at time.Time, reason string) bool) *mark {
	for i := range marks {
		if fits(marks[i].at, marks[i].reason) {
			return &marks[i]
		}
	}
	return nil
}

// hasTaint reports whether a node's taints hold one of key.
func hasTaint(v Value, key string) bool {
	return slices.ContainsFunc(v.Taints, func(t corev1.Taint) bool { return t.Key == key })
}
