package kube

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
)

// TestClientRequests: each kind Client reads is asked for at the path the API server serves it
// at, protobuf preferred, with the list's options, as client-go's typed clients ask.
func TestClientRequests(t *testing.T) {
	t.Parallel()
	var (
		mu   sync.Mutex
		seen []string
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL.Path+"?"+r.URL.RawQuery+" "+r.Header.Get("Accept"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/cluster-autoscaler-status") {
			fmt.Fprint(w, `{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cluster-autoscaler-status","namespace":"kube-system"}}`)
			return
		}
		fmt.Fprint(w, `{"kind":"List","apiVersion":"v1","metadata":{"resourceVersion":"7"},"items":[]}`)
	}))
	defer srv.Close()
	c, err := NewClient(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	ctx, opts := context.Background(), metav1.ListOptions{Limit: 5}
	lists := []struct {
		list func() (runtime.Object, error)
		path string
	}{
		{func() (runtime.Object, error) { return c.CoreV1().Nodes().List(ctx, opts) }, "/api/v1/nodes"},
		{func() (runtime.Object, error) { return c.CoreV1().Pods("ns").List(ctx, opts) }, "/api/v1/namespaces/ns/pods"},
		{func() (runtime.Object, error) { return c.CoreV1().Pods("").List(ctx, opts) }, "/api/v1/pods"},
		{func() (runtime.Object, error) { return c.CoreV1().Events("ns").List(ctx, opts) }, "/api/v1/namespaces/ns/events"},
		{func() (runtime.Object, error) { return c.CoreV1().ConfigMaps("ns").List(ctx, opts) }, "/api/v1/namespaces/ns/configmaps"},
		{func() (runtime.Object, error) { return c.AppsV1().Deployments("ns").List(ctx, opts) }, "/apis/apps/v1/namespaces/ns/deployments"},
		{func() (runtime.Object, error) { return c.AppsV1().ReplicaSets("ns").List(ctx, opts) }, "/apis/apps/v1/namespaces/ns/replicasets"},
		{func() (runtime.Object, error) { return c.AppsV1().StatefulSets("ns").List(ctx, opts) }, "/apis/apps/v1/namespaces/ns/statefulsets"},
		{func() (runtime.Object, error) { return c.AppsV1().DaemonSets("ns").List(ctx, opts) }, "/apis/apps/v1/namespaces/ns/daemonsets"},
		{func() (runtime.Object, error) { return c.AppsV1().ControllerRevisions("ns").List(ctx, opts) }, "/apis/apps/v1/namespaces/ns/controllerrevisions"},
		{func() (runtime.Object, error) { return c.BatchV1().Jobs("ns").List(ctx, opts) }, "/apis/batch/v1/namespaces/ns/jobs"},
		{func() (runtime.Object, error) { return c.BatchV1().CronJobs("ns").List(ctx, opts) }, "/apis/batch/v1/namespaces/ns/cronjobs"},
		{func() (runtime.Object, error) { return c.EventsV1().Events("ns").List(ctx, opts) }, "/apis/events.k8s.io/v1/namespaces/ns/events"},
		{func() (runtime.Object, error) {
			return c.CoreV1().ConfigMaps("kube-system").Get(ctx, "cluster-autoscaler-status", metav1.GetOptions{})
		}, "/api/v1/namespaces/kube-system/configmaps/cluster-autoscaler-status"},
	}
	for i, l := range lists {
		obj, err := l.list()
		if err != nil {
			t.Errorf("%s: %v", l.path, err)
			continue
		}
		if obj == nil {
			t.Errorf("%s: no object", l.path)
		}
		mu.Lock()
		got := seen[i]
		mu.Unlock()
		want := l.path + "?limit=5 application/vnd.kubernetes.protobuf,application/json"
		if strings.HasSuffix(l.path, "-status") {
			want = l.path + "? application/vnd.kubernetes.protobuf,application/json"
		}
		if got != want {
			t.Errorf("asked %q, want %q", got, want)
		}
	}
}
