package synth

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// The two readings of incident IL-0070 (2i2c, leap cluster, 1 February 2023) that the notes
// written during the incident leave open: the hub evicted under memory pressure on the core
// node it shared with Prometheus, or the hub restarted by its liveness probe.
const (
	IL0070Evicted  = "evicted"
	IL0070Liveness = "liveness"
)

// IL0070FailedScheduling is the dask workers' scheduling message, verbatim from the incident.
// Its counts add up to more than 126 and are kept as the notes quote them.
const IL0070FailedScheduling = "0/126 nodes are available: 14 node(s) didn't match Pod's node affinity/selector, 23 Insufficient cpu, 24 Insufficient memory, 6 node(s) had untolerated taint {node.kubernetes.io/network-unavailable: }, 9 node(s) had untolerated taint {hub.jupyter.org_dedicated: user}, 96 node(s) had untolerated taint {node.kubernetes.io/not-ready: }."

// il70 seeds the shared helpers (image digests, owner UIDs), so IL0070 needs no other randomness.
var il70 = Options{Seed: 70, Start: il70At(16, 59, 0)}

const (
	saltIL70      uint64 = 70 << 8 // apart from the generator's salts
	il70Hub              = "10.8.1.14"
	il70DaskGroup        = "https://www.googleapis.com/compute/v1/projects/leap-pangeo/zones/us-central1-b/instanceGroups/gke-leap-dask-pool-4c4e1e05-grp"
)

// il70Capture is when kubectl listed the objects.
var il70Capture = il70At(17, 8, 0)

func il70At(h, m, s int) time.Time { return time.Date(2023, time.February, 1, h, m, s, 0, time.UTC) }

// il70Key hashes key for the deterministic parts of an object: UIDs, versions, IDs.
func il70Key(key string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(key)) // a hash.Hash never fails to write
	return h.Sum64()
}

func il70UID(key string) types.UID { return types.UID(newUID(keyRand(il70, saltIL70, key))) }

func il70Version(key string) string { return resourceVersion(keyRand(il70, saltIL70+1, key)) }

// IL0070 returns the objects of the variant (IL0070Evicted or IL0070Liveness) as kubectl would
// have listed them at 17:08 UTC: 126 nodes, about 305 pods and 50 events, each list in the
// order the API server returns it.
func IL0070(variant string) (nodes []corev1.Node, pods []corev1.Pod, events []corev1.Event, err error) {
	if variant != IL0070Evicted && variant != IL0070Liveness {
		return nil, nil, nil, fmt.Errorf("synth: IL0070: unknown variant %q (want %q or %q)", variant, IL0070Evicted, IL0070Liveness)
	}
	b := &il70Builder{variant: variant, hosts: map[string]int{}}
	b.nodes = il70Nodes(variant)
	for _, n := range b.nodes {
		nodes = append(nodes, n.object())
	}
	b.systemPods()
	b.corePods()
	b.userPods()
	b.daskPods()
	b.nodeEvents()
	if variant == IL0070Evicted {
		b.eviction()
	} else {
		b.livenessRestart()
	}
	slices.SortFunc(nodes, func(a, b corev1.Node) int { return cmp.Compare(a.Name, b.Name) })
	slices.SortFunc(b.pods, func(a, b corev1.Pod) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	slices.SortFunc(b.events, func(a, b corev1.Event) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	return nodes, b.pods, b.events, nil
}

// IL0070Objects are the objects of IL0070 as a cluster holds them, for a fake clientset.
func IL0070Objects(variant string) ([]runtime.Object, error) {
	nodes, pods, events, err := IL0070(variant)
	if err != nil {
		return nil, err
	}
	out := make([]runtime.Object, 0, len(nodes)+len(pods)+len(events))
	for i := range nodes {
		out = append(out, &nodes[i])
	}
	for i := range pods {
		out = append(out, &pods[i])
	}
	for i := range events {
		out = append(out, &events[i])
	}
	return out, nil
}

// WriteIL0070 writes nodes.json, pods.json and events.json of the variant into dir, each the
// List that `kubectl get … -A -o json` prints.
func WriteIL0070(dir, variant string) error {
	nodes, pods, events, err := IL0070(variant)
	if err != nil {
		return err
	}
	lists := []struct {
		what string
		n    int
		item func(int) any
	}{
		{"nodes", len(nodes), func(i int) any { return &nodes[i] }},
		{"pods", len(pods), func(i int) any { return &pods[i] }},
		{"events", len(events), func(i int) any { return &events[i] }},
	}
	for _, l := range lists {
		f, err := os.Create(filepath.Join(dir, l.what+".json"))
		if err != nil {
			return fmt.Errorf("synth: IL0070: %w", err)
		}
		err = writeList(f, l.what, l.n, l.item)
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("synth: IL0070: %w", cerr)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// il70State is what the burst left a node in.
type il70State int

const (
	il70Ready       il70State = iota
	il70NotReady              // kubelet up, CNI not yet: Ready=False
	il70NoRoute               // Ready, but no pod route yet: NetworkUnavailable=True
	il70MemPressure           // the hub's node in the evicted variant
)

// il70Node is a node of the leap cluster; cidr is the first three octets of its pod range.
type il70Node struct {
	name, pool, machine, ip, cidr string
	created                       time.Time
	state                         il70State
}

// il70Nodes returns the 126 nodes at 17:02: 4 core, 9 user and 113 dask nodes, 102 of them
// created between 17:01:00 and 17:02:00, of which 96 are not ready and 6 have no route yet.
func il70Nodes(variant string) []il70Node {
	var out []il70Node
	add := func(pool, hash, machine string, created time.Time, state il70State, cidr int) {
		suffix := uniqueSuffix(uint64(len(out)), il70.Seed, alphaGCE, 4) // unique across pools
		out = append(out, il70Node{name: "gke-leap-" + pool + "-" + hash + "-" + suffix, pool: pool, machine: machine,
			ip: fmt.Sprintf("10.128.0.%d", len(out)+2), cidr: fmt.Sprintf("10.8.%d.", cidr), created: created, state: state})
	}
	for k := range 4 {
		state := il70Ready
		if k == 0 && variant == IL0070Evicted {
			state = il70MemPressure
		}
		add(poolCore, "b3f2e0a1", "n2-highmem-4", time.Date(2023, 1, 9, 14, 2, 11+37*k, 0, time.UTC), state, 1+k)
	}
	for k := range 9 {
		add(poolUser, "6d1c9f47", "n2-highmem-4", il70At(9, 14+47*k, 20), il70Ready, 10+k)
	}
	for k := range 11 { // idle since earlier work, so they took the first 11 workers
		add(poolDask, "4c4e1e05", "n2-highmem-2", il70At(15, 41, 5+133*k), il70Ready, 20+k)
	}
	for k := range 102 {
		state := il70NotReady
		if k%17 == 0 {
			state = il70NoRoute
		}
		add(poolDask, "4c4e1e05", "n2-highmem-2", il70At(17, 1, k*58/101), state, 40+k)
	}
	return out
}

// object returns the node as the API server holds it at capture time.
func (n il70Node) object() corev1.Node {
	r := keyRand(il70, saltIL70+2, n.name)
	labels := map[string]string{
		"beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/instance-type": n.machine, "beta.kubernetes.io/os": "linux",
		"cloud.google.com/gke-boot-disk": "pd-balanced", "cloud.google.com/gke-container-runtime": "containerd",
		"cloud.google.com/gke-nodepool": n.pool, "cloud.google.com/gke-os-distribution": "cos",
		"cloud.google.com/machine-family": "n2", "failure-domain.beta.kubernetes.io/region": "us-central1",
		"failure-domain.beta.kubernetes.io/zone": "us-central1-b", "kubernetes.io/arch": "amd64",
		"kubernetes.io/hostname": n.name, "kubernetes.io/os": "linux", "node.kubernetes.io/instance-type": n.machine,
		"topology.gke.io/zone": "us-central1-b", "topology.kubernetes.io/region": "us-central1", "topology.kubernetes.io/zone": "us-central1-b",
	}
	var taints []corev1.Taint
	switch n.pool {
	case poolCore:
		labels["hub.jupyter.org/node-purpose"] = "core"
	case poolUser:
		labels["hub.jupyter.org/node-purpose"], labels["k8s.dask.org/node-purpose"] = "user", "scheduler"
		taints = append(taints, corev1.Taint{Key: "hub.jupyter.org_dedicated", Value: "user", Effect: corev1.TaintEffectNoSchedule})
	case poolDask:
		labels["k8s.dask.org/node-purpose"] = "worker"
		taints = append(taints, corev1.Taint{Key: "k8s.dask.org_dedicated", Value: "worker", Effect: corev1.TaintEffectNoSchedule})
	}
	up := n.created.Add(10 * time.Second)
	beat := mtime(il70Capture.Add(-time.Duration(3+r.IntN(40)) * time.Second))
	cond := func(t corev1.NodeConditionType, ok bool, reason, msg string, since time.Time) corev1.NodeCondition {
		c := falseCondition(t, reason, msg)
		if ok {
			c.Status = corev1.ConditionTrue
		}
		c.LastHeartbeatTime, c.LastTransitionTime = beat, mtime(since)
		return c
	}
	route := cond(corev1.NodeNetworkUnavailable, false, "RouteCreated", "NodeController create implicit route", n.created.Add(32*time.Second))
	route.LastHeartbeatTime = route.LastTransitionTime
	memory := cond(corev1.NodeMemoryPressure, false, "KubeletHasSufficientMemory", "kubelet has sufficient memory available", up)
	ready := cond(corev1.NodeReady, true, "KubeletReady", "kubelet is posting ready status. AppArmor enabled", n.created.Add(24*time.Second))
	switch n.state {
	case il70NotReady:
		ready = cond(corev1.NodeReady, false, "KubeletNotReady", "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized", up)
		taints = append(taints, corev1.Taint{Key: "node.kubernetes.io/not-ready", Effect: corev1.TaintEffectNoSchedule},
			corev1.Taint{Key: "node.kubernetes.io/not-ready", Effect: corev1.TaintEffectNoExecute, TimeAdded: ptr(mtime(up))})
	case il70NoRoute:
		route = cond(corev1.NodeNetworkUnavailable, true, "NoRouteCreated", "Node created without a route", up)
		route.LastHeartbeatTime = route.LastTransitionTime
		taints = append(taints, corev1.Taint{Key: "node.kubernetes.io/network-unavailable", Effect: corev1.TaintEffectNoSchedule, TimeAdded: ptr(mtime(up))})
	case il70MemPressure:
		memory = cond(corev1.NodeMemoryPressure, true, "KubeletHasInsufficientMemory", "kubelet has insufficient memory available", il70At(17, 5, 40))
		taints = append(taints, corev1.Taint{Key: "node.kubernetes.io/memory-pressure", Effect: corev1.TaintEffectNoSchedule, TimeAdded: ptr(mtime(il70At(17, 5, 41)))})
	}
	conds := []corev1.NodeCondition{
		cond("KernelDeadlock", false, "KernelHasNoDeadlock", "kernel has no deadlock", up),
		cond("ReadonlyFilesystem", false, "FilesystemIsNotReadOnly", "Filesystem is not read-only", up),
		route, memory,
		cond(corev1.NodeDiskPressure, false, "KubeletHasNoDiskPressure", "kubelet has no disk pressure", up),
		cond(corev1.NodePIDPressure, false, "KubeletHasSufficientPID", "kubelet has sufficient PID available", up),
		ready,
	}
	// n2-highmem-4 as the incident's node showed it; n2-highmem-2 with GKE's reservations.
	cpus, memKi, allocCPU, allocKi := int64(4), int64(32880364), int64(3920), int64(28431340)
	if n.machine == "n2-highmem-2" {
		cpus, memKi, allocCPU, allocKi = 2, 16390436, 1930, 16390436-reservedMemKi(16)
	}
	list := func(cpu resource.Quantity, memKi, storage int64) corev1.ResourceList {
		return corev1.ResourceList{corev1.ResourceCPU: cpu, corev1.ResourceEphemeralStorage: *resource.NewQuantity(storage, resource.DecimalSI),
			"hugepages-1Gi": *resource.NewQuantity(0, resource.DecimalSI), "hugepages-2Mi": *resource.NewQuantity(0, resource.DecimalSI),
			corev1.ResourceMemory: *resource.NewQuantity(memKi<<10, resource.BinarySI), corev1.ResourcePods: *resource.NewQuantity(110, resource.DecimalSI)}
	}
	capacity := list(*resource.NewQuantity(cpus, resource.DecimalSI), memKi, 0)
	capacity[corev1.ResourceEphemeralStorage] = *resource.NewQuantity(98831908<<10, resource.BinarySI)
	instance := fmt.Sprint(1e18 + r.Int64N(8e18))
	return corev1.Node{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: metav1.ObjectMeta{Name: n.name, UID: il70UID("node/" + n.name), ResourceVersion: il70Version("node/" + n.name),
			CreationTimestamp: mtime(n.created), Labels: labels,
			Annotations: map[string]string{
				"container.googleapis.com/instance_id":                   instance,
				"csi.volume.kubernetes.io/nodeid":                        `{"pd.csi.storage.gke.io":"projects/leap-pangeo/zones/us-central1-b/instances/` + n.name + `"}`,
				"node.alpha.kubernetes.io/ttl":                           "0",
				"volumes.kubernetes.io/controller-managed-attach-detach": "true",
			}},
		Spec: corev1.NodeSpec{PodCIDR: n.cidr + "0/24", PodCIDRs: []string{n.cidr + "0/24"}, ProviderID: "gce://leap-pangeo/us-central1-b/" + n.name, Taints: taints},
		Status: corev1.NodeStatus{
			Capacity: capacity, Allocatable: list(*resource.NewMilliQuantity(allocCPU, resource.DecimalSI), allocKi, 47060071478), Conditions: conds,
			Addresses: []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: n.ip},
				{Type: corev1.NodeExternalIP, Address: fmt.Sprintf("34.%d.%d.%d", between(r, 16, 191), r.IntN(256), between(r, 1, 254))},
				{Type: corev1.NodeHostName, Address: n.name}},
			DaemonEndpoints: corev1.NodeDaemonEndpoints{KubeletEndpoint: corev1.DaemonEndpoint{Port: 10250}},
			NodeInfo: corev1.NodeSystemInfo{MachineID: hexString(r, 32), SystemUUID: newUID(r), BootID: newUID(r),
				KernelVersion: "5.10.147+", OSImage: "Container-Optimized OS from Google", ContainerRuntimeVersion: "containerd://1.6.9",
				KubeletVersion: "v1.24.9-gke.3200", KubeProxyVersion: "v1.24.9-gke.3200", OperatingSystem: "linux", Architecture: "amd64"}, //nolint:staticcheck // deprecated, but a 1.24 GKE node reports it and the synthetic node is one
			Images: nodeImages(il70, r, nodeID{pool: n.pool}),
		},
	}
}

// il70Builder collects the pods and events of one variant.
type il70Builder struct {
	variant string
	nodes   []il70Node
	pods    []corev1.Pod
	events  []corev1.Event
	hosts   map[string]int // the last pod address given out on each node
	seq     uint64         // numbers the random-looking suffixes of pod names
	dask    string         // the DaskCluster's id
	workers []string       // names of the dask workers; the first 11 run
	hub     string         // the hub pod on the core node shared with Prometheus
	hubAt   int            // its index in pods
}

// il70Ctr is a container: requests and limits in millicores and MiB, zero for unset.
type il70Ctr struct {
	name, image           string
	cpu, cpuLim           int64
	mem, memLim           int64
	port                  int32
	portName, probePath   string
	probeDelay, probeMiss int32 // the liveness probe's initial delay and failure threshold, if not 10 and 3
}

// il70Pod is what tells one pod from another before it is placed.
type il70Pod struct {
	ns, name, generate string
	owner              metav1.OwnerReference
	labels             map[string]string
	class              string // priority class
	created            time.Time
	hostNetwork        bool
	ctrs               []il70Ctr
}

// node returns the k-th node of a pool.
func (b *il70Builder) node(pool string, k int) il70Node {
	first := map[string]int{poolCore: 0, poolUser: 4, poolDask: 13}[pool]
	return b.nodes[first+k]
}

// suffix returns the next 5-character suffix the way controllers name pods.
func (b *il70Builder) suffix() string {
	b.seq++
	return uniqueSuffix(b.seq, il70.Seed, alphaK8s, 5)
}

// replicaSet returns a pod of a Deployment's current ReplicaSet.
func (b *il70Builder) replicaSet(ns, deploy string, labels map[string]string, created time.Time, ctrs ...il70Ctr) il70Pod {
	hash := nameHash(il70, ns+"/"+deploy, 10)
	rs := deploy + "-" + hash
	labels["pod-template-hash"] = hash
	return il70Pod{ns: ns, name: rs + "-" + b.suffix(), generate: rs + "-", labels: labels, created: created, ctrs: ctrs,
		owner: metav1.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs, UID: ownerUID(il70, ns+"/"+rs), Controller: ptr(true), BlockOwnerDeletion: ptr(true)}}
}

// daemonSet returns the pod of a DaemonSet on a node.
func (b *il70Builder) daemonSet(ns, name string, n il70Node, ctrs ...il70Ctr) il70Pod {
	labels := map[string]string{"k8s-app": name, "controller-revision-hash": nameHash(il70, ns+"/"+name, 10), "pod-template-generation": "4"}
	return il70Pod{ns: ns, name: name + "-" + b.suffix(), generate: name + "-", labels: labels, class: "system-node-critical",
		created: n.created.Add(12 * time.Second), hostNetwork: true, ctrs: ctrs,
		owner: metav1.OwnerReference{APIVersion: "apps/v1", Kind: "DaemonSet", Name: name, UID: ownerUID(il70, ns+"/"+name), Controller: ptr(true), BlockOwnerDeletion: ptr(true)}}
}

// build returns the pod's metadata and spec, not yet bound to a node.
func (p il70Pod) build() corev1.Pod {
	spec := corev1.PodSpec{RestartPolicy: corev1.RestartPolicyAlways, TerminationGracePeriodSeconds: ptr(int64(30)),
		DNSPolicy: corev1.DNSClusterFirst, ServiceAccountName: "default", SchedulerName: "default-scheduler",
		Priority: ptr(int32(0)), PriorityClassName: p.class, HostNetwork: p.hostNetwork, EnableServiceLinks: ptr(true),
		PreemptionPolicy: ptr(corev1.PreemptLowerPriority)}
	switch p.class {
	case "system-node-critical":
		spec.Priority = ptr(int32(2000001000))
	case "system-cluster-critical":
		spec.Priority = ptr(int32(2000000000))
	}
	if p.hostNetwork { // a DaemonSet or static pod: it runs wherever it is put
		spec.Tolerations = []corev1.Toleration{{Operator: corev1.TolerationOpExists}}
	} else { // what the DefaultTolerationSeconds admission plugin adds
		for _, key := range []string{"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"} {
			spec.Tolerations = append(spec.Tolerations, corev1.Toleration{Key: key, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))})
		}
	}
	for _, c := range p.ctrs {
		ctr := corev1.Container{Name: c.name, Image: c.image, ImagePullPolicy: corev1.PullIfNotPresent, Resources: resources(c.cpu, c.cpuLim, c.mem<<20, c.memLim<<20),
			TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: corev1.TerminationMessageReadFile}
		if c.port > 0 {
			ctr.Ports = []corev1.ContainerPort{{Name: c.portName, ContainerPort: c.port, Protocol: corev1.ProtocolTCP}}
			if p.hostNetwork {
				ctr.Ports[0].HostPort = c.port
			}
		}
		if c.probePath != "" {
			ctr.LivenessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: c.probePath,
				Port: intstr.FromInt32(c.port), Scheme: corev1.URISchemeHTTP}}, InitialDelaySeconds: cmp.Or(c.probeDelay, 10), TimeoutSeconds: 3,
				PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: cmp.Or(c.probeMiss, 3)}
		}
		spec.Containers = append(spec.Containers, ctr)
	}
	key := "pod/" + p.ns + "/" + p.name
	var owners []metav1.OwnerReference
	if p.owner.Kind != "" {
		owners = []metav1.OwnerReference{p.owner}
	}
	return corev1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{Name: p.name, GenerateName: p.generate, Namespace: p.ns, UID: il70UID(key), ResourceVersion: il70Version(key),
			CreationTimestamp: mtime(p.created), Labels: p.labels, OwnerReferences: owners},
		Spec: spec,
	}
}

// place binds pod to node n with its containers running since started, and keeps it.
// host is the last octet of the pod's address; zero takes the next free one.
func (b *il70Builder) place(pod corev1.Pod, n il70Node, host int, started time.Time) *corev1.Pod {
	pod.Spec.NodeName = n.name
	ip := n.ip
	if !pod.Spec.HostNetwork {
		if host == 0 {
			b.hosts[n.name] = max(b.hosts[n.name], 19) + 1 // 2 to 19 are for addresses chosen by hand
			host = b.hosts[n.name]
		}
		ip = fmt.Sprintf("%s%d", n.cidr, host)
	}
	scheduled := pod.CreationTimestamp.Add(time.Second)
	if scheduled.After(started) {
		scheduled = started
	}
	st := corev1.PodStatus{Phase: corev1.PodRunning, HostIP: n.ip, PodIP: ip, PodIPs: []corev1.PodIP{{IP: ip}},
		StartTime: ptr(mtime(scheduled)), QOSClass: qosClass(pod.Spec.Containers)}
	for _, c := range pod.Spec.Containers {
		ref, digest := imageRef(il70, c.Image)
		st.ContainerStatuses = append(st.ContainerStatuses, corev1.ContainerStatus{Name: c.Name, Image: ref, ImageID: digest,
			ContainerID: "containerd://" + hexString(keyRand(il70, saltIL70+4, pod.Name+"/"+c.Name), 64), Ready: true, Started: ptr(true),
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: mtime(started)}}})
	}
	ready := mtime(started.Add(2 * time.Second))
	st.Conditions = []corev1.PodCondition{
		{Type: corev1.PodInitialized, Status: corev1.ConditionTrue, LastTransitionTime: mtime(scheduled)},
		{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: ready},
		{Type: corev1.ContainersReady, Status: corev1.ConditionTrue, LastTransitionTime: ready},
		{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: mtime(scheduled)},
	}
	pod.Status = st
	b.pods = append(b.pods, pod)
	return &b.pods[len(b.pods)-1]
}

// systemPods adds GKE's per-node pods: the kube-proxy static pod on every node, and the
// fluentbit-gke and gke-metadata-server DaemonSets. The DaemonSet pods that the controller
// made for the 96 nodes that are not ready yet are left out, to keep the snapshot near the
// size the contract's example analyses (305 pods).
func (b *il70Builder) systemPods() {
	for _, n := range b.nodes {
		proxy := il70Pod{ns: "kube-system", name: "kube-proxy-" + n.name, class: "system-node-critical", hostNetwork: true,
			labels: map[string]string{"component": "kube-proxy", "tier": "node"}, created: n.created.Add(15 * time.Second),
			owner: metav1.OwnerReference{APIVersion: "v1", Kind: "Node", Name: n.name, UID: il70UID("node/" + n.name), Controller: ptr(true)},
			ctrs:  []il70Ctr{{name: "kube-proxy", image: "gke.gcr.io/kube-proxy-amd64:v1.24.9-gke.3200", cpu: 100}}}
		pod := proxy.build()
		pod.Annotations = map[string]string{"kubernetes.io/config.hash": hexString(keyRand(il70, saltIL70+5, n.name), 32),
			"kubernetes.io/config.mirror": hexString(keyRand(il70, saltIL70+5, n.name), 32), "kubernetes.io/config.source": "file",
			"kubernetes.io/config.seen": n.created.Add(14 * time.Second).Format("2006-01-02T15:04:05.000000000Z07:00")}
		b.place(pod, n, 0, n.created.Add(18*time.Second))
		if n.state == il70NotReady {
			continue
		}
		b.place(b.daemonSet("kube-system", "fluentbit-gke", n,
			il70Ctr{name: "fluentbit", image: "gke.gcr.io/fluent-bit:v1.8.12-gke.25", cpu: 50, mem: 100, memLim: 250, port: 2020, portName: "metrics"},
			il70Ctr{name: "fluentbit-gke", image: "gke.gcr.io/fluent-bit-gke-exporter:v0.19.0-gke.1", cpu: 50, mem: 100, memLim: 250}).build(), n, 0, n.created.Add(40*time.Second))
		if n.pool != poolDask {
			b.place(b.daemonSet("kube-system", "gke-metadata-server", n,
				il70Ctr{name: "gke-metadata-server", image: "gke.gcr.io/gke-metadata-server:20221012_2300_RC0", cpu: 100, mem: 100, memLim: 100, port: 988, portName: "metadata"}).build(),
				n, 0, n.created.Add(35*time.Second))
		}
	}
}

// corePods adds the JupyterHubs, support and kube-system Deployments of the core pool.
// The first core node is the one of the incident: with the hub beside it, Prometheus and the
// rest request 3450m of its 3920m CPU (88%), 93% of its memory, and memory limits of 124%.
func (b *il70Builder) corePods() {
	since := time.Date(2023, 1, 24, 11, 20, 0, 0, time.UTC)
	jh := func(release, component string) map[string]string {
		return map[string]string{"app": "jupyterhub", "component": component, "release": release, "heritage": "Helm"}
	}
	chp := il70Ctr{name: "chp", image: "quay.io/jupyterhub/configurable-http-proxy:4.5.3", cpu: 10, mem: 64, port: 8000, portName: "http", probePath: "/_chp_healthz"}
	sched := il70Ctr{name: "kube-scheduler", image: "k8s.gcr.io/kube-scheduler:v1.23.14", cpu: 50, mem: 256, port: 10251, portName: "healthz", probePath: "/healthz"}
	dns := []il70Ctr{{name: "kubedns", image: "gke.gcr.io/k8s-dns-kube-dns:1.22.12-gke.0", cpu: 100, mem: 70, memLim: 210, port: 10053, portName: "dns-local"},
		{name: "dnsmasq", image: "gke.gcr.io/k8s-dns-dnsmasq-nanny:1.22.12-gke.0", cpu: 150, mem: 20, port: 53, portName: "dns"},
		{name: "sidecar", image: "gke.gcr.io/k8s-dns-sidecar:1.22.12-gke.0", cpu: 10, mem: 20, port: 10054, portName: "metrics"}}
	konn := il70Ctr{name: "konnectivity-agent", image: "gke.gcr.io/proxy-agent:v0.0.33-gke.0", cpu: 10, mem: 30, memLim: 125, port: 8093, portName: "admin"}
	cpa := il70Ctr{name: "autoscaler", image: "gke.gcr.io/cluster-proportional-autoscaler:1.8.4-gke.1", cpu: 20, mem: 10}
	k8sApp := func(name string) map[string]string { return map[string]string{"k8s-app": name} }
	for _, c := range []struct {
		core    int
		ns, app string
		labels  map[string]string
		class   string
		ctrs    []il70Ctr
	}{
		{0, "prod", "proxy", jh("prod", "proxy"), "", []il70Ctr{chp}},
		{0, "staging", "hub", jh("staging", "hub"), "", []il70Ctr{il70HubCtr()}},
		{0, "staging", "proxy", jh("staging", "proxy"), "", []il70Ctr{chp}},
		{0, "support", "support-prometheus-server", map[string]string{"app": "prometheus", "component": "server", "release": "support", "chart": "prometheus-15.10.1", "heritage": "Helm"}, "",
			[]il70Ctr{{name: "prometheus-server-configmap-reload", image: "jimmidyson/configmap-reload:v0.5.0"},
				{name: "prometheus-server", image: "quay.io/prometheus/prometheus:v2.39.1", cpu: 3000, mem: 20 << 10, memLim: 30 << 10, port: 9090, probePath: "/-/healthy"}}},
		{0, "support", "support-grafana", map[string]string{"app.kubernetes.io/instance": "support", "app.kubernetes.io/name": "grafana"}, "",
			[]il70Ctr{{name: "grafana", image: "grafana/grafana:9.2.4", cpu: 100, mem: 1 << 10, memLim: 1 << 10, port: 3000, portName: "grafana", probePath: "/api/health"}}},
		{0, "support", "support-prometheus-kube-state-metrics", map[string]string{"app.kubernetes.io/instance": "support", "app.kubernetes.io/name": "kube-state-metrics"}, "",
			[]il70Ctr{{name: "kube-state-metrics", image: "registry.k8s.io/kube-state-metrics/kube-state-metrics:v2.6.0", mem: 2900, port: 8080, portName: "http", probePath: "/healthz"}}},
		{0, "kube-system", "konnectivity-agent", k8sApp("konnectivity-agent"), "system-cluster-critical", []il70Ctr{konn}},
		{1, "support", "support-ingress-nginx-controller", map[string]string{"app.kubernetes.io/component": "controller", "app.kubernetes.io/instance": "support", "app.kubernetes.io/name": "ingress-nginx"}, "",
			[]il70Ctr{{name: "controller", image: "registry.k8s.io/ingress-nginx/controller:v1.5.1", cpu: 100, mem: 90, port: 80, portName: "http", probePath: "/healthz"}}},
		{1, "prod", "user-scheduler", jh("prod", "user-scheduler"), "", []il70Ctr{sched}},
		{1, "kube-system", "kube-dns", k8sApp("kube-dns"), "system-cluster-critical", dns},
		{2, "prod", "user-scheduler", jh("prod", "user-scheduler"), "", []il70Ctr{sched}},
		{2, "prod", "api-prod-dask-gateway", map[string]string{"app.kubernetes.io/component": "gateway", "app.kubernetes.io/instance": "prod", "app.kubernetes.io/name": "dask-gateway"}, "",
			[]il70Ctr{{name: "api", image: "ghcr.io/dask/dask-gateway-server:2022.11.0", port: 8000, portName: "api", probePath: "/api/health"}}},
		{2, "prod", "controller-prod-dask-gateway", map[string]string{"app.kubernetes.io/component": "controller", "app.kubernetes.io/instance": "prod", "app.kubernetes.io/name": "dask-gateway"}, "",
			[]il70Ctr{{name: "controller", image: "ghcr.io/dask/dask-gateway-server:2022.11.0"}}},
		{2, "prod", "traefik-prod-dask-gateway", map[string]string{"app.kubernetes.io/component": "traefik", "app.kubernetes.io/instance": "prod", "app.kubernetes.io/name": "dask-gateway"}, "",
			[]il70Ctr{{name: "traefik", image: "traefik:2.6.3", port: 8000, portName: "web"}}},
		{2, "kube-system", "kube-dns", k8sApp("kube-dns"), "system-cluster-critical", dns},
		{2, "kube-system", "kube-dns-autoscaler", k8sApp("kube-dns-autoscaler"), "system-cluster-critical", []il70Ctr{cpa}},
		{2, "kube-system", "metrics-server-v0.5.2", k8sApp("metrics-server"), "system-cluster-critical",
			[]il70Ctr{{name: "metrics-server", image: "gke.gcr.io/metrics-server:v0.5.2-gke.1", cpu: 48, mem: 105, memLim: 105, port: 10250, portName: "https"},
				{name: "metrics-server-nanny", image: "gke.gcr.io/addon-resizer:1.8.14-gke.3", cpu: 5, mem: 50, memLim: 300}}},
		{3, "staging", "user-scheduler", jh("staging", "user-scheduler"), "", []il70Ctr{sched}},
		{3, "kube-system", "l7-default-backend", k8sApp("glbc"), "",
			[]il70Ctr{{name: "default-http-backend", image: "gke.gcr.io/ingress-gce-404-server-with-metrics:v1.13.4", cpu: 10, mem: 20, memLim: 20, port: 8080, probePath: "/healthz"}}},
		{3, "kube-system", "event-exporter-gke", k8sApp("event-exporter"), "",
			[]il70Ctr{{name: "event-exporter", image: "gke.gcr.io/event-exporter:v0.3.9-gke.0"}}},
		{3, "kube-system", "konnectivity-agent", k8sApp("konnectivity-agent"), "system-cluster-critical", []il70Ctr{konn}},
		{3, "kube-system", "konnectivity-agent-autoscaler", k8sApp("konnectivity-agent-autoscaler"), "system-cluster-critical",
			[]il70Ctr{{name: "autoscaler", image: "gke.gcr.io/cluster-proportional-autoscaler:1.8.4-gke.1", cpu: 10, mem: 10}}},
	} {
		created := since.Add(time.Duration(il70Key(c.ns+c.app)%(5*86400)) * time.Second)
		p := b.replicaSet(c.ns, c.app, c.labels, created, c.ctrs...)
		p.class = c.class
		b.place(p.build(), b.node(poolCore, c.core), 0, created.Add(21*time.Second))
	}
	hub := b.hubPod(time.Date(2023, 1, 30, 9, 12, 44, 0, time.UTC))
	b.hub, b.hubAt = hub.Name, len(b.pods)
	b.place(hub, b.node(poolCore, 0), 14, hub.CreationTimestamp.Add(21*time.Second))
}

// il70HubCtr is JupyterHub's hub container, as the zero-to-jupyterhub chart runs it with
// 2i2c's requests: 10m of CPU and 512Mi of memory, and a liveness probe that gives up after
// 30 failures 10 seconds apart.
func il70HubCtr() il70Ctr {
	return il70Ctr{name: "hub", image: "quay.io/jupyterhub/k8s-hub:2.0.0", cpu: 10, mem: 512, memLim: 1024, port: 8081, portName: "http", probePath: "/hub/health",
		probeDelay: 300, probeMiss: 30}
}

// hubPod returns a pod of prod's hub Deployment created at created, not yet placed.
func (b *il70Builder) hubPod(created time.Time) corev1.Pod {
	labels := map[string]string{"app": "jupyterhub", "component": "hub", "release": "prod", "heritage": "Helm", "hub.jupyter.org/network-access-proxy-api": "true"}
	pod := b.replicaSet("prod", "hub", labels, created, il70HubCtr()).build()
	pod.Spec.ServiceAccountName, pod.Spec.TerminationGracePeriodSeconds = "hub", ptr(int64(10))
	return pod
}

// userPods adds a dozen notebook servers to the user pool.
func (b *il70Builder) userPods() {
	users := []string{"ocean-eddies", "aerosol-lab", "cmip6-fan", "sea-ice-kim", "jcarbon", "paleo-dana",
		"hydro-ravi", "cloud-micro", "ml-surrogates", "tropics-ana", "permafrost-ole", "ekman-spiral"}
	sizes := [][4]int64{{1000, 2000, 8 << 10, 8 << 10}, {500, 1000, 4 << 10, 4 << 10}, {2000, 4000, 8 << 10, 8 << 10}, {1000, 2000, 4 << 10, 4 << 10}}
	for k, user := range users {
		sz := sizes[k%len(sizes)]
		created := il70At(16, 5+4*k, 13+k)
		p := il70Pod{ns: "prod", name: "jupyter-" + user, class: "prod-default-priority", created: created,
			labels: map[string]string{"app": "jupyterhub", "chart": "jupyterhub-2.0.0", "component": "singleuser-server", "heritage": "jupyterhub",
				"hub.jupyter.org/network-access-hub": "true", "hub.jupyter.org/servername": "", "hub.jupyter.org/username": user, "release": "prod"},
			ctrs: []il70Ctr{{name: "notebook", image: "pangeo/pangeo-notebook:2023.01.13", cpu: sz[0], cpuLim: sz[1], mem: sz[2], memLim: sz[3], port: 8888, portName: "notebook-port"}}}
		pod := p.build()
		pod.Annotations = map[string]string{"hub.jupyter.org/username": user}
		pod.Spec.SchedulerName, pod.Spec.RestartPolicy, pod.Spec.ServiceAccountName = "prod-user-scheduler", corev1.RestartPolicyOnFailure, "user-sa"
		pod.Spec.NodeSelector = map[string]string{"hub.jupyter.org/node-purpose": "user"}
		pod.Spec.Tolerations = append([]corev1.Toleration{{Key: "hub.jupyter.org_dedicated", Operator: corev1.TolerationOpEqual, Value: "user", Effect: corev1.TaintEffectNoSchedule}}, pod.Spec.Tolerations...)
		b.place(pod, b.node(poolUser, k%9), 0, created.Add(44*time.Second))
	}
}

// daskPods adds the Dask Gateway cluster of the first user: its scheduler on a user node, and
// 100 workers that each need a dask node of their own; the 11 idle dask nodes took the first
// 11, the other 89 wait for the nodes of the scale-up.
func (b *il70Builder) daskPods() {
	b.dask = hexString(keyRand(il70, saltIL70+6, "daskcluster"), 32)
	owner := metav1.OwnerReference{APIVersion: "gateway.dask.org/v1alpha1", Kind: "DaskCluster", Name: b.dask, UID: il70UID("daskcluster/prod/" + b.dask),
		Controller: ptr(true), BlockOwnerDeletion: ptr(true)}
	labels := func(component string) map[string]string {
		return map[string]string{"app.kubernetes.io/component": component, "app.kubernetes.io/name": "dask-gateway", "app.kubernetes.io/version": "2022.11.0",
			"gateway.dask.org/cluster": b.dask, "gateway.dask.org/instance": "prod-dask-gateway"}
	}
	dask := func(p il70Pod, purpose, taint string) corev1.Pod {
		pod := p.build()
		pod.Annotations = map[string]string{"gateway.dask.org/cluster-name": "prod." + b.dask}
		pod.Spec.RestartPolicy, pod.Spec.ServiceAccountName = corev1.RestartPolicyNever, "user-sa"
		pod.Spec.NodeSelector = map[string]string{"k8s.dask.org/node-purpose": purpose}
		key, value, _ := strings.Cut(taint, "=")
		pod.Spec.Tolerations = append([]corev1.Toleration{{Key: key, Operator: corev1.TolerationOpEqual, Value: value, Effect: corev1.TaintEffectNoSchedule}}, pod.Spec.Tolerations...)
		return pod
	}
	image := "pangeo/pangeo-notebook:2023.01.13"
	sched := dask(il70Pod{ns: "prod", name: "dask-scheduler-" + b.dask, owner: owner, labels: labels("dask-scheduler"), created: il70At(16, 58, 58),
		ctrs: []il70Ctr{{name: "dask-scheduler", image: image, cpu: 1000, cpuLim: 1000, mem: 4 << 10, memLim: 4 << 10, port: 8786, portName: "tcp-comm"}}},
		"scheduler", "hub.jupyter.org_dedicated=user")
	b.place(sched, b.node(poolUser, 0), 0, il70At(16, 59, 3))
	for k := range 100 {
		created := il70At(17, 0, 30).Add(time.Duration(k) * 30 * time.Millisecond)
		p := il70Pod{ns: "prod", name: "dask-worker-" + b.dask + "-" + uniqueSuffix(uint64(k), il70.Seed, alphaHex, 5), owner: owner,
			labels: labels("dask-worker"), created: created,
			ctrs: []il70Ctr{{name: "dask-worker", image: image, cpu: 1000, cpuLim: 1000, mem: 7 << 10, memLim: 7 << 10}}}
		b.workers = append(b.workers, p.name)
		pod := dask(p, "worker", "k8s.dask.org_dedicated=worker")
		if k < 11 {
			b.place(pod, b.node(poolDask, k), 0, il70At(17, 0, 34))
			continue
		}
		pod.Status = corev1.PodStatus{Phase: corev1.PodPending, QOSClass: qosClass(pod.Spec.Containers),
			Conditions: []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, LastTransitionTime: mtime(il70At(17, 0, 31)),
				Reason: corev1.PodReasonUnschedulable, Message: IL0070FailedScheduling}}}
		b.pods = append(b.pods, pod)
	}
}

// il70PodRef refers to a pod of the snapshot, by name; field is a container's path or "".
func il70PodRef(ns, name, field string) corev1.ObjectReference {
	key := "pod/" + ns + "/" + name
	return corev1.ObjectReference{Kind: "Pod", Namespace: ns, Name: name, UID: il70UID(key), APIVersion: "v1", ResourceVersion: il70Version(key), FieldPath: field}
}

// event adds a v1 Event as client-go's recorder writes it: count, first and last timestamps.
// component is who reports it, and host, for the kubelet, the node it reports from.
func (b *il70Builder) event(about corev1.ObjectReference, warning bool, reason, msg, component, host string, first time.Time, count int32, last time.Time) *corev1.Event {
	ev := corev1.Event{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Event"}, InvolvedObject: about, Reason: reason, Message: msg,
		Source: corev1.EventSource{Component: component, Host: host}, FirstTimestamp: mtime(first), LastTimestamp: mtime(last), Count: count,
		Type: corev1.EventTypeNormal, ReportingController: component, ReportingInstance: host}
	if warning {
		ev.Type = corev1.EventTypeWarning
	}
	key := fmt.Sprint(about.Name, reason, first.Unix())
	ns := cmp.Or(about.Namespace, "default")
	name := fmt.Sprintf("%s.%x", about.Name, first.UnixNano()+int64(il70Key(key)%1e9))
	ev.ObjectMeta = metav1.ObjectMeta{Name: name, Namespace: ns, UID: il70UID("event/" + ns + "/" + name),
		ResourceVersion: il70Version("event/" + ns + "/" + name), CreationTimestamp: mtime(first)}
	b.events = append(b.events, ev)
	return &b.events[len(b.events)-1]
}

// schedulerEvent adds an event of the scheduler, which writes through events.k8s.io/v1: as a v1
// Event it has an eventTime and, when repeated, a series, but no count or timestamps.
func (b *il70Builder) schedulerEvent(about corev1.ObjectReference, warning bool, reason, action, msg string, at time.Time, count int32, last time.Time) {
	at = at.Add(time.Duration(il70Key(about.Name+reason)%1e6) * time.Microsecond)
	ev := b.event(about, warning, reason, msg, "default-scheduler", "", at, 0, at)
	ev.FirstTimestamp, ev.LastTimestamp, ev.CreationTimestamp = metav1.Time{}, metav1.Time{}, mtime(at)
	ev.EventTime, ev.Action = metav1.NewMicroTime(at), action
	ev.ReportingInstance = "default-scheduler-gke-leap-cluster-master"
	if count > 1 {
		ev.Series = &corev1.EventSeries{Count: count, LastObservedTime: metav1.NewMicroTime(last.Add(time.Duration(il70Key(msg)%1e6) * time.Microsecond))}
	}
}

// kubelet adds an event of the kubelet of node about a container of a pod.
func (b *il70Builder) kubelet(ns, pod, ctr, node string, warning bool, reason, msg string, first time.Time, count int32, last time.Time) *corev1.Event {
	return b.event(il70PodRef(ns, pod, "spec.containers{"+ctr+"}"), warning, reason, msg, "kubelet", node, first, count, last)
}

// nodeEvents adds the events of the scale-up: the dask cluster coming up, the scheduler giving
// up on workers, cluster-autoscaler growing the dask pool from 13 to 113, and the new nodes
// registering, most of them not ready.
func (b *il70Builder) nodeEvents() {
	sched := "dask-scheduler-" + b.dask
	user0 := b.node(poolUser, 0).name
	image := "pangeo/pangeo-notebook:2023.01.13"
	b.schedulerEvent(il70PodRef("prod", sched, ""), false, "Scheduled", "Binding", fmt.Sprintf("Successfully assigned prod/%s to %s", sched, user0), il70At(16, 59, 0), 1, time.Time{})
	b.kubelet("prod", sched, "dask-scheduler", user0, false, "Pulled", fmt.Sprintf("Container image %q already present on machine", image), il70At(16, 59, 2), 1, il70At(16, 59, 2))
	b.kubelet("prod", sched, "dask-scheduler", user0, false, "Created", "Created container dask-scheduler", il70At(16, 59, 2), 1, il70At(16, 59, 2))
	b.kubelet("prod", sched, "dask-scheduler", user0, false, "Started", "Started container dask-scheduler", il70At(16, 59, 3), 1, il70At(16, 59, 3))
	for k, w := range b.workers[:11] {
		b.schedulerEvent(il70PodRef("prod", w, ""), false, "Scheduled", "Binding",
			fmt.Sprintf("Successfully assigned prod/%s to %s", w, b.node(poolDask, k).name), il70At(17, 0, 31), 1, time.Time{})
	}
	// Before the scale-up the scheduler saw the 24 nodes there were; this message was replaced
	// by the incident's once the new nodes registered.
	early := "0/24 nodes are available: 11 Insufficient cpu, 11 Insufficient memory, 4 node(s) didn't match Pod's node affinity/selector, 9 node(s) had untolerated taint {hub.jupyter.org_dedicated: user}."
	for _, k := range []int{11, 12} {
		b.schedulerEvent(il70PodRef("prod", b.workers[k], ""), true, "FailedScheduling", "Scheduling", early, il70At(17, 0, 31), 2, il70At(17, 0, 41))
	}
	for k := 11; k < 17; k++ {
		b.event(il70PodRef("prod", b.workers[k], ""), false, "TriggeredScaleUp", "pod triggered scale-up: [{"+il70DaskGroup+" 13->113 (max: 200)}]",
			"cluster-autoscaler", "", il70At(17, 0, 42+k/4), 1, il70At(17, 0, 42+k/4))
	}
	for i, k := range []int{11, 13, 20, 35, 50, 65, 80, 95} {
		count := []int32{23, 9, 1, 6, 1, 4, 1, 2}[i]
		b.schedulerEvent(il70PodRef("prod", b.workers[k], ""), true, "FailedScheduling", "Scheduling", IL0070FailedScheduling,
			il70At(17, 2, 5+i), count, il70At(17, 7, 0).Add(-time.Duration(i*7)*time.Second))
	}
	for k, n := range b.nodes[24:] {
		if k%25 != 3 && k != 0 && k != 51 { // a few of each: 4 not ready, 2 without a route
			continue
		}
		b.event(corev1.ObjectReference{Kind: "Node", Name: n.name, UID: il70UID("node/" + n.name), APIVersion: "v1"}, false, "RegisteredNode",
			fmt.Sprintf("Node %s event: Registered Node %s in Controller", n.name, n.name), "node-controller", "", n.created.Add(4*time.Second), 1, n.created.Add(4*time.Second))
		status := "NodeNotReady"
		if n.state == il70NoRoute {
			status = "NodeReady"
		}
		at := n.created.Add(10 * time.Second)
		if status == "NodeReady" {
			at = n.created.Add(24 * time.Second)
		}
		b.event(corev1.ObjectReference{Kind: "Node", Name: n.name, UID: types.UID(n.name)}, false, status,
			fmt.Sprintf("Node %s status is now: %s", n.name, status), "kubelet", n.name, at, 1, at)
	}
}

// eviction makes the evicted variant: the core node shared with Prometheus comes under memory
// pressure at 17:05:40, the kubelet evicts the hub at 17:06:00, and the ReplicaSet's new hub
// runs on the second core node from 17:06:30.
func (b *il70Builder) eviction() {
	core1, core2 := b.node(poolCore, 0), b.node(poolCore, 1)
	old := &b.pods[b.hubAt]
	at := mtime(il70At(17, 6, 0))
	msg := "The node was low on resource: memory. Threshold quantity: 100Mi, available: 92412Ki. Container hub was using 1043212Ki, request is 512Mi, has larger consumption of memory. "
	old.Status.Phase, old.Status.Reason, old.Status.Message = corev1.PodFailed, "Evicted", msg
	for k := range old.Status.Conditions {
		if c := &old.Status.Conditions[k]; c.Type == corev1.PodReady || c.Type == corev1.ContainersReady {
			c.Status, c.Reason, c.LastTransitionTime = corev1.ConditionFalse, "PodFailed", at
		}
	}
	old.Status.Conditions = append([]corev1.PodCondition{{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue, LastTransitionTime: at,
		Reason: "TerminationByKubelet", Message: msg}}, old.Status.Conditions...)
	cs := &old.Status.ContainerStatuses[0]
	cs.Ready, cs.Started = false, ptr(false)
	cs.State = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 137, Reason: "ContainerStatusUnknown",
		Message: "The container could not be located when the pod was terminated", StartedAt: cs.State.Running.StartedAt, FinishedAt: at}}

	nodeRef := corev1.ObjectReference{Kind: "Node", Name: core1.name, UID: types.UID(core1.name)}
	b.event(nodeRef, false, "NodeHasInsufficientMemory", fmt.Sprintf("Node %s status is now: NodeHasInsufficientMemory", core1.name),
		"kubelet", core1.name, il70At(17, 5, 40), 1, il70At(17, 5, 40))
	b.event(nodeRef, true, "EvictionThresholdMet", "Attempting to reclaim memory", "kubelet", core1.name, il70At(17, 5, 50), 2, il70At(17, 6, 0))
	ev := b.event(il70PodRef("prod", b.hub, ""), true, "Evicted", msg, "kubelet", core1.name, il70At(17, 6, 0), 1, il70At(17, 6, 0))
	ev.Annotations = map[string]string{"offending_containers": "hub", "offending_containers_usage": "1043212Ki", "starved_resource": "memory"}
	b.kubelet("prod", b.hub, "hub", core1.name, false, "Killing", "Stopping container hub", il70At(17, 6, 0), 1, il70At(17, 6, 0))

	pod := b.hubPod(il70At(17, 6, 1))
	b.place(pod, core2, 0, il70At(17, 6, 30))
	rs := pod.OwnerReferences[0]
	b.event(corev1.ObjectReference{Kind: "ReplicaSet", Namespace: "prod", Name: rs.Name, UID: rs.UID, APIVersion: "apps/v1", ResourceVersion: il70Version("rs/" + rs.Name)},
		false, "SuccessfulCreate", "Created pod: "+pod.Name, "replicaset-controller", "", il70At(17, 6, 1), 1, il70At(17, 6, 1))
	b.schedulerEvent(il70PodRef("prod", pod.Name, ""), false, "Scheduled", "Binding", fmt.Sprintf("Successfully assigned prod/%s to %s", pod.Name, core2.name), il70At(17, 6, 1), 1, time.Time{})
	image := pod.Spec.Containers[0].Image
	b.kubelet("prod", pod.Name, "hub", core2.name, false, "Pulling", fmt.Sprintf("Pulling image %q", image), il70At(17, 6, 3), 1, il70At(17, 6, 3))
	b.kubelet("prod", pod.Name, "hub", core2.name, false, "Pulled", fmt.Sprintf("Successfully pulled image %q in 25.213718455s", image), il70At(17, 6, 28), 1, il70At(17, 6, 28))
	b.kubelet("prod", pod.Name, "hub", core2.name, false, "Created", "Created container hub", il70At(17, 6, 30), 1, il70At(17, 6, 30))
	b.kubelet("prod", pod.Name, "hub", core2.name, false, "Started", "Started container hub", il70At(17, 6, 30), 1, il70At(17, 6, 30))
}

// livenessRestart makes the liveness variant: the hub, starved of CPU, stops answering its
// health check at 17:01:20; after 30 failures the kubelet kills it and starts it again.
func (b *il70Builder) livenessRestart() {
	core1 := b.node(poolCore, 0)
	hub := &b.pods[b.hubAt]
	cs := &hub.Status.ContainerStatuses[0]
	cs.RestartCount = 1
	cs.LastTerminationState.Terminated = &corev1.ContainerStateTerminated{ExitCode: 137, Reason: "Error", StartedAt: cs.State.Running.StartedAt,
		FinishedAt: mtime(il70At(17, 6, 20)), ContainerID: cs.ContainerID}
	cs.ContainerID = "containerd://" + hexString(keyRand(il70, saltIL70+4, b.hub+"/hub/1"), 64)
	cs.State.Running.StartedAt = mtime(il70At(17, 6, 21))
	for k := range hub.Status.Conditions {
		if c := &hub.Status.Conditions[k]; c.Type == corev1.PodReady || c.Type == corev1.ContainersReady {
			c.LastTransitionTime = mtime(il70At(17, 6, 22))
		}
	}
	b.kubelet("prod", b.hub, "hub", core1.name, true, "Unhealthy",
		`Liveness probe failed: Get "http://`+il70Hub+`:8081/hub/health": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
		il70At(17, 1, 20), 30, il70At(17, 6, 10))
	b.kubelet("prod", b.hub, "hub", core1.name, false, "Killing", "Container hub failed liveness probe, will be restarted", il70At(17, 6, 10), 1, il70At(17, 6, 10))
	image := hub.Spec.Containers[0].Image
	b.kubelet("prod", b.hub, "hub", core1.name, false, "Pulled", fmt.Sprintf("Container image %q already present on machine", image), il70At(17, 6, 21), 1, il70At(17, 6, 21))
	b.kubelet("prod", b.hub, "hub", core1.name, false, "Created", "Created container hub", il70At(17, 6, 21), 1, il70At(17, 6, 21))
	b.kubelet("prod", b.hub, "hub", core1.name, false, "Started", "Started container hub", il70At(17, 6, 21), 1, il70At(17, 6, 21))
}
