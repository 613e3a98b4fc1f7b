package collect

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/rootline-dev/rootline/internal/kube/kubetest"
	"github.com/rootline-dev/rootline/internal/testenv"
	"github.com/rootline-dev/rootline/internal/wire"
)

// recorder is a Sender that keeps what it was given, and fails while down is set.
type recorder struct {
	mu      sync.Mutex
	batches [][]byte
	down    bool
	tries   int
}

func (r *recorder) Send(_ context.Context, body []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tries++
	if r.down {
		return errors.New("connection refused")
	}
	r.batches = append(r.batches, append([]byte(nil), body...))
	return nil
}

func (r *recorder) setDown(v bool) {
	r.mu.Lock()
	r.down = v
	r.mu.Unlock()
}

// objects lists what was delivered, one line per object: "Kind ns/name rv: detail".
func (r *recorder) objects(t *testing.T) []string {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, b := range r.batches {
		var items []wire.Item
		if err := wire.Read(bytes.NewReader(b), func(it wire.Item) error { items = append(items, it); return nil }); err != nil {
			t.Fatalf("batch: %v %.200s", err, b)
		}
		for _, it := range items {
			var o struct {
				Kind     string
				Metadata metav1.ObjectMeta
				Count    int32
				Status   struct {
					Phase string
				}
			}
			if err := json.Unmarshal(it.Object, &o); err != nil {
				t.Fatal(err)
			}
			detail := o.Status.Phase
			if o.Kind == "Event" {
				detail = fmt.Sprintf("count %d", o.Count)
			}
			out = append(out, fmt.Sprintf("%s %s/%s: %s", o.Kind, o.Metadata.Namespace, o.Metadata.Name, detail))
		}
	}
	return out
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func testPod() *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "hub", Namespace: "prod", UID: "p1", ResourceVersion: "1"},
		Status: corev1.PodStatus{Phase: corev1.PodRunning}}
}

func testEvent(count int32, rv string) *corev1.Event {
	return &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: "hub.1", Namespace: "prod", UID: "e1", ResourceVersion: rv},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "prod", Name: "hub"}, Reason: "Unhealthy", Count: count}
}

func start(t *testing.T, c *Collector) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	stopped := false
	stop = func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(30 * time.Second):
			t.Fatal("Run did not return")
			return nil
		}
	}
	// A test that fails before it stops the collector leaves none running into the next tests.
	t.Cleanup(func() { _ = stop() })
	select {
	case <-c.Synced():
	case <-time.After(20 * time.Second):
		t.Fatal("informers did not sync")
	}
	return stop
}

// TestCollectorStreamsChanges: what the cluster holds is sent once listed; an event's update
// (its count grows) is sent again; a pod or node is sent again only when its state changes.
func TestCollectorStreamsChanges(t *testing.T) {
	ctx := context.Background()
	client := fake.NewClientset(testPod(), testEvent(1, "1"),
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "core-1", UID: "n1", ResourceVersion: "1"}})
	rec := &recorder{}
	c, err := New(kubetest.Client(client), Options{SpoolDir: t.TempDir(), Sender: rec, FlushEvery: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	stop := start(t, c)
	waitFor(t, "the initial objects", func() bool { return len(rec.objects(t)) == 3 })

	if _, err := client.CoreV1().Events("prod").Update(ctx, testEvent(5, "2"), metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	p := testPod()
	p.Labels, p.ResourceVersion = map[string]string{"a": "b"}, "2" // no state change: not sent
	if _, err := client.CoreV1().Pods("prod").Update(ctx, p, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	p.Status, p.ResourceVersion = corev1.PodStatus{Phase: corev1.PodFailed, Reason: "Evicted"}, "3"
	if _, err := client.CoreV1().Pods("prod").UpdateStatus(ctx, p, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "core-1", UID: "n1", ResourceVersion: "2"},
		Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionTrue}}}}
	if _, err := client.CoreV1().Nodes().UpdateStatus(ctx, n, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the changes", func() bool { return len(rec.objects(t)) == 6 })
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	got := rec.objects(t)
	for _, want := range []string{"Event prod/hub.1: count 1", "Event prod/hub.1: count 5", "Pod prod/hub: Running", "Pod prod/hub: Failed", "Node /core-1: "} {
		if !contains(got, want) {
			t.Errorf("delivered %q lacks %q", got, want)
		}
	}
	if len(got) != 6 {
		t.Errorf("delivered %d objects, want 6 (the label change is not a state change): %q", len(got), got)
	}
	if n, _ := c.spool.size(); n != 0 {
		t.Errorf("%d batches left in the spool", n)
	}
}

// TestCollectorOutage: while the server is away, batches wait in the spool; when it is back
// they all go, in order. Batches still undelivered when the collector stops are delivered by
// the next collector on the same spool.
func TestCollectorOutage(t *testing.T) {
	ctx := context.Background()
	client := fake.NewClientset()
	rec := &recorder{down: true}
	dir := t.TempDir()
	c, err := New(kubetest.Client(client), Options{SpoolDir: dir, Sender: rec, FlushEvery: 20 * time.Millisecond, BatchSize: 3, DrainTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	stop := start(t, c)
	for i := range 10 {
		// With a UID and a resourceVersion, as the API server gives them (the fake does not,
		// and the watch needs the resourceVersion of each event to resume from).
		e := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("e%02d", i), Namespace: "prod",
			UID: types.UID(fmt.Sprintf("uid-e%02d", i)), ResourceVersion: fmt.Sprint(i + 2)}, Count: 1}
		if _, err := client.CoreV1().Events("prod").Create(ctx, e, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	// All ten spooled (not only four batches: the last events could still be on their way
	// through the watch when the collector stops, and the next run would list them only once).
	waitFor(t, "the events spooled while the server is away", func() bool {
		files, _ := os.ReadDir(dir)
		items := 0
		for _, f := range files {
			if _, n, ok := parseSpoolName(f.Name()); ok {
				items += n
			}
		}
		return items == 10
	})
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	left, _ := os.ReadDir(dir)
	if len(left) < 4 {
		t.Fatalf("spool after stopping: %d files", len(left))
	}

	// The next run delivers them first, then what it sees itself (the same events again).
	rec.setDown(false)
	c2, err := New(kubetest.Client(client), Options{SpoolDir: dir, Sender: rec, FlushEvery: 20 * time.Millisecond, BatchSize: 3})
	if err != nil {
		t.Fatal(err)
	}
	stop = start(t, c2)
	waitFor(t, "delivery after the outage", func() bool { return len(rec.objects(t)) >= 20 })
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	got := rec.objects(t)
	for i := range 10 {
		if got[i] != fmt.Sprintf("Event prod/e%02d: count 1", i) {
			t.Fatalf("the spooled events were not delivered first and in order: %q", got)
		}
	}
	if n, _ := c2.spool.size(); n != 0 {
		t.Errorf("%d batches left", n)
	}
}

// TestSpoolBound: past its bound the spool drops its oldest batches, and says how many
// objects were lost; the newest stay.
func TestSpoolBound(t *testing.T) {
	s, err := openSpool(t.TempDir(), 100)
	if err != nil {
		t.Fatal(err)
	}
	var dropped int
	for i := range 5 {
		n, err := s.add([]byte(strings.Repeat("x", 40)+fmt.Sprint(i)), 2)
		if err != nil {
			t.Fatal(err)
		}
		dropped += n
	}
	n, b := s.size()
	if n != 2 || b > 100 || dropped != 6 {
		t.Errorf("spool: %d batches, %d bytes, %d objects dropped; want 2 batches within 100 bytes, 6 dropped", n, b, dropped)
	}
	f, body, ok, err := s.oldest()
	if err != nil || !ok || !strings.HasSuffix(string(body), "3") || f.items != 2 {
		t.Errorf("oldest: %+v %q %v %v", f, body, ok, err)
	}
	// A new spool on the folder finds them, and removes what a crash left half-written.
	if err := os.WriteFile(s.dir+"/.00000000000000000009-1.json.tmp", []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	s2, err := openSpool(s.dir, 100)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := s2.size(); n != 2 || s2.next != 5 {
		t.Errorf("reopened: %d batches, next %d", n, s2.next)
	}
	if _, err := os.Stat(s.dir + "/.00000000000000000009-1.json.tmp"); !os.IsNotExist(err) {
		t.Error("the half-written batch was not removed")
	}
}

// TestHTTPSender: a batch goes with its cluster, token and type; 2xx delivers; 4xx (but 408 and 429) is refused for good; the rest is retried.
func TestHTTPSender(t *testing.T) {
	for _, tt := range []struct {
		status  int
		refused bool
		ok      bool
	}{{200, false, true}, {422, true, false}, {401, true, false}, {429, false, false}, {503, false, false}} {
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("cluster") != "leap" || r.Header.Get("Authorization") != "Bearer tok" || r.Header.Get("Content-Type") != wire.ContentType {
				w.WriteHeader(400)
				return
			}
			w.WriteHeader(tt.status)
		}))
		h, err := NewHTTPSender(ts.URL, "leap", "tok")
		if err != nil {
			t.Fatal(err)
		}
		err = h.Send(context.Background(), []byte(`{}`))
		ts.Close()
		if (err == nil) != tt.ok || errors.Is(err, ErrRefused) != tt.refused {
			t.Errorf("status %d: %v", tt.status, err)
		}
	}
	if _, err := NewHTTPSender("ftp://x", "leap", ""); err == nil {
		t.Error("ftp:// accepted")
	}
}

// TestNoDatabaseCode: the collector runs in the cluster and talks to the server over HTTP; it
// imports neither the store nor any database driver.
func TestNoDatabaseCode(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		testenv.Missing(t, "no go command on PATH: %v", err)
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"/internal/store", "gorm.io/", "github.com/jackc/pgx", "sqlite"} {
			if strings.Contains(dep, banned) {
				t.Errorf("internal/collect depends on %s", dep)
			}
		}
	}
}

// TestBackoff: the pauses after failures in a row double from half a second up to 30 s, each
// with up to a fifth more at random, and stay there.
func TestBackoff(t *testing.T) {
	b := newBackoff()
	want := firstBackoff
	for i := range 12 {
		got := b.Step()
		if got < want || got > want+want/5 {
			t.Errorf("pause %d: %v, want %v to %v", i+1, got, want, want+want/5)
		}
		want = min(2*want, maxBackoff)
	}
}
