package collect

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/rootline-dev/rootline/internal/k8stest"
	"github.com/rootline-dev/rootline/internal/kube"
)

// forgottenRV is a resourceVersion the API server forgets (a watch from it ends with 410 Gone,
// "too old resource version") once etcd is compacted past it, every compactEvery (the API
// server compacts to the revision it saw one interval before). Events are watched from etcd
// itself, not from the API server's watch cache, so until then a watch from it replays them.
const (
	forgottenRV  = "1"
	compactEvery = 5 * time.Second
)

// watchFaults sits between client-go and the API server. It counts the lists and watches of
// events, and can end the open watches of events (as the API server does when a watch times
// out) and make the next watch of events start from forgottenRV, as if the API server had
// forgotten the resourceVersion it resumes from.
type watchFaults struct {
	rt http.RoundTripper

	mu         sync.Mutex
	lists      int
	watchRVs   []string // the resourceVersion of each watch, as sent
	expireNext bool
	open       []*cutBody
}

func (f *watchFaults) wrap(rt http.RoundTripper) http.RoundTripper {
	f.rt = rt
	return f
}

func (f *watchFaults) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet || !strings.HasSuffix(req.URL.Path, "/events") {
		return f.rt.RoundTrip(req)
	}
	q := req.URL.Query()
	f.mu.Lock()
	if q.Get("watch") != "true" && q.Get("watch") != "1" {
		f.lists++
		f.mu.Unlock()
		return f.rt.RoundTrip(req)
	}
	if f.expireNext {
		f.expireNext = false
		q.Set("resourceVersion", forgottenRV)
		req = req.Clone(req.Context())
		req.URL.RawQuery = q.Encode()
	}
	f.watchRVs = append(f.watchRVs, q.Get("resourceVersion"))
	f.mu.Unlock()
	resp, err := f.rt.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	b := &cutBody{ReadCloser: resp.Body}
	resp.Body = b
	f.mu.Lock()
	f.open = append(f.open, b)
	f.mu.Unlock()
	return resp, nil
}

// cut ends the open watches of events; when expire is set, the next one starts from
// forgottenRV.
func (f *watchFaults) cut(expire bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.expireNext = expire
	for _, b := range f.open {
		b.cut()
	}
	f.open = nil
}

func (f *watchFaults) counts() (lists int, watchRVs []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.lists, append([]string(nil), f.watchRVs...)
}

// cutBody is a watch's answer that the test can end: its reader then sees the end of the
// stream, as when the API server closes a watch.
type cutBody struct {
	io.ReadCloser
	cutting atomic.Bool
}

func (b *cutBody) cut() {
	b.cutting.Store(true)
	_ = b.ReadCloser.Close()
}

func (b *cutBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && b.cutting.Load() {
		err = io.EOF
	}
	return n, err
}

// TestCollectorEventsAgainstAPIServer runs the collector against a real kube-apiserver: the
// events there before it starts are sent, then those created or updated after its list; when
// the API server ends the watch, the watch is resumed (no new list) and nothing is lost; when
// the watch must be resumed from a resourceVersion the API server has forgotten (410 Gone),
// the collector lists again, and sends what changed meanwhile, each version once; and when its
// context ends, it stops, leaving no goroutine of its own behind.
func TestCollectorEventsAgainstAPIServer(t *testing.T) {
	cl := k8stest.StartWith(t, k8stest.StartOptions{APIServerArgs: []string{"--etcd-compaction-interval=" + compactEvery.String()}})
	faults := &watchFaults{}
	cfg := rest.CopyConfig(cl.Config)
	cfg.WrapTransport = faults.wrap
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	const ns = "collect"
	if _, err := client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	events := map[string]*corev1.Event{}
	create := func(name string) {
		t.Helper()
		now := metav1.Now()
		e, err := client.CoreV1().Events(ns).Create(ctx, &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
			InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: ns, Name: "hub"}, Reason: "BackOff", Type: "Warning",
			Message: "Back-off restarting failed container", Count: 1, FirstTimestamp: now, LastTimestamp: now,
			Source: corev1.EventSource{Component: "kubelet"}}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		events[name] = e
	}
	bump := func(name string) {
		t.Helper()
		e := events[name].DeepCopy()
		e.Count++
		e, err := client.CoreV1().Events(ns).Update(ctx, e, metav1.UpdateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		events[name] = e
	}
	rec := &recorder{}
	delivered := func(want ...string) {
		t.Helper()
		waitFor(t, fmt.Sprintf("the delivery of %q", want), func() bool {
			got := rec.objects(t)
			for _, w := range want {
				if !contains(got, "Event "+ns+"/"+w) {
					return false
				}
			}
			return true
		})
	}

	create("before-1")
	create("before-2")
	logs := &syncBuffer{}
	// The collector reads with Rootline's own client (kube.NewClient), through the same faults.
	kc, err := kube.NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(kc, Options{Namespace: ns, SpoolDir: t.TempDir(), Sender: rec, FlushEvery: 20 * time.Millisecond,
		Log: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	stop := start(t, c)
	delivered("before-1: count 1", "before-2: count 1")

	// Created and updated after the list: through the watch.
	create("after-list")
	bump("before-1")
	delivered("after-list: count 1", "before-1: count 2")

	// The API server ends the watch: it is resumed from the last resourceVersion seen (less
	// than compactEvery old, so not forgotten yet), with no new list.
	faults.cut(false)
	create("after-close")
	delivered("after-close: count 1")
	lists, watches := faults.counts()
	if lists != 1 || len(watches) < 2 {
		t.Fatalf("after the watch closed: %d lists, watches from %q; want 1 list and the watch resumed", lists, watches)
	}

	// The watch ends, and the resourceVersion it resumes from is forgotten: the collector lists
	// again. What happens meanwhile is delivered, and nothing twice.
	waitFor(t, "etcd to be compacted past resourceVersion "+forgottenRV, func() bool { return forgotten(t, cl.Config, ns) })
	faults.cut(true)
	create("while-away")
	bump("after-list")
	waitFor(t, "a new list", func() bool { lists, _ := faults.counts(); return lists == 2 })
	create("after-relist")
	want := []string{"before-1: count 1", "before-2: count 1", "after-list: count 1", "before-1: count 2", "after-close: count 1",
		"while-away: count 1", "after-list: count 2", "after-relist: count 1"}
	delivered(want...)
	time.Sleep(200 * time.Millisecond) // room for a duplicate to show

	if err := stop(); err != nil {
		t.Fatal(err)
	}
	wantNoGoroutines(t, "(*RetryWatcher)", "(*Collector)")
	got := rec.objects(t)
	for _, w := range want {
		n := 0
		for _, g := range got {
			if g == "Event "+ns+"/"+w {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%q delivered %d times, want once", w, n)
		}
	}
	if len(got) != len(want) {
		t.Errorf("delivered %d objects, want %d: %q", len(got), len(want), got)
	}
	lists, watches = faults.counts()
	if lists != 2 || !contains(watches, forgottenRV) {
		t.Errorf("%d lists, watches from %q; want 2 lists, a watch from the forgotten resourceVersion", lists, watches)
	}
	if !strings.Contains(logs.String(), `msg="events: watch expired, listing again"`) {
		t.Errorf("the expired watch is not logged:\n%s", logs)
	}
}

// forgotten reports whether the API server has forgotten forgottenRV: a watch from it starts
// with 410 Gone.
func forgotten(t *testing.T, cfg *rest.Config, ns string) bool {
	t.Helper()
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	w, err := client.CoreV1().Events(ns).Watch(t.Context(), metav1.ListOptions{ResourceVersion: forgottenRV})
	if err != nil {
		return apierrors.IsResourceExpired(err) || apierrors.IsGone(err)
	}
	defer w.Stop()
	select {
	case ev := <-w.ResultChan():
		err := apierrors.FromObject(ev.Object)
		return ev.Type == watch.Error && (apierrors.IsResourceExpired(err) || apierrors.IsGone(err))
	case <-time.After(time.Second):
		return false
	}
}
