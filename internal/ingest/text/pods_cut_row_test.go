package text

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// TestPodsTableRowCutAfterStatus: a pasted pods table whose last row was cut after its STATUS
// (a terminal's width, a copy cut short) still gives that pod and its state, with no restarts.
func TestPodsTableRowCutAfterStatus(t *testing.T) {
	paste := "NAME    READY   STATUS             RESTARTS   AGE\n" +
		"api-0   1/1     Running            0          2d\n" +
		"web-1   0/1     CrashLoopBackOff\n"
	pods := map[string]*cluster.Pod{}
	_, err := Parse(context.Background(), "pods.txt", strings.NewReader(paste), time.Date(2024, 1, 4, 18, 0, 0, 0, time.UTC), func(o *cluster.Object) error {
		if p, ok := o.Pod, o.Pod != nil; ok {
			pods[p.Name] = p
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	web := pods["web-1"]
	if web == nil || pods["api-0"] == nil {
		t.Fatalf("pods read: %v, want api-0 and web-1", len(pods))
	}
	if len(web.Status.ContainerStatuses) == 0 || web.Status.ContainerStatuses[0].State.Waiting == nil ||
		web.Status.ContainerStatuses[0].State.Waiting.Reason != "CrashLoopBackOff" || web.Status.ContainerStatuses[0].RestartCount != 0 {
		t.Errorf("web-1's status %+v, want waiting in CrashLoopBackOff, no restarts", web.Status.ContainerStatuses)
	}
}
