package synth

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Event returns the i-th generated event, the same object WriteEventList writes as item i.
// Its firstTimestamp is o.Start plus 2s for each event before it (and up to a second more), so
// events start in order. It is about a generated pod, with a reason that fits what happened to
// the pod, or about a generated node.
func Event(o Options, i int) *corev1.Event {
	o = o.norm()
	r := newRand(o, saltEvent, i)
	first := o.Start.Add(time.Duration(i)*eventSpacing + time.Duration(r.IntN(2))*time.Second)
	ev := &corev1.Event{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Event"}, Type: corev1.EventTypeNormal, Count: 1}
	if o.Pods > 0 && chance(r, 0.85) {
		podEvent(o, r, ev)
	} else {
		nodeEvent(o, r, ev)
	}
	if (ev.Reason == "FailedScheduling" || ev.Reason == "BackOff" || ev.Reason == "Unhealthy") && chance(r, 0.6) {
		ev.Count = int32(between(r, 2, 30)) // repeated events are counted, not duplicated
	}
	last := first.Add(time.Duration(ev.Count-1) * time.Duration(between(r, 10, 60)) * time.Second)
	ev.FirstTimestamp, ev.LastTimestamp = mtime(first), mtime(last)
	ev.ObjectMeta = metav1.ObjectMeta{Name: fmt.Sprintf("%s.%x", ev.InvolvedObject.Name, first.UnixNano()+r.Int64N(1e9)),
		Namespace: ev.InvolvedObject.Namespace, UID: types.UID(newUID(r)), ResourceVersion: resourceVersion(r),
		CreationTimestamp: ev.FirstTimestamp, Annotations: ev.Annotations}
	if ev.Namespace == "" {
		ev.Namespace = "default"
	}
	return ev
}

// podEvent fills ev with an event about a random pod, drawn from the events its state produces.
func podEvent(o Options, r *rand.Rand, ev *corev1.Event) {
	k := r.IntN(o.Pods)
	id := podIdent(o, k)
	sched, evict, usage := podDetail(o, id, k)
	ev.InvolvedObject = corev1.ObjectReference{Kind: "Pod", Namespace: id.w.ns, Name: id.name, UID: types.UID(id.uid),
		APIVersion: "v1", ResourceVersion: resourceVersion(r)}
	controller := func(component, reason, msg string) {
		ev.Reason, ev.Message, ev.Source, ev.ReportingController = reason, msg, corev1.EventSource{Component: component}, component
	}
	kubelet := func(warning bool, reason, msg string) {
		ev.Reason, ev.Message, ev.Source = reason, msg, corev1.EventSource{Component: "kubelet", Host: id.node.name}
		ev.ReportingController, ev.ReportingInstance = "kubelet", id.node.name
		ev.InvolvedObject.FieldPath = "spec.containers{" + id.container + "}"
		if warning {
			ev.Type = corev1.EventTypeWarning
		}
	}
	switch x := r.Float64(); {
	case id.state == stUnschedulable && x < 0.5:
		controller("default-scheduler", "FailedScheduling", sched)
		ev.Type = corev1.EventTypeWarning
	case id.state == stUnschedulable:
		pool, zone, from := [...]string{poolUser, poolDask, poolCore, poolCore}[id.kind], zoneOf(r.IntN(30)), between(r, 0, 60)
		controller("cluster-autoscaler", "TriggeredScaleUp", fmt.Sprintf("pod triggered scale-up: [{https://www.googleapis.com/compute/v1/projects/leap/zones/%s/instanceGroups/gke-leap-%s-%s-grp %d->%d (max: 200)}]",
			zone, pool, groupHash(o, pool, zone), from, from+between(r, 1, 140)))
	case id.state == stEvicted && x < 0.7:
		kubelet(true, "Evicted", evict)
		ev.InvolvedObject.FieldPath = ""
		ev.Annotations = map[string]string{"offending_containers": id.container, "offending_containers_usage": usage, "starved_resource": "memory"}
	case id.state == stEvicted:
		kubelet(false, "Killing", "Stopping container "+id.container)
	case id.state == stCrashLoop && x < 0.6:
		kubelet(true, "BackOff", fmt.Sprintf("Back-off restarting failed container %s in pod %s_%s(%s)", id.container, id.name, id.w.ns, id.uid))
	case id.w.probe != "" && id.ip != "" && x < 0.3:
		kubelet(true, "Unhealthy", fmt.Sprintf("Liveness probe failed: Get \"http://%s:%d%s\": context deadline exceeded", id.ip, id.w.port, id.w.probe))
	case id.state == stCreating || x < 0.25:
		controller("default-scheduler", "Scheduled", fmt.Sprintf("Successfully assigned %s/%s to %s", id.w.ns, id.name, id.node.name))
	case x < 0.45:
		kubelet(false, "Pulled", fmt.Sprintf("Container image %q already present on machine", id.image))
	case x < 0.65:
		kubelet(false, "Created", "Created container "+id.container)
	case x < 0.85 || id.state == stOOMKilled:
		kubelet(false, "Started", "Started container "+id.container)
	default:
		kubelet(false, "Killing", "Stopping container "+id.container)
	}
}

// nodeEvent fills ev with an event about a random node: the node controller noticing it is not
// ready, or its kubelet running short of memory. Like the real kubelet, which does not know its
// node's UID, the kubelet's events use the node's name as its UID.
func nodeEvent(o Options, r *rand.Rand, ev *corev1.Event) {
	id := nodeIdent(o, r.IntN(o.Nodes))
	ev.InvolvedObject = corev1.ObjectReference{Kind: "Node", Name: id.name, UID: types.UID(id.uid), APIVersion: "v1"}
	if id.memPressure || (!id.notReady && chance(r, 0.5)) {
		ev.Reason, ev.Message = "NodeHasInsufficientMemory", "Node "+id.name+" status is now: NodeHasInsufficientMemory"
		ev.Source = corev1.EventSource{Component: "kubelet", Host: id.name}
		ev.ReportingController, ev.ReportingInstance, ev.InvolvedObject.UID = "kubelet", id.name, types.UID(id.name)
		return
	}
	ev.Reason, ev.Message = "NodeNotReady", "Node "+id.name+" status is now: NodeNotReady"
	ev.Source, ev.ReportingController = corev1.EventSource{Component: "node-controller"}, "node-controller"
}

// The rest of this file is the identity of pods: what events say about a pod, and what
// pods.go builds a whole pod on.

// podDetail returns the messages of pod i that its events repeat: why it cannot be scheduled
// and why it was evicted, with the memory its main container used (like "1900004Ki").
func podDetail(o Options, id podID, i int) (sched, evict, usage string) {
	r := newRand(o, saltPodDetail, i)
	n := o.Nodes
	tainted := r.IntN(n)
	short := n - tainted - r.IntN((n-tainted)/4+1)
	sched = fmt.Sprintf("0/%d nodes are available: %d Insufficient %s", n, short, pick(r, "cpu", "memory"))
	if tainted > 0 {
		sched += fmt.Sprintf(", %d node(s) had untolerated taint {node.kubernetes.io/not-ready: }", tainted)
	}
	usage = fmt.Sprintf("%dKi", id.memReq/1024+int64(between(r, 100000, 4000000)))
	evict = fmt.Sprintf("The node was low on resource: memory. Threshold quantity: 100Mi, available: %dKi. Container %s was using %s, request is %d, has larger consumption of memory. ",
		between(r, 60000, 102000), id.container, usage, id.memReq)
	return sched + ".", evict, usage
}

// podKind is the workload a pod belongs to.
type podKind int

// Kinds of pods: user notebooks, Dask workers, DaemonSet pods and the Deployments and
// StatefulSets of JupyterHub, Dask Gateway, monitoring and GKE.
const (
	kindNotebook podKind = iota
	kindDask
	kindDaemon
	kindService
)

// podState is what happened to a pod, which shapes its status and its events.
type podState int

// States of pods, from healthy to evicted.
const (
	stRunning podState = iota
	stOOMKilled
	stCrashLoop
	stUnschedulable
	stCreating
	stEvicted
)

// workload describes the controller of a pod and its containers, given as "name=image,...".
type workload struct {
	ns, name, owner, containers string
	port                        int32
	probe, class                string
}

// podID is the identity of a pod, cheap to compute without the whole pod: what its events refer
// to, and what its spec and status are built on.
type podID struct {
	kind                           podKind
	state                          podState
	w                              workload
	name, uid, user, ip, group     string
	container, image               string // the main container
	cpuReq, cpuLim, memReq, memLim int64  // of the main container, in millicores and bytes
	node                           nodeID
	scheduled                      bool
	created                        time.Time
}

// kindCycle deals the kinds of pods over 50 slots: 15 notebooks (n), 26 Dask workers (d),
// 6 DaemonSet pods (a) and 3 pods of Deployments and StatefulSets (s).
const kindCycle = "dndndsddnnannddadddasdsdndndndndanndddnanddnddaddd"

// podKindOf returns the kind of pod i and its rank among the pods of that kind, dense from 0.
// Within o.Pods, an affine bijection shuffles the indices so that kinds do not repeat every 50.
func podKindOf(o Options, i int) (podKind, uint64) {
	q, n := uint64(i), uint64(o.Pods)
	if q < n && n%1000003 != 0 {
		q = (q*1000003 + uint64(o.Seed)%n) % n
	}
	c := string(kindCycle[q%50])
	rank := q/50*uint64(strings.Count(kindCycle, c)) + uint64(strings.Count(kindCycle[:q%50], c))
	return podKind(strings.Index("ndas", c)), rank
}

// podIdent returns the identity of pod i: its workload, name, node and fate.
func podIdent(o Options, i int) podID {
	r := newRand(o, saltPodID, i)
	var id podID
	var rank uint64
	id.kind, rank = podKindOf(o, i)
	ns := pick(r, "prod", "prod", "prod", "staging")
	switch id.kind {
	case kindDask:
		g := newRand(o, saltGroup, 1<<20+i/40) // the workers among 40 consecutive pods share a Dask cluster
		id.group = hexString(g, 32)
		id.w = workload{pick(g, "prod", "prod", "staging"), id.group, "DaskCluster", "dask-worker=pangeo/pangeo-notebook:2023.01.13", 8787, "", ""}
		id.name = "dask-worker-" + id.group + "-" + uniqueSuffix(uint64(i), o.Seed, alphaHex, 5)
		id.cpuReq = int64(pick(r, 1, 2, 4)) * 1000
		id.cpuLim, id.memReq = id.cpuReq, id.cpuReq/1000*int64(pick(r, 4, 5))<<30
		id.memLim = id.memReq
	case kindNotebook:
		id.user = string(rune('a'+r.IntN(26))) + pick(r, "smith", "nguyen", "garcia", "chen", "okafor", "muller", "rossi", "tanaka", "busecke", "abernathey") + fmt.Sprint(i)
		id.w = workload{ns, "jupyter-" + id.user, "", "notebook=pangeo/pangeo-notebook:2023.01.13", 8888, "", ns + "-default-priority"}
		id.name = id.w.name
		p := r.IntN(4)
		id.cpuReq, id.cpuLim = [...]int64{10, 500, 1000, 3000}[p], [...]int64{1000, 1000, 2000, 4000}[p]
		id.memReq, id.memLim = [...]int64{128 << 20, 471859200, 4 << 30, 15 << 30}[p], [...]int64{1 << 30, 2 << 30, 8 << 30, 20 << 30}[p]
	case kindDaemon: // each node runs one pod of each DaemonSet, as long as ranks allow
		id.w = [...]workload{
			{"kube-system", "fluentbit-gke", "DaemonSet", "fluentbit=gke.gcr.io/fluent-bit:v1.8.12-gke.25,fluentbit-gke=gke.gcr.io/fluent-bit-gke-exporter:v0.19.0-gke.1", 2020, "/", "system-node-critical"},
			{"kube-system", "gke-metrics-agent", "DaemonSet", "gke-metrics-agent=gke.gcr.io/gke-metrics-agent:1.8.3-gke.0,core-metrics-exporter=gke.gcr.io/gke-metrics-collector:20221110_2300_RC0", 8200, "", "system-node-critical"},
			{"kube-system", "pdcsi-node", "DaemonSet", "csi-driver-registrar=gke.gcr.io/csi-node-driver-registrar:v2.5.1-gke.0,gce-pd-driver=gke.gcr.io/gcp-compute-persistent-disk-csi-driver:v1.7.1-gke.0", 0, "", "system-node-critical"},
			{"kube-system", "calico-node", "DaemonSet", "calico-node=gke.gcr.io/calico/node:v3.23.3-gke.1", 9099, "/liveness", "system-node-critical"},
			{"support", "support-prometheus-node-exporter", "DaemonSet", "node-exporter=quay.io/prometheus/node-exporter:v1.4.0", 9100, "/", ""},
		}[rank/uint64(o.Nodes)%5]
		id.name = id.w.name + "-" + uniqueSuffix(uint64(i), o.Seed, alphaK8s, 5)
	default:
		id.w = pick(r,
			workload{ns, "hub", "ReplicaSet", "hub=quay.io/jupyterhub/k8s-hub:2.0.0", 8081, "/hub/health", ""},
			workload{ns, "proxy", "ReplicaSet", "chp=quay.io/jupyterhub/configurable-http-proxy:4.5.3", 8000, "/_chp_healthz", ""},
			workload{ns, "user-scheduler", "ReplicaSet", "kube-scheduler=k8s.gcr.io/kube-scheduler:v1.23.14", 10251, "/healthz", ""},
			workload{ns, "api-" + ns + "-dask-gateway", "ReplicaSet", "api=ghcr.io/dask/dask-gateway-server:2022.11.0", 8000, "/api/health", ""},
			workload{"support", "support-prometheus-server", "ReplicaSet", "prometheus-server-configmap-reload=jimmidyson/configmap-reload:v0.5.0,prometheus-server=quay.io/prometheus/prometheus:v2.39.1", 9090, "/-/ready", ""},
			workload{"support", "support-grafana", "ReplicaSet", "grafana=grafana/grafana:9.2.4", 3000, "/api/health", ""},
			workload{"support", "support-prometheus-alertmanager", "StatefulSet", "prometheus-alertmanager=quay.io/prometheus/alertmanager:v0.24.0", 9093, "/-/ready", ""},
			workload{"kube-system", "kube-dns", "ReplicaSet", "kubedns=gke.gcr.io/k8s-dns-kube-dns:1.22.12-gke.0,dnsmasq=gke.gcr.io/k8s-dns-dnsmasq-nanny:1.22.12-gke.0,sidecar=gke.gcr.io/k8s-dns-sidecar:1.22.12-gke.0", 10054, "/healthcheck/kubedns", "system-cluster-critical"},
			workload{"kube-system", "konnectivity-agent", "ReplicaSet", "konnectivity-agent=gke.gcr.io/proxy-agent:v0.0.33-gke.0", 8093, "/healthz", "system-cluster-critical"})
		id.group = nameHash(o, id.w.ns+"/"+id.w.name, 9) // the ReplicaSet's pod-template-hash
		id.name = id.w.name + "-" + id.group + "-" + uniqueSuffix(uint64(i), o.Seed, alphaK8s, 5)
		if id.w.owner == "StatefulSet" {
			id.name = fmt.Sprint(id.w.name, "-", i)
		}
	}
	if id.kind >= kindDaemon {
		id.cpuReq, id.memReq = int64(between(r, 1, 25))*10, int64(between(r, 1, 16))*32<<20
		id.memLim = id.memReq * 2
	}
	id.container, id.image, _ = strings.Cut(strings.Split(id.w.containers, ",")[0], "=")
	id.uid = newUID(r)
	// Percentages of running, OOM-killed, crash-looping, unschedulable, creating and evicted pods:
	// the incident is a Dask scale-up onto nodes that are not ready yet.
	weights := [...][6]int{{70, 10, 3, 8, 3, 6}, {56, 8, 2, 24, 6, 4}, {95, 0, 3, 0, 2, 0}, {90, 2, 4, 4, 0, 0}}[id.kind]
	for x := r.IntN(100); x >= weights[id.state]; id.state++ {
		x -= weights[id.state]
	}
	j, host := placePod(o, id.kind, rank)
	if id.node = nodeIdent(o, j); id.node.notReady && id.kind == kindDaemon {
		id.state = stCreating
	} else if id.node.notReady { // the scheduler waits for the node to be ready
		id.state = stUnschedulable
	}
	id.scheduled = id.state != stUnschedulable
	switch {
	case !id.scheduled || id.state == stCreating:
	case id.kind == kindDaemon: // on the host network
		id.ip = id.node.ip
	default:
		id.ip = id.node.cidr + fmt.Sprint(host)
	}
	age := between(r, 60, 8*3600)
	if id.state == stUnschedulable || id.state == stCreating {
		age = between(r, 10, 900)
	}
	id.created = o.Start.Add(-time.Duration(age) * time.Second)
	if id.kind == kindDaemon { // DaemonSet pods start with their node
		id.created = id.node.created.Add(time.Duration(between(r, 5, 90)) * time.Second)
	}
	return id
}
