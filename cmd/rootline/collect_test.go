package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/kube/kubetest"
	"github.com/rootline-dev/rootline/internal/server"
)

// TestCollectCommand: `rootline collect` (fake cluster, real server in this process) delivers
// what the cluster holds, serves /healthz and /metrics, and stops cleanly when its context
// ends (as on SIGTERM), leaving nothing in its spool.
func TestCollectCommand(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	database := filepath.Join(t.TempDir(), "rootline.db")
	st := testStore(t, database)
	cfg, _ := config.Default(func(string) string { return "" })
	ts := httptest.NewServer(server.New(cfg, server.StoreDeps(st, nil)).Handler())
	defer ts.Close()

	client := fake.NewClientset(
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "hub", Namespace: "prod", UID: "p1", ResourceVersion: "3"}, Status: corev1.PodStatus{Phase: corev1.PodRunning}},
		&corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: "hub.1", Namespace: "prod", UID: "e1", ResourceVersion: "4"},
			InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "prod", Name: "hub"}, Reason: "Started", Count: 1})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	listen := ln.Addr().String()
	ln.Close()
	spool := t.TempDir()
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- runCollect(cctx, collectOptions{server: ts.URL, cluster: "leap", listen: listen, spoolDir: spool, spoolBytes: 1 << 20,
			batchSize: 100, flushEvery: 50 * time.Millisecond, drain: 5 * time.Second, logLevel: "error"}, kubetest.Client(client))
	}()
	get := func(path string) (int, string) {
		resp, err := http.Get("http://" + listen + path)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		n := rowCounts(t, database)
		if n["events"] == 1 && n["object_states"] == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not delivered: %v", n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// Healthy once the first lists are in and the events' watch is open, which may come a
	// moment after the first delivery.
	for status, body := get("/healthz"); status != 200 || !strings.Contains(body, `"ok"`); status, body = get("/healthz") {
		if time.Now().After(deadline) {
			t.Fatalf("/healthz: %d %s", status, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The collector counts a delivery when the server's answer reaches it, which may come a
	// moment after the store holds the rows the test waited for.
	for {
		status, body := get("/metrics")
		if status == 200 && strings.Contains(body, `rootline_collector_observed_total{kind="Event"} 1`) &&
			strings.Contains(body, "rootline_collector_objects_delivered_total 2") {
			break
		}
		if time.Now().After(deadline) {
			var ours []string
			for _, line := range strings.Split(body, "\n") {
				if strings.HasPrefix(line, "rootline_") {
					ours = append(ours, line)
				}
			}
			t.Fatalf("/metrics: %d\n%s", status, strings.Join(ours, "\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("collect: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("collect did not stop")
	}
	if status, _ := get("/healthz"); status != 0 {
		t.Errorf("/healthz still answers after the stop: %d", status)
	}
}
