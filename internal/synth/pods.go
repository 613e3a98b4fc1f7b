package synth

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Pod returns the i-th generated pod, the same object WritePodList writes as item i.
func Pod(o Options, i int) *corev1.Pod {
	o = o.norm()
	id := podIdent(o, i)
	r := newRand(o, saltPodBody, i)
	sched, evict, _ := podDetail(o, id, i)
	labels := map[string]string{"app": id.w.name}
	var owners []metav1.OwnerReference
	owner := metav1.OwnerReference{APIVersion: "apps/v1", Kind: id.w.owner, Name: id.w.name, Controller: ptr(true), BlockOwnerDeletion: ptr(true)}
	generateName := ""
	switch id.kind {
	case kindNotebook:
		labels = map[string]string{"app": "jupyterhub", "chart": "jupyterhub-2.0.0", "component": "singleuser-server", "heritage": "jupyterhub",
			"hub.jupyter.org/network-access-hub": "true", "hub.jupyter.org/username": id.user, "release": id.w.ns}
	case kindDask:
		labels = map[string]string{"app.kubernetes.io/component": "dask-worker", "app.kubernetes.io/name": "dask-gateway",
			"gateway.dask.org/cluster": id.group, "gateway.dask.org/instance": id.w.ns + "-dask-gateway"}
		owner.APIVersion, owner.Name = "gateway.dask.org/v1alpha1", id.group
	case kindDaemon:
		labels["controller-revision-hash"], labels["pod-template-generation"] = nameHash(o, id.w.ns+"/"+id.w.name, 10), "3"
		generateName = id.w.name + "-"
	case kindService:
		if id.w.owner == "StatefulSet" {
			labels["controller-revision-hash"] = id.w.name + "-" + nameHash(o, id.w.ns+"/"+id.w.name, 10)
			labels["statefulset.kubernetes.io/pod-name"], generateName = id.name, id.w.name+"-"
			break
		}
		labels["pod-template-hash"] = id.group
		owner.Name = id.w.name + "-" + id.group
		generateName = owner.Name + "-"
	}
	if owner.Kind != "" {
		owner.UID = ownerUID(o, id.w.ns+"/"+owner.Name)
		owners = []metav1.OwnerReference{owner}
	}
	pod := &corev1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{Name: id.name, GenerateName: generateName, Namespace: id.w.ns, UID: types.UID(id.uid),
			ResourceVersion: resourceVersion(r), CreationTimestamp: mtime(id.created), Labels: labels, OwnerReferences: owners},
		Spec: podSpec(r, id),
	}
	pod.Status = podStatus(o, r, id, pod.Spec.Containers, sched, evict)
	return pod
}

// podSpec returns the spec of a pod: its containers with resources, environment, ports and
// probes, the tolerations of its node pool, and its node when it was scheduled.
func podSpec(r *rand.Rand, id podID) corev1.PodSpec {
	spec := corev1.PodSpec{RestartPolicy: corev1.RestartPolicyAlways, TerminationGracePeriodSeconds: ptr(int64(30)),
		DNSPolicy: corev1.DNSClusterFirst, ServiceAccountName: "default", SchedulerName: "default-scheduler",
		Priority: ptr(int32(0)), PriorityClassName: id.w.class}
	switch id.w.class {
	case "system-node-critical":
		spec.Priority = ptr(int32(2000001000))
	case "system-cluster-critical":
		spec.Priority = ptr(int32(2000000000))
	}
	if id.scheduled {
		spec.NodeName = id.node.name
	}
	taint := [...]string{"hub.jupyter.org_dedicated=user", "k8s.dask.org_dedicated=worker", "", ""}[id.kind]
	if key, value, ok := strings.Cut(taint, "="); ok {
		spec.SchedulerName = id.w.ns + "-user-scheduler"
		spec.Tolerations = append(spec.Tolerations, corev1.Toleration{Key: key, Operator: corev1.TolerationOpEqual, Value: value, Effect: corev1.TaintEffectNoSchedule})
	}
	if id.kind >= kindDaemon {
		spec.ServiceAccountName = id.w.name
	}
	if id.kind == kindDaemon {
		spec.HostNetwork = true
		spec.Tolerations = append(spec.Tolerations, corev1.Toleration{Operator: corev1.TolerationOpExists})
	}
	for k, nameImage := range strings.Split(id.w.containers, ",") {
		name, image, _ := strings.Cut(nameImage, "=")
		c := corev1.Container{Name: name, Image: image, ImagePullPolicy: corev1.PullIfNotPresent,
			Resources: resources(id.cpuReq, id.cpuLim, id.memReq, id.memLim)}
		if k > 0 {
			c.Resources = resources(int64(between(r, 1, 10))*5, 0, int64(between(r, 1, 8))<<24, 0)
			spec.Containers = append(spec.Containers, c)
			continue
		}
		c.Env = podEnv(r, id)
		if id.w.port > 0 && id.kind != kindDask { // Dask Gateway declares no ports on workers
			portName := [...]string{"notebook-port", "", "http", "http"}[id.kind]
			c.Ports = []corev1.ContainerPort{{Name: portName, ContainerPort: id.w.port, Protocol: corev1.ProtocolTCP}}
		}
		if id.w.probe != "" {
			c.LivenessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: id.w.probe,
				Port: intstr.FromInt32(id.w.port), Scheme: corev1.URISchemeHTTP}}, InitialDelaySeconds: 10, TimeoutSeconds: 3,
				PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3}
			if chance(r, 0.5) {
				c.ReadinessProbe = ptr(*c.LivenessProbe)
				c.ReadinessProbe.InitialDelaySeconds = 0
			}
		}
		if id.kind == kindNotebook {
			spec.RestartPolicy, spec.SecurityContext = corev1.RestartPolicyOnFailure, &corev1.PodSecurityContext{FSGroup: ptr(int64(100))}
			c.VolumeMounts = []corev1.VolumeMount{{Name: "home", MountPath: "/home/jovyan", SubPath: id.user}}
			spec.Volumes = []corev1.Volume{{Name: "home", VolumeSource: corev1.VolumeSource{NFS: &corev1.NFSVolumeSource{Server: "10.21.0.2", Path: "/homes/" + id.w.ns + "/"}}}}
		}
		spec.Containers = append(spec.Containers, c)
	}
	return spec
}

// resources returns requests and limits of CPU in millicores and memory in bytes; zero is unset.
func resources(cpuReq, cpuLim, memReq, memLim int64) corev1.ResourceRequirements {
	list := func(cpu, mem int64) corev1.ResourceList {
		if cpu == 0 && mem == 0 {
			return nil
		}
		l := corev1.ResourceList{}
		if cpu > 0 {
			l[corev1.ResourceCPU] = *resource.NewMilliQuantity(cpu, resource.DecimalSI)
		}
		if mem > 0 {
			l[corev1.ResourceMemory] = *resource.NewQuantity(mem, resource.BinarySI)
		}
		return l
	}
	return corev1.ResourceRequirements{Requests: list(cpuReq, memReq), Limits: list(cpuLim, memLim)}
}

// podEnv returns the environment of the main container, secrets included, as spawners set it.
func podEnv(r *rand.Rand, id podID) []corev1.EnvVar {
	token := "s3cr3t-" + hexString(r, 32)
	var kv []string
	switch {
	case id.kind == kindNotebook:
		kv = []string{"JUPYTERHUB_API_TOKEN", token, "JUPYTERHUB_USER", id.user,
			"MEM_LIMIT", fmt.Sprint(id.memLim), "CPU_LIMIT", fmt.Sprintf("%g", float64(id.cpuLim)/1000)}
	case id.kind == kindDask:
		kv = []string{"DASK_GATEWAY_API_TOKEN", token, "DASK_GATEWAY_CLUSTER_NAME", id.w.ns + "." + id.group}
	case id.w.name == "hub":
		kv = []string{"PYTHONUNBUFFERED", "1", "HELM_RELEASE_NAME", id.w.ns, "POD_NAMESPACE", id.w.ns, "CONFIGPROXY_AUTH_TOKEN", token}
	default:
		kv = []string{"POD_NAMESPACE", id.w.ns, "LOG_LEVEL", pick(r, "info", "warn")}
	}
	env := make([]corev1.EnvVar, 0, len(kv)/2)
	for k := 0; k+1 < len(kv); k += 2 {
		env = append(env, corev1.EnvVar{Name: kv[k], Value: kv[k+1]})
	}
	return env
}

// podStatus returns the status of a pod in its state: conditions, container states with
// restarts and OOM kills, the scheduler's complaint for pending pods, the kubelet's for evicted.
func podStatus(o Options, r *rand.Rand, id podID, cs []corev1.Container, sched, evict string) corev1.PodStatus {
	st := corev1.PodStatus{Phase: corev1.PodRunning, QOSClass: qosClass(cs)}
	at := func(s int) metav1.Time { return mtime(id.created.Add(time.Duration(s) * time.Second)) }
	cond := func(t corev1.PodConditionType, ok bool, s int, reason, msg string) corev1.PodCondition {
		status := corev1.ConditionFalse
		if ok {
			status = corev1.ConditionTrue
		}
		return corev1.PodCondition{Type: t, Status: status, LastTransitionTime: at(s), Reason: reason, Message: msg}
	}
	if id.state == stUnschedulable {
		st.Phase = corev1.PodPending
		st.Conditions = []corev1.PodCondition{cond(corev1.PodScheduled, false, 0, corev1.PodReasonUnschedulable, sched)}
		return st
	}
	pulled := between(r, 5, 40)
	span := max(int(o.Start.Sub(id.created)/time.Second)-pulled, 2) // from the first start to o.Start
	evicted := span - r.IntN(min(span, 600))
	st.HostIP, st.StartTime = id.node.ip, ptr(at(1))
	if id.ip != "" {
		st.PodIP, st.PodIPs = id.ip, []corev1.PodIP{{IP: id.ip}}
	}
	ready, unready := true, ""
	for k, c := range cs {
		ref, digest := imageRef(o, c.Image)
		s := corev1.ContainerStatus{Name: c.Name, Image: ref, ImageID: digest, ContainerID: "containerd://" + hexString(r, 64),
			Ready: true, Started: ptr(true), State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: at(pulled)}}}
		main := k == 0
		switch {
		case id.state == stCreating:
			s.State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ContainerCreating"}}
			s.ImageID, s.ContainerID, s.Ready, s.Started = "", "", false, ptr(false)
		case id.state == stEvicted:
			s.State = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 137, Reason: "ContainerStatusUnknown",
				Message: "The container could not be located when the pod was terminated", StartedAt: at(pulled), FinishedAt: at(pulled + evicted)}}
			s.Ready, s.Started = false, ptr(false)
		case main && (id.state == stOOMKilled || id.state == stCrashLoop):
			died, began := pulled+between(r, 1, span), pulled
			if id.state == stCrashLoop { // the last of many short runs, minutes ago
				died = pulled + span - r.IntN(min(span, 300))
				began = max(died-between(r, 5, 60), pulled)
			}
			last := &corev1.ContainerStateTerminated{ExitCode: 137, Reason: "OOMKilled", StartedAt: at(began), FinishedAt: at(died),
				ContainerID: "containerd://" + hexString(r, 64)}
			s.RestartCount, s.LastTerminationState.Terminated = int32(between(r, 1, 4)), last
			s.State.Running.StartedAt = at(died + between(r, 1, 30))
			if id.state == stCrashLoop {
				if chance(r, 0.5) {
					last.ExitCode, last.Reason = 1, "Error"
				}
				s.RestartCount, s.Ready, s.Started = int32(between(r, 5, 40)), false, ptr(false)
				s.State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff",
					Message: fmt.Sprintf("back-off 5m0s restarting failed container=%s pod=%s_%s(%s)", c.Name, id.name, id.w.ns, id.uid)}}
			}
		}
		if !s.Ready {
			ready, unready = false, unready+" "+c.Name
		}
		st.ContainerStatuses = append(st.ContainerStatuses, s)
	}
	msg := "containers with unready status: [" + strings.TrimPrefix(unready, " ") + "]"
	readyAt, readyReason := pulled+1, ""
	if !ready {
		readyReason = "ContainersNotReady"
	}
	st.Conditions = []corev1.PodCondition{
		cond(corev1.PodInitialized, true, 1, "", ""),
		cond(corev1.PodReady, ready, readyAt, readyReason, msg),
		cond(corev1.ContainersReady, ready, readyAt, readyReason, msg),
		cond(corev1.PodScheduled, true, 0, "", ""),
	}
	switch id.state {
	case stCreating:
		st.Phase = corev1.PodPending
	case stEvicted:
		st.Phase, st.Reason, st.Message = corev1.PodFailed, "Evicted", evict
		st.Conditions[1].Reason, st.Conditions[2].Reason = "PodFailed", "PodFailed"
	}
	if ready {
		for k := range st.Conditions {
			st.Conditions[k].Message = ""
		}
	}
	return st
}

// qosClass is the quality of service class that Kubernetes derives from the containers'
// resources. Every generated container requests resources, so no pod is BestEffort.
func qosClass(cs []corev1.Container) corev1.PodQOSClass {
	for _, c := range cs {
		for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
			if lim, ok := c.Resources.Limits[name]; !ok || !lim.Equal(c.Resources.Requests[name]) {
				return corev1.PodQOSBurstable
			}
		}
	}
	return corev1.PodQOSGuaranteed
}
