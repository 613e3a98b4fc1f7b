package collect

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/rootline-dev/rootline/internal/kube/kubetest"
)

// scriptedAPI is an API server whose every list and watch of events waits for the test to
// answer it, so that a test can play a sequence of lists, watches, closes and expiries.
type scriptedAPI struct {
	client  *fake.Clientset
	lists   chan call
	watches chan call
	done    chan struct{} // closed by end: calls not answered then fail
	ending  sync.Once
}

// end fails the calls waiting for an answer, and those to come.
func (api *scriptedAPI) end() { api.ending.Do(func() { close(api.done) }) }

// call is one list or watch request, waiting for its answer.
type call struct {
	opts  metav1.ListOptions
	reply chan answer
}

type answer struct {
	list *corev1.EventList
	w    watch.Interface
	err  error
}

func newScriptedAPI(t *testing.T) *scriptedAPI {
	api := &scriptedAPI{client: fake.NewClientset(), lists: make(chan call), watches: make(chan call), done: make(chan struct{})}
	t.Cleanup(api.end)
	ask := func(calls chan call, opts metav1.ListOptions) answer {
		c := call{opts: opts, reply: make(chan answer, 1)}
		select {
		case calls <- c:
		case <-api.done:
			return answer{err: errors.New("the test has ended")}
		}
		select {
		case a := <-c.reply:
			return a
		case <-api.done:
			return answer{err: errors.New("the test has ended")}
		}
	}
	api.client.PrependReactor("list", "events", func(a k8stesting.Action) (bool, k8sruntime.Object, error) {
		ans := ask(api.lists, a.(k8stesting.ListActionImpl).GetListOptions())
		if ans.err != nil {
			return true, nil, ans.err
		}
		return true, ans.list, nil
	})
	api.client.PrependWatchReactor("events", func(a k8stesting.Action) (bool, watch.Interface, error) {
		ans := ask(api.watches, a.(k8stesting.WatchActionImpl).GetListOptions())
		return true, ans.w, ans.err
	})
	return api
}

// expectList waits for the next request, which must be a list continuing from cont.
func (api *scriptedAPI) expectList(t *testing.T, cont string) call {
	t.Helper()
	select {
	case c := <-api.lists:
		if c.opts.Continue != cont {
			t.Fatalf("list continues from %q, want %q", c.opts.Continue, cont)
		}
		if c.opts.Limit != eventPageSize {
			t.Errorf("list asks for pages of %d, want %d", c.opts.Limit, eventPageSize)
		}
		return c
	case c := <-api.watches:
		t.Fatalf("watch from resourceVersion %q where a list was due", c.opts.ResourceVersion)
	case <-time.After(10 * time.Second):
		t.Fatal("no list came")
	}
	return call{}
}

// expectWatch waits for the next request, which must be a watch from rv.
func (api *scriptedAPI) expectWatch(t *testing.T, rv string) call {
	t.Helper()
	select {
	case c := <-api.watches:
		if c.opts.ResourceVersion != rv {
			t.Fatalf("watch from resourceVersion %q, want %q", c.opts.ResourceVersion, rv)
		}
		return c
	case c := <-api.lists:
		t.Fatalf("list (continue %q) where a watch from resourceVersion %q was due", c.opts.Continue, rv)
	case <-time.After(10 * time.Second):
		t.Fatalf("no watch from resourceVersion %q came", rv)
	}
	return call{}
}

// answerList answers a list call with a page of events.
func answerList(c call, rv, cont string, items ...*corev1.Event) {
	l := &corev1.EventList{ListMeta: metav1.ListMeta{ResourceVersion: rv, Continue: cont}}
	for _, e := range items {
		l.Items = append(l.Items, *e)
	}
	c.reply <- answer{list: l}
}

// answerWatch opens the watch of a call, which the test then drives.
func answerWatch(c call) *watch.RaceFreeFakeWatcher {
	w := watch.NewRaceFreeFake()
	c.reply <- answer{w: w}
	return w
}

// ev is the event name at resourceVersion rv with count n; its UID is derived from its name.
func ev(name, rv string, n int32) *corev1.Event {
	return &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "prod", UID: types.UID("uid-" + name), ResourceVersion: rv},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "prod", Name: "hub"}, Reason: "BackOff", Count: n}
}

// sentEvents lists the events the collector has sent so far, as "name@resourceVersion".
func sentEvents(t *testing.T, c *Collector) []string {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, b := range c.batch {
		var e corev1.Event
		if err := json.Unmarshal(b.Object, &e); err != nil {
			t.Error(err) // not Fatal: synced calls this from streamEvents' goroutine
			continue
		}
		out = append(out, e.Name+"@"+e.ResourceVersion)
	}
	return out
}

// wantSent fails unless the collector has sent exactly want, in this order, within a few
// seconds.
func wantSent(t *testing.T, c *Collector, want ...string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := sentEvents(t, c)
		if strings.Join(got, " ") == strings.Join(want, " ") {
			return
		}
		if len(got) > len(want) || time.Now().After(deadline) {
			t.Fatalf("sent %q, want %q", got, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// syncBuffer is a log destination written from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// streamScripted runs streamEvents on api until the returned stop is called. The collector
// keeps what it sends in its batch (never spooled: the batch is large). synced reports, when
// streamEvents calls it, what had been sent by then.
func streamScripted(t *testing.T, api *scriptedAPI) (c *Collector, log *syncBuffer, synced <-chan []string, stop func()) {
	t.Helper()
	log = &syncBuffer{}
	c, err := New(kubetest.Client(api.client), Options{SpoolDir: t.TempDir(), Sender: &recorder{}, BatchSize: 1 << 20,
		Log: slog.New(slog.NewTextHandler(log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	syncs := make(chan []string, 100)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.streamEvents(ctx, func() { syncs <- sentEvents(t, c) })
	}()
	stopped := false
	stop = func() {
		t.Helper()
		if stopped {
			return
		}
		stopped = true
		api.end()
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("streamEvents did not return within 5s of its context ending")
		}
		wantNoGoroutines(t, "(*RetryWatcher)", "(*Collector)")
	}
	t.Cleanup(stop)
	return c, log, syncs, stop
}

// wantNoGoroutines fails when, a second after, a goroutine still runs a function whose name
// holds one of names.
func wantNoGoroutines(t *testing.T, names ...string) {
	t.Helper()
	var left []string
	for range 100 {
		left = left[:0]
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		for _, g := range strings.Split(string(buf), "\n\n") {
			for _, n := range names {
				if strings.Contains(g, n) {
					left = append(left, g)
					break
				}
			}
		}
		if len(left) == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("goroutines left behind:\n%s", strings.Join(left, "\n\n"))
}

// TestStreamEventsResumesAndRelists plays a watch that the API server closes, one that ends
// with 410 Gone, and one that cannot be opened because its resourceVersion is too old: the
// first is resumed from the last resourceVersion seen (a bookmark's too), without a new list;
// the other two lead to a new list, which sends only what changed meanwhile. Every version of
// every event is sent once, none is lost, synced is called once the first list is sent and the
// watch is open, and ending the context stops everything.
func TestStreamEventsResumesAndRelists(t *testing.T) {
	api := newScriptedAPI(t)
	c, _, synced, stop := streamScripted(t, api)

	// The first list, in two pages.
	answerList(api.expectList(t, ""), "10", "page-2", ev("a", "1", 1))
	answerList(api.expectList(t, "page-2"), "10", "", ev("b", "2", 1))
	first := api.expectWatch(t, "10")
	select {
	case got := <-synced:
		t.Fatalf("synced before a watch was open (sent then: %q)", got)
	default:
	}
	w := answerWatch(first)
	select {
	case got := <-synced:
		if strings.Join(got, " ") != "a@1 b@2" {
			t.Errorf("synced when %q were sent, want the whole first list", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("synced not called once the list was sent and the watch open")
	}

	// Events come through the watch; a version already sent is not sent again.
	w.Add(ev("c", "11", 1))
	w.Modify(ev("a", "12", 2))
	w.Modify(ev("a", "12", 2))
	wantSent(t, c, "a@1", "b@2", "c@11", "a@12")

	// The API server closes the watch: it is resumed where it stopped, without a list.
	w.Stop()
	w = answerWatch(api.expectWatch(t, "12"))
	w.Add(ev("d", "13", 1))
	w.Action(watch.Bookmark, &corev1.Event{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "15"}})
	w.Stop()
	w = answerWatch(api.expectWatch(t, "15"))
	wantSent(t, c, "a@1", "b@2", "c@11", "a@12", "d@13")

	// The watch expires (410 Gone in the stream): a new list sends what changed while it was
	// away (b updated, e created), and nothing else; c, deleted meanwhile, is forgotten.
	expired := apierrors.NewResourceExpired("too old resource version: 15 (30)")
	w.Error(&expired.ErrStatus)
	answerList(api.expectList(t, ""), "30", "", ev("a", "12", 2), ev("b", "20", 2), ev("d", "13", 1), ev("e", "21", 1))
	w = answerWatch(api.expectWatch(t, "30"))
	wantSent(t, c, "a@1", "b@2", "c@11", "a@12", "d@13", "b@20", "e@21")

	// c is created again.
	w.Add(ev("c", "31", 1))
	wantSent(t, c, "a@1", "b@2", "c@11", "a@12", "d@13", "b@20", "e@21", "c@31")

	// The watch closes, and the API server has forgotten its resourceVersion by the time it
	// is opened again (410 Gone as the watch's answer): a new list, then a watch from it.
	w.Stop()
	api.expectWatch(t, "31").reply <- answer{err: apierrors.NewResourceExpired("too old resource version: 31 (40)")}
	answerList(api.expectList(t, ""), "40", "", ev("a", "12", 2), ev("b", "20", 2), ev("c", "31", 1), ev("d", "13", 1), ev("e", "21", 1), ev("f", "35", 1))
	w = answerWatch(api.expectWatch(t, "40"))
	w.Add(ev("g", "41", 1))
	wantSent(t, c, "a@1", "b@2", "c@11", "a@12", "d@13", "b@20", "e@21", "c@31", "f@35", "g@41")

	stop()
	if got := sentEvents(t, c); len(got) != 10 {
		t.Errorf("sent after stopping: %q", got)
	}
}

// TestStreamEventsWatchFailureBacksOff: a list that fails is logged and tried again after the
// pause of newBackoff. A watch that cannot be opened (the API server is away) is logged and
// tried again from the same resourceVersion, without a new list, after pauses that grow as
// newBackoff's do (the RetryWatcher alone would try again every second).
func TestStreamEventsWatchFailureBacksOff(t *testing.T) {
	api := newScriptedAPI(t)
	c, log, _, stop := streamScripted(t, api)
	away := apierrors.NewServiceUnavailable("etcd is away")

	api.expectList(t, "").reply <- answer{err: away}
	failed := time.Now()
	answerList(api.expectList(t, ""), "10", "", ev("a", "1", 1))
	if d := time.Since(failed); d < firstBackoff {
		t.Errorf("listed again %v after a failure, want at least %v", d, firstBackoff)
	}
	next := api.expectWatch(t, "10")
	for _, pause := range []time.Duration{firstBackoff, 2 * firstBackoff, 4 * firstBackoff} {
		next.reply <- answer{err: away}
		failed := time.Now()
		next = api.expectWatch(t, "10")
		if d := time.Since(failed); d < pause {
			t.Errorf("watched again %v after a failure, want at least %v", d, pause)
		}
	}
	w := answerWatch(next)
	w.Add(ev("b", "11", 1))
	wantSent(t, c, "a@1", "b@11")
	stop()
	for _, want := range []string{
		`level=WARN msg="events: list or watch failed, retrying"`,
		`level=WARN msg="events: watch failed, retrying" resource_version=10`,
	} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

// TestStreamEventsForbidden: a watch refused for good (403) is not tried again as is: the
// collector backs off and lists again, which is where a fixed RBAC rule shows.
func TestStreamEventsForbidden(t *testing.T) {
	api := newScriptedAPI(t)
	c, log, _, _ := streamScripted(t, api)

	answerList(api.expectList(t, ""), "10", "", ev("a", "1", 1))
	forbidden := apierrors.NewForbidden(schema.GroupResource{Resource: "events"}, "", errors.New("RBAC: access denied"))
	api.expectWatch(t, "10").reply <- answer{err: forbidden}
	failed := time.Now()
	answerList(api.expectList(t, ""), "12", "", ev("a", "1", 1), ev("b", "11", 1))
	if d := time.Since(failed); d < firstBackoff {
		t.Errorf("listed again %v after a failure, want at least %v", d, firstBackoff)
	}
	answerWatch(api.expectWatch(t, "12"))
	wantSent(t, c, "a@1", "b@11")
	if !strings.Contains(log.String(), `msg="events: list or watch failed, retrying"`) || !strings.Contains(log.String(), "forbidden") {
		t.Errorf("log lacks the forbidden watch:\n%s", log)
	}
}
