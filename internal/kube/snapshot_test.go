package kube_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/rules"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/ingest"
	"github.com/rootline-dev/rootline/internal/kube"
	"github.com/rootline-dev/rootline/internal/kube/kubetest"
	"github.com/rootline-dev/rootline/internal/synth"
)

var il0070 = fixtures.IL0070Dir()

// il0070Objects are the IL-0070 objects as the cluster held them (the fixture files' source).
func il0070Objects(t *testing.T) []runtime.Object {
	t.Helper()
	objs, err := synth.IL0070Objects("evicted")
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

// findings analyses the files of a folder: the symptom and cause kinds with their summaries
// and the objects they name, and the gaps; evidence locations differ between files of
// different layouts, so they are left out.
func findings(t *testing.T, dir string, files ...string) []string {
	t.Helper()
	var objs []*cluster.Object
	dec := ingest.NewDecoder(ingest.Options{})
	for _, f := range files {
		fh, err := os.Open(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		err = dec.Decode(context.Background(), f, fh, func(o *cluster.Object) error { objs = append(objs, o); return nil })
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	rep := rules.Run(cluster.NewModel(files, objs), analysis.Options{})
	var out []string
	for _, s := range rep.Symptoms {
		out = append(out, "symptom "+s.Kind+": "+s.Summary+" "+strconv.Itoa(len(s.Objects)))
	}
	for _, c := range rep.Causes {
		out = append(out, "cause "+c.Kind+" ("+c.Role+"): "+c.Summary)
	}
	for _, g := range rep.Gaps {
		out = append(out, "gap: "+g.Summary)
	}
	return out
}

// pagedPods makes the fake clientset answer pod lists a page at a time, as an API server
// does with limit and continue.
func pagedPods(c *fake.Clientset, calls *int) {
	c.PrependReactor("list", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		*calls++
		opts := a.(k8stesting.ListActionImpl).GetListOptions()
		obj, err := c.Tracker().List(schema.GroupVersionResource{Version: "v1", Resource: "pods"},
			schema.GroupVersionKind{Version: "v1", Kind: "Pod"}, a.GetNamespace())
		if err != nil {
			return true, nil, err
		}
		all := obj.(*corev1.PodList)
		start := 0
		if opts.Continue != "" {
			start, _ = strconv.Atoi(opts.Continue)
		}
		end := min(start+int(opts.Limit), len(all.Items))
		page := &corev1.PodList{Items: all.Items[start:end]}
		if end < len(all.Items) {
			page.Continue = strconv.Itoa(end)
		}
		return true, page, nil
	})
}

// TestSnapshotIL0070: a snapshot of a cluster holding the IL-0070 objects writes files that
// the analysis reads to the same findings as the original files, reading pods a page at a
// time; it adds the workloads owning the pods and the autoscaler's status.
func TestSnapshotIL0070(t *testing.T) {
	objs := il0070Objects(t)
	var pod *corev1.Pod
	for _, o := range objs {
		if p, ok := o.(*corev1.Pod); ok && p.Namespace == "prod" {
			pod = p
			break
		}
	}
	if pod == nil {
		t.Fatal("no pod in prod")
	}
	ctrl := true
	pod.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "hub-5d8f", Controller: &ctrl}}
	objs = append(objs,
		&appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "hub-5d8f", Namespace: pod.Namespace,
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "hub", Controller: &ctrl}}}},
		&appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "unrelated-1", Namespace: pod.Namespace}},
		// The hub's earlier revision, whose pods are gone: kept, as the Deployment's history.
		&appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "hub-4c2a", Namespace: pod.Namespace,
			Annotations:     map[string]string{"deployment.kubernetes.io/revision": "1"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "hub", Controller: &ctrl}}}},
		&appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "other-1", Namespace: pod.Namespace,
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "unrelated", Controller: &ctrl}}}},
		&appsv1.ControllerRevision{ObjectMeta: metav1.ObjectMeta{Name: "db-1", Namespace: pod.Namespace,
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "db", Controller: &ctrl}}}},
		&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "hub", Namespace: pod.Namespace}},
		&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "unrelated", Namespace: pod.Namespace}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cluster-autoscaler-status", Namespace: "kube-system"},
			Data: map[string]string{"status": "Cluster-autoscaler status at 2023-02-01 17:05:00.123 +0000 UTC:\nCluster-wide:\n  Health: Healthy"}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "hub", Namespace: pod.Namespace},
			Data: map[string]string{"jupyterhub_config.py": "c.GenericOAuthenticator.client_secret = 'hunter2'"}})
	c := fake.NewClientset(objs...)
	var listCalls int
	pagedPods(c, &listCalls)

	dir := t.TempDir()
	var progress []string
	res, err := kube.Snapshot(context.Background(), kubetest.Client(c), dir, kube.SnapshotOptions{PageSize: 100,
		Progress: func(file string, n int) { progress = append(progress, file+":"+strconv.Itoa(n)) }})
	if err != nil {
		t.Fatal(err)
	}
	var pods corev1.PodList
	b, _ := os.ReadFile(filepath.Join(il0070, "pods.json"))
	if err := json.Unmarshal(b, &pods); err != nil {
		t.Fatal(err)
	}
	if res.Files[kube.PodsFile] != len(pods.Items) || listCalls != (len(pods.Items)+99)/100 {
		t.Errorf("pods: %d written in %d lists, want %d in %d pages", res.Files[kube.PodsFile], listCalls, len(pods.Items), (len(pods.Items)+99)/100)
	}
	if res.Files[kube.WorkloadsFile] != 3 || res.Files[kube.AutoscalerFile] != 1 || len(res.Warnings) != 0 {
		t.Errorf("files %v, warnings %v; want the hub's two ReplicaSets (its earlier revision too) and Deployment, and the autoscaler status", res.Files, res.Warnings)
	}
	if len(progress) == 0 {
		t.Error("no progress reported")
	}
	// The other ConfigMaps: keys and hashes, never a value; the autoscaler's status not twice.
	cms, _ := os.ReadFile(filepath.Join(dir, kube.ConfigMapsFile))
	if res.Files[kube.ConfigMapsFile] != 1 || bytes.Contains(cms, []byte("hunter2")) || !bytes.Contains(cms, []byte(`"jupyterhub_config.py": "sha256:`)) {
		t.Errorf("%s (%d items): %s", kube.ConfigMapsFile, res.Files[kube.ConfigMapsFile], cms)
	}
	want := findings(t, il0070, "nodes.json", "pods.json", "events.json")
	got := findings(t, dir, kube.NodesFile, kube.PodsFile, kube.EventsFile, kube.EventsV1File, kube.WorkloadsFile, kube.AutoscalerFile)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-original files +snapshot):\n%s", diff)
	}
	if len(want) < 5 {
		t.Errorf("the IL-0070 fixture gives only %v", want)
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

// TestSnapshotContinueExpired: when the continue token of a paged list expires part way (the
// API server compacted it away), the list is read again whole, and each pod is written once.
func TestSnapshotContinueExpired(t *testing.T) {
	var objs []runtime.Object
	for i := range 25 {
		objs = append(objs, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("p-%02d", i), Namespace: "ns"}})
	}
	c := fake.NewClientset(objs...)
	var calls []string
	c.PrependReactor("list", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		opts := a.(k8stesting.ListActionImpl).GetListOptions()
		calls = append(calls, fmt.Sprintf("limit=%d continue=%q", opts.Limit, opts.Continue))
		if opts.Continue != "" {
			return true, nil, apierrors.NewResourceExpired("the continue token is too old")
		}
		obj, err := c.Tracker().List(schema.GroupVersionResource{Version: "v1", Resource: "pods"},
			schema.GroupVersionKind{Version: "v1", Kind: "Pod"}, a.GetNamespace())
		if err != nil {
			return true, nil, err
		}
		all := obj.(*corev1.PodList)
		if opts.Limit > 0 && int(opts.Limit) < len(all.Items) {
			return true, &corev1.PodList{ListMeta: metav1.ListMeta{Continue: "10"}, Items: all.Items[:opts.Limit]}, nil
		}
		return true, all, nil
	})
	dir := t.TempDir()
	res, err := kube.Snapshot(context.Background(), kubetest.Client(c), dir, kube.SnapshotOptions{Namespace: "ns", PageSize: 10})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`limit=10 continue=""`, `limit=10 continue="10"`, `limit=0 continue=""`}
	if res.Files[kube.PodsFile] != 25 || !slices.Equal(calls, want) {
		t.Errorf("%d pods written, lists %q; want 25, lists %q", res.Files[kube.PodsFile], calls, want)
	}
	var pods corev1.PodList
	b, err := os.ReadFile(filepath.Join(dir, kube.PodsFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &pods); err != nil {
		t.Fatalf("the pods file: %v", err)
	}
	names := map[string]bool{}
	for _, p := range pods.Items {
		names[p.Name] = true
	}
	if len(pods.Items) != 25 || len(names) != 25 {
		t.Errorf("the pods file holds %d pods, %d of them apart; want 25 once each", len(pods.Items), len(names))
	}
}

// TestSnapshotForbiddenAndFailures: a kind the credentials may not read is skipped with a
// warning; any other error stops the snapshot, and no half-written file is left.
func TestSnapshotForbiddenAndFailures(t *testing.T) {
	c := fake.NewClientset(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}})
	c.PrependReactor("list", "nodes", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "nodes"}, "", errors.New("RBAC: no"))
	})
	dir := t.TempDir()
	res, err := kube.Snapshot(context.Background(), kubetest.Client(c), dir, kube.SnapshotOptions{Namespace: "ns"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 || res.Files[kube.PodsFile] != 1 || res.Files[kube.NodesFile] != 0 {
		t.Errorf("files %v, warnings %v", res.Files, res.Warnings)
	}

	c.PrependReactor("list", "events", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewInternalError(errors.New("etcd is down"))
	})
	dir = t.TempDir()
	if _, err := kube.Snapshot(context.Background(), kubetest.Client(c), dir, kube.SnapshotOptions{}); err == nil {
		t.Fatal("a failing list did not stop the snapshot")
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{kube.NodesFile, kube.PodsFile}, names); diff != "" {
		t.Errorf("files after the failure (-want +got):\n%s", diff)
	}
}
