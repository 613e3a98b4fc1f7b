package collect

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
)

// countingSender takes every batch at once and counts its objects.
type countingSender struct{ objects atomic.Int64 }

func (s *countingSender) Send(_ context.Context, body []byte) error {
	// Each item of a batch starts with {"kind":"Event" (json.Marshal writes kind first).
	s.objects.Add(int64(countItems(body)))
	return nil
}

func countItems(body []byte) int {
	n := 0
	for i := 0; i+7 < len(body); i++ {
		if body[i] == '{' && string(body[i+1:i+8]) == `"kind":` {
			n++
		}
	}
	return n - 1 // the List itself
}

// BenchmarkCollectorBurst measures the collector's memory and throughput when a cluster
// holds a burst of events: the informer lists them all, the collector batches, spools and
// delivers them. Reported: events/s, and the peak heap during the run above the heap before
// it (the fake API server's own copy of the events is in that baseline), in MiB.
//
//	go test ./internal/collect -run '^$' -bench CollectorBurst -benchtime 1x
func BenchmarkCollectorBurst(b *testing.B) {
	for _, n := range []int{10_000, 50_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				objs := make([]k8sruntime.Object, n)
				for i := range objs {
					objs[i] = &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pod-%d.%x", i, i*7919), Namespace: fmt.Sprintf("ns-%d", i%50),
						UID: types.UID(fmt.Sprint("uid-", i)), ResourceVersion: fmt.Sprint(i + 1)},
						InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: fmt.Sprintf("ns-%d", i%50), Name: fmt.Sprintf("pod-%d", i)},
						Reason:         "FailedScheduling", Type: "Warning", Count: 1, Source: corev1.EventSource{Component: "default-scheduler"},
						Message:        "0/126 nodes are available: 24 Insufficient memory, 23 Insufficient cpu, 96 node(s) had untolerated taint {node.kubernetes.io/not-ready: }. preemption: 0/126 nodes are available: 126 No preemption victims found for incoming pod.",
						FirstTimestamp: metav1.Now(), LastTimestamp: metav1.Now()}
				}
				client := fake.NewClientset(objs...)
				objs = nil
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				baseline := ms.HeapInuse

				sender := &countingSender{}
				c, err := New(client, Options{SpoolDir: b.TempDir(), Sender: sender, FlushEvery: 100 * time.Millisecond})
				if err != nil {
					b.Fatal(err)
				}
				var peak uint64
				var wg sync.WaitGroup
				stopSampling := make(chan struct{})
				wg.Go(func() {
					var ms runtime.MemStats
					for {
						runtime.ReadMemStats(&ms)
						peak = max(peak, ms.HeapInuse)
						select {
						case <-stopSampling:
							return
						case <-time.After(5 * time.Millisecond):
						}
					}
				})
				start := time.Now()
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan error, 1)
				go func() { done <- c.Run(ctx) }()
				for sender.objects.Load() < int64(n) {
					time.Sleep(5 * time.Millisecond)
				}
				elapsed := time.Since(start)
				cancel()
				if err := <-done; err != nil {
					b.Fatal(err)
				}
				close(stopSampling)
				wg.Wait()
				b.ReportMetric(float64(n)/elapsed.Seconds(), "events/s")
				b.ReportMetric(float64(peak-min(peak, baseline))/(1<<20), "peak-MiB")
				b.ReportMetric(float64(peak-min(peak, baseline))/float64(n), "peak-B/event")
			}
		})
	}
}
