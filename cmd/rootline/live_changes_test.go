package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/rootline-dev/rootline/internal/k8stest"
	"github.com/rootline-dev/rootline/internal/kube"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// changesReport is what TestLiveChanges reads of an incident's analysis.
type changesReport struct {
	Symptoms []struct {
		ID      string
		Kind    string
		Objects []struct{ Kind, Namespace, Name string }
	}
	Causes []struct {
		ID       string
		Kind     string
		Role     string
		Explains []string
		Changes  []string
		Evidence []struct{ Ref, Field, Value string }
	}
	Changes []changeRow
}

// changeRow is what TestLiveChanges reads of a change.
type changeRow struct {
	ID, Kind, Namespace, Name, Field, Before, After string
	Since, Until                                    time.Time
}

// TestLiveChanges is issue 18's acceptance against a real kube-apiserver and etcd, on both
// databases: two Deployments are created and collected; then one's image is changed to one
// that does not exist and the other's memory limit to 1Mi (and a status update, churn, made
// before them); the collector sends each changed Deployment once, not the churn. Pods of the
// new templates are then written with the statuses and events the kubelet would give them
// (no controller or kubelet runs here): ImagePullBackOff, and OOMKilled in CrashLoopBackOff.
// The incident's analysis names recent_change, citing each change, as the root cause of
// the image_pull_failed and oom_killed symptoms.
func TestLiveChanges(t *testing.T) {
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
		start := time.Now().UTC().Add(-time.Minute).Truncate(time.Second)
		if _, err := client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shop"}}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		pool := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "pool-9", Labels: map[string]string{"cloud.google.com/gke-nodepool": "batch"}}}
		if _, err := client.CoreV1().Nodes().Create(ctx, pool, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		web := changesDeployment("web", "nginx:1.25.3", "256Mi")
		cache := changesDeployment("cache", "redis:7.2.4", "512Mi")
		for _, d := range []*appsv1.Deployment{web, cache} {
			if _, err := client.AppsV1().Deployments("shop").Create(ctx, d, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}

		rc, err := kube.NewClient(kc.Config)
		if err != nil {
			t.Fatal(err)
		}
		srv, stop := serveAndCollect(t, st, "changes", rc)
		defer stop()
		base := "http://" + srv.addr
		var why string
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
		states := func() int64 {
			n := storetest.RowCounts(t, bk.Target)
			return n["object_states"]
		}
		// What the collector sends at first: the node, the two Deployments and every ConfigMap
		// the API server made (nothing else: no pod or ReplicaSet exists yet).
		cms, err := client.CoreV1().ConfigMaps("").List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		first := int64(1 + 2 + len(cms.Items))
		waitUntil("the first versions", func() bool {
			why = fmt.Sprintf("%d of %d states", states(), first)
			return states() >= first
		})
		time.Sleep(time.Second) // anything the API server made meanwhile
		first = states()

		// Churn first (the status a controller would write), then the two changes.
		d, err := client.AppsV1().Deployments("shop").Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		d.Status = appsv1.DeploymentStatus{ObservedGeneration: d.Generation, Replicas: 1, UpdatedReplicas: 1, UnavailableReplicas: 1}
		if _, err := client.AppsV1().Deployments("shop").UpdateStatus(ctx, d, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		update := func(name string, mutate func(c *corev1.Container)) {
			d, err := client.AppsV1().Deployments("shop").Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			mutate(&d.Spec.Template.Spec.Containers[0])
			if _, err := client.AppsV1().Deployments("shop").Update(ctx, d, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		update("web", func(c *corev1.Container) { c.Image = "nginx:1.99.404-does-not-exist" })
		update("cache", func(c *corev1.Container) { // a request may not exceed the limit
			c.Resources.Limits[corev1.ResourceMemory], c.Resources.Requests[corev1.ResourceMemory] = resource.MustParse("1Mi"), resource.MustParse("1Mi")
		})
		waitUntil("the changed versions", func() bool {
			why = fmt.Sprintf("%d of %d states", states(), first+2)
			return states() >= first+2
		})
		time.Sleep(time.Second) // a version sent for the churn would have come before them
		if n := states(); n != first+2 {
			t.Errorf("%d states after two changes and a status update, want %d: the collector sent status churn", n, first+2)
		}
		// The batch pool shrinks: its node is deleted.
		if err := client.CoreV1().Nodes().Delete(ctx, "pool-9", metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		waitUntil("the node's deletion", func() bool {
			why = fmt.Sprintf("%d of %d states", states(), first+3)
			return states() >= first+3
		})

		// The new templates' pods, as the kubelet would leave them, and its events.
		now := metav1.NewTime(time.Now().UTC().Add(2 * time.Second).Truncate(time.Second))
		pull := changesPod("web-5d8f7c9b4-x2x7k", "web-5d8f7c9b4", "nginx:1.99.404-does-not-exist", "256Mi")
		pull.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "main", Image: "nginx:1.99.404-does-not-exist",
			State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ImagePullBackOff",
				Message: `Back-off pulling image "nginx:1.99.404-does-not-exist"`}}}}
		oom := changesPod("cache-6b7d9f8c5-q9z4m", "cache-6b7d9f8c5", "redis:7.2.4", "1Mi")
		oom.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "main", Image: "redis:7.2.4", RestartCount: 4,
			State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff",
				Message: "back-off 1m20s restarting failed container=main pod=cache-6b7d9f8c5-q9z4m_shop"}},
			LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "OOMKilled", ExitCode: 137,
				StartedAt: now, FinishedAt: now}}}}
		for _, p := range []*corev1.Pod{pull, oom} {
			status := p.Status
			created, err := client.CoreV1().Pods("shop").Create(ctx, p, metav1.CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			created.Status = status
			created.Status.Phase, created.Status.StartTime = corev1.PodPending, &now
			if p == oom {
				created.Status.Phase = corev1.PodRunning
			}
			if _, err := client.CoreV1().Pods("shop").UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		for i, e := range []struct{ pod, reason, message string }{
			{pull.Name, "Failed", `Failed to pull image "nginx:1.99.404-does-not-exist": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.99.404-does-not-exist": failed to resolve reference "docker.io/library/nginx:1.99.404-does-not-exist": docker.io/library/nginx:1.99.404-does-not-exist: not found`},
			{pull.Name, "BackOff", `Back-off pulling image "nginx:1.99.404-does-not-exist"`},
			{oom.Name, "BackOff", "Back-off restarting failed container main in pod cache-6b7d9f8c5-q9z4m_shop(3c1f)"},
		} {
			ev := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s.%d", e.pod, i), Namespace: "shop"},
				InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "shop", Name: e.pod, APIVersion: "v1"},
				Reason:         e.reason, Message: e.message, Type: corev1.EventTypeWarning, Count: 3,
				Source: corev1.EventSource{Component: "kubelet", Host: "node-1"}, FirstTimestamp: now, LastTimestamp: now}
			if _, err := client.CoreV1().Events("shop").Create(ctx, ev, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}

		body := fmt.Sprintf(`{"id": "changes", "title": "Shop down after a deploy", "cluster": "changes", "started_at": %q}`, start.Format(time.RFC3339))
		resp, err := http.Post(base+"/api/v1/incidents", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("create incident: %d", resp.StatusCode)
		}
		var rep changesReport
		symptom := func(kind, pod string) string {
			for _, s := range rep.Symptoms {
				for _, o := range s.Objects {
					if s.Kind == kind && o.Name == pod {
						return s.ID
					}
				}
			}
			return ""
		}
		waitUntil("the symptoms", func() bool {
			rep = changesAnalysis(t, base, "changes")
			why = fmt.Sprintf("%+v", rep.Symptoms)
			return symptom("image_pull_failed", pull.Name) != "" && symptom("oom_killed", oom.Name) != ""
		})
		if !slices.ContainsFunc(rep.Changes, func(c changeRow) bool {
			return c.Kind == "Node" && c.Name == "pool-9" && c.Before == "present, in pool batch" && c.After == "absent"
		}) {
			t.Errorf("the node deleted is not a change: %+v", rep.Changes)
		}
		for _, tt := range []struct {
			symptom, pod, workload, field, before, after string
		}{
			{"image_pull_failed", pull.Name, "web", "spec.template.spec.containers[main].image", "nginx:1.25.3", "nginx:1.99.404-does-not-exist"},
			{"oom_killed", oom.Name, "cache", "spec.template.spec.containers[main].resources.limits.memory", "512Mi", "1Mi"},
		} {
			sid := symptom(tt.symptom, tt.pod)
			var changeID string
			for _, c := range rep.Changes {
				if c.Kind == "Deployment" && c.Namespace == "shop" && c.Name == tt.workload && c.Field == tt.field {
					changeID = c.ID
					if c.Before != tt.before || c.After != tt.after || c.Until.IsZero() || !c.Since.Before(c.Until) {
						t.Errorf("change %s: %+v, want %s → %s in a window", c.ID, c, tt.before, tt.after)
					}
				}
			}
			if changeID == "" {
				t.Errorf("no change of %s %s among %+v", tt.workload, tt.field, rep.Changes)
				continue
			}
			var roots []string
			for _, c := range rep.Causes {
				if c.Role != "root" || !reachesSymptom(rep, c.ID, sid) {
					continue
				}
				roots = append(roots, c.Kind)
				if c.Kind != "recent_change" {
					continue
				}
				cited := slices.Contains(c.Changes, changeID) && slices.ContainsFunc(c.Evidence, func(e struct{ Ref, Field, Value string }) bool {
					return e.Ref == "Deployment shop/"+tt.workload && e.Field == tt.field && strings.Contains(e.Value, tt.before+" → "+tt.after)
				})
				if !cited {
					t.Errorf("%s: recent_change %s does not cite change %s (%s %s → %s): %+v", tt.symptom, c.ID, changeID, tt.field, tt.before, tt.after, c)
				}
			}
			if !slices.Equal(roots, []string{"recent_change"}) {
				t.Errorf("%s %s: root causes %q, want recent_change alone\n%+v", tt.symptom, sid, roots, rep.Causes)
			}
		}
	})
}

// reachesSymptom reports whether a cause reaches a symptom along the causes' Explains.
func reachesSymptom(rep changesReport, from, symptom string) bool {
	seen := map[string]bool{}
	var walk func(id string) bool
	walk = func(id string) bool {
		if id == symptom {
			return true
		}
		if seen[id] {
			return false
		}
		seen[id] = true
		for _, c := range rep.Causes {
			if c.ID == id {
				return slices.ContainsFunc(c.Explains, walk)
			}
		}
		return false
	}
	return walk(from)
}

func changesAnalysis(t *testing.T, base, id string) changesReport {
	t.Helper()
	resp, err := http.Get(base + "/api/v1/incidents/" + id + "/analysis")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("analysis: %d %s", resp.StatusCode, b)
	}
	var rep changesReport
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatalf("analysis: %v: %.300s", err, b)
	}
	return rep
}

func changesDeployment(name, image, memory string) *appsv1.Deployment {
	one := int32(1)
	labels := map[string]string{"app": name}
	return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop"},
		Spec: appsv1.DeploymentSpec{Replicas: &one, Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: corev1.PodSpec{
				Containers: []corev1.Container{{Name: "main", Image: image, Resources: corev1.ResourceRequirements{
					Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse(memory)},
					Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(memory)},
				}}},
			}}}}
}

// changesPod is a pod of a Deployment's ReplicaSet (named as the Deployment controller names
// them: the Deployment's name and the pod-template-hash), on node-1.
func changesPod(name, replicaSet, image, memory string) *corev1.Pod {
	yes := true
	hash := replicaSet[strings.LastIndex(replicaSet, "-")+1:]
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop",
		Labels:          map[string]string{"app": strings.Split(name, "-")[0], "pod-template-hash": hash},
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: replicaSet, UID: "00000000-0000-0000-0000-000000000001", Controller: &yes}}},
		Spec: corev1.PodSpec{NodeName: "node-1", Containers: []corev1.Container{{Name: "main", Image: image, Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse(memory)},
			Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(memory)},
		}}}}}
}
