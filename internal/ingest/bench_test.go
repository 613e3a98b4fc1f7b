package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/synth"
)

// benchPodCount is the size of the benchmarks' pod list (synth.BenchPods).
func benchPodCount() int { return synth.BenchPods() }

// benchPods is a `kubectl get pods -A -o json` of benchPodCount pods, made once per test binary.
var benchPods = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	if err := synth.WritePodList(&b, synth.Options{Pods: benchPodCount(), Seed: 20}); err != nil {
		panic(err) // test data generation cannot fail on a bytes.Buffer
	}
	return b.Bytes()
})

// cpuTime is the CPU time the process has used, user and system: a second measure next to the
// wall time, steadier on a shared machine, and the one that tells a decode on two cores from
// one on one.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per operation since start, in milliseconds (cpu-ms/op).
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/1e6, "cpu-ms/op")
}

// BenchmarkBareDecodePodList is the yardstick: encoding/json decoding the same bytes into a
// corev1.PodList, with no streaming, provenance or redaction.
func BenchmarkBareDecodePodList(b *testing.B) {
	data := benchPods()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		var list corev1.PodList
		if err := json.NewDecoder(bytes.NewReader(data)).Decode(&list); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodePodList is Rootline's ingest of the same bytes: format detection, streaming
// item by item, typed decode, provenance and redaction; the fast decoders are compiled first,
// as the yardstick's are (their compile, once per process, is in scripts/perf.sh's whole
// `rootline analyze` runs).
func BenchmarkDecodePodList(b *testing.B) {
	data := benchPods()
	if err := WarmUp(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		n := 0
		err := NewDecoder(Options{MaxBytes: int64(len(data)) + 1}).Decode(context.Background(), "pods.json", bytes.NewReader(data), func(*cluster.Object) error {
			n++
			return nil
		})
		if err != nil || n != benchPodCount() {
			b.Fatalf("decoded %d pods: %v", n, err)
		}
	}
}

// BenchmarkDecodePodListRaw adds what storing needs on top of decoding: the redacted JSON of
// every object.
func BenchmarkDecodePodListRaw(b *testing.B) {
	data := benchPods()
	if err := WarmUp(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		err := NewDecoder(Options{MaxBytes: int64(len(data)) + 1}).Decode(context.Background(), "pods.json", bytes.NewReader(data), func(o *cluster.Object) error {
			_, err := o.JSON()
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
