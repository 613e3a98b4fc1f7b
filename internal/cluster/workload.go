package cluster

import (
	"strings"
)

// podMakers are the kinds of the controllers that make pods, and those that make them through
// another (a Deployment's ReplicaSets, a CronJob's Jobs).
var podMakers = map[string]bool{"ReplicationController": true, "ReplicaSet": true, "Deployment": true,
	"StatefulSet": true, "DaemonSet": true, "Job": true, "CronJob": true}

// MakesPods reports whether kind is the kind of a controller of pods: a ReplicaSet, a
// Deployment, a StatefulSet, a DaemonSet, a Job, a CronJob or a ReplicationController.
func MakesPods(kind string) bool { return podMakers[kind] }

// Workload returns the kind and name of what runs a pod, as people name it: the Deployment of
// a ReplicaSet's pod, the CronJob of a Job's pod, the StatefulSet, DaemonSet or Job that owns
// it; for a pod without owners (a pasted table or describe rarely keeps them), the stem of its
// name ("Pod", "hub" for hub-8sr9zr4gx7-js2fw).
func Workload(p *Pod) (kind, name string) {
	kind, name = Owner(p)
	switch kind {
	case "":
		return KindPod, NameStem(p.Name)
	case "ReplicaSet":
		if h := p.Labels["pod-template-hash"]; h != "" {
			if base, ok := strings.CutSuffix(name, "-"+h); ok {
				return "Deployment", base
			}
		}
		if base, ok := cutSegment(name, templateHash); ok {
			return "Deployment", base
		}
	case "Job":
		// A CronJob names its jobs NAME-<minutes since the epoch>.
		if base, ok := cutSegment(name, cronSuffix); ok {
			return "CronJob", base
		}
	}
	return kind, name
}

// DeploymentOf returns the Deployment a ReplicaSet's name says it belongs to: the deployment
// controller names a ReplicaSet after its Deployment and the hash of its pod template
// ("web-7d9f5c6b8"; 1.5-1.7 wrote the hash in decimal, "web-1628688456"). ok is false for a
// name that ends in no such hash.
func DeploymentOf(replicaSet string) (string, bool) {
	if base, ok := cutSegment(replicaSet, templateHash); ok {
		return base, true
	}
	return cutSegment(replicaSet, func(s string) bool { return len(s) >= 9 && len(s) <= 10 && allDigits(s) })
}

// NameStem is a generated pod name without what the controllers added to it: the random
// five-character suffix, the pod-template hash, a long hexadecimal id, a StatefulSet's
// ordinal. "hub-8sr9zr4gx7-js2fw" → "hub", "web-0" → "web", "debug" → "debug".
func NameStem(name string) string {
	stem := name
	if s, ok := cutSegment(stem, podSuffix); ok {
		stem = s
	} else if s, ok := cutSegment(stem, ordinal); ok {
		return s
	}
	for _, f := range []func(string) bool{templateHash, hexID} {
		if s, ok := cutSegment(stem, f); ok {
			stem = s
		}
	}
	return stem
}

// cutSegment removes the last dash-separated segment of name when it matches, and something is
// left.
func cutSegment(name string, match func(string) bool) (string, bool) {
	i := strings.LastIndexByte(name, '-')
	if i <= 0 || !match(name[i+1:]) {
		return name, false
	}
	return name[:i], true
}

// generated reports whether s looks machine-made: Kubernetes' random strings use consonants and
// digits only (no vowels, so no words), and a made-up name mixes letters and digits.
func generated(s string) bool {
	letters, digits, vowels := 0, 0, 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r >= 'a' && r <= 'z':
			letters++
			if strings.ContainsRune("aeiouy", r) {
				vowels++
			}
		default:
			return false
		}
	}
	return vowels == 0 && letters > 0 || letters > 0 && digits > 0
}

func podSuffix(s string) bool    { return len(s) == 5 && generated(s) }
func templateHash(s string) bool { return len(s) >= 6 && len(s) <= 10 && generated(s) }

func hexID(s string) bool {
	if len(s) < 16 {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}

// ordinal is a StatefulSet's pod number.
func ordinal(s string) bool { return len(s) <= 5 && allDigits(s) }

// cronSuffix is the scheduled minute a CronJob appends to its jobs' names.
func cronSuffix(s string) bool { return len(s) >= 8 && allDigits(s) }

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// ContainerStatuses lists a pod's init and regular container statuses.
func ContainerStatuses(p *Pod) []ContainerStatus {
	if len(p.Status.InitContainerStatuses) == 0 {
		// The pod's own slice, not a copy: callers only read it, and three rules ask for it
		// of every pod (15 MB of garbage on 20,000 pods, when the heap is at its fullest).
		return p.Status.ContainerStatuses
	}
	return append(append([]ContainerStatus{}, p.Status.InitContainerStatuses...), p.Status.ContainerStatuses...)
}

// NodePool is the pool of a node object (cluster.NodePool of its labels).
func (o *Object) NodePool() string {
	pool, _ := NodePool(o.Node.Labels)
	return pool
}
