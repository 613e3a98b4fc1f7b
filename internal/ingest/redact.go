package ingest

// The redaction of the objects ingest admits: internal/redact's rules, applied to the fields of
// Kubernetes' types that may carry a credential.

import (
	"encoding/json"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/redact"
)

// Redacted replaces every value Rootline refuses to keep (redact.Redacted).
const Redacted = redact.Redacted

// redactMeta drops managed fields (bulky, and of no use as evidence) and redacts annotations
// whose names look secret, and the last-applied copy of the object.
func redactMeta(m *metav1.ObjectMeta) {
	m.ManagedFields = nil
	redactAnnotations(m.Annotations)
}

// redactAnnotations redacts, in place, annotations whose names look secret, and credentials in
// the others' values.
func redactAnnotations(a map[string]string) {
	for k, v := range a {
		if redact.IsSecretAnnotation(k) {
			a[k] = redact.Redacted
			continue
		}
		a[k] = redact.Text(v)
	}
}

func redactPod(p *corev1.Pod) {
	redactMeta(&p.ObjectMeta)
	redactPodSpec(&p.Spec)
	redactPodStatus(&p.Status)
}

func redactPodSpec(s *corev1.PodSpec) {
	for i := range s.InitContainers {
		redactContainer(&s.InitContainers[i])
	}
	for i := range s.Containers {
		redactContainer(&s.Containers[i])
	}
	for i := range s.EphemeralContainers {
		redactContainer((*corev1.Container)(&s.EphemeralContainers[i].EphemeralContainerCommon))
	}
	redactVolumes(s.Volumes)
}

// redactVolumes redacts the options of flex volumes and the attributes of CSI volumes, which
// drivers fill with credentials.
func redactVolumes(vs []corev1.Volume) {
	for i := range vs {
		if v := vs[i].FlexVolume; v != nil {
			redact.Keyed(v.Options)
		}
		if v := vs[i].CSI; v != nil {
			redact.Keyed(v.VolumeAttributes)
		}
	}
}

// redactProbes redacts the commands and HTTP requests of a container's probes.
func redactProbes(probes ...*corev1.Probe) {
	for _, p := range probes {
		if p != nil {
			redactExec(p.Exec)
			redactHTTPGet(p.HTTPGet)
		}
	}
}

func redactContainer(c *corev1.Container) {
	for i := range c.Env {
		if c.Env[i].Value != "" {
			c.Env[i].Value = redact.Redacted
		}
	}
	redact.Command(c.Command, c.Args)
	redactProbes(c.LivenessProbe, c.ReadinessProbe, c.StartupProbe)
	if l := c.Lifecycle; l != nil {
		for _, h := range []*corev1.LifecycleHandler{l.PostStart, l.PreStop} {
			if h != nil {
				redactExec(h.Exec)
				redactHTTPGet(h.HTTPGet)
			}
		}
	}
}

func redactExec(e *corev1.ExecAction) {
	if e != nil {
		redact.Args(e.Command)
	}
}

// redactHTTPGet redacts the values of headers with secret names, credentials in the others,
// and credentials in the path's query ("/health?token=…").
func redactHTTPGet(g *corev1.HTTPGetAction) {
	if g == nil {
		return
	}
	g.Path = redact.Text(g.Path)
	for i, h := range g.HTTPHeaders {
		if redact.IsSecretKey(h.Name) {
			g.HTTPHeaders[i].Value = redact.Header(h.Value)
		} else {
			g.HTTPHeaders[i].Value = redact.Text(h.Value)
		}
	}
}

// redactPodStatus redacts the messages of the pod, its conditions and its containers' states:
// a container that failed prints its error, connection strings and all.
func redactPodStatus(s *corev1.PodStatus) {
	s.Message = redact.Text(s.Message)
	for i := range s.Conditions {
		s.Conditions[i].Message = redact.Text(s.Conditions[i].Message)
	}
	for _, list := range [][]corev1.ContainerStatus{s.InitContainerStatuses, s.ContainerStatuses, s.EphemeralContainerStatuses} {
		for i := range list {
			redactState(&list[i].State)
			redactState(&list[i].LastTerminationState)
		}
	}
}

func redactState(s *corev1.ContainerState) {
	if s.Waiting != nil {
		s.Waiting.Message = redact.Text(s.Waiting.Message)
	}
	if s.Terminated != nil {
		s.Terminated.Message = redact.Text(s.Terminated.Message)
	}
}

func redactEvent(e *corev1.Event) {
	redactMeta(&e.ObjectMeta)
	e.Message = redact.Text(e.Message)
}

// redactStoredPod is redactPod over the whole JSON of a pod the text reader made; nil when it
// does not decode, which leaves the store to marshal the pod as Rootline keeps it.
func redactStoredPod(raw []byte) []byte {
	p := new(corev1.Pod)
	if json.Unmarshal(raw, p) != nil {
		return nil
	}
	redactPod(p)
	out, err := json.Marshal(p)
	if err != nil {
		return nil
	}
	return out
}

// redactKeptPod is redactPod for what Rootline keeps of a pod (decoded straight into it for
// analysis, or made by the text reader): its annotations, its probes' commands and requests,
// and its status's messages. The fields that carry most secrets (environment, command lines,
// hooks, volumes) are not kept, so there is nothing of them to redact.
func redactKeptPod(p *cluster.Pod) {
	redactAnnotations(p.Annotations)
	for _, cs := range [][]cluster.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for i := range cs {
			redactProbes(cs[i].LivenessProbe, cs[i].ReadinessProbe, cs[i].StartupProbe)
		}
	}
	s := &p.Status
	s.Message = redact.Text(s.Message)
	for i := range s.Conditions {
		s.Conditions[i].Message = redact.Text(s.Conditions[i].Message)
	}
	for _, list := range [][]cluster.ContainerStatus{s.InitContainerStatuses, s.ContainerStatuses} {
		for i := range list {
			redactState(&list[i].State)
			redactState(&list[i].LastTerminationState)
		}
	}
}

// redactKeptEvent is redactEvent for what Rootline keeps of an event (decoded straight into
// it for analysis, or made by the text reader).
func redactKeptEvent(e *cluster.Event) {
	redactAnnotations(e.Annotations)
	e.Message = redact.Text(e.Message)
}

// redactRaw applies the same rules to an object kept as raw JSON (workloads carry pod templates
// with env values), walking the generic tree. It returns the redacted JSON and the uid.
func redactRaw(raw []byte) (json.RawMessage, string, error) {
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, "", err
	}
	redact.Tree(v)
	uid := ""
	if md, ok := v["metadata"].(map[string]any); ok {
		uid, _ = md["uid"].(string)
	}
	out, err := json.Marshal(v)
	return out, uid, err
}

// redactObject applies the rules to whichever typed object o holds.
func redactObject(o *cluster.Object) {
	switch {
	case o.Pod != nil:
		redactKeptPod(o.Pod)
		if o.Raw != nil {
			o.Raw = redactStoredPod(o.Raw)
		}
	case o.Node != nil:
		redactMeta(&o.Node.ObjectMeta)
	case o.Event != nil:
		redactKeptEvent(o.Event)
	case o.Raw != nil:
		// A claim (a person's sentence may quote a token as readily as a kubectl message), the
		// autoscaler's status pasted as text: redacted like any object kept as JSON.
		if red, _, err := redactRaw(o.Raw); err == nil {
			o.Raw = red
		}
	}
}

// isSecretKind reports whether a kind must never be stored.
func isSecretKind(kind string) bool { return strings.EqualFold(kind, "Secret") }
