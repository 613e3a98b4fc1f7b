package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/bytedance/sonic"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"

	"github.com/rootline-dev/rootline/internal/change"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/metrics"
	"github.com/rootline-dev/rootline/internal/redact"
)

// contextKinds are kept, redacted, as raw JSON: they explain pods (owners and their earlier
// templates, priorities, budgets, quotas) without being modelled field by field. Anything else is skipped and reported.
var contextKinds = map[string]bool{
	"Deployment": true, "ReplicaSet": true, "StatefulSet": true, "DaemonSet": true,
	"Job": true, "CronJob": true, "PriorityClass": true, "Namespace": true,
	"PodDisruptionBudget": true, "HorizontalPodAutoscaler": true, "ResourceQuota": true,
	"LimitRange": true, "PersistentVolumeClaim": true, "ConfigMap": true, "ControllerRevision": true,
}

// autoscalerStatus is the one ConfigMap Rootline keeps as it is: cluster-autoscaler's status
// report. Of the others only the keys and a hash of each value are kept.
const autoscalerStatus = "cluster-autoscaler-status"

// typeMeta is what is read of an object before its kind is known.
type typeMeta struct {
	APIVersion string
	Kind       string
	Name       string
	Namespace  string
	HasItems   bool
}

// peekTypeMeta reads kind, apiVersion and metadata's name and namespace from the start of an
// object, stopping as soon as it has them: kubectl writes keys in alphabetical order, so these
// come before the bulky spec and status, which are then left for the typed decode.
func peekTypeMeta(raw []byte) (typeMeta, error) {
	var tm typeMeta
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return tm, err
	}
	var sawKind, sawVersion, sawMeta bool
	for dec.More() && !(sawKind && sawVersion && sawMeta) {
		tok, err := dec.Token()
		if err != nil {
			return tm, err
		}
		var dst any
		switch tok {
		case "kind":
			dst, sawKind = &tm.Kind, true
		case "apiVersion":
			dst, sawVersion = &tm.APIVersion, true
		case "metadata":
			var m struct {
				Name      string `json:"name"`
				Namespace string `json:"namespace"`
			}
			if err := dec.Decode(&m); err != nil {
				return tm, fmt.Errorf("metadata: %w", err)
			}
			tm.Name, tm.Namespace, sawMeta = m.Name, m.Namespace, true
			continue
		case "items":
			tm.HasItems = true
			dst = new(json.RawMessage)
		default:
			dst = new(json.RawMessage)
		}
		if err := dec.Decode(dst); err != nil {
			return tm, fmt.Errorf("%v: %w", tok, err)
		}
	}
	return tm, nil
}

// itemKind is the kind of the items of a typed list ("PodList" holds "Pod"); "" for "List".
func itemKind(listKind string) string {
	if k, ok := strings.CutSuffix(listKind, "List"); ok {
		return k
	}
	return ""
}

// object builds and emits the object in raw, a JSON object. defaultKind and defaultVersion come
// from the enclosing typed list, whose items may omit them (the API server's own lists do).
func (d *Decoder) object(ctx context.Context, raw []byte, src cluster.Source, defaultKind, defaultVersion string, emit func(*cluster.Object) error, depth int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return d.objErr(src, nil, errors.New("expected a Kubernetes object, found "+describeJSON(raw)))
	}
	if r, ok := duplicateKey(raw); ok {
		return repeatErr(src, raw, r)
	}
	if f, ok := valueFault(raw); ok && !hashedLater(raw, f) { // before a typed decode parses a number too long
		return f.err(src, raw)
	}
	tm, err := typeMetaOf(raw, typeMeta{})
	if err != nil {
		return d.objErr(src, raw, err)
	}
	if tm.Kind == "" {
		tm.Kind = defaultKind
	}
	if tm.APIVersion == "" {
		tm.APIVersion = defaultVersion
	}
	if tm.Kind == "" {
		tm.Kind = guessKind(raw)
	}
	if f, ok := metaFault(tm); ok {
		return f.err(src, raw)
	}
	if (tm.Kind == "" && tm.HasItems) || strings.HasSuffix(tm.Kind, "List") {
		return d.nestedList(ctx, raw, tm, src, emit, depth)
	}
	o := &cluster.Object{APIVersion: tm.APIVersion, Kind: tm.Kind, Namespace: tm.Namespace, Name: tm.Name, Source: src}
	if isSecretKind(tm.Kind) {
		d.skip(skipped(o, "Secret objects are never stored"))
		return nil
	}
	switch tm.Kind {
	case "":
		if n, err := d.unwrap(ctx, raw, src, emit, depth); err != nil || n > 0 {
			return err
		}
		err := d.objErr(src, nil, errors.New("object without kind: not a Kubernetes object"))
		if ie := (*Error)(nil); errors.As(err, &ie) {
			ie.NoKind = true
		}
		return err
	case cluster.KindPod, cluster.KindNode, cluster.KindEvent:
		t := d.newTarget(targetOf(tm.Kind, tm.APIVersion))
		if err := d.decodeTyped(raw, t); err != nil {
			return d.objErr(src, raw, err)
		}
		if f, ok := typedFault(t); ok {
			return f.err(src, raw)
		}
		d.adopt(o, t)
	case metrics.SeriesKind, metrics.ManifestKind:
		// Series and a manifest of saved answers, written as objects: their labels are
		// redacted as those of a saved answer are.
		checked, err := metrics.CheckObject(raw, metrics.Limits{}, redact.Keyed)
		if err != nil {
			return d.objErr(src, raw, err)
		}
		o.Raw = checked
	default:
		if keep, err := d.keepRaw(o, raw, tm, src); err != nil || !keep {
			return err
		}
	}
	return emit(o)
}

// keepRaw sets o to the object in raw, of a kind kept as JSON: redacted, a ConfigMap's values
// hashed. keep is false for a kind Rootline does not use, which is skipped.
func (d *Decoder) keepRaw(o *cluster.Object, raw []byte, tm typeMeta, src cluster.Source) (keep bool, err error) {
	if tm.Kind == "ConfigMap" && tm.Name != autoscalerStatus {
		// Any other ConfigMap may hold what should never be stored: it is kept with each
		// value replaced by its hash, which is what is compared of it (change.HashValues),
		// keyed when the decoder has a key (change.KeyValues).
		hashed, err := hashedConfigMap(raw, d.opts.ValueKey)
		if err != nil {
			return false, d.objErr(src, raw, err)
		}
		raw = hashed
		if f, ok := valueFault(raw); ok {
			return false, f.err(src, raw)
		}
	}
	if !contextKinds[tm.Kind] {
		d.skip(skipped(o, fmt.Sprintf("kind %s is not used by Rootline", tm.Kind)))
		return false, nil
	}
	if f, ok := rawMetaFault(raw); ok {
		return false, f.err(src, raw)
	}
	red, uid, err := redactRaw(raw)
	if err != nil {
		return false, d.objErr(src, raw, err)
	}
	o.Raw, o.UID = red, uid
	return true, nil
}

// hashedLater reports whether a fault is in a value of a ConfigMap's data, which is kept only
// as its hash (hashedConfigMap): a NUL there never reaches the database, and refusing the file
// for it would lose the rest (a ConfigMap holding binary data in data rather than binaryData).
// The hashed object is checked again.
func hashedLater(raw []byte, f fault) bool {
	if !strings.HasPrefix(f.path, "data.") && !strings.HasPrefix(f.path, "binaryData.") {
		return false
	}
	tm, err := typeMetaOf(raw, typeMeta{})
	return err == nil && tm.Kind == "ConfigMap" && tm.Name != autoscalerStatus
}

// nestedList handles a List inside a list or an array; rare, but kubectl writes it for
// `kubectl get -o json` over several resource types in some versions.
func (d *Decoder) nestedList(ctx context.Context, raw []byte, tm typeMeta, src cluster.Source, emit func(*cluster.Object) error, depth int) error {
	if depth >= maxNesting {
		return d.objErr(src, nil, errors.New("lists nested too deeply"))
	}
	var list struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		return d.objErr(src, raw, fmt.Errorf("items: %w", err))
	}
	for _, it := range list.Items {
		if err := d.object(ctx, it, src, itemKind(tm.Kind), tm.APIVersion, emit, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// target is the Go type an object of a modelled kind decodes into.
type target int

const (
	noTarget target = iota
	podTarget
	nodeTarget
	eventTarget   // core/v1
	eventV1Target // events.k8s.io/v1 and v1beta1, which have the same JSON shape
)

func targetOf(kind, apiVersion string) target {
	switch kind {
	case cluster.KindPod:
		return podTarget
	case cluster.KindNode:
		return nodeTarget
	case cluster.KindEvent:
		if apiVersion == "events.k8s.io/v1" || apiVersion == "events.k8s.io/v1beta1" {
			return eventV1Target
		}
		return eventTarget
	}
	return noTarget
}

func (t target) new() any {
	switch t {
	case podTarget:
		return new(corev1.Pod)
	case nodeTarget:
		return new(corev1.Node)
	case eventTarget:
		return new(corev1.Event)
	case eventV1Target:
		return new(eventsv1.Event)
	}
	return nil
}

// newTarget is the value an object of target t decodes into: t's Kubernetes type, or, when the
// objects are only analysed (Options.Unstored), what Rootline keeps of a pod or a core/v1 event
// (cluster.Pod, cluster.Event), decoded straight from the JSON: the fields Rootline does not
// read are skipped, never built.
func (d *Decoder) newTarget(t target) any {
	if d.opts.Unstored {
		switch t {
		case podTarget:
			return new(cluster.Pod)
		case eventTarget:
			return new(cluster.Event)
		}
	}
	return t.new()
}

// typeMetaIn gives the kind, apiVersion, name and namespace of a target's object (name and
// namespace alone of what Rootline keeps of one).
func typeMetaIn(v any) typeMeta {
	switch t := v.(type) {
	case *cluster.Pod:
		return typeMeta{Name: t.Name, Namespace: t.Namespace}
	case *cluster.Event:
		return typeMeta{Name: t.Name, Namespace: t.Namespace}
	case *corev1.Pod:
		return typeMeta{APIVersion: t.APIVersion, Kind: t.Kind, Name: t.Name, Namespace: t.Namespace}
	case *corev1.Node:
		return typeMeta{APIVersion: t.APIVersion, Kind: t.Kind, Name: t.Name, Namespace: t.Namespace}
	case *corev1.Event:
		return typeMeta{APIVersion: t.APIVersion, Kind: t.Kind, Name: t.Name, Namespace: t.Namespace}
	case *eventsv1.Event:
		return typeMeta{APIVersion: t.APIVersion, Kind: t.Kind, Name: t.Name, Namespace: t.Namespace}
	}
	return typeMeta{}
}

// adopt makes v, decoded from a target's new, o's typed object, redacted and sharing what
// repeats with the decoder's other objects, and takes its uid.
func (d *Decoder) adopt(o *cluster.Object, v any) {
	redactTyped(v)
	d.adoptRedacted(o, v)
}

// redactTyped redacts v, decoded from a target's new, in place; an events.k8s.io Event is
// redacted by adoptRedacted, as the core Event it becomes. It touches nothing but v.
func redactTyped(v any) {
	switch t := v.(type) {
	case *corev1.Pod:
		redactPod(t)
	case *corev1.Node:
		redactMeta(&t.ObjectMeta)
	case *corev1.Event:
		redactEvent(t)
	case *cluster.Pod:
		redactKeptPod(t)
	case *cluster.Event:
		redactKeptEvent(t)
	}
}

// adoptRedacted is adopt for v redacted already (redactTyped): it shares what repeats, which
// only the decoder's one goroutine may do.
func (d *Decoder) adoptRedacted(o *cluster.Object, v any) {
	if d.strs == nil {
		d.strs = newInterner()
		if d.opts.Unstored {
			d.strs.arena = &arena{}
		}
	}
	switch t := v.(type) {
	case *corev1.Pod:
		if !d.opts.Unstored {
			o.Raw = storedJSON(t)
		}
		o.Pod, o.UID = cluster.PodOf(t), string(t.UID)
		d.strs.keptPod(o.Pod)
		d.strs.typeMeta(o)
	case *corev1.Node:
		d.strs.node(t)
		o.Node, o.UID = t, string(t.UID)
	case *corev1.Event:
		d.keepEvent(o, t)
	case *cluster.Pod: // decoded straight into what Rootline keeps: nothing is stored
		d.strs.keptPod(t)
		d.strs.typeMeta(o)
		o.Pod, o.UID, o.Name = t, string(t.UID), t.Name
	case *cluster.Event:
		d.strs.keptEvent(t)
		d.strs.typeMeta(o)
		o.Event, o.UID, o.Name = t, string(t.UID), t.Name
	case *eventsv1.Event:
		ev := fromEventsV1(t)
		redactEvent(ev)
		d.keepEvent(o, ev)
	}
}

// keepEvent makes e, decoded and redacted, o's Event: what Rootline reads of it, sharing what
// repeats, with its whole JSON kept for the store unless the objects are only analysed.
func (d *Decoder) keepEvent(o *cluster.Object, e *corev1.Event) {
	if !d.opts.Unstored {
		o.Raw = storedJSON(e)
	}
	o.Event, o.UID = cluster.EventOf(e), string(e.UID)
	d.strs.keptEvent(o.Event)
	d.strs.typeMeta(o)
}

// guessKind recognises objects that carry no kind by their shape, for the items of untyped
// lists written by hand or by tools that strip type information.
func guessKind(raw []byte) string {
	var shape struct {
		InvolvedObject json.RawMessage `json:"involvedObject"`
		Regarding      json.RawMessage `json:"regarding"`
		Spec           struct {
			Containers json.RawMessage `json:"containers"`
			PodCIDR    json.RawMessage `json:"podCIDR"`
			ProviderID json.RawMessage `json:"providerID"`
		} `json:"spec"`
		Status struct {
			NodeInfo          json.RawMessage `json:"nodeInfo"`
			Phase             json.RawMessage `json:"phase"`
			ContainerStatuses json.RawMessage `json:"containerStatuses"`
			Conditions        []struct {
				Type string `json:"type"`
			} `json:"conditions"`
		} `json:"status"`
	}
	if json.Unmarshal(raw, &shape) != nil {
		return ""
	}
	switch {
	case shape.InvolvedObject != nil:
		return cluster.KindEvent
	case shape.Regarding != nil:
		return cluster.KindEvent
	case shape.Spec.Containers != nil:
		return cluster.KindPod
	case shape.Status.NodeInfo != nil || shape.Spec.PodCIDR != nil || shape.Spec.ProviderID != nil:
		return cluster.KindNode
	case shape.Status.Phase != nil || shape.Status.ContainerStatuses != nil:
		return cluster.KindPod // a pod's status pasted alone (kubectl get pod -o yaml, cut to status:)
	}
	for _, c := range shape.Status.Conditions {
		switch c.Type {
		case "PodScheduled", "Initialized", "ContainersReady", "DisruptionTarget", "PodReadyToStartContainers":
			return cluster.KindPod
		case "MemoryPressure", "DiskPressure", "PIDPressure", "NetworkUnavailable":
			return cluster.KindNode
		}
	}
	return ""
}

func skipped(o *cluster.Object, reason string) Skipped {
	return Skipped{File: o.Source.File, Line: int(o.Source.Line), Kind: o.Kind, Namespace: o.Namespace, Name: o.Name, Reason: reason}
}

// objErr reports an object that does not decode. For a type error the field and the line of
// the fault are given, so that people can find it in a large file.
func (d *Decoder) objErr(src cluster.Source, raw []byte, err error) error {
	e := &Error{File: src.File, Line: int(src.Line), Offset: src.Offset, Msg: err.Error(), Err: ErrMalformed}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Offset > 0 && te.Offset <= int64(len(raw)) {
		if e.Line > 0 {
			e.Line += bytes.Count(raw[:te.Offset], []byte{'\n'})
		}
		e.Offset += te.Offset
		e.Msg = fmt.Sprintf("field %s: cannot use JSON %s as %s", te.Field, te.Value, typeName(te.Type))
		if te.Field == "" {
			if fault := typeMetaFault(raw); fault != "" {
				e.Msg = fault
			}
		}
	}
	return e
}

// typeMetaFault says which of kind, apiVersion and metadata's name and namespace has the
// wrong type: reading them first, the decoder names no field.
func typeMetaFault(raw []byte) string {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return ""
	}
	for _, f := range []string{"kind", "apiVersion"} {
		if v, ok := top[f]; ok && describeJSON(v) != "a string" {
			return fmt.Sprintf("%s must be a string, not %s", f, describeJSON(v))
		}
	}
	m, ok := top["metadata"]
	if !ok {
		return ""
	}
	if describeJSON(m) != "an object" {
		return fmt.Sprintf("metadata must be an object, not %s", describeJSON(m))
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(m, &meta) != nil {
		return ""
	}
	for _, f := range []string{"name", "namespace"} {
		if v, ok := meta[f]; ok && describeJSON(v) != "a string" {
			return fmt.Sprintf("metadata.%s must be a string, not %s", f, describeJSON(v))
		}
	}
	return ""
}

// typeName says what JSON a Go type takes: an object for a struct or map, an array for a
// slice, else the type's own name.
func typeName(t reflect.Type) string {
	if t == nil {
		return "?"
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object (" + t.String() + ")"
	case reflect.Slice, reflect.Array:
		return "an array (" + t.String() + ")"
	}
	return t.String()
}

func describeJSON(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// unwrap decodes the Kubernetes objects a tool wrapped in an object of its own (Gitpod's
// {"pod": …, "events": [ … ]}, a test fixture's {"node": …}): every top-level value that is an
// object with metadata, or an array of such objects. It returns how many it emitted.
func (d *Decoder) unwrap(ctx context.Context, raw []byte, src cluster.Source, emit func(*cluster.Object) error, depth int) (int, error) {
	if depth >= maxNesting {
		return 0, nil
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return 0, nil
	}
	n := 0
	count := func(o *cluster.Object) error { n++; return emit(o) }
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := bytes.TrimSpace(fields[k])
		var candidates []json.RawMessage
		switch {
		case len(v) > 0 && v[0] == '{':
			candidates = []json.RawMessage{v}
		case len(v) > 0 && v[0] == '[':
			_ = json.Unmarshal(v, &candidates) // not an array of objects: no candidates
		}
		for _, c := range candidates {
			if tm, err := peekTypeMeta(c); err != nil || (tm.Kind == "" && guessKind(c) == "") {
				continue // not recognisably a Kubernetes object: the wrapper's own data
			}
			if err := d.object(ctx, c, src, "", "", count, depth+1); err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// hashedConfigMap is a ConfigMap's JSON with each value replaced by its hash, keyed with key
// when there is one.
func hashedConfigMap(raw, key []byte) ([]byte, error) {
	var cm corev1.ConfigMap
	if err := json.Unmarshal(raw, &cm); err != nil {
		return nil, err
	}
	if len(key) > 0 {
		change.KeyValues(&cm, key)
	} else {
		change.HashValues(&cm)
	}
	return json.Marshal(&cm)
}

// storedJSON is the JSON the store keeps of v, a typed object as decoded and redacted: the
// bytes encoding/json would write, made by sonic's compatible configuration (as the store
// makes them of the objects it holds whole). Nil if v does not marshal, which leaves the store
// to marshal what o holds.
func storedJSON(v any) json.RawMessage {
	b, err := sonic.ConfigStd.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}
