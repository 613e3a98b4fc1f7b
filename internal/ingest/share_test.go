package ingest

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/cluster"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestEqualPodSpecsAreShared: the pods of one template share one slice of containers, one of
// owners and one of tolerations, whether decoded for analysis alone or for the store; a pod
// whose toleration waits longer, whose probe differs or whose owner is another keeps its own;
// and what is stored of each pod is its own.
func TestEqualPodSpecsAreShared(t *testing.T) {
	t.Parallel()
	pod := func(name, owner string, seconds int, probePath string) string {
		return fmt.Sprintf(`{"kind":"Pod","apiVersion":"v1","metadata":{"name":%q,"namespace":"prod",
			"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":%q,"uid":"u-%s","controller":true}]},
			"spec":{"containers":[{"name":"web","image":"web:1","resources":{"requests":{"cpu":"1"}},
				"livenessProbe":{"httpGet":{"path":%q,"port":8080}},"env":[{"name":"POD","value":%q}]}],
			"tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":%d}]}}`,
			name, owner, owner, probePath, name, seconds)
	}
	list := `{"kind":"PodList","apiVersion":"v1","items":[` + strings.Join([]string{
		pod("web-a", "web-7c9", 300, "/healthz"), pod("web-b", "web-7c9", 300, "/healthz"),
		pod("web-c", "web-5d4", 600, "/ready")}, ",") + `]}`
	for _, unstored := range []bool{true, false} {
		objs := decodeThree(t, list, unstored)
		a, b, c := objs[0].Pod, objs[1].Pod, objs[2].Pod
		if &a.Spec.Containers[0] != &b.Spec.Containers[0] || &a.Spec.Tolerations[0] != &b.Spec.Tolerations[0] ||
			&a.OwnerReferences[0] != &b.OwnerReferences[0] {
			t.Errorf("unstored %v: two pods of one template do not share their containers, tolerations and owners", unstored)
		}
		if &a.Spec.Containers[0] == &c.Spec.Containers[0] || c.Spec.Containers[0].LivenessProbe.HTTPGet.Path != "/ready" {
			t.Errorf("unstored %v: a pod with another probe has containers %+v", unstored, c.Spec.Containers[0])
		}
		if &a.Spec.Tolerations[0] == &c.Spec.Tolerations[0] || *c.Spec.Tolerations[0].TolerationSeconds != 600 {
			t.Errorf("unstored %v: a pod tolerating 600 s has tolerations %+v", unstored, c.Spec.Tolerations[0])
		}
		if &a.OwnerReferences[0] == &c.OwnerReferences[0] || c.OwnerReferences[0].Name != "web-5d4" {
			t.Errorf("unstored %v: a pod of another ReplicaSet has owners %+v", unstored, c.OwnerReferences)
		}
		if !unstored && !strings.Contains(string(objs[1].Stored()), `"web-b"`) {
			t.Errorf("stored: %s", objs[1].Stored())
		}
	}
}

// TestSharedSliceIsClipped: a slice kept to be shared has no room past its items, so that code
// appending to one pod's slice would copy it rather than write into the room of another's.
func TestSharedSliceIsClipped(t *testing.T) {
	t.Parallel()
	in := newInterner()
	s := make([]corev1.Toleration, 1, 4)
	s[0].Key = "node.kubernetes.io/not-ready"
	kept := shareSlice(in, in.slices.tolerations, s, hashToleration, equalToleration)
	again := shareSlice(in, in.slices.tolerations, slices.Clone(s), hashToleration, equalToleration)
	if &again[0] != &kept[0] {
		t.Fatal("an equal slice is not shared")
	}
	if cap(again) != len(again) {
		t.Errorf("the shared slice has room for %d more", cap(again)-len(again))
	}
}

// TestSharedSlicesCompareEveryField: each equality that lets two pods share a slice compares
// every field of its type, so that a field added to cluster.Container, or by a Kubernetes
// release to Toleration or OwnerReference, cannot make two pods that differ in it share one
// value. Each field (each field of a nested struct) is set in turn on a zero value, and the
// equality must tell it from the zero value.
func TestSharedSlicesCompareEveryField(t *testing.T) {
	t.Parallel()
	check := func(name string, typ reflect.Type, equal func(a, b reflect.Value) bool) {
		zero := reflect.New(typ).Elem()
		for _, v := range oneFieldSet(typ, name) {
			if equal(zero, v.value) {
				t.Errorf("%s: two values differing in %s are equal", name, v.path)
			}
		}
	}
	check("Toleration", reflect.TypeFor[corev1.Toleration](), func(a, b reflect.Value) bool {
		return equalToleration(a.Addr().Interface().(*corev1.Toleration), b.Addr().Interface().(*corev1.Toleration))
	})
	check("OwnerReference", reflect.TypeFor[metav1.OwnerReference](), func(a, b reflect.Value) bool {
		return equalOwner(a.Addr().Interface().(*metav1.OwnerReference), b.Addr().Interface().(*metav1.OwnerReference))
	})
	check("Container", reflect.TypeFor[cluster.Container](), func(a, b reflect.Value) bool {
		return equalContainer(a.Addr().Interface().(*cluster.Container), b.Addr().Interface().(*cluster.Container))
	})
}

type fieldSet struct {
	path  string
	value reflect.Value // addressable
}

// oneFieldSet lists values of typ, a struct, each with one field set to a value other than
// its zero; a field that is itself a struct gives one value for each of its own fields.
func oneFieldSet(typ reflect.Type, path string) []fieldSet {
	var out []fieldSet
	for i := range typ.NumField() {
		f := typ.Field(i)
		if !f.IsExported() {
			continue
		}
		p := path + "." + f.Name
		if f.Type.Kind() == reflect.Struct {
			for _, inner := range oneFieldSet(f.Type, p) {
				v := reflect.New(typ).Elem()
				v.Field(i).Set(inner.value)
				out = append(out, fieldSet{inner.path, v})
			}
			continue
		}
		v := reflect.New(typ).Elem()
		v.Field(i).Set(nonZero(f.Type))
		out = append(out, fieldSet{p, v})
	}
	return out
}

// nonZero is a value of t other than its zero.
func nonZero(t reflect.Type) reflect.Value {
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Pointer:
		v.Set(reflect.New(t.Elem()))
	case reflect.Map:
		v.Set(reflect.MakeMap(t))
		v.SetMapIndex(nonZero(t.Key()), reflect.New(t.Elem()).Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(t, 1, 1))
	case reflect.Struct:
		if t.NumField() > 0 {
			return oneFieldSet(t, "")[0].value
		}
	default:
		panic("nonZero: " + t.String())
	}
	return v
}
