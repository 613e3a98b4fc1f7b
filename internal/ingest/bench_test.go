package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/synth"
)

// benchPods is a `kubectl get pods -A -o json` of 20,000 pods, made once per test binary.
var benchPods = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	if err := synth.WritePodList(&b, synth.Options{Pods: 20000, Seed: 20}); err != nil {
		panic(err) // test data generation cannot fail on a bytes.Buffer
	}
	return b.Bytes()
})

// BenchmarkBareDecodePodList is the yardstick: encoding/json decoding the same bytes into a
// corev1.PodList, with no streaming, provenance or redaction.
func BenchmarkBareDecodePodList(b *testing.B) {
	data := benchPods()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var list corev1.PodList
		if err := json.NewDecoder(bytes.NewReader(data)).Decode(&list); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodePodList is Rootline's ingest of the same bytes: format detection, streaming
// item by item, typed decode, provenance and redaction.
func BenchmarkDecodePodList(b *testing.B) {
	data := benchPods()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		err := NewDecoder(Options{}).Decode(context.Background(), "pods.json", bytes.NewReader(data), func(*cluster.Object) error {
			n++
			return nil
		})
		if err != nil || n != 20000 {
			b.Fatalf("decoded %d pods: %v", n, err)
		}
	}
}

// BenchmarkDecodePodListRaw adds what storing needs on top of decoding: the redacted JSON of
// every object.
func BenchmarkDecodePodListRaw(b *testing.B) {
	data := benchPods()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		err := NewDecoder(Options{}).Decode(context.Background(), "pods.json", bytes.NewReader(data), func(o *cluster.Object) error {
			_, err := o.JSON()
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
