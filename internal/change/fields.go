package change

import (
	"crypto/hmac"
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
	fields  fieldSet
	summary string
	whole   Value // the object as a value: a node's pool
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
		st, ok := read(o)
		if !ok {
			continue
		}
		st.source = o.Source
		out[key{o.Kind, o.Namespace, o.Name}] = st
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
func fieldNames(a, b fieldSet) []string {
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
func read(o *cluster.Object) (st *state, ok bool) {
	if o.Kind == cluster.KindNode {
		if o.Node == nil {
			return nil, false
		}
		return fieldsOf(o.Node)
	}
	if o.Raw == nil {
		return nil, false
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
		return nil, false
	}
	return fieldsOf(typed)
}

// Fields returns the compared fields of an object as client-go types it (a *appsv1.Deployment,
// *corev1.Node, *corev1.ConfigMap…): two versions of an object with the same fields differ by
// no change Between would find, only by status churn. ok is false for a kind that is not
// compared.
func Fields(obj any) (fields map[string]string, ok bool) {
	st, ok := fieldsOf(obj)
	if !ok {
		return nil, false
	}
	return st.fields.texts(), true
}

// fieldsOf is Fields as values, and what to say of the object when it is in one reading only.
func fieldsOf(obj any) (st *state, ok bool) {
	fields := fieldSet{}
	var (
		spec     *corev1.PodSpec
		at       = "spec.template.spec"
		replicas *int32
	)
	switch d := obj.(type) {
	case *corev1.Node:
		return nodeState(d), true
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
		fields.set("spec.schedule", Path{Attr: Schedule}, d.Spec.Schedule)
		if d.Spec.Suspend != nil {
			fields["spec.suspend"] = field{path: Path{Attr: Suspend}, text: fmt.Sprint(*d.Spec.Suspend), value: Value{Set: *d.Spec.Suspend}}
		}
		spec, at = &d.Spec.JobTemplate.Spec.Template.Spec, "spec.jobTemplate.spec.template.spec"
	case *corev1.ConfigMap:
		for k, v := range d.Data {
			fields["data["+k+"]"] = field{path: Path{Attr: Data, Key: k}, text: hash([]byte(v))}
		}
		for k, v := range d.BinaryData {
			fields["binaryData["+k+"]"] = field{path: Path{Attr: BinaryData, Key: k}, text: hash(v)}
		}
		return &state{fields: fields, summary: fmt.Sprintf("present, %d key(s)", len(d.Data)+len(d.BinaryData))}, true
	default:
		return nil, false
	}
	if replicas != nil {
		fields["spec.replicas"] = field{path: Path{Attr: Replicas}, text: fmt.Sprint(*replicas)}
	}
	template(fields, at, *spec)
	return &state{fields: fields, summary: workloadSummary(fields)}, true
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

// KeyValues replaces each value of a ConfigMap by a keyed hash of it (HMAC-SHA256 with key, an
// installation's secret, of the value's hash: "hmac:" and 24 hex digits), as the server stores
// it: a short unkeyed hash, as HashValues makes for the wire, can be matched against the values
// one guesses ("hunter2" hashes the same everywhere), a keyed one not without the key. A value
// and its unkeyed hash give the same keyed hash, so that a collector's hashed values and an
// upload's raw ones compare; keying again changes nothing.
func KeyValues(cm *corev1.ConfigMap, key []byte) {
	for k, v := range cm.Data {
		cm.Data[k] = keyed([]byte(v), key)
	}
	for k, v := range cm.BinaryData {
		cm.BinaryData[k] = []byte(keyed(v, key))
	}
}

// keyed is a value's keyed hash (see KeyValues).
func keyed(v, key []byte) string {
	if hasHex(v, keyedPrefix, 24) {
		return string(v)
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(hash(v)))
	return keyedPrefix + hex.EncodeToString(m.Sum(nil))[:24]
}

// The prefixes of a value's hashes: unkeyed (HashValues), keyed (KeyValues).
const (
	hashPrefix  = "sha256:"
	keyedPrefix = "hmac:"
)

// hash stands for a ConfigMap's value, which is never kept: a value may hold what should not be
// stored, and whether it changed is what matters.
func hash(v []byte) string {
	if hasHex(v, hashPrefix, 12) {
		return string(v)
	}
	h := sha256.Sum256(v)
	return hashPrefix + hex.EncodeToString(h[:6])
}

// hasHex reports whether v is prefix and n lowercase hex digits: a value's hash already.
func hasHex(v []byte, prefix string, n int) bool {
	if len(v) != len(prefix)+n || string(v[:len(prefix)]) != prefix {
		return false
	}
	for _, c := range v[len(prefix):] {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
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
func template(fields fieldSet, at string, spec corev1.PodSpec) {
	for _, group := range []struct {
		name string
		init bool
		list []corev1.Container
	}{{"initContainers", true, spec.InitContainers}, {"containers", false, spec.Containers}} {
		for _, c := range group.list {
			container(fields, fmt.Sprintf("%s.%s[%s]", at, group.name, c.Name), Path{Template: true, Container: c.Name, Init: group.init}, c)
		}
	}
	of := func(a Attr) Path { return Path{Attr: a, Template: true} }
	var sel []string
	for k, v := range spec.NodeSelector {
		sel = append(sel, k+"="+v)
	}
	sort.Strings(sel)
	fields.set(at+".nodeSelector", of(NodeSelector), strings.Join(sel, ", "))
	if spec.Affinity != nil {
		if b, err := json.Marshal(spec.Affinity); err == nil && string(b) != "{}" {
			fields.set(at+".affinity", of(Affinity), string(b))
		}
	}
	var tols []string
	for _, t := range spec.Tolerations {
		tols = append(tols, toleration(t))
	}
	sort.Strings(tols)
	fields.set(at+".tolerations", of(Tolerations), strings.Join(tols, "; "))
	fields.set(at+".priorityClassName", of(PriorityClassName), spec.PriorityClassName)
}

// container reads what is compared of one container of a pod template, named p, each field's
// path in (a Path of the container).
func container(fields fieldSet, p string, in Path, c corev1.Container) {
	of := func(a Attr) Path { in.Attr = a; return in }
	fields.set(p+".image", of(Image), c.Image)
	fields.set(p+".command", of(Command), strings.Join(c.Command, " "))
	fields.set(p+".args", of(Args), strings.Join(c.Args, " "))
	var env []string
	for _, e := range c.Env {
		env = append(env, e.Name)
	}
	sort.Strings(env)
	fields.set(p+".env", of(Env), strings.Join(env, ", "))
	for r, q := range c.Resources.Requests {
		at := of(Requests)
		at.Resource = r
		fields.quantity(p+".resources.requests."+string(r), at, q)
	}
	for r, q := range c.Resources.Limits {
		at := of(Limits)
		at.Resource = r
		fields.quantity(p+".resources.limits."+string(r), at, q)
	}
	fields.set(p+".livenessProbe", of(LivenessProbe), probe(c.LivenessProbe))
	fields.set(p+".readinessProbe", of(ReadinessProbe), probe(c.ReadinessProbe))
	fields.set(p+".startupProbe", of(StartupProbe), probe(c.StartupProbe))
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
func workloadSummary(fields fieldSet) string {
	var images []string
	for _, f := range fields {
		if f.path.Attr == Image && !slices.Contains(images, f.text) {
			images = append(images, f.text)
		}
	}
	sort.Strings(images)
	if len(images) == 0 {
		return "present"
	}
	return "present, running " + strings.Join(images, ", ")
}

// nodeState reads what is compared of a node: its labels (its pool among them), taints,
// whether it is cordoned, its capacity and allocatable resources. Conditions and heartbeats are
// status churn, not changes. Of a node in one reading only, what is said is the pool it belonged
// to.
func nodeState(n *corev1.Node) *state {
	fields := fieldSet{}
	for k, v := range n.Labels {
		fields["metadata.labels["+k+"]"] = field{path: Path{Attr: Labels, Key: k}, text: v}
	}
	taints := slices.Clone(n.Spec.Taints)
	sort.Slice(taints, func(i, j int) bool { return taints[i].ToString() < taints[j].ToString() })
	var texts []string
	for _, t := range taints {
		texts = append(texts, t.ToString())
	}
	if text := strings.Join(texts, ", "); text != "" {
		fields["spec.taints"] = field{path: Path{Attr: Taints}, text: text, value: Value{Taints: taints}}
	}
	fields["spec.unschedulable"] = field{path: Path{Attr: Unschedulable}, text: fmt.Sprint(n.Spec.Unschedulable), value: Value{Set: n.Spec.Unschedulable}}
	for r, q := range n.Status.Capacity {
		fields.quantity("status.capacity."+string(r), Path{Attr: Capacity, Resource: r}, q)
	}
	for r, q := range n.Status.Allocatable {
		fields.quantity("status.allocatable."+string(r), Path{Attr: Allocatable, Resource: r}, q)
	}
	st := &state{fields: fields, summary: "present"}
	if pool, _ := cluster.NodePool(n.Labels); pool != "" {
		st.summary, st.whole = "present, in pool "+pool, Value{Pool: pool}
	}
	return st
}
