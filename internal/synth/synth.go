// Package synth generates large, deterministic, kubectl-shaped inputs for Rootline's tests and
// benchmarks: the JSON that `kubectl get pods|nodes|events -A -o json` prints for a JupyterHub and
// Dask cluster on GKE, with the pending pods, evictions, OOM kills and not-ready nodes of an
// incident.
//
// Every object is a pure function of its Options and its index: Pod(o, i) seeds its own
// random stream from (o.Seed, i), so it equals the i-th item of WritePodList without generating
// the items before it. Objects refer to each other consistently: a pod's nodeName and hostIP
// are those of a generated node, and an event's involvedObject is a generated pod or node.
package synth

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Options sizes a synthetic cluster.
type Options struct {
	Nodes  int       // number of nodes (default: Pods/30, at least 1)
	Pods   int       // number of pods
	Events int       // number of events (v1 Events)
	Seed   int64     // deterministic output for the same options
	Start  time.Time // time of the first event; default 2023-02-01T16:59:00Z
}

// Salts separate the random streams of the different kinds of objects and their parts.
const (
	saltPodID uint64 = iota + 1
	saltPodBody
	saltPodDetail
	saltNodeID
	saltNodeBody
	saltEvent
	saltGroup
	saltOwner
	saltOwnerUID
)

// eventSpacing is the time between the first timestamps of consecutive events.
const eventSpacing = 2 * time.Second

// A kubectl List: the header before the items, the indentation of an item, and the tail after
// the items and the bracket that closes them.
const (
	listHeader = "{\n    \"apiVersion\": \"v1\",\n    \"items\": ["
	itemIndent = "        "
	listTail   = "    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n"
)

// norm returns o with the defaults filled in.
func (o Options) norm() Options {
	if o.Nodes <= 0 {
		o.Nodes = max(o.Pods/30, 1)
	}
	if o.Start.IsZero() {
		o.Start = time.Date(2023, time.February, 1, 16, 59, 0, 0, time.UTC)
	}
	o.Start = o.Start.UTC().Truncate(time.Second)
	return o
}

// snapshot is when the cluster was dumped: a minute after the first timestamp of the last event.
func (o Options) snapshot() time.Time {
	return o.Start.Add(time.Duration(max(o.Events, 1))*eventSpacing + time.Minute)
}

// WritePodList writes a `kubectl get pods -A -o json` document with o.Pods pods:
// {"apiVersion":"v1","items":[...],"kind":"List","metadata":{"resourceVersion":""}}, indented
// with 4 spaces like kubectl. It streams the list item by item, never holding more than one pod;
// item i is Pod(o, i) as encoding/json renders it.
func WritePodList(w io.Writer, o Options) error {
	return writeList(w, "pods", o.Pods, func(i int) any { return Pod(o, i) })
}

// WriteNodeList writes a `kubectl get nodes -o json` document, like WritePodList, with o.Nodes
// nodes (by default o.Pods/30, at least 1); item i is Node(o, i).
func WriteNodeList(w io.Writer, o Options) error {
	n := o.Nodes
	if n == 0 {
		n = o.norm().Nodes
	}
	return writeList(w, "nodes", n, func(i int) any { return Node(o, i) })
}

// WriteEventList writes a `kubectl get events -A -o json` document, like WritePodList, with
// o.Events v1 Events; item i is Event(o, i).
func WriteEventList(w io.Writer, o Options) error {
	return writeList(w, "events", o.Events, func(i int) any { return Event(o, i) })
}

// writeList streams a kubectl List of n items: each item is encoded on its own, indented like
// kubectl does, and written as soon as it is made.
func writeList(w io.Writer, what string, n int, item func(int) any) error {
	if n < 0 {
		return fmt.Errorf("synth: write %s: negative count %d", what, n)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(listHeader) // a write error sticks in bw, to be reported by the next Write or Flush
	if n == 0 {
		bw.WriteString("],\n")
	}
	// An Encoder with SetIndent writes what json.MarshalIndent returns, plus a newline, and
	// reuses its buffers from one item to the next.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent(itemIndent, "    ")
	for i := range n {
		buf.Reset()
		if err := enc.Encode(item(i)); err != nil {
			return fmt.Errorf("synth: encode %s item %d: %w", what, i, err)
		}
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n" + itemIndent)
		if _, err := bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))); err != nil {
			return fmt.Errorf("synth: write %s item %d: %w", what, i, err)
		}
	}
	if n > 0 {
		bw.WriteString("\n    ],\n")
	}
	bw.WriteString(listTail)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("synth: write %s: %w", what, err)
	}
	return nil
}

// newRand returns the random stream of part salt of object i.
func newRand(o Options, salt uint64, i int) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(o.Seed), salt<<48^uint64(i)))
}

// pick returns one of the choices.
func pick[T any](r *rand.Rand, choices ...T) T { return choices[r.IntN(len(choices))] }

// between returns a random integer in [lo, hi].
func between(r *rand.Rand, lo, hi int) int { return lo + r.IntN(hi-lo+1) }

// chance reports true with probability p.
func chance(r *rand.Rand, p float64) bool { return r.Float64() < p }

// hexString returns n random lowercase hex digits.
func hexString(r *rand.Rand, n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[r.IntN(16)]
	}
	return string(b)
}

// newUID returns a random version 4 UUID, the format of Kubernetes UIDs.
func newUID(r *rand.Rand) string {
	h := hexString(r, 32)
	return h[0:8] + "-" + h[8:12] + "-4" + h[13:16] + "-" + string("89ab"[r.IntN(4)]) + h[17:20] + "-" + h[20:32]
}

// uniqueSuffix encodes key as n characters of alphabet, scrambled by seed. Different keys
// below len(alphabet)^n give different suffixes, since the scrambling is a bijection.
func uniqueSuffix(key uint64, seed int64, alphabet string, n int) string {
	const prime = 1000003 // coprime to every power of 2, 3 and 5, so to every alphabet size used
	k := uint64(len(alphabet))
	m := uint64(1)
	for range n {
		m *= k
	}
	v := (key%m*prime + (uint64(seed)*0x9e3779b97f4a7c15>>17)%m) % m
	b := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		b[i] = alphabet[v%k]
		v /= k
	}
	return string(b)
}

// Alphabets of generated names: Kubernetes' own random suffixes avoid vowels and look-alikes.
const (
	alphaK8s = "bcdfghjklmnpqrstvwxz2456789"
	alphaGCE = "abcdefghijklmnopqrstuvwxyz0123456789"
	alphaHex = "0123456789abcdef"
)

// ptr returns a pointer to v.
func ptr[T any](v T) *T { return &v }

// mtime converts t to a metav1.Time at the second precision that JSON keeps.
func mtime(t time.Time) metav1.Time { return metav1.NewTime(t.UTC().Truncate(time.Second)) }

// resourceVersion returns a plausible etcd resource version.
func resourceVersion(r *rand.Rand) string { return fmt.Sprint(between(r, 100000000, 999999999)) }

// keyRand returns a random stream that depends only on key, for what many objects share: the
// hash and UID of a controller, the digest of an image.
func keyRand(o Options, salt uint64, key string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(key)) // a hash.Hash never fails to write
	return rand.New(rand.NewPCG(uint64(o.Seed)^h.Sum64(), salt<<48))
}

// nameHash returns the n-character hash that the controller named key puts in pod names.
func nameHash(o Options, key string, n int) string {
	r := keyRand(o, saltOwner, key)
	b := make([]byte, n)
	for i := range b {
		b[i] = alphaK8s[r.IntN(len(alphaK8s))]
	}
	return string(b)
}

// ownerUID returns the UID of the controller named key.
func ownerUID(o Options, key string) types.UID {
	return types.UID(newUID(keyRand(o, saltOwnerUID, key)))
}

// imageRef returns an image reference the way the container runtime reports it, with its
// registry, and its digest: `docker.io/pangeo/pangeo-notebook@sha256:...`.
func imageRef(o Options, image string) (ref, digest string) {
	ref = image
	if first, _, ok := strings.Cut(image, "/"); !ok || !strings.Contains(first, ".") {
		ref = "docker.io/" + image
	}
	repo, _, _ := strings.Cut(ref, ":")
	return ref, repo + "@sha256:" + hexString(keyRand(o, saltOwner, image), 64)
}
