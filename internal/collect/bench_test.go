package collect

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/rootline-dev/rootline/internal/kube/kubetest"
)

// countingSender takes every batch at once and counts its objects.
type countingSender struct{ objects atomic.Int64 }

func (s *countingSender) Send(_ context.Context, body []byte) error {
	s.objects.Add(int64(bytes.Count(body, []byte(`{"observedAt":`))))
	return nil
}

// burstEvent is the i-th event of a burst: a FailedScheduling event of a Dask worker.
func burstEvent(i int) corev1.Event {
	return corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pod-%d.%x", i, i*7919), Namespace: fmt.Sprintf("ns-%d", i%50),
		UID: types.UID(fmt.Sprint("uid-", i)), ResourceVersion: fmt.Sprint(i + 1)},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: fmt.Sprintf("ns-%d", i%50), Name: fmt.Sprintf("pod-%d", i)},
		Reason:         "FailedScheduling", Type: "Warning", Count: 1, Source: corev1.EventSource{Component: "default-scheduler"},
		Message: "0/126 nodes are available: 24 Insufficient memory, 23 Insufficient cpu, 96 node(s) had untolerated taint {node.kubernetes.io/not-ready: }. " +
			"preemption: 0/126 nodes are available: 126 No preemption victims found for incoming pod.",
		FirstTimestamp: metav1.Now(), LastTimestamp: metav1.Now()}
}

// burstClient is an API server holding half a burst of events, which it lists a page at a
// time as a real one does, and streaming the other half through a watch once asked.
func burstClient(n int) (*fake.Clientset, []corev1.Event, *watch.FakeWatcher) {
	listed := make([]corev1.Event, n/2)
	for i := range listed {
		listed[i] = burstEvent(i)
	}
	client := fake.NewClientset()
	client.PrependReactor("list", "events", func(a k8stesting.Action) (bool, k8sruntime.Object, error) {
		opts := a.(k8stesting.ListActionImpl).GetListOptions()
		start, _ := strconv.Atoi(opts.Continue)
		end := min(start+int(opts.Limit), len(listed))
		if opts.Limit == 0 {
			end = len(listed)
		}
		page := &corev1.EventList{Items: make([]corev1.Event, end-start)}
		copy(page.Items, listed[start:end])
		page.ResourceVersion = fmt.Sprint(len(listed))
		if end < len(listed) {
			page.Continue = strconv.Itoa(end)
		}
		return true, page, nil
	})
	w := watch.NewFakeWithChanSize(100, false)
	client.PrependWatchReactor("events", func(k8stesting.Action) (bool, watch.Interface, error) { return true, w, nil })
	return client, listed, w
}

// BenchmarkCollectorBurst measures the collector's memory and throughput in a burst of
// events: half of them already in the API server (listed a page at a time), half arriving
// through the watch as fast as the collector takes them. It batches, spools and delivers
// them all. Reported: events/s; the peak heap during the run above the heap before it (which
// holds the API server's events), in MiB and per event; and what the collector still holds
// once the burst is delivered, per event (the resourceVersion it last sent of each event).
// The peak includes garbage the runtime has not collected yet: with GOGC=100 it may grow
// with the live heap, which here holds the API server's copy of the burst.
//
//	go test ./internal/collect -run '^$' -bench CollectorBurst -benchtime 1x
func BenchmarkCollectorBurst(b *testing.B) {
	for _, n := range []int{10_000, 50_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				client, _, w := burstClient(n)
				arriving := make([]corev1.Event, n-n/2)
				for i := range arriving {
					arriving[i] = burstEvent(n/2 + i)
				}
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				baseline := ms.HeapInuse

				sender := &countingSender{}
				c, err := New(kubetest.Client(client), Options{SpoolDir: b.TempDir(), Sender: sender, FlushEvery: 100 * time.Millisecond})
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
				<-c.Synced()
				for i := range arriving {
					w.Add(&arriving[i])
				}
				for sender.objects.Load() < int64(n) {
					time.Sleep(5 * time.Millisecond)
				}
				elapsed := time.Since(start)
				runtime.GC() // what the collector still holds once the burst is delivered
				var after runtime.MemStats
				runtime.ReadMemStats(&after)
				cancel()
				if err := <-done; err != nil {
					b.Fatal(err)
				}
				close(stopSampling)
				wg.Wait()
				over := float64(peak - min(peak, baseline))
				b.ReportMetric(float64(n)/elapsed.Seconds(), "events/s")
				b.ReportMetric(over/(1<<20), "peak-MiB")
				b.ReportMetric(over/float64(n), "peak-B/event")
				b.ReportMetric(float64(after.HeapInuse-min(after.HeapInuse, baseline))/float64(n), "retained-B/event")
			}
		})
	}
}
