package ingest

import (
	"bytes"
	"testing"

	"github.com/bytedance/sonic"
	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/jsonscan"
)

// BenchmarkSonicDecodePodList is issue 16's yardstick: the fastest typed decode of the same
// bytes on amd64 (bytedance/sonic, its JIT warmed by the benchmark's first rounds), into a
// corev1.PodList, with no streaming, provenance or redaction.
func BenchmarkSonicDecodePodList(b *testing.B) {
	data := benchPods()
	var warm corev1.PodList
	if err := sonic.Unmarshal(data, &warm); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		var list corev1.PodList
		if err := sonic.Unmarshal(data, &list); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSonicItems measures what issue 16's decode could be: the items of the list found by
// jsonscan.SkipValue (the scan duplicateKey and valueFault already make), each decoded by sonic into a
// corev1.Pod, and checked for repeated keys. A measurement for choosing the decoder, not yet
// Rootline's path.
func BenchmarkSonicItems(b *testing.B) {
	data := benchPods()
	start := bytes.Index(data, []byte(`"items": [`)) + len(`"items": [`)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		for i := start; i < len(data); {
			for i < len(data) && (data[i] == ' ' || data[i] == '\n' || data[i] == ',' || data[i] == '\t' || data[i] == '\r') {
				i++
			}
			if i >= len(data) || data[i] != '{' {
				break
			}
			end, ok := jsonscan.SkipValue(data, i)
			if !ok {
				b.Fatal("bad item")
			}
			item := data[i:end]
			if _, dup := duplicateKey(item); dup {
				b.Fatal("repeated key")
			}
			var p corev1.Pod
			if err := sonic.Unmarshal(item, &p); err != nil {
				b.Fatal(err)
			}
			n++
			i = end
		}
		if n != benchPodCount() {
			b.Fatalf("%d items", n)
		}
	}
}
