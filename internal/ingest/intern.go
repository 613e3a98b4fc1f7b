package ingest

import (
	"hash/maphash"
	"maps"

	"github.com/rootline-dev/rootline/internal/cluster"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// interner makes the objects of one Decoder share what repeats between them: the strings
// (namespaces, label values, images, node names, reasons, event sources) and the resource
// lists of containers, which encoding/json allocates afresh for every object. On 20,000 pods
// and 50,000 events this is a fifth of the decoded objects' memory. What is shared is equal,
// so only code that modified a decoded object in place could tell; none does (the objects
// are read-only once emitted, see cluster.Object).
type interner struct {
	strs map[string]string
	res  map[resourceKey]corev1.ResourceList
	// maps are the string maps (labels, annotations, node selectors) kept so far, by the sum
	// of their pairs' hashes (mapHash), for the pods of one ReplicaSet or DaemonSet, which have
	// equal labels, to share one map.
	maps map[uint64][]map[string]string
	// slices are a pod's containers, owners and tolerations, shared the same way (share.go).
	slices sliceTables
	seed   maphash.Seed
	// arena, when not nil, owns the bytes of every string the interner keeps (arena.go):
	// the decoder's own copy of each is then garbage as a whole, never kept beside garbage.
	arena *arena
}

// maxInterned bounds each table: past it, values are no longer added (they are still found).
const maxInterned = 1 << 16

func newInterner() *interner {
	return &interner{strs: map[string]string{}, res: map[resourceKey]corev1.ResourceList{},
		maps: map[uint64][]map[string]string{}, slices: newSliceTables(), seed: maphash.MakeSeed()}
}

func internStr[S ~string](in *interner, s *S) {
	if len(*s) == 0 {
		return
	}
	if v, ok := in.strs[string(*s)]; ok {
		*s = S(v)
		return
	}
	v := in.arena.own(string(*s))
	*s = S(v)
	if len(in.strs) < maxInterned {
		in.strs[v] = v
	}
}

// ownStr is internStr for a string that does not repeat (an event's name and UID): moved into
// the arena, if there is one, and not looked up or added to the table.
func ownStr[S ~string](in *interner, s *S) {
	*s = S(in.arena.own(string(*s)))
}

// values interns the values of a string map in place; its keys stay as they are.
func (in *interner) values(m map[string]string) {
	for k, v := range m {
		if iv, ok := in.strs[v]; ok {
			m[k] = iv
			continue
		}
		if in.arena != nil {
			v = in.arena.own(v)
			m[k] = v
		}
		if len(in.strs) < maxInterned {
			in.strs[v] = v
		}
	}
}

// maxSharedMap is the most pairs a string map may have to be shared: past it, comparing it
// with the maps kept would cost more than it saves.
const maxSharedMap = 64

// stringMap returns a map equal to m that is shared with the other maps equal to it, its
// values interned: labels, annotations and node selectors repeat from pod to pod of one
// controller, and a small map costs hundreds of bytes.
func (in *interner) stringMap(m map[string]string) map[string]string {
	if len(m) == 0 || len(m) > maxSharedMap {
		in.values(m)
		return m
	}
	h := in.mapHash(m)
	for _, shared := range in.maps[h] {
		if maps.Equal(shared, m) {
			return shared
		}
	}
	in.values(m)
	if len(in.maps) < maxInterned {
		in.maps[h] = append(in.maps[h], m)
	}
	return m
}

// mapHash is the sum of the hashes of m's pairs: the same whatever order they are ranged in.
func (in *interner) mapHash(m map[string]string) uint64 {
	var (
		h   maphash.Hash
		sum uint64
	)
	h.SetSeed(in.seed)
	for k, v := range m {
		h.Reset()
		h.WriteString(k)
		h.WriteByte(0)
		h.WriteString(v)
		sum += h.Sum64()
	}
	return sum
}

// resourceKey is a resource list of up to four entries, sorted by name, as a map key.
type resourceKey [4]struct {
	name corev1.ResourceName
	q    resource.Quantity
}

// resources returns a resource list equal to l that is shared with the other lists equal to it.
func (in *interner) resources(l corev1.ResourceList) corev1.ResourceList {
	if len(l) == 0 || len(l) > len(resourceKey{}) {
		return l
	}
	var k resourceKey
	i := 0
	for name, q := range l {
		// An amount too precise for an int64 is held by pointer, and equal only to itself.
		k[i].name, k[i].q = name, q
		for j := i; j > 0 && k[j].name < k[j-1].name; j-- {
			k[j], k[j-1] = k[j-1], k[j]
		}
		i++
	}
	if shared, ok := in.res[k]; ok {
		return shared
	}
	if len(in.res) < maxInterned {
		in.res[k] = l
	}
	return l
}

func (in *interner) meta(m *metav1.ObjectMeta) {
	internStr(in, &m.Namespace)
	internStr(in, &m.GenerateName)
	m.Labels = in.stringMap(m.Labels)
	in.owners(m.OwnerReferences)
}

// owners shares what repeats in an object's owner references.
func (in *interner) owners(refs []metav1.OwnerReference) {
	for i := range refs {
		r := &refs[i]
		internStr(in, &r.APIVersion)
		internStr(in, &r.Kind)
		internStr(in, &r.Name)
		internStr(in, &r.UID)
	}
}

func (in *interner) node(n *corev1.Node) {
	in.meta(&n.ObjectMeta)
	n.Status.Capacity = in.resources(n.Status.Capacity)
	n.Status.Allocatable = in.resources(n.Status.Allocatable)
	for i := range n.Status.Conditions {
		c := &n.Status.Conditions[i]
		internStr(in, &c.Type)
		internStr(in, &c.Status)
		internStr(in, &c.Reason)
	}
}

// typeMeta shares o's kind, apiVersion and namespace: for an object decoded into what Rootline
// keeps of it, which holds no kind to share them with.
func (in *interner) typeMeta(o *cluster.Object) {
	internStr(in, &o.Kind)
	internStr(in, &o.APIVersion)
	internStr(in, &o.Namespace)
}

// keptMeta is meta for what Rootline keeps of an object's metadata.
func (in *interner) keptMeta(m *cluster.ObjectMeta) {
	internStr(in, &m.Namespace)
	m.Labels = in.stringMap(m.Labels)
	m.Annotations = in.stringMap(m.Annotations)
	in.owners(m.OwnerReferences)
	m.OwnerReferences = shareSlice(in, in.slices.owners, m.OwnerReferences, hashOwner, equalOwner)
}

// keptPod shares what repeats in what Rootline keeps of a pod.
func (in *interner) keptPod(p *cluster.Pod) {
	in.keptMeta(&p.ObjectMeta)
	internStr(in, &p.Name)
	internStr(in, &p.UID)
	s := &p.Spec
	internStr(in, &s.NodeName)
	internStr(in, &s.ServiceAccountName)
	internStr(in, &s.PriorityClassName)
	internStr(in, &s.RestartPolicy)
	s.NodeSelector = in.stringMap(s.NodeSelector)
	for i := range s.Tolerations {
		t := &s.Tolerations[i]
		internStr(in, &t.Key)
		internStr(in, &t.Operator)
		internStr(in, &t.Value)
		internStr(in, &t.Effect)
	}
	s.Tolerations = shareSlice(in, in.slices.tolerations, s.Tolerations, hashToleration, equalToleration)
	for _, cs := range []*[]cluster.Container{&s.InitContainers, &s.Containers} {
		for i := range *cs {
			c := &(*cs)[i]
			internStr(in, &c.Name)
			internStr(in, &c.Image)
			c.Resources.Requests = in.resources(c.Resources.Requests)
			c.Resources.Limits = in.resources(c.Resources.Limits)
		}
		*cs = shareSlice(in, in.slices.containers, *cs, hashContainer, equalContainer)
	}
	st := &p.Status
	internStr(in, &st.Phase)
	internStr(in, &st.QOSClass)
	internStr(in, &st.Reason)
	internStr(in, &st.HostIP)
	for i := range st.Conditions {
		c := &st.Conditions[i]
		internStr(in, &c.Type)
		internStr(in, &c.Status)
		internStr(in, &c.Reason)
	}
	for _, ss := range [][]cluster.ContainerStatus{st.InitContainerStatuses, st.ContainerStatuses} {
		for i := range ss {
			s := &ss[i]
			internStr(in, &s.Name)
			internStr(in, &s.Image)
			for _, state := range []*corev1.ContainerState{&s.State, &s.LastTerminationState} {
				if state.Waiting != nil {
					internStr(in, &state.Waiting.Reason)
				}
				if state.Terminated != nil {
					internStr(in, &state.Terminated.Reason)
				}
			}
		}
	}
}

// keptEvent shares what repeats in what Rootline keeps of an event.
func (in *interner) keptEvent(e *cluster.Event) {
	ownStr(in, &e.Name)
	ownStr(in, &e.UID)
	internStr(in, &e.Namespace)
	o := &e.InvolvedObject
	internStr(in, &o.Kind)
	internStr(in, &o.Namespace)
	internStr(in, &o.Name)
	internStr(in, &o.UID)
	internStr(in, &o.APIVersion)
	internStr(in, &o.FieldPath)
	internStr(in, &e.Reason)
	internStr(in, &e.Message)
	internStr(in, &e.Type)
	internStr(in, &e.Source.Component)
	internStr(in, &e.Source.Host)
	internStr(in, &e.ReportingController)
	internStr(in, &e.ReportingInstance)
	if e.EventsAPI != nil {
		internStr(in, &e.EventsAPI.Action)
	}
}
