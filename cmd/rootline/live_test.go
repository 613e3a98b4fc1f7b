package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/k8stest"
	"github.com/rootline-dev/rootline/internal/kube"
	"github.com/rootline-dev/rootline/internal/server"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
	"github.com/rootline-dev/rootline/internal/synth"
)

// loadIL0070 writes the IL-0070 objects into a real API server the way the cluster held them:
// nodes and pods created, then given their status (nothing else would set it: no kubelet or
// controller runs), and the events as the kubelet and scheduler wrote them.
func loadIL0070(t *testing.T, ctx context.Context, c kubernetes.Interface) (events []corev1.Event) {
	t.Helper()
	nodes, pods, events, err := synth.IL0070("evicted")
	if err != nil {
		t.Fatal(err)
	}
	namespaces := map[string]bool{}
	for _, p := range pods {
		namespaces[p.Namespace] = true
	}
	for _, e := range events {
		namespaces[e.Namespace] = true
	}
	for ns := range namespaces {
		if ns == "" || ns == "default" || ns == "kube-system" {
			continue
		}
		if _, err := c.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
			t.Fatalf("namespace %s: %v", ns, err)
		}
	}
	classes := map[string]int32{}
	for _, p := range pods {
		if p.Spec.PriorityClassName != "" && p.Spec.Priority != nil {
			classes[p.Spec.PriorityClassName] = *p.Spec.Priority
		}
	}
	for name, value := range classes {
		if strings.HasPrefix(name, "system-") {
			continue // built in
		}
		pc := &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Value: value}
		if _, err := c.SchedulingV1().PriorityClasses().Create(ctx, pc, metav1.CreateOptions{}); err != nil {
			t.Fatalf("priority class %s: %v", name, err)
		}
	}
	fresh := func(m *metav1.ObjectMeta) {
		m.ResourceVersion, m.UID, m.CreationTimestamp, m.ManagedFields = "", "", metav1.Time{}, nil
	}
	for i := range nodes {
		n := nodes[i].DeepCopy()
		fresh(&n.ObjectMeta)
		created, err := c.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("node %s: %v", n.Name, err)
		}
		created.Status = nodes[i].Status
		if _, err := c.CoreV1().Nodes().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("node %s status: %v", n.Name, err)
		}
	}
	for i := range pods {
		p := pods[i].DeepCopy()
		fresh(&p.ObjectMeta)
		p.OwnerReferences = nil // their owners are not in this cluster
		p.Spec.Priority = nil   // admission sets it from the priority class
		created, err := c.CoreV1().Pods(p.Namespace).Create(ctx, p, metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("pod %s/%s: %v", p.Namespace, p.Name, err)
		}
		created.Status = pods[i].Status
		if _, err := c.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("pod %s/%s status: %v", p.Namespace, p.Name, err)
		}
	}
	for i := range events {
		e := events[i].DeepCopy()
		fresh(&e.ObjectMeta)
		if _, err := c.CoreV1().Events(e.Namespace).Create(ctx, e, metav1.CreateOptions{}); err != nil {
			t.Fatalf("event %s/%s: %v", e.Namespace, e.Name, err)
		}
	}
	return events
}

// restartableServer is `rootline serve` in this process, on a fixed address, that can be
// stopped and started again like the real one.
type restartableServer struct {
	t    *testing.T
	addr string
	h    http.Handler
	hs   *http.Server
}

func (s *restartableServer) start() {
	s.t.Helper()
	var ln net.Listener
	var err error
	for range 50 { // the port may linger a moment after a stop
		if ln, err = net.Listen("tcp", s.addr); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		s.t.Fatal(err)
	}
	s.addr = ln.Addr().String()
	s.hs = &http.Server{Handler: s.h, ReadHeaderTimeout: 10 * time.Second}
	go s.hs.Serve(ln) //nolint:errcheck // ErrServerClosed on stop
}

func (s *restartableServer) stop() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = s.hs.Shutdown(ctx)
}

// serveAndCollect starts `rootline serve` on st, in this process, and `rootline collect` of
// client streaming to it as cluster clusterName. stop ends the collector (failing t when it
// failed), then the server.
func serveAndCollect(t *testing.T, st *store.Store, clusterName string, client kube.Client) (srv *restartableServer, stop func()) {
	t.Helper()
	cfg, _ := config.Default(func(string) string { return "" })
	srv = &restartableServer{t: t, addr: "127.0.0.1:0", h: server.New(cfg, server.StoreDeps(st, nil)).Handler()}
	srv.start()
	ctx, stopCollecting := context.WithCancel(context.Background())
	collected := make(chan error, 1)
	go func() {
		collected <- runCollect(ctx, collectOptions{server: "http://" + srv.addr, cluster: clusterName, spoolDir: t.TempDir(), spoolBytes: 64 << 20,
			batchSize: 200, flushEvery: 200 * time.Millisecond, drain: 5 * time.Second, logLevel: "warn"}, client)
	}()
	return srv, func() {
		stopCollecting()
		if err := <-collected; err != nil {
			t.Errorf("collect: %v", err)
		}
		srv.stop()
	}
}

// analysisLines runs the analysis of an incident on the server, or of a folder offline, and
// lists its symptoms and causes with their summaries.
func serverAnalysis(t *testing.T, base, id string) []string {
	t.Helper()
	resp, err := http.Get(base + "/api/v1/incidents/" + id + "/analysis")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("analysis: %d %s", resp.StatusCode, b.String())
	}
	return kinds(t, b.Bytes())
}

func offlineAnalysis(t *testing.T, path string) []string {
	t.Helper()
	var out, errs bytes.Buffer
	root := newRootCmd()
	root.SetOut(&out)
	root.SetErr(&errs)
	root.SetArgs([]string{"analyze", "--format", "json", path})
	if err := root.Execute(); err != nil {
		t.Fatalf("analyze %s: %v\n%s", path, err, errs.String())
	}
	return kinds(t, out.Bytes())
}

// kindSet is the symptom and cause kinds of analysis lines, each once, sorted.
func kindSet(lines []string) []string {
	var out []string
	for _, l := range lines {
		k, _, _ := strings.Cut(l, ":")
		k, _, _ = strings.Cut(k, " (")
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// TestLiveCluster is issue 6's acceptance against a real kube-apiserver and etcd, on both
// databases:
//   - the IL-0070 objects are written into the API server; `rootline snapshot` of it gives
//     files that `rootline analyze` reads to the IL-0070 symptoms and causes;
//   - `rootline collect` streams the cluster to `rootline serve`, and an incident defined on
//     the cluster's window, with no upload, finds the same findings as the snapshot;
//   - an event updated in place (its count grows) is updated in Rootline;
//   - a node patched to MemoryPressure shows on the incident's timeline as a NodeState change;
//   - the server is stopped for a while during collection: once it is back no event is
//     missing and none is stored twice;
//   - the events are deleted from the API server (as its one-hour retention would): Rootline
//     still has them, and the analysis still finds the evictions.
func TestLiveCluster(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a kube-apiserver and etcd")
	}
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		ctx := context.Background()
		kc := k8stest.Start(t)
		client, err := kubernetes.NewForConfig(kc.Config)
		if err != nil {
			t.Fatal(err)
		}
		loaded := loadIL0070(t, ctx, client)
		// rootline reads the API server with its own client (kube.NewClient); the test writes
		// with client-go's clientset.
		rc, err := kube.NewClient(kc.Config)
		if err != nil {
			t.Fatal(err)
		}

		// The snapshot, analysed offline, against the fixture the objects came from.
		dir := filepath.Join(t.TempDir(), "snapshot")
		var stdout, stderr bytes.Buffer
		if err := takeSnapshot(ctx, snapshotOptions{out: dir, pageSize: 100}, false, rc, &stdout, &stderr); err != nil {
			t.Fatalf("snapshot: %v\n%s", err, stderr.String())
		}
		fromSnapshot := offlineAnalysis(t, dir)
		fromFixture := offlineAnalysis(t, fixtures.IL0070Dir())
		if diff := cmp.Diff(kindSet(fromFixture), kindSet(fromSnapshot)); diff != "" {
			t.Errorf("symptom and cause kinds (-fixture files +snapshot of the API server):\n%s", diff)
		}
		for _, want := range []string{"symptom pod_evicted", "symptom pod_pending", "cause capacity_exhaustion", "cause shared_prometheus"} {
			if !slices.Contains(kindSet(fromSnapshot), want) {
				t.Errorf("the snapshot's analysis lacks %s: %q", want, fromSnapshot)
			}
		}

		// rootline serve, and rootline collect streaming to it.
		srv, stop := serveAndCollect(t, st, "live", rc)
		defer stop()
		base := "http://" + srv.addr
		apiEvents := func() map[string]int32 { // uid → count, as the API server has them (a series' count for events that have one)
			l, err := client.CoreV1().Events("").List(ctx, metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			out := map[string]int32{}
			for _, e := range l.Items {
				out[string(e.UID)], _, _ = cluster.EventTimes(cluster.EventOf(&e))
			}
			return out
		}
		db := storetest.DB(t, bk.Target)
		storedEvents := func() map[string]int32 { // uid → count, as stored (the highest of an event's rows)
			rows, err := db.QueryContext(ctx, `SELECT events.uid, count(DISTINCT events.id), max(events.count) FROM events
				JOIN clusters ON clusters.id = events.cluster_id WHERE clusters.name = 'live' GROUP BY events.uid`)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			out := map[string]int32{}
			for rows.Next() {
				var (
					uid   string
					ids   int
					count int32
				)
				if err := rows.Scan(&uid, &ids, &count); err != nil {
					t.Fatal(err)
				}
				if ids > 1 {
					t.Errorf("event %s stored twice", uid)
				}
				out[uid] = count
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			return out
		}
		var why string // what the last unmet condition saw
		waitUntil := func(what string, cond func() bool) {
			t.Helper()
			deadline := time.Now().Add(90 * time.Second)
			for why = ""; !cond(); {
				if time.Now().After(deadline) {
					t.Fatalf("timed out waiting for %s\n%s", what, why)
				}
				time.Sleep(200 * time.Millisecond)
			}
		}
		// Every event the API server holds (those loaded, and any it wrote itself: seen once in
		// a hundred runs, one more than loaded) is stored.
		waitUntil("every event and pod state to arrive", func() bool {
			n := storetest.RowCounts(t, bk.Target)
			stored, inAPI := storedEvents(), apiEvents()
			missing := 0
			for uid := range inAPI {
				if _, ok := stored[uid]; !ok {
					missing++
				}
			}
			why = fmt.Sprintf("%d events stored, %d loaded, %d in the API server of which %d not stored; %d of %d pod and node states",
				len(stored), len(loaded), len(inAPI), missing, n["object_states"], 126+305)
			return missing == 0 && len(stored) >= len(loaded) && n["object_states"] >= 126+305
		})

		// An incident on the cluster's window, with no upload.
		start := time.Date(2023, 2, 1, 16, 0, 0, 0, time.UTC)
		body := fmt.Sprintf(`{"id": "live", "title": "Hub restart, collected", "cluster": "live", "started_at": %q}`, start.Format(time.RFC3339))
		if resp, err := http.Post(base+"/api/v1/incidents", "application/json", strings.NewReader(body)); err != nil || resp.StatusCode != 201 {
			t.Fatalf("create incident: %v %v", resp, err)
		}
		fromCollector := serverAnalysis(t, base, "live")
		if diff := cmp.Diff(fromSnapshot, fromCollector); diff != "" {
			t.Errorf("findings (-snapshot files +collected by rootline collect):\n%s", diff)
		}

		// An event updated in place.
		evs, err := client.CoreV1().Events("").List(ctx, metav1.ListOptions{Limit: 1})
		if err != nil || len(evs.Items) == 0 {
			t.Fatalf("events: %v", err)
		}
		e := evs.Items[0]
		e.Count += 4
		e.LastTimestamp = metav1.NewTime(e.LastTimestamp.Add(time.Minute))
		if _, err := client.CoreV1().Events(e.Namespace).Update(ctx, &e, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		waitUntil("the updated count", func() bool {
			got := storedEvents()[string(e.UID)]
			why = fmt.Sprintf("event %s/%s: count %d stored, %d in the API server", e.Namespace, e.Name, got, e.Count)
			return got == e.Count
		})

		// A node comes under memory pressure, as `kubectl patch --subresource=status` would set it:
		// the collector sends the node's new state, and the incident's timeline shows it.
		nodeList, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var calm string
		for _, n := range nodeList.Items {
			if !strings.Contains(cluster.NodeState(&n), "MemoryPressure") {
				calm = n.Name
				break
			}
		}
		patch := fmt.Sprintf(`{"status": {"conditions": [{"type": "MemoryPressure", "status": "True", "reason": "KubeletHasInsufficientMemory",
			"message": "kubelet has insufficient memory available", "lastHeartbeatTime": %[1]q, "lastTransitionTime": %[1]q}]}}`, time.Now().UTC().Format(time.RFC3339))
		if _, err := client.CoreV1().Nodes().Patch(ctx, calm, types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{}, "status"); err != nil {
			t.Fatal(err)
		}
		waitUntil("the node's new state on the timeline", func() bool {
			resp, err := http.Get(base + "/api/v1/incidents/live/timeline?type=node&node=" + calm)
			if err != nil {
				return false
			}
			defer resp.Body.Close()
			var b bytes.Buffer
			_, _ = b.ReadFrom(resp.Body)
			why = b.String()
			return strings.Contains(why, `"kind":"NodeState"`) && strings.Contains(why, "MemoryPressure")
		})

		// The server goes away for a while; events keep coming and changing.
		srv.stop()
		for i := range 30 {
			ev := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("outage.%02d", i), Namespace: "default"},
				InvolvedObject: corev1.ObjectReference{Kind: "Node", Name: "outage-node"}, Reason: "NodeHasSufficientMemory", Type: "Normal",
				Message: "Node outage-node status is now: NodeHasSufficientMemory", Count: 1,
				FirstTimestamp: metav1.Now(), LastTimestamp: metav1.Now(), Source: corev1.EventSource{Component: "kubelet"}}
			if _, err := client.CoreV1().Events("default").Create(ctx, ev, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		e2, err := client.CoreV1().Events(e.Namespace).Get(ctx, e.Name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		e2.Count += 2
		if _, err := client.CoreV1().Events(e.Namespace).Update(ctx, e2, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(3 * time.Second) // the collector retries against a closed port meanwhile
		srv.start()
		want := apiEvents()
		waitUntil("delivery after the outage", func() bool {
			got := storedEvents()
			if cmp.Equal(want, got) {
				return true
			}
			why = "(-API server +Rootline)\n" + cmp.Diff(want, got)
			return false
		})

		// The API server forgets its events: Rootline does not.
		all, err := client.CoreV1().Events("").List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range all.Items {
			if err := client.CoreV1().Events(ev.Namespace).Delete(ctx, ev.Name, metav1.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		if left := apiEvents(); len(left) != 0 {
			t.Fatalf("%d events left in the API server", len(left))
		}
		time.Sleep(time.Second) // deletions reach the collector, which has nothing to send for them
		if got := storedEvents(); !cmp.Equal(want, got) {
			t.Errorf("events after their deletion from the API server (-before +after):\n%s", cmp.Diff(want, got))
		}
		after := serverAnalysis(t, base, "live")
		if !slices.Contains(kindSet(after), "symptom pod_evicted") || !slices.Contains(kindSet(after), "cause capacity_exhaustion") {
			t.Errorf("the analysis lost its findings with the API server's events: %q", after)
		}
	})
}
