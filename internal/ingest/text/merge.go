package text

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// maxHeld bounds the pods and nodes held back for merging; past it they are sent as they come.
const maxHeld = 50000

// held keeps the pods and nodes of a paste until its end, so that one object shown several
// times (a `kubectl get nodes` row and the node's describe; a pods row and the pod's
// jsonpath status) is sent once, with what each showing adds. A later showing wins where both
// say something, since it is usually the more detailed one.
type held struct {
	objs   []*cluster.Object
	byKey  map[string]int // kind/namespace/name → index in objs
	byName map[string]int // kind/name → index, for a showing that gives no namespace; -1 when ambiguous
	// pods are the pods of the objects not yet sent as the reader builds them, core/v1 Pods,
	// which merge field by field; send makes each what Rootline keeps of it (cluster.PodOf).
	pods map[*cluster.Object]*corev1.Pod
	// namespaces are the namespaces events gave the pods they name, by pod name ("" where
	// two namespaces had a pod of that name): for a pod a listing showed without its own.
	namespaces map[string]string
}

// maxNamespaces bounds held.namespaces: past it, no more names are noted.
const maxNamespaces = 10000

// noteNamespace notes the namespace an event gave the pod it names.
func (h *held) noteNamespace(namespace, name string) {
	if namespace == "" {
		return
	}
	if h.namespaces == nil {
		h.namespaces = map[string]string{}
	}
	if ns, seen := h.namespaces[name]; seen {
		if ns != namespace {
			h.namespaces[name] = "" // two pods of one name: neither is known by name alone
		}
		return
	}
	if len(h.namespaces) < maxNamespaces {
		h.namespaces[name] = namespace
	}
}

// pod is the pod of o, an object of a pod not yet sent.
func (h *held) pod(o *cluster.Object) *corev1.Pod { return h.pods[o] }

// setPod makes pod the pod of o, not yet sent.
func (h *held) setPod(o *cluster.Object, pod *corev1.Pod) {
	if h.pods == nil {
		h.pods = map[*cluster.Object]*corev1.Pod{}
	}
	h.pods[o] = pod
}

// hold keeps o, merged into an earlier showing of the same object if there is one, which it
// returns; it reports false when o must be sent now (no name, or too many held).
func (h *held) hold(o *cluster.Object) (bool, *cluster.Object) {
	if o.Name == "" || len(h.objs) >= maxHeld {
		return false, nil
	}
	if h.byKey == nil {
		h.byKey, h.byName = map[string]int{}, map[string]int{}
	}
	key := o.Kind + "/" + o.Namespace + "/" + o.Name
	i, ok := h.byKey[key]
	if !ok {
		if j, found := h.byName[o.Kind+"/"+o.Name]; found && j >= 0 && (o.Namespace == "" || h.objs[j].Namespace == "") {
			i, ok = j, true
		}
	}
	if !ok {
		h.byKey[key] = len(h.objs)
		if _, seen := h.byName[o.Kind+"/"+o.Name]; seen {
			h.byName[o.Kind+"/"+o.Name] = -1
		} else {
			h.byName[o.Kind+"/"+o.Name] = len(h.objs)
		}
		h.objs = append(h.objs, o)
		return true, nil
	}
	prev := h.objs[i]
	switch {
	case h.pods[o] != nil && h.pods[prev] != nil:
		mergePod(h.pods[o], h.pods[prev]) // the caller drops prev's
		if o.ListedAge() == 0 {
			o.Printed = cluster.NewPrinted(o.Allocated(), prev.ListedAge())
		}
	case o.Node != nil && prev.Node != nil:
		mergeNode(o.Node, prev.Node)
		if o.Allocated() == nil {
			o.Printed = cluster.NewPrinted(prev.Allocated(), o.ListedAge())
		}
	}
	if o.Namespace == "" {
		o.Namespace = prev.Namespace
	}
	h.byKey[o.Kind+"/"+o.Namespace+"/"+o.Name] = i
	h.objs[i] = o
	return true, prev
}

// mergePod fills what pod does not say from an earlier showing of it.
func mergePod(pod, prev *corev1.Pod) {
	if pod.Namespace == "" {
		pod.Namespace = prev.Namespace
	}
	if pod.Spec.NodeName == "" {
		pod.Spec.NodeName = prev.Spec.NodeName
	}
	if pod.CreationTimestamp.IsZero() {
		pod.CreationTimestamp = prev.CreationTimestamp
	}
	st, ps := &pod.Status, &prev.Status
	if st.Phase == "" {
		st.Phase = ps.Phase
	}
	if st.Reason == "" && st.Phase == ps.Phase {
		st.Reason = ps.Reason
	}
	if st.Message == "" && st.Reason == ps.Reason {
		st.Message = ps.Message
	}
	if st.PodIP == "" {
		st.PodIP = ps.PodIP
	}
	if st.HostIP == "" {
		st.HostIP = ps.HostIP
	}
	if st.StartTime == nil {
		st.StartTime = ps.StartTime
	}
	if st.QOSClass == "" {
		st.QOSClass = ps.QOSClass
	}
	st.ContainerStatuses = mergeStatuses(st.ContainerStatuses, ps.ContainerStatuses)
	st.InitContainerStatuses = mergeStatuses(st.InitContainerStatuses, ps.InitContainerStatuses)
	for _, c := range ps.Conditions {
		if !hasPodCondition(pod, c.Type) {
			st.Conditions = append(st.Conditions, c)
		}
	}
	if len(pod.Spec.Containers) == 0 {
		pod.Spec.Containers = prev.Spec.Containers
	}
	if len(pod.OwnerReferences) == 0 {
		pod.OwnerReferences = prev.OwnerReferences
	}
	for k, v := range prev.Labels {
		if _, ok := pod.Labels[k]; !ok {
			setMap(&pod.Labels, k, v)
		}
	}
}

func hasPodCondition(pod *corev1.Pod, t corev1.PodConditionType) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == t {
			return true
		}
	}
	return false
}

// mergeNode fills what node does not say from an earlier showing of it.
func mergeNode(node, prev *corev1.Node) {
	for _, c := range prev.Status.Conditions {
		found := false
		for _, have := range node.Status.Conditions {
			found = found || have.Type == c.Type
		}
		if !found {
			node.Status.Conditions = append(node.Status.Conditions, c)
		}
	}
	if len(node.Spec.Taints) == 0 {
		node.Spec.Taints = prev.Spec.Taints
	}
	node.Spec.Unschedulable = node.Spec.Unschedulable || prev.Spec.Unschedulable
	for k, v := range prev.Labels {
		if _, ok := node.Labels[k]; !ok {
			setMap(&node.Labels, k, v)
		}
	}
	for k, v := range prev.Annotations {
		if _, ok := node.Annotations[k]; !ok {
			setMap(&node.Annotations, k, v)
		}
	}
	if node.CreationTimestamp.IsZero() {
		node.CreationTimestamp = prev.CreationTimestamp
	}
	if node.Status.Capacity == nil {
		node.Status.Capacity = prev.Status.Capacity
	}
	if node.Status.Allocatable == nil {
		node.Status.Allocatable = prev.Status.Allocatable
	}
	if len(node.Status.Addresses) == 0 {
		node.Status.Addresses = prev.Status.Addresses
	}
	if node.Status.NodeInfo.KubeletVersion == "" {
		node.Status.NodeInfo.KubeletVersion = prev.Status.NodeInfo.KubeletVersion
	}
}

// flushHeld sends the pods and nodes held, in the order they were first shown.
//
// A pod shown without its namespace (a listing whose `-n` the paste lost) takes the one
// namespace the file's events gave a pod of its name (its describe's, `kubectl describe pod x
// -n ns` below the listing), so that the pod and its events are one.
func (p *parser) flushHeld() error {
	objs := p.held.objs
	pods, namespaces := p.held.pods, p.held.namespaces
	p.held = held{pods: pods, namespaces: namespaces} // send takes the pods from it
	for _, o := range objs {
		if ns := namespaces[o.Name]; ns != "" && o.Namespace == "" && o.Kind == cluster.KindPod {
			o.Namespace = ns
			if pod := pods[o]; pod != nil {
				pod.Namespace = ns
			}
		}
		if err := p.send(o); err != nil {
			return err
		}
	}
	return nil
}

// mergeStatuses fills container statuses from an earlier showing, container by container: a
// describe cut before the State lines keeps the state a pods row gave.
func mergeStatuses(cur, prev []corev1.ContainerStatus) []corev1.ContainerStatus {
	if len(cur) == 0 {
		return prev
	}
	for i := range cur {
		if i >= len(prev) {
			break
		}
		c, p := &cur[i], prev[i]
		if c.Name != "" && p.Name != "" && c.Name != p.Name {
			continue
		}
		if c.State == (corev1.ContainerState{}) {
			c.State = p.State
		}
		if c.LastTerminationState == (corev1.ContainerState{}) {
			c.LastTerminationState = p.LastTerminationState
		}
		if c.RestartCount == 0 {
			c.RestartCount = p.RestartCount
		}
	}
	return cur
}
