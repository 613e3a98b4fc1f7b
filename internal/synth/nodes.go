package synth

import (
	"fmt"
	"math/rand/v2"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// GKE node pools of the cluster, in the order poolOf cycles through them.
const (
	poolCore = "core-pool"
	poolUser = "user-pool"
	poolDask = "dask-pool"
)

// nodeID is what other objects need to know about a node: enough to point at it.
type nodeID struct {
	name, pool, zone, uid, ip, cidr string
	machine                         string
	cpus, memGiB                    int
	created                         time.Time
	notReady, memPressure           bool
}

// poolOf spreads nodes over pools: a tenth in the core pool, 40% for users, half for Dask.
func poolOf(j int) string {
	switch j % 10 {
	case 0:
		return poolCore
	case 1, 2, 3, 4:
		return poolUser
	default:
		return poolDask
	}
}

// placePod returns the node of the pod with the given rank among the pods of its kind, and the
// last byte of its address in the node's pod range. The pods of a kind are dealt round-robin
// to the nodes of their pool (DaemonSet pods to all nodes), so two pods on a node never share
// an address while it holds fewer than 253 of them.
func placePod(o Options, kind podKind, rank uint64) (node, host int) {
	digits := [...]string{"1234", "56789", "0123456789", "0"}[kind] // the j%10 of the pool's nodes
	size := uint64(o.Nodes / 10 * len(digits))
	for _, d := range digits {
		if int(d-'0') < o.Nodes%10 {
			size++
		}
	}
	if size == 0 { // no node in the pool: use them all
		digits, size = "0123456789", uint64(o.Nodes)
	}
	t := rank % size
	return 10*int(t/uint64(len(digits))) + int(digits[t%uint64(len(digits))]-'0'), 2 + int(rank/size%253)
}

// zoneOf spreads nodes over the zones of us-central1.
func zoneOf(j int) string {
	return [...]string{"us-central1-b", "us-central1-c", "us-central1-f"}[(j/10)%3]
}

// groupHash is the id of the managed instance group of a pool in a zone, as in node names.
func groupHash(o Options, pool, zone string) string {
	return hexString(newRand(o, saltGroup, int(pool[0])<<8|int(zone[len(zone)-1])), 8)
}

// nodeIdent returns the identity of node j: cheap enough to compute for every pod and event.
func nodeIdent(o Options, j int) nodeID {
	r := newRand(o, saltNodeID, j)
	id := nodeID{pool: poolOf(j), zone: zoneOf(j), uid: newUID(r)}
	id.name = "gke-leap-" + id.pool + "-" + groupHash(o, id.pool, id.zone) + "-" + uniqueSuffix(uint64(j), o.Seed, alphaGCE, 4)
	id.ip = fmt.Sprintf("10.128.%d.%d", (j+2)/256%256, (j+2)%256)
	id.cidr = fmt.Sprintf("10.%d.%d.", 4+j/256%200, j%256)
	id.cpus, id.memGiB, id.machine = 4, 32, "n2-highmem-4"
	if id.pool == poolDask || (id.pool == poolUser && chance(r, 0.3)) {
		id.cpus, id.memGiB, id.machine = 16, 128, "n2-highmem-16"
	}
	id.notReady = id.pool != poolCore && chance(r, 0.04)
	id.memPressure = !id.notReady && chance(r, 0.015)
	id.created = o.Start.Add(-time.Duration(between(r, 3600, 30*86400)) * time.Second)
	if id.notReady {
		id.created = o.snapshot().Add(-time.Duration(between(r, 20, 240)) * time.Second)
	}
	id.created = id.created.Truncate(time.Second)
	return id
}

// Node returns the i-th generated node, the same object WriteNodeList writes as item i.
func Node(o Options, i int) *corev1.Node {
	o = o.norm()
	id := nodeIdent(o, i)
	r := newRand(o, saltNodeBody, i)
	snap := o.snapshot()
	region := id.zone[:len(id.zone)-2]
	labels := map[string]string{
		"beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/instance-type": id.machine, "beta.kubernetes.io/os": "linux",
		"cloud.google.com/gke-boot-disk": "pd-balanced", "cloud.google.com/gke-container-runtime": "containerd",
		"cloud.google.com/gke-nodepool": id.pool, "cloud.google.com/gke-os-distribution": "cos",
		"cloud.google.com/machine-family": "n2", "failure-domain.beta.kubernetes.io/region": region,
		"failure-domain.beta.kubernetes.io/zone": id.zone, "kubernetes.io/arch": "amd64",
		"kubernetes.io/hostname": id.name, "kubernetes.io/os": "linux", "node.kubernetes.io/instance-type": id.machine,
		"topology.gke.io/zone": id.zone, "topology.kubernetes.io/region": region, "topology.kubernetes.io/zone": id.zone,
	}
	var taints []corev1.Taint
	switch id.pool {
	case poolUser:
		labels["hub.jupyter.org/node-purpose"] = "user"
		taints = append(taints, corev1.Taint{Key: "hub.jupyter.org_dedicated", Value: "user", Effect: corev1.TaintEffectNoSchedule})
	case poolDask:
		labels["k8s.dask.org/node-purpose"] = "worker"
		taints = append(taints, corev1.Taint{Key: "k8s.dask.org_dedicated", Value: "worker", Effect: corev1.TaintEffectNoSchedule})
	}
	memPressure, ready := falseCondition("MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
		corev1.NodeCondition{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady", Message: "kubelet is posting ready status. AppArmor enabled"}
	if id.memPressure {
		memPressure = corev1.NodeCondition{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionTrue, Reason: "KubeletHasInsufficientMemory", Message: "kubelet has insufficient memory available"}
		taints = append(taints, corev1.Taint{Key: "node.kubernetes.io/memory-pressure", Effect: corev1.TaintEffectNoSchedule, TimeAdded: ptr(mtime(snap.Add(-time.Duration(between(r, 30, 900)) * time.Second)))})
	}
	if id.notReady {
		ready = corev1.NodeCondition{Type: corev1.NodeReady, Status: corev1.ConditionFalse, Reason: "KubeletNotReady",
			Message: "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"}
		added := ptr(mtime(id.created.Add(10 * time.Second)))
		taints = append(taints, corev1.Taint{Key: "node.kubernetes.io/not-ready", Effect: corev1.TaintEffectNoSchedule},
			corev1.Taint{Key: "node.kubernetes.io/not-ready", Effect: corev1.TaintEffectNoExecute, TimeAdded: added})
	}
	conds := []corev1.NodeCondition{
		falseCondition("KernelDeadlock", "KernelHasNoDeadlock", "kernel has no deadlock"),
		falseCondition("ReadonlyFilesystem", "FilesystemIsNotReadOnly", "Filesystem is not read-only"),
		{Type: corev1.NodeNetworkUnavailable, Status: corev1.ConditionFalse, Reason: "RouteCreated", Message: "NodeController create implicit route"},
		memPressure,
		falseCondition("DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
		falseCondition("PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
		ready,
	}
	for k := range conds {
		changed := id.created.Add(time.Duration(between(r, 5, 15)) * time.Second)
		beat := snap.Add(-time.Duration(r.IntN(60)) * time.Second)
		if conds[k].Type == corev1.NodeNetworkUnavailable {
			beat = id.created.Add(time.Duration(between(r, 20, 60)) * time.Second)
		}
		if beat.Before(changed) || beat.After(snap) { // a node created a moment ago
			beat = changed
		}
		conds[k].LastHeartbeatTime, conds[k].LastTransitionTime = mtime(beat), mtime(changed)
	}
	if id.memPressure {
		conds[3].LastTransitionTime = *taints[len(taints)-1].TimeAdded
	}
	memKi := int64(id.memGiB)<<20 - int64(id.memGiB*21000+r.IntN(500))
	capacity, allocatable := corev1.ResourceList{
		corev1.ResourceCPU:              *resource.NewQuantity(int64(id.cpus), resource.DecimalSI),
		corev1.ResourceEphemeralStorage: *resource.NewQuantity(98831908<<10, resource.BinarySI),
		"hugepages-1Gi":                 *resource.NewQuantity(0, resource.DecimalSI),
		"hugepages-2Mi":                 *resource.NewQuantity(0, resource.DecimalSI),
		corev1.ResourceMemory:           *resource.NewQuantity(memKi<<10, resource.BinarySI),
		corev1.ResourcePods:             *resource.NewQuantity(110, resource.DecimalSI),
	}, corev1.ResourceList{
		corev1.ResourceCPU:              *resource.NewMilliQuantity(int64(id.cpus*1000-reservedCPU(id.cpus)), resource.DecimalSI),
		corev1.ResourceEphemeralStorage: *resource.NewQuantity(47060071478, resource.DecimalSI),
		"hugepages-1Gi":                 *resource.NewQuantity(0, resource.DecimalSI),
		"hugepages-2Mi":                 *resource.NewQuantity(0, resource.DecimalSI),
		corev1.ResourceMemory:           *resource.NewQuantity((memKi-reservedMemKi(id.memGiB))<<10, resource.BinarySI),
		corev1.ResourcePods:             *resource.NewQuantity(110, resource.DecimalSI),
	}
	return &corev1.Node{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: metav1.ObjectMeta{
			Name: id.name, UID: types.UID(id.uid), ResourceVersion: resourceVersion(r), CreationTimestamp: mtime(id.created), Labels: labels,
			Annotations: map[string]string{
				"container.googleapis.com/instance_id":                   fmt.Sprint(between(r, 1e9, 2e9-1)) + fmt.Sprint(between(r, 1e9, 2e9-1)),
				"csi.volume.kubernetes.io/nodeid":                        `{"pd.csi.storage.gke.io":"projects/leap/zones/` + id.zone + `/instances/` + id.name + `"}`,
				"node.alpha.kubernetes.io/ttl":                           "0",
				"volumes.kubernetes.io/controller-managed-attach-detach": "true",
			},
		},
		Spec: corev1.NodeSpec{PodCIDR: id.cidr + "0/24", PodCIDRs: []string{id.cidr + "0/24"}, ProviderID: "gce://leap/" + id.zone + "/" + id.name, Taints: taints},
		Status: corev1.NodeStatus{
			Capacity: capacity, Allocatable: allocatable, Conditions: conds,
			Addresses: []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: id.ip},
				{Type: corev1.NodeExternalIP, Address: fmt.Sprintf("34.%d.%d.%d", between(r, 16, 191), r.IntN(256), between(r, 1, 254))},
				{Type: corev1.NodeHostName, Address: id.name}},
			DaemonEndpoints: corev1.NodeDaemonEndpoints{KubeletEndpoint: corev1.DaemonEndpoint{Port: 10250}},
			NodeInfo: corev1.NodeSystemInfo{
				MachineID: hexString(r, 32), SystemUUID: hexString(r, 8) + "-" + hexString(r, 4) + "-" + hexString(r, 4) + "-" + hexString(r, 4) + "-" + hexString(r, 12),
				BootID: newUID(r), KernelVersion: "5.10.147+", OSImage: "Container-Optimized OS from Google",
				ContainerRuntimeVersion: "containerd://1.6.9", KubeletVersion: "v1.24.9-gke.3200", KubeProxyVersion: "v1.24.9-gke.3200", //nolint:staticcheck // deprecated, but a 1.24 GKE node reports it and the synthetic node is one
				OperatingSystem: "linux", Architecture: "amd64",
			},
			Images: nodeImages(o, r, id),
		},
	}
}

// falseCondition is a node condition that is fine: its status is False.
func falseCondition(t corev1.NodeConditionType, reason, msg string) corev1.NodeCondition {
	return corev1.NodeCondition{Type: t, Status: corev1.ConditionFalse, Reason: reason, Message: msg}
}

// reservedCPU is the millicores GKE reserves for the system on a node with n cores.
func reservedCPU(n int) int {
	return 60 + 10 + 5*min(max(n-2, 0), 2) + (max(n-4, 0)*25+9)/10
}

// reservedMemKi is the memory GKE reserves for the system and for eviction on a node with gib
// GiB of memory, in KiB.
func reservedMemKi(gib int) int64 {
	tiers := [...]struct{ upTo, percent int }{{4, 25}, {8, 20}, {16, 10}, {128, 6}, {1 << 20, 2}}
	var reserved, below int64
	for _, t := range tiers {
		in := min(int64(gib), int64(t.upTo)) - below
		if in <= 0 {
			break
		}
		reserved += in << 20 * int64(t.percent) / 100
		below = int64(t.upTo)
	}
	return reserved + 100<<10
}

// nodeImages is the list of images cached on a node: the system images every GKE node pulls
// and, on user and Dask nodes, the big notebook image.
func nodeImages(o Options, r *rand.Rand, id nodeID) []corev1.ContainerImage {
	images := [...]struct {
		repo, tag string
		size      int64
	}{
		{"pangeo/pangeo-notebook", "2023.01.13", 1950000000},
		{"gke.gcr.io/gke-metrics-agent", "1.8.3-gke.0", 68000000},
		{"gke.gcr.io/fluent-bit", "v1.8.12-gke.25", 26000000},
		{"gke.gcr.io/gcp-compute-persistent-disk-csi-driver", "v1.7.1-gke.0", 24000000},
		{"gke.gcr.io/kube-proxy-amd64", "v1.24.9-gke.3200", 37000000},
		{"gke.gcr.io/pause", "3.6", 300000},
	}
	first := 1
	if id.pool != poolCore {
		first = 0
	}
	out := make([]corev1.ContainerImage, 0, len(images))
	for _, im := range images[first:] {
		ref, digest := imageRef(o, im.repo+":"+im.tag)
		out = append(out, corev1.ContainerImage{Names: []string{digest, ref}, SizeBytes: im.size + int64(r.IntN(1000000))})
	}
	return out
}
