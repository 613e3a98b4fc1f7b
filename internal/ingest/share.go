package ingest

import (
	"hash/maphash"
	"reflect"
	"slices"

	"github.com/rootline-dev/rootline/internal/cluster"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// sliceTables are the slices of a pod kept so far that repeat from pod to pod, by a hash of
// their contents: the containers of one pod template (what Rootline keeps of them, without
// their environment), the owner of the pods of one ReplicaSet or Job, and the tolerations, which
// are the same two (not-ready and unreachable, 300 s, added by admission) on most pods of a
// cluster. On the 20,000-pod scale snapshot they were a tenth of the decoded pods' memory.
type sliceTables struct {
	containers  map[uint64][][]cluster.Container
	owners      map[uint64][][]metav1.OwnerReference
	tolerations map[uint64][][]corev1.Toleration
}

func newSliceTables() sliceTables {
	return sliceTables{containers: map[uint64][][]cluster.Container{},
		owners: map[uint64][][]metav1.OwnerReference{}, tolerations: map[uint64][][]corev1.Toleration{}}
}

// maxSharedSlice is the most items a slice may have to be shared: past it, comparing costs
// more than it saves.
const maxSharedSlice = 16

// shareSlice returns a slice equal to s that is shared with the other slices equal to it that
// table holds, and keeps s there when there is none. Two slices are equal when their items
// are, by equal; hash must write what equal compares (or less). A slice kept is clipped, so
// that code appending to it, which none does, would copy it rather than write into another
// pod's.
func shareSlice[T any](in *interner, table map[uint64][][]T, s []T, hash func(*maphash.Hash, *T), equal func(a, b *T) bool) []T {
	if len(s) == 0 || len(s) > maxSharedSlice {
		return s
	}
	var h maphash.Hash
	h.SetSeed(in.seed)
	for i := range s {
		hash(&h, &s[i])
		h.WriteByte(0)
	}
	k := h.Sum64()
	for _, kept := range table[k] {
		if len(kept) == len(s) && allEqual(kept, s, equal) {
			return kept
		}
	}
	s = slices.Clip(s)
	if len(table) < maxInterned {
		table[k] = append(table[k], s)
	}
	return s
}

func allEqual[T any](a, b []T, equal func(a, b *T) bool) bool {
	for i := range a {
		if !equal(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

// samePtr says whether a and b point to equal values, or are both nil.
func samePtr[T comparable](a, b *T) bool {
	return a == b || a != nil && b != nil && *a == *b
}

func writeStrings[S ~string](h *maphash.Hash, ss ...S) {
	for _, s := range ss {
		h.WriteString(string(s))
		h.WriteByte(0)
	}
}

// The fields each equality below compares are those of the type; TestSharedSlicesCompareEveryField
// fails when a field is added to one of them (by Rootline or by a new Kubernetes release) and
// not to its equality.

func hashToleration(h *maphash.Hash, t *corev1.Toleration) {
	writeStrings(h, t.Key, string(t.Operator), t.Value, string(t.Effect))
	if t.TolerationSeconds != nil {
		maphash.WriteComparable(h, *t.TolerationSeconds)
	}
}

func equalToleration(a, b *corev1.Toleration) bool {
	return a.Key == b.Key && a.Operator == b.Operator && a.Value == b.Value && a.Effect == b.Effect &&
		samePtr(a.TolerationSeconds, b.TolerationSeconds)
}

func hashOwner(h *maphash.Hash, r *metav1.OwnerReference) {
	writeStrings(h, r.APIVersion, r.Kind, r.Name, string(r.UID))
}

func equalOwner(a, b *metav1.OwnerReference) bool {
	return a.APIVersion == b.APIVersion && a.Kind == b.Kind && a.Name == b.Name && a.UID == b.UID &&
		samePtr(a.Controller, b.Controller) && samePtr(a.BlockOwnerDeletion, b.BlockOwnerDeletion)
}

// hashContainer writes a container's name, image and resource lists. The lists are compared
// as the same map: the interner shares equal lists (resources), so equal containers have the
// same maps, and containers whose lists it did not share are left apart.
func hashContainer(h *maphash.Hash, c *cluster.Container) {
	writeStrings(h, c.Name, c.Image)
	maphash.WriteComparable(h, reflect.ValueOf(c.Resources.Requests).UnsafePointer())
	maphash.WriteComparable(h, reflect.ValueOf(c.Resources.Limits).UnsafePointer())
}

func equalContainer(a, b *cluster.Container) bool {
	return a.Name == b.Name && a.Image == b.Image &&
		sameMap(a.Resources.Requests, b.Resources.Requests) && sameMap(a.Resources.Limits, b.Resources.Limits) &&
		len(a.Resources.Claims) == 0 && len(b.Resources.Claims) == 0 &&
		samePtr(a.RestartPolicy, b.RestartPolicy) &&
		reflect.DeepEqual(a.LivenessProbe, b.LivenessProbe) && reflect.DeepEqual(a.ReadinessProbe, b.ReadinessProbe) &&
		reflect.DeepEqual(a.StartupProbe, b.StartupProbe)
}

// sameMap says whether a and b are the same map (or both empty).
func sameMap(a, b corev1.ResourceList) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}
