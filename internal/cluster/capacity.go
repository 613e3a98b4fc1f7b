package cluster

import (
	"sort"
	"sync"

	corev1 "k8s.io/api/core/v1"
	resourcehelper "k8s.io/component-helpers/resource"
)

// Resources is an amount of CPU (millicores) and memory (bytes).
type Resources struct {
	MilliCPU int64
	Memory   int64
}

// Add returns r + o.
func (r Resources) Add(o Resources) Resources {
	return Resources{MilliCPU: r.MilliCPU + o.MilliCPU, Memory: r.Memory + o.Memory}
}

// PodRequests is what the scheduler reserves for a pod, computed by Kubernetes' own
// k8s.io/component-helpers/resource: the containers' requests, sidecar (restartable) init
// containers added to them, each regular init container with the sidecars started before it,
// the larger of the two, pod-level requests in place of the containers' where the pod sets them,
// and the pod overhead. It costs microseconds and allocations: Model.PodRequests gives a model's
// pods' requests worked out once.
func PodRequests(p *Pod) Resources {
	return podAmount(p.resourcePod(), resourcehelper.PodRequests)
}

// PodLimits is the same over limits: a container without a limit adds nothing, and the overhead
// is added only to a limit that is set.
func PodLimits(p *Pod) Resources {
	return podAmount(p.resourcePod(), resourcehelper.PodLimits)
}

// podAmount asks the library, which sums into a list of ours (PodResourcesOptions.Reuse): that
// spares a map a call, a third of what it allocates.
func podAmount(p *corev1.Pod, sum func(*corev1.Pod, resourcehelper.PodResourcesOptions) corev1.ResourceList) Resources {
	list := scratchLists.Get().(corev1.ResourceList)
	defer scratchLists.Put(list)
	opts := podResourceOptions
	opts.Reuse = list
	return amount(sum(p, opts))
}

var scratchLists = sync.Pool{New: func() any { return corev1.ResourceList{} }}

// podResourceOptions count a pod by its spec, with pod-level resources (on by default since
// Kubernetes 1.34). The scheduler also reads the status of the pods already on a node
// (UseStatusResources, with in-place resize on), so that a pod being resized holds the larger
// of its spec and what the kubelet allocated. Rootline does not: that differs only while a
// resize is under way or refused, and it more than doubles the library's allocations, which
// made analysing 20,000 pods take twice the CPU (the garbage comes while the heap is near its
// soft limit).
var podResourceOptions = resourcehelper.PodResourcesOptions{}

// PodRequests returns PodRequests of a pod of the model, worked out when the model took it in;
// for a pod the model does not hold, it works them out.
func (m *Model) PodRequests(pod *Object) Resources {
	if a, ok := m.amounts[pod]; ok {
		return a.requests
	}
	return PodRequests(pod.Pod)
}

// PodLimits returns PodLimits of a pod of the model, worked out when the model took it in; for
// a pod the model does not hold, it works them out.
func (m *Model) PodLimits(pod *Object) Resources {
	if a, ok := m.amounts[pod]; ok {
		return a.limits
	}
	return PodLimits(pod.Pod)
}

func amount(l corev1.ResourceList) Resources {
	cpu, _ := MilliCPU(l)
	mem, _ := MemoryBytes(l)
	return Resources{MilliCPU: cpu, Memory: mem}
}

// Terminal reports whether a pod has finished (Succeeded or Failed) and so holds no
// resources on its node any more.
func Terminal(p *Pod) bool {
	return p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed
}

// NodeLoad is what the pods bound to a node asked of it.
type NodeLoad struct {
	Node        *Object
	Pool        string
	Allocatable Resources
	Requests    Resources
	Limits      Resources
	Pods        []*Object // the non-terminal pods bound to the node, largest memory request first
}

// RequestedFraction returns the share of allocatable CPU and memory requested (0 when the
// node reports no allocatable).
func (l NodeLoad) RequestedFraction() (cpu, mem float64) {
	return fraction(l.Requests.MilliCPU, l.Allocatable.MilliCPU), fraction(l.Requests.Memory, l.Allocatable.Memory)
}

// LimitFraction returns the share of allocatable CPU and memory promised as limits.
func (l NodeLoad) LimitFraction() (cpu, mem float64) {
	return fraction(l.Limits.MilliCPU, l.Allocatable.MilliCPU), fraction(l.Limits.Memory, l.Allocatable.Memory)
}

func fraction(a, b int64) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Load is a node's load from the pods the model holds for it. NewModel works out the load of
// every node it holds, once: rules ask for them again and again.
func (m *Model) Load(node *Object) NodeLoad {
	if l, ok := m.loads[node.Node.Name]; ok && l.Node == node {
		return l
	}
	return m.computeLoad(node) // a node the model does not hold as it is (one a paste did not name)
}

// computeLoad works a node's load out.
func (m *Model) computeLoad(node *Object) NodeLoad {
	pool, _ := NodePool(node.Node.Labels)
	l := NodeLoad{Node: node, Pool: pool, Allocatable: amount(node.Node.Status.Allocatable)}
	for _, p := range m.PodsOn(node.Node.Name) {
		if Terminal(p.Pod) {
			continue
		}
		l.Requests = l.Requests.Add(m.PodRequests(p))
		l.Limits = l.Limits.Add(m.PodLimits(p))
		l.Pods = append(l.Pods, p)
	}
	sort.SliceStable(l.Pods, func(i, j int) bool { return m.PodRequests(l.Pods[i]).Memory > m.PodRequests(l.Pods[j]).Memory })
	return l
}

// PoolLoad sums the loads of a pool's nodes.
type PoolLoad struct {
	Pool        string
	Nodes       int
	ReadyNodes  int
	Allocatable Resources // of the Ready nodes
	Requests    Resources // on the Ready nodes
}

// Free is what the pool's Ready nodes have left to give, by requests.
func (p PoolLoad) Free() Resources {
	return Resources{MilliCPU: p.Allocatable.MilliCPU - p.Requests.MilliCPU, Memory: p.Allocatable.Memory - p.Requests.Memory}
}

// Pools returns the load of every node pool, by name.
func (m *Model) Pools() []PoolLoad {
	by := map[string]*PoolLoad{}
	for _, n := range m.Nodes {
		l := m.Load(n)
		p, ok := by[l.Pool]
		if !ok {
			p = &PoolLoad{Pool: l.Pool}
			by[l.Pool] = p
		}
		p.Nodes++
		if NodeCondition(n.Node, corev1.NodeReady) == string(corev1.ConditionTrue) {
			p.ReadyNodes++
			p.Allocatable = p.Allocatable.Add(l.Allocatable)
			p.Requests = p.Requests.Add(l.Requests)
		}
	}
	out := make([]PoolLoad, 0, len(by))
	for _, p := range by {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pool < out[j].Pool })
	return out
}
