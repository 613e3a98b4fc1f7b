package ingest

import (
	"testing"

	"github.com/bytedance/sonic"
	corev1 "k8s.io/api/core/v1"
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
	for b.Loop() {
		var list corev1.PodList
		if err := sonic.Unmarshal(data, &list); err != nil {
			b.Fatal(err)
		}
	}
}
