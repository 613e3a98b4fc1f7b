package cluster

import (
	corev1 "k8s.io/api/core/v1"
)

// Owner returns the kind and name of the pod's controlling owner, or of its first owner.
func Owner(p *Pod) (kind, name string) {
	for _, o := range p.OwnerReferences {
		if o.Controller != nil && *o.Controller {
			return o.Kind, o.Name
		}
	}
	if len(p.OwnerReferences) > 0 {
		return p.OwnerReferences[0].Kind, p.OwnerReferences[0].Name
	}
	return "", ""
}

// QOSClass returns the pod's QoS class: as reported in its status, or computed from its
// containers' requests and limits the way the kubelet does when the status lacks it.
func QOSClass(p *Pod) corev1.PodQOSClass {
	if p.Status.QOSClass != "" {
		return p.Status.QOSClass
	}
	all := append(append([]Container{}, p.Spec.InitContainers...), p.Spec.Containers...)
	if len(all) == 0 {
		return ""
	}
	best, guaranteed := true, true
	for _, c := range all {
		for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
			req, hasReq := c.Resources.Requests[r]
			lim, hasLim := c.Resources.Limits[r]
			if hasReq && !req.IsZero() || hasLim && !lim.IsZero() {
				best = false
			}
			if !hasLim || lim.IsZero() || (hasReq && req.Cmp(lim) != 0) {
				guaranteed = false
			}
		}
	}
	switch {
	case best:
		return corev1.PodQOSBestEffort
	case guaranteed:
		return corev1.PodQOSGuaranteed
	}
	return corev1.PodQOSBurstable
}

// MilliCPU returns a CPU quantity in millicores, and whether it was set.
func MilliCPU(l corev1.ResourceList) (int64, bool) {
	q, ok := l[corev1.ResourceCPU]
	if !ok {
		return 0, false
	}
	return q.MilliValue(), true
}

// MemoryBytes returns a memory quantity in bytes, and whether it was set.
func MemoryBytes(l corev1.ResourceList) (int64, bool) {
	q, ok := l[corev1.ResourceMemory]
	if !ok {
		return 0, false
	}
	return q.Value(), true
}

// Quantities renders a resource list as plain strings ("cpu": "10m"), for storage and display.
func Quantities(l corev1.ResourceList) map[string]string {
	out := make(map[string]string, len(l))
	for k, v := range l {
		out[string(k)] = v.String()
	}
	return out
}

// Count returns an integer quantity such as allocatable pods, and whether it was set.
func Count(l corev1.ResourceList, name corev1.ResourceName) (int64, bool) {
	q, ok := l[name]
	if !ok {
		return 0, false
	}
	return q.Value(), true
}
