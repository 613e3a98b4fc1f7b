package change

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// Watched are the kinds whose changes Rootline compares.
var Watched = []string{"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob", cluster.KindNode, "ConfigMap"}

type key struct{ kind, namespace, name string }

// state is what is compared of one object: its fields by name, and what to say of it when it is
// in one reading only.
type state struct {
	fields  map[string]string
	summary string
	source  cluster.Source
}

// index reads the compared fields of the watched objects. Of an object listed twice in one
// reading the last is kept.
func index(objs []*cluster.Object) map[key]*state {
	out := map[key]*state{}
	for _, o := range objs {
		if !slices.Contains(Watched, o.Kind) || o.Name == "" {
			continue
		}
		fields, summary, ok := read(o)
		if !ok {
			continue
		}
		out[key{o.Kind, o.Namespace, o.Name}] = &state{fields: fields, summary: summary, source: o.Source}
	}
	return out
}

// hasKind reports whether a reading holds any object of kind.
func hasKind(m map[key]*state, kind string) bool {
	for k := range m {
		if k.kind == kind {
			return true
		}
	}
	return false
}

// keys are the objects of both readings in order of kind, namespace and name.
func keys(a, b map[key]*state) []key {
	seen := map[key]bool{}
	var out []key
	for _, m := range []map[key]*state{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		x, y := out[i], out[j]
		if x.kind != y.kind {
			return x.kind < y.kind
		}
		if x.namespace != y.namespace {
			return x.namespace < y.namespace
		}
		return x.name < y.name
	})
	return out
}

// fieldNames are the fields of both, sorted.
func fieldNames(a, b map[string]string) []string {
	names := slices.Collect(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	return names
}

// read returns the compared fields of o and what to say of it alone; ok is false when its JSON
// does not decode into its kind.
func read(o *cluster.Object) (fields map[string]string, summary string, ok bool) {
	if o.Kind == cluster.KindNode {
		if o.Node == nil {
			return nil, "", false
		}
		return nodeFields(o.Node), nodeSummary(o.Node), true
	}
	if o.Raw == nil {
		return nil, "", false
	}
	var typed any
	switch o.Kind {
	case "Deployment":
		typed, ok = decode[appsv1.Deployment](o.Raw)
	case "StatefulSet":
		typed, ok = decode[appsv1.StatefulSet](o.Raw)
	case "DaemonSet":
		typed, ok = decode[appsv1.DaemonSet](o.Raw)
	case "ReplicaSet":
		typed, ok = decode[appsv1.ReplicaSet](o.Raw)
	case "Job":
		typed, ok = decode[batchv1.Job](o.Raw)
	case "CronJob":
		typed, ok = decode[batchv1.CronJob](o.Raw)
	case "ConfigMap":
		typed, ok = decode[corev1.ConfigMap](o.Raw)
	}
	if !ok {
		return nil, "", false
	}
	return fieldsOf(typed)
}

// Fields returns the compared fields of an object as client-go types it (a *appsv1.Deployment,
// *corev1.Node, *corev1.ConfigMap…): two versions of an object with the same fields differ by
// no change Between would find, only by status churn. ok is false for a kind that is not
// compared.
func Fields(obj any) (fields map[string]string, ok bool) {
	fields, _, ok = fieldsOf(obj)
	return fields, ok
}

// fieldsOf is Fields, and what to say of the object when it is in one reading only.
func fieldsOf(obj any) (fields map[string]string, summary string, ok bool) {
	fields = map[string]string{}
	var (
		spec     *corev1.PodSpec
		at       = "spec.template.spec"
		replicas *int32
	)
	switch d := obj.(type) {
	case *corev1.Node:
		return nodeFields(d), nodeSummary(d), true
	case *appsv1.Deployment:
		spec, replicas = &d.Spec.Template.Spec, d.Spec.Replicas
	case *appsv1.StatefulSet:
		spec, replicas = &d.Spec.Template.Spec, d.Spec.Replicas
	case *appsv1.DaemonSet:
		spec = &d.Spec.Template.Spec
	case *appsv1.ReplicaSet:
		// A Deployment's ReplicaSet is scaled by the Deployment controller as a rollout goes:
		// its replicas are the rollout's mechanics, not a change anyone made.
		spec = &d.Spec.Template.Spec
		if metav1.GetControllerOf(d) == nil {
			replicas = d.Spec.Replicas
		}
	case *batchv1.Job:
		spec = &d.Spec.Template.Spec
	case *batchv1.CronJob:
		set(fields, "spec.schedule", d.Spec.Schedule)
		if d.Spec.Suspend != nil {
			fields["spec.suspend"] = fmt.Sprint(*d.Spec.Suspend)
		}
		spec, at = &d.Spec.JobTemplate.Spec.Template.Spec, "spec.jobTemplate.spec.template.spec"
	case *corev1.ConfigMap:
		for k, v := range d.Data {
			fields["data["+k+"]"] = hash([]byte(v))
		}
		for k, v := range d.BinaryData {
			fields["binaryData["+k+"]"] = hash(v)
		}
		return fields, fmt.Sprintf("present, %d key(s)", len(d.Data)+len(d.BinaryData)), true
	default:
		return nil, "", false
	}
	if replicas != nil {
		fields["spec.replicas"] = fmt.Sprint(*replicas)
	}
	template(fields, at, *spec)
	return fields, workloadSummary(fields), true
}

// HashValues replaces each value of a ConfigMap by its hash, as Between compares it, so that the
// ConfigMap can be sent and stored without what it holds: whether a value changed is what
// matters, and a value may hold what should never be stored. Hashing again changes nothing (a
// value that is itself such a hash is taken as one).
func HashValues(cm *corev1.ConfigMap) {
	for k, v := range cm.Data {
		cm.Data[k] = hash([]byte(v))
	}
	for k, v := range cm.BinaryData {
		cm.BinaryData[k] = []byte(hash(v))
	}
}

// hash stands for a ConfigMap's value, which is never kept: a value may hold what should not be
// stored, and whether it changed is what matters.
func hash(v []byte) string {
	if isHash(v) {
		return string(v)
	}
	h := sha256.Sum256(v)
	return "sha256:" + hex.EncodeToString(h[:6])
}

// isHash reports whether v is a value hash already: "sha256:" and 12 lowercase hex digits.
func isHash(v []byte) bool {
	const prefix = "sha256:"
	if len(v) != len(prefix)+12 || string(v[:len(prefix)]) != prefix {
		return false
	}
	for _, c := range v[len(prefix):] {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func set(fields map[string]string, name, v string) {
	if v != "" {
		fields[name] = v
	}
}

// decode reads raw JSON as a T.
func decode[T any](raw []byte) (*T, bool) {
	v := new(T)
	if json.Unmarshal(raw, v) != nil {
		return nil, false
	}
	return v, true
}

// template reads what is compared of a pod template: each container's image, command,
// arguments, the names of its environment variables (never their values), its requests, limits
// and probes; where the pods may run (node selector, affinity, tolerations); their priority.
func template(fields map[string]string, at string, spec corev1.PodSpec) {
	for _, group := range []struct {
		name string
		list []corev1.Container
	}{{"initContainers", spec.InitContainers}, {"containers", spec.Containers}} {
		for _, c := range group.list {
			p := fmt.Sprintf("%s.%s[%s]", at, group.name, c.Name)
			set(fields, p+".image", c.Image)
			set(fields, p+".command", strings.Join(c.Command, " "))
			set(fields, p+".args", strings.Join(c.Args, " "))
			var env []string
			for _, e := range c.Env {
				env = append(env, e.Name)
			}
			sort.Strings(env)
			set(fields, p+".env", strings.Join(env, ", "))
			for r, q := range c.Resources.Requests {
				fields[p+".resources.requests."+string(r)] = q.String()
			}
			for r, q := range c.Resources.Limits {
				fields[p+".resources.limits."+string(r)] = q.String()
			}
			set(fields, p+".livenessProbe", probe(c.LivenessProbe))
			set(fields, p+".readinessProbe", probe(c.ReadinessProbe))
			set(fields, p+".startupProbe", probe(c.StartupProbe))
		}
	}
	var sel []string
	for k, v := range spec.NodeSelector {
		sel = append(sel, k+"="+v)
	}
	sort.Strings(sel)
	set(fields, at+".nodeSelector", strings.Join(sel, ", "))
	if spec.Affinity != nil {
		if b, err := json.Marshal(spec.Affinity); err == nil && string(b) != "{}" {
			fields[at+".affinity"] = string(b)
		}
	}
	var tols []string
	for _, t := range spec.Tolerations {
		tols = append(tols, toleration(t))
	}
	sort.Strings(tols)
	set(fields, at+".tolerations", strings.Join(tols, "; "))
	set(fields, at+".priorityClassName", spec.PriorityClassName)
}

// probe writes a probe the way kubectl describe does: "http-get :8081/hub/health delay=0s
// timeout=1s period=10s #success=1 #failure=3".
func probe(p *corev1.Probe) string {
	if p == nil {
		return ""
	}
	var h string
	switch {
	case p.Exec != nil:
		h = "exec [" + strings.Join(p.Exec.Command, " ") + "]"
	case p.HTTPGet != nil:
		h = fmt.Sprintf("http-get %s:%s%s", p.HTTPGet.Host, p.HTTPGet.Port.String(), p.HTTPGet.Path)
	case p.TCPSocket != nil:
		h = fmt.Sprintf("tcp-socket %s:%s", p.TCPSocket.Host, p.TCPSocket.Port.String())
	case p.GRPC != nil:
		h = fmt.Sprintf("grpc :%d", p.GRPC.Port)
	default:
		h = "unknown"
	}
	return fmt.Sprintf("%s delay=%ds timeout=%ds period=%ds #success=%d #failure=%d", h,
		p.InitialDelaySeconds, p.TimeoutSeconds, p.PeriodSeconds, p.SuccessThreshold, p.FailureThreshold)
}

// toleration writes a toleration as "key=value:Effect" ("key:Effect" for Exists, "*" for all),
// with its toleration seconds when set.
func toleration(t corev1.Toleration) string {
	s := t.Key
	switch {
	case t.Key == "" && t.Operator == corev1.TolerationOpExists:
		s = "*"
	case t.Operator != corev1.TolerationOpExists:
		s += "=" + t.Value
	}
	if t.Effect != "" {
		s += ":" + string(t.Effect)
	}
	if t.TolerationSeconds != nil {
		s += fmt.Sprintf(" for %ds", *t.TolerationSeconds)
	}
	return s
}

// workloadSummary says what a workload that is in one reading only ran: its images.
func workloadSummary(fields map[string]string) string {
	var images []string
	for f, v := range fields {
		if strings.HasSuffix(f, ".image") && !slices.Contains(images, v) {
			images = append(images, v)
		}
	}
	sort.Strings(images)
	if len(images) == 0 {
		return "present"
	}
	return "present, running " + strings.Join(images, ", ")
}

// nodeFields reads what is compared of a node: its labels (its pool among them), taints,
// whether it is cordoned, its capacity and allocatable resources. Conditions and heartbeats are
// status churn, not changes.
func nodeFields(n *corev1.Node) map[string]string {
	fields := map[string]string{}
	for k, v := range n.Labels {
		fields["metadata.labels["+k+"]"] = v
	}
	var taints []string
	for _, t := range n.Spec.Taints {
		taints = append(taints, t.ToString())
	}
	sort.Strings(taints)
	set(fields, "spec.taints", strings.Join(taints, ", "))
	fields["spec.unschedulable"] = fmt.Sprint(n.Spec.Unschedulable)
	for r, q := range n.Status.Capacity {
		fields["status.capacity."+string(r)] = q.String()
	}
	for r, q := range n.Status.Allocatable {
		fields["status.allocatable."+string(r)] = q.String()
	}
	return fields
}

// nodeSummary says what a node that is in one reading only was: the pool it belonged to.
func nodeSummary(n *corev1.Node) string {
	if pool, _ := cluster.NodePool(n.Labels); pool != "" {
		return "present, in pool " + pool
	}
	return "present"
}
