package text

import (
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
)

// describePod builds the pod of a `kubectl describe pod` block, emits it, then its events.
func (p *parser) describePod(roots []*node, b *block) error {
	pod := &corev1.Pod{}
	for _, n := range roots {
		if !describePodSpec(pod, n) {
			p.describePodState(pod, n)
		}
	}
	if pod.Name == "" {
		return nil
	}
	// kubectl describe prints a pod's events last: events held before this describe's header
	// were another object's, one whose header the paste lost, never this pod's.
	if err := p.flushOrphans(); err != nil {
		return err
	}
	if err := p.emitPod(pod, b.lines[0]); err != nil {
		return err
	}
	owner := &ownerRef{kind: "Pod", namespace: pod.Namespace, name: pod.Name}
	p.owner = owner
	return p.describeEvents(find(roots, "Events"), owner)
}

// describePodSpec sets the field of pod's metadata or spec that n, a top-level line of
// describe's, gives; false when n gives none of them.
func describePodSpec(pod *corev1.Pod, n *node) bool {
	spec, st, v := &pod.Spec, &pod.Status, n.val
	switch n.key {
	case "Name":
		pod.Name = v
	case "Namespace":
		pod.Namespace = v
	case "Priority":
		if x, err := strconv.ParseInt(v, 10, 32); err == nil {
			pr := int32(x)
			spec.Priority = &pr
		}
	case "Priority Class Name", "PriorityClassName":
		spec.PriorityClassName = noneEmpty(v)
	case "Service Account":
		spec.ServiceAccountName = noneEmpty(v)
	case "Node":
		name, ip, _ := strings.Cut(v, "/")
		spec.NodeName, st.HostIP = noneEmpty(name), noneEmpty(ip)
	case "Labels":
		pod.Labels = labelPairs(n.values())
	case "Annotations":
		pod.Annotations = pairs(n.values(), ": ", "=")
	case "Controlled By":
		if kind, name := splitObject(v); kind != "" {
			ctrl := true
			pod.OwnerReferences = []metav1.OwnerReference{{Kind: kind, Name: name, Controller: &ctrl, APIVersion: ownerAPIVersion(kind)}}
		}
	case "Init Containers":
		spec.InitContainers, st.InitContainerStatuses = containers(n)
	case "Containers":
		spec.Containers, st.ContainerStatuses = containers(n)
	case "Node-Selectors":
		spec.NodeSelector = labelPairs(n.values())
	case "Tolerations":
		spec.Tolerations = tolerations(n.values())
	default:
		return false
	}
	return true
}

// describePodState sets the field of pod's status that n, a top-level line of describe's,
// gives, if any.
func (p *parser) describePodState(pod *corev1.Pod, n *node) {
	st, v := &pod.Status, n.val
	switch n.key {
	case "Start Time":
		if t, ok := parseTime(v); ok {
			st.StartTime = &t
		}
	case "Status":
		p.describeStatus(pod, v)
	case "Reason":
		st.Reason = v
	case "Message":
		st.Message = v
		for _, k := range n.flat() { // a long message wrapped onto the lines below
			st.Message = joinWrapped(st.Message, k.text)
		}
	case "IP":
		st.PodIP = noneEmpty(v)
	case "Nominated Node Name", "NominatedNodeName":
		st.NominatedNodeName = noneEmpty(v)
	case "Conditions":
		for _, k := range n.kids {
			f := strings.Fields(k.text)
			if len(f) >= 2 && f[0] != "Type" && isConditionStatus(f[1]) {
				setPodCondition(pod, corev1.PodConditionType(f[0]), corev1.ConditionStatus(f[1]), "")
			}
		}
	case "QoS Class":
		st.QOSClass = corev1.PodQOSClass(noneEmpty(v))
	}
}

// describePodFragment builds a pod from a container section pasted without the rest of the
// describe (corpus 09, 16): name and namespace unknown, one container of unknown name.
func (p *parser) describePodFragment(roots []*node, b *block) error {
	pod := &corev1.Pod{}
	ic := find(roots, "Init Containers")
	if ic != nil {
		pod.Spec.InitContainers, pod.Status.InitContainerStatuses = containers(ic)
	}
	if c := find(roots, "Containers"); c != nil {
		pod.Spec.Containers, pod.Status.ContainerStatuses = containers(c)
	} else if ic == nil {
		c, cs, _ := container("", promoteContainerFields(roots)) // a fragment is pasted for its state
		pod.Spec.Containers, pod.Status.ContainerStatuses = []corev1.Container{c}, []corev1.ContainerStatus{cs}
	}
	owner := &ownerRef{kind: "Pod"}
	if o := p.fragmentOwner(); o != nil {
		owner = o
		pod.Namespace, pod.Name = o.namespace, o.name
	}
	if err := p.emitPod(pod, b.lines[0]); err != nil {
		return err
	}
	p.owner = owner
	return p.describeEvents(find(roots, "Events"), owner)
}

// containerFieldKeys are the fields kubectl prints for a container, beside its State; never
// under it.
var containerFieldKeys = map[string]bool{"Last State": true, "Last Termination State": true, "Ready": true,
	"Restart Count": true, "Limits": true, "Requests": true, "Environment": true, "Mounts": true, "Image": true,
	"Image ID": true, "Container ID": true, "Port": true, "Ports": true, "Host Port": true, "Host Ports": true,
	"Command": true, "Args": true, "Liveness": true, "Readiness": true, "Startup": true}

// promoteContainerFields puts a container's fields back beside its State where a fragment's
// first line was pasted less indented than the rest ("   State:  Terminated" above
// "    Ready:  False"), which put them under it.
func promoteContainerFields(roots []*node) []*node {
	var out []*node
	for _, n := range roots {
		if n.key != "State" {
			out = append(out, n)
			continue
		}
		var own, moved []*node
		for _, k := range n.kids {
			if containerFieldKeys[k.key] {
				moved = append(moved, k)
			} else {
				own = append(own, k)
			}
		}
		if len(moved) == 0 {
			out = append(out, n)
			continue
		}
		state := *n
		state.kids = own
		out = append(append(out, &state), moved...)
	}
	return out
}

// describeStatus reads the Status line: a phase, or "Terminating (lasts 5m)".
func (p *parser) describeStatus(pod *corev1.Pod, v string) {
	if strings.HasPrefix(v, "Terminating") {
		pod.Status.Phase = corev1.PodRunning
		t := metav1.Time{}
		if !p.now.IsZero() {
			t = metav1.NewTime(p.now)
		}
		pod.DeletionTimestamp = &t
		return
	}
	pod.Status.Phase = corev1.PodPhase(v)
}

// ownerAPIVersion guesses the API version of a controller kind.
func ownerAPIVersion(kind string) string {
	switch kind {
	case "ReplicaSet", "StatefulSet", "DaemonSet", "Deployment":
		return "apps/v1"
	case "Job", "CronJob":
		return "batch/v1"
	case "Node", "ReplicationController":
		return "v1"
	}
	return ""
}

// isConditionStatus reports True, False or Unknown.
func isConditionStatus(s string) bool { return s == "True" || s == "False" || s == "Unknown" }

// noneEmpty maps kubectl's "<none>" to "".
func noneEmpty(s string) string {
	if isNone(s) {
		return ""
	}
	return strings.TrimSpace(s)
}

// labelPairs reads the labels of a describe's Labels: or Node-Selectors: field: one "k=v" an
// item, or several on one line joined by commas as kubectl before 1.5 printed them
// (labels.FormatLabels); what is not a valid label (a key or value the API server would refuse:
// a wrapped or cut line, a word of prose) is not one, and is left out. Nil when none.
func labelPairs(items []string) map[string]string {
	var m map[string]string
	for _, it := range items {
		for _, kv := range strings.Split(it, ",") {
			k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
			if !ok || len(validation.IsQualifiedName(k)) > 0 || len(validation.IsValidLabelValue(v)) > 0 {
				continue
			}
			if m == nil {
				m = map[string]string{}
			}
			m[k] = v
		}
	}
	return m
}

// pairs reads "k=v" (or "k: v") items into a map, trying each separator in turn; nil when none.
func pairs(items []string, seps ...string) map[string]string {
	var m map[string]string
	for _, it := range items {
		for _, sep := range seps {
			if k, v, ok := strings.Cut(it, sep); ok && k != "" && !strings.Contains(k, " ") {
				if m == nil {
					m = map[string]string{}
				}
				m[k] = strings.TrimSpace(v)
				break
			}
		}
	}
	return m
}
