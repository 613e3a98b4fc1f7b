package cluster

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
)

// Pod is a pod as Rootline holds it: the fields of a core/v1 Pod that the model, the rules, the
// timeline and the pictures read, and the server's rows are made of, made from the decoded Pod
// (PodOf), which is dropped. Its JSON names are core/v1's, so that a stored pod decodes straight
// into it; Core gives the core/v1 Pod it holds the fields of, for Kubernetes' own helpers.
type Pod struct {
	ObjectMeta `json:"metadata"`
	Spec       PodSpec   `json:"spec"`
	Status     PodStatus `json:"status"`
}

// PodSpec is what Rootline reads of a pod's spec: where it may run and runs, what it asks for,
// and how it is probed.
type PodSpec struct {
	InitContainers     []Container                  `json:"initContainers,omitempty"`
	Containers         []Container                  `json:"containers"`
	RestartPolicy      corev1.RestartPolicy         `json:"restartPolicy,omitempty"`
	NodeSelector       map[string]string            `json:"nodeSelector,omitempty"`
	ServiceAccountName string                       `json:"serviceAccountName,omitempty"`
	NodeName           string                       `json:"nodeName,omitempty"`
	Affinity           *corev1.Affinity             `json:"affinity,omitempty"`
	Tolerations        []corev1.Toleration          `json:"tolerations,omitempty"`
	PriorityClassName  string                       `json:"priorityClassName,omitempty"`
	Priority           *int32                       `json:"priority,omitempty"`
	Overhead           corev1.ResourceList          `json:"overhead,omitempty"`
	Resources          *corev1.ResourceRequirements `json:"resources,omitempty"`
}

// Container is what Rootline reads of a container of a pod's spec.
type Container struct {
	Name           string                         `json:"name"`
	Image          string                         `json:"image,omitempty"`
	Resources      corev1.ResourceRequirements    `json:"resources,omitzero"`
	RestartPolicy  *corev1.ContainerRestartPolicy `json:"restartPolicy,omitempty"`
	LivenessProbe  *corev1.Probe                  `json:"livenessProbe,omitempty"`
	ReadinessProbe *corev1.Probe                  `json:"readinessProbe,omitempty"`
	StartupProbe   *corev1.Probe                  `json:"startupProbe,omitempty"`
}

// PodStatus is what Rootline reads of a pod's status.
type PodStatus struct {
	Phase                 corev1.PodPhase    `json:"phase,omitempty"`
	Conditions            []PodCondition     `json:"conditions,omitempty"`
	Message               string             `json:"message,omitempty"`
	Reason                string             `json:"reason,omitempty"`
	NominatedNodeName     string             `json:"nominatedNodeName,omitempty"`
	HostIP                string             `json:"hostIP,omitempty"`
	PodIP                 string             `json:"podIP,omitempty"`
	StartTime             *metav1.Time       `json:"startTime,omitempty"`
	InitContainerStatuses []ContainerStatus  `json:"initContainerStatuses,omitempty"`
	ContainerStatuses     []ContainerStatus  `json:"containerStatuses,omitempty"`
	QOSClass              corev1.PodQOSClass `json:"qosClass,omitempty"`
}

// ContainerStatus is what Rootline reads of a container's status.
type ContainerStatus struct {
	Name                 string                `json:"name"`
	State                corev1.ContainerState `json:"state,omitzero"`
	LastTerminationState corev1.ContainerState `json:"lastState,omitzero"`
	Ready                bool                  `json:"ready"`
	RestartCount         int32                 `json:"restartCount"`
	Image                string                `json:"image"`
}

// PodCondition is what Rootline reads of a pod's condition: a core/v1 PodCondition without
// its probe time and observed generation, which nothing reads, and its time an Instant (72
// bytes against 120; four conditions of a pod are 288 bytes where 88 a condition made them 352).
type PodCondition struct {
	Type               corev1.PodConditionType `json:"type"`
	Status             corev1.ConditionStatus  `json:"status"`
	LastTransitionTime Instant                 `json:"lastTransitionTime,omitzero"`
	Reason             string                  `json:"reason,omitempty"`
	Message            string                  `json:"message,omitempty"`
}

// PodOf is what Rootline keeps of a core/v1 Pod. It shares p's strings, maps and pointers.
func PodOf(p *corev1.Pod) *Pod {
	if p == nil {
		return nil
	}
	s := &p.Spec
	out := &Pod{ObjectMeta: metaOf(&p.ObjectMeta), Spec: PodSpec{
		InitContainers: containersOf(s.InitContainers), Containers: containersOf(s.Containers),
		RestartPolicy: s.RestartPolicy,
		NodeSelector:  s.NodeSelector, ServiceAccountName: s.ServiceAccountName, NodeName: s.NodeName,
		Affinity: s.Affinity, Tolerations: s.Tolerations,
		PriorityClassName: s.PriorityClassName, Priority: s.Priority, Overhead: s.Overhead, Resources: s.Resources,
	}}
	st := &p.Status
	out.Status = PodStatus{Phase: st.Phase, Conditions: conditionsOf(st.Conditions), Message: st.Message, Reason: st.Reason,
		NominatedNodeName: st.NominatedNodeName, HostIP: st.HostIP, PodIP: st.PodIP, StartTime: st.StartTime,
		InitContainerStatuses: statusesOf(st.InitContainerStatuses), ContainerStatuses: statusesOf(st.ContainerStatuses),
		QOSClass: st.QOSClass}
	return out
}

func containersOf(cs []corev1.Container) []Container {
	if cs == nil {
		return nil
	}
	out := make([]Container, len(cs))
	for i := range cs {
		c := &cs[i]
		out[i] = Container{Name: c.Name, Image: c.Image, Resources: c.Resources, RestartPolicy: c.RestartPolicy,
			LivenessProbe: c.LivenessProbe, ReadinessProbe: c.ReadinessProbe, StartupProbe: c.StartupProbe}
	}
	return out
}

func conditionsOf(cs []corev1.PodCondition) []PodCondition {
	if cs == nil {
		return nil
	}
	out := make([]PodCondition, len(cs))
	for i := range cs {
		c := &cs[i]
		out[i] = PodCondition{Type: c.Type, Status: c.Status, LastTransitionTime: InstantOf(c.LastTransitionTime.Time), Reason: c.Reason, Message: c.Message}
	}
	return out
}

func coreConditions(cs []PodCondition) []corev1.PodCondition {
	if cs == nil {
		return nil
	}
	out := make([]corev1.PodCondition, len(cs))
	for i, c := range cs {
		out[i] = corev1.PodCondition{Type: c.Type, Status: c.Status, LastTransitionTime: c.LastTransitionTime.Meta(), Reason: c.Reason, Message: c.Message}
	}
	return out
}

func statusesOf(ss []corev1.ContainerStatus) []ContainerStatus {
	if ss == nil {
		return nil
	}
	out := make([]ContainerStatus, len(ss))
	for i := range ss {
		s := &ss[i]
		out[i] = ContainerStatus{Name: s.Name, State: s.State, LastTerminationState: s.LastTerminationState,
			Ready: s.Ready, RestartCount: s.RestartCount, Image: s.Image}
	}
	return out
}

// Core is the core/v1 Pod p holds the fields of: what its JSON is when its object has no Stored
// JSON, and what Kubernetes' helpers (component-helpers) are given. It shares p's strings, maps
// and pointers.
func (p *Pod) Core() *corev1.Pod {
	s := &p.Spec
	out := &corev1.Pod{ObjectMeta: p.ObjectMeta.Core(), Spec: corev1.PodSpec{
		InitContainers: coreContainers(s.InitContainers), Containers: coreContainers(s.Containers),
		RestartPolicy: s.RestartPolicy,
		NodeSelector:  s.NodeSelector, ServiceAccountName: s.ServiceAccountName, NodeName: s.NodeName,
		Affinity: s.Affinity, Tolerations: s.Tolerations,
		PriorityClassName: s.PriorityClassName, Priority: s.Priority, Overhead: s.Overhead, Resources: s.Resources,
	}}
	st := &p.Status
	out.Status = corev1.PodStatus{Phase: st.Phase, Conditions: coreConditions(st.Conditions), Message: st.Message, Reason: st.Reason,
		NominatedNodeName: st.NominatedNodeName, HostIP: st.HostIP, PodIP: st.PodIP, StartTime: st.StartTime,
		InitContainerStatuses: coreStatuses(st.InitContainerStatuses), ContainerStatuses: coreStatuses(st.ContainerStatuses),
		QOSClass: st.QOSClass}
	out.Kind, out.APIVersion = KindPod, "v1"
	return out
}

func coreContainers(cs []Container) []corev1.Container {
	if cs == nil {
		return nil
	}
	out := make([]corev1.Container, len(cs))
	for i, c := range cs {
		out[i] = corev1.Container{Name: c.Name, Image: c.Image, Resources: c.Resources, RestartPolicy: c.RestartPolicy,
			LivenessProbe: c.LivenessProbe, ReadinessProbe: c.ReadinessProbe, StartupProbe: c.StartupProbe}
	}
	return out
}

func coreStatuses(ss []ContainerStatus) []corev1.ContainerStatus {
	if ss == nil {
		return nil
	}
	out := make([]corev1.ContainerStatus, len(ss))
	for i, s := range ss {
		out[i] = corev1.ContainerStatus{Name: s.Name, State: s.State, LastTerminationState: s.LastTerminationState,
			Ready: s.Ready, RestartCount: s.RestartCount, Image: s.Image}
	}
	return out
}

// resourcePod is the core/v1 Pod Kubernetes' resource helpers read of p: its containers'
// resources and restart policies, its overhead and pod-level resources.
func (p *Pod) resourcePod() *corev1.Pod {
	return &corev1.Pod{Spec: corev1.PodSpec{InitContainers: coreContainers(p.Spec.InitContainers),
		Containers: coreContainers(p.Spec.Containers), Overhead: p.Spec.Overhead, Resources: p.Spec.Resources}}
}

// RequiredNodeAffinity is the node selector and required node affinity of p, as the scheduler
// reads them (component-helpers' nodeaffinity).
func (p *Pod) RequiredNodeAffinity() nodeaffinity.RequiredNodeAffinity {
	return nodeaffinity.GetRequiredNodeAffinity(&corev1.Pod{Spec: corev1.PodSpec{NodeSelector: p.Spec.NodeSelector, Affinity: p.Spec.Affinity}})
}
