package kube

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/pager"

	"github.com/rootline-dev/rootline/internal/change"
)

// The files a snapshot writes, each a List as `kubectl get -o json` writes it.
const (
	NodesFile      = "nodes.json"
	PodsFile       = "pods.json"
	EventsFile     = "events.json"             // core/v1 Events
	EventsV1File   = "events.k8s.io.json"      // events.k8s.io/v1 Events: the same events, with series and notes
	WorkloadsFile  = "workloads.json"          // the ReplicaSets, Deployments, StatefulSets, DaemonSets, Jobs and CronJobs that own the pods, and their earlier revisions
	AutoscalerFile = "cluster-autoscaler.json" // kube-system/cluster-autoscaler-status, when there is one
	ConfigMapsFile = "configmaps.json"         // the other ConfigMaps: their keys, each value replaced by its hash
)

// SnapshotOptions shape a snapshot.
type SnapshotOptions struct {
	Namespace string                   // "" for every namespace; nodes are cluster-wide either way
	PageSize  int64                    // items per list request; 500 when 0
	Progress  func(file string, n int) // called after each page with the items written to file so far
}

// SnapshotResult says what a snapshot wrote, and what it could not read.
type SnapshotResult struct {
	Files    map[string]int // file name → items written
	Warnings []string       // kinds the credentials may not read, and the like: the snapshot goes on without them
}

// Snapshot captures what an analysis needs from a live cluster into dir: nodes, pods and
// events (both APIs), the workloads that own the pods and their earlier revisions,
// cluster-autoscaler's status, and the other ConfigMaps as their keys and the hash of each
// value (what two snapshots compare of them; the values never reach the files). Lists
// are read page by page and written as they come, so memory stays bounded on large clusters.
// Each file appears whole or not at all (written aside, then renamed). Kinds the credentials
// may not read are skipped with a warning; any other error stops the snapshot.
func Snapshot(ctx context.Context, c Client, dir string, o SnapshotOptions) (SnapshotResult, error) {
	if o.PageSize <= 0 {
		o.PageSize = 500
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return SnapshotResult{}, fmt.Errorf("kube: snapshot: %w", err)
	}
	s := &snapshot{ctx: ctx, c: c, dir: dir, o: o, res: SnapshotResult{Files: map[string]int{}}, owners: map[ownerKey]bool{}, written: map[ownerKey]bool{}}
	steps := []func() error{s.nodes, s.pods, s.events, s.eventsV1, s.workloads, s.autoscaler, s.configMaps}
	for _, step := range steps {
		if err := step(); err != nil {
			return s.res, err
		}
	}
	return s.res, nil
}

type snapshot struct {
	ctx     context.Context
	c       Client
	dir     string
	o       SnapshotOptions
	res     SnapshotResult
	owners  map[ownerKey]bool // workloads owning what was written, to be written too
	written map[ownerKey]bool // the workloads written
}

type ownerKey struct{ kind, namespace, name string }

// lister lists one kind a page at a time (as client-go's pager asks): each item gets its
// apiVersion and kind (list items come without them; kubectl shows them), and is written when
// keep says so.
type lister struct {
	call             func(opts metav1.ListOptions) (runtime.Object, error)
	apiVersion, kind string
	keep             func(runtime.Object) bool
}

// list writes every item of the listers into file, each list paged by client-go's pager, and
// read again whole when its continue token expires part way. Forbidden lists are skipped with
// a warning.
func (s *snapshot) list(file, what string, listers ...lister) error {
	w, err := newListWriter(s.dir, file)
	if err != nil {
		return err
	}
	defer w.abort()
	for _, l := range listers {
		start, err := w.mark()
		if err != nil {
			return err
		}
		err = s.each(file, w, l, s.o.PageSize)
		if apierrors.IsResourceExpired(err) {
			// The continue token expired part way (the API server compacted its history):
			// what this list wrote goes, and it is read again whole, as client-go's pager
			// does for lists it holds in memory.
			if err := w.rewind(start); err != nil {
				return err
			}
			err = s.each(file, w, l, 0)
		}
		if apierrors.IsForbidden(err) {
			s.res.Warnings = append(s.res.Warnings, fmt.Sprintf("%s not read: %v", what, err))
			continue
		}
		if err != nil {
			return fmt.Errorf("kube: list %s: %w", what, err)
		}
		if s.o.Progress != nil {
			s.o.Progress(file, w.n)
		}
	}
	if err := w.commit(); err != nil {
		return err
	}
	s.res.Files[file] = w.n
	return nil
}

// each writes the items of one lister into w, pageSize at a time (0: all in one list), paged
// by client-go's pager; Progress is reported after each page's worth of items.
func (s *snapshot) each(file string, w *listWriter, l lister, pageSize int64) error {
	p := pager.New(pager.SimplePageFunc(l.call))
	p.PageSize = pageSize
	p.PageBufferSize = 1 // a page read ahead while one is written: memory stays a page or two
	seen := int64(0)
	return p.EachListItem(s.ctx, metav1.ListOptions{}, func(it runtime.Object) error {
		it.GetObjectKind().SetGroupVersionKind(gvk(l.apiVersion, l.kind))
		if l.keep(it) {
			if err := w.add(it); err != nil {
				return err
			}
		}
		if seen++; s.o.Progress != nil && pageSize > 0 && seen%pageSize == 0 {
			s.o.Progress(file, w.n)
		}
		return nil
	})
}

// all keeps every item of a list.
func all(runtime.Object) bool { return true }

func (s *snapshot) nodes() error {
	return s.list(NodesFile, "nodes", typed(s.ctx, s.c.CoreV1().Nodes(), "v1", "Node", all))
}

// pods writes the pods and notes their owners, for workloads.
func (s *snapshot) pods() error {
	return s.list(PodsFile, "pods", typed(s.ctx, s.c.CoreV1().Pods(s.o.Namespace), "v1", "Pod", func(o runtime.Object) bool {
		p := o.(*corev1.Pod)
		s.addOwners(p.Namespace, p.OwnerReferences)
		return true
	}))
}

func (s *snapshot) events() error {
	return s.list(EventsFile, "events", typed(s.ctx, s.c.CoreV1().Events(s.o.Namespace), "v1", "Event", all))
}

func (s *snapshot) eventsV1() error {
	return s.list(EventsV1File, "events.k8s.io/v1 events", typed(s.ctx, s.c.EventsV1().Events(s.o.Namespace), eventsv1.SchemeGroupVersion.String(), "Event", all))
}

func (s *snapshot) addOwners(namespace string, refs []metav1.OwnerReference) {
	for _, r := range refs {
		s.owners[ownerKey{r.Kind, namespace, r.Name}] = true
	}
}

// workloads writes the owners of the pods, then their owners (a ReplicaSet's Deployment, a
// Job's CronJob): two rounds of lists, each kept to the objects that own something written.
// A third round writes the history of what was written: the earlier ReplicaSets of each
// Deployment and the ControllerRevisions of each StatefulSet and DaemonSet, which keep the pod
// templates they ran before and when each was rolled out (what changed, and when).
func (s *snapshot) workloads() error {
	ns := s.o.Namespace
	owned := func(kind string) func(runtime.Object) bool {
		return func(o runtime.Object) bool {
			m, err := metaOf(o)
			if err != nil || !s.owners[ownerKey{kind, m.GetNamespace(), m.GetName()}] {
				return false
			}
			s.addOwners(m.GetNamespace(), m.GetOwnerReferences())
			s.written[ownerKey{kind, m.GetNamespace(), m.GetName()}] = true
			return true
		}
	}
	// history keeps the objects of kind, not written yet, that a written workload controls.
	history := func(kind string) func(runtime.Object) bool {
		return func(o runtime.Object) bool {
			m, err := metaOf(o)
			if err != nil || s.written[ownerKey{kind, m.GetNamespace(), m.GetName()}] {
				return false
			}
			for _, r := range m.GetOwnerReferences() {
				if r.Controller != nil && *r.Controller && s.written[ownerKey{r.Kind, m.GetNamespace(), r.Name}] {
					return true
				}
			}
			return false
		}
	}
	apps, batch := s.c.AppsV1(), s.c.BatchV1()
	return s.list(WorkloadsFile, "workloads",
		typed(s.ctx, apps.ReplicaSets(ns), "apps/v1", "ReplicaSet", owned("ReplicaSet")),
		typed(s.ctx, apps.StatefulSets(ns), "apps/v1", "StatefulSet", owned("StatefulSet")),
		typed(s.ctx, apps.DaemonSets(ns), "apps/v1", "DaemonSet", owned("DaemonSet")),
		typed(s.ctx, batch.Jobs(ns), "batch/v1", "Job", owned("Job")),
		// Second round: the owners of what the first round kept.
		typed(s.ctx, apps.Deployments(ns), "apps/v1", "Deployment", owned("Deployment")),
		typed(s.ctx, batch.CronJobs(ns), "batch/v1", "CronJob", owned("CronJob")),
		// Third round: the history of what was written.
		typed(s.ctx, apps.ReplicaSets(ns), "apps/v1", "ReplicaSet", history("ReplicaSet")),
		typed(s.ctx, apps.ControllerRevisions(ns), "apps/v1", "ControllerRevision", history("ControllerRevision")),
	)
}

// typed makes a lister of a kind's lists.
func typed[T, L runtime.Object](ctx context.Context, r Resource[T, L], apiVersion, kind string, keep func(runtime.Object) bool) lister {
	return lister{
		call:       func(opts metav1.ListOptions) (runtime.Object, error) { return listObject(ctx, r, opts) },
		apiVersion: apiVersion, kind: kind, keep: keep,
	}
}

// autoscaler writes cluster-autoscaler's status ConfigMap when the cluster has one.
func (s *snapshot) autoscaler() error {
	cm, err := s.c.CoreV1().ConfigMaps("kube-system").Get(s.ctx, "cluster-autoscaler-status", metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return nil
	case apierrors.IsForbidden(err):
		s.res.Warnings = append(s.res.Warnings, fmt.Sprintf("cluster-autoscaler status not read: %v", err))
		return nil
	case err != nil:
		return fmt.Errorf("kube: cluster-autoscaler status: %w", err)
	}
	cm.APIVersion, cm.Kind = "v1", "ConfigMap"
	w, err := newListWriter(s.dir, AutoscalerFile)
	if err != nil {
		return err
	}
	defer w.abort()
	if err := w.add(cm); err != nil {
		return err
	}
	if err := w.commit(); err != nil {
		return err
	}
	s.res.Files[AutoscalerFile] = 1
	return nil
}

// configMaps writes the ConfigMaps but cluster-autoscaler's status (written whole, above) with
// each value replaced by its hash (change.HashValues): what changed in them is compared, and a
// ConfigMap may hold what should not leave the cluster.
func (s *snapshot) configMaps() error {
	return s.list(ConfigMapsFile, "configmaps", typed(s.ctx, s.c.CoreV1().ConfigMaps(s.o.Namespace), "v1", "ConfigMap", func(o runtime.Object) bool {
		cm, ok := o.(*corev1.ConfigMap)
		if !ok || cm.Namespace == "kube-system" && cm.Name == "cluster-autoscaler-status" {
			return false
		}
		change.HashValues(cm)
		return true
	}))
}

// listWriter writes a List as kubectl does, item by item, into a file beside its final name,
// renamed into place by commit.
type listWriter struct {
	path, tmp string
	f         *os.File
	w         *bufio.Writer
	n         int
	done      bool
}

func newListWriter(dir, name string) (*listWriter, error) {
	path := filepath.Join(dir, name)
	f, err := os.CreateTemp(dir, "."+name+".*")
	if err != nil {
		return nil, fmt.Errorf("kube: snapshot: %w", err)
	}
	lw := &listWriter{path: path, tmp: f.Name(), f: f, w: bufio.NewWriterSize(f, 1<<16)}
	_, err = lw.w.WriteString("{\n    \"apiVersion\": \"v1\",\n    \"items\": [")
	return lw, err
}

func (lw *listWriter) add(o runtime.Object) error {
	b, err := json.MarshalIndent(o, "        ", "    ")
	if err != nil {
		return fmt.Errorf("kube: snapshot: %s: %w", filepath.Base(lw.path), err)
	}
	sep := "\n        "
	if lw.n > 0 {
		sep = ",\n        "
	}
	if _, err := lw.w.WriteString(sep); err != nil {
		return err
	}
	if _, err := lw.w.Write(b); err != nil {
		return fmt.Errorf("kube: snapshot: %w", err)
	}
	lw.n++
	return nil
}

// listMark is where a listWriter was: see mark and rewind.
type listMark struct {
	offset int64
	n      int
}

// mark returns where the writer is, to rewind to.
func (lw *listWriter) mark() (listMark, error) {
	if err := lw.w.Flush(); err != nil {
		return listMark{}, fmt.Errorf("kube: snapshot: %w", err)
	}
	off, err := lw.f.Seek(0, io.SeekCurrent)
	if err != nil {
		return listMark{}, fmt.Errorf("kube: snapshot: %w", err)
	}
	return listMark{offset: off, n: lw.n}, nil
}

// rewind forgets what was written since m.
func (lw *listWriter) rewind(m listMark) error {
	err := lw.w.Flush()
	if err == nil {
		err = lw.f.Truncate(m.offset)
	}
	if err == nil {
		_, err = lw.f.Seek(m.offset, io.SeekStart)
	}
	if err != nil {
		return fmt.Errorf("kube: snapshot: %w", err)
	}
	lw.w.Reset(lw.f)
	lw.n = m.n
	return nil
}

func (lw *listWriter) commit() error {
	tail := "\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n"
	if lw.n == 0 {
		tail = "],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n"
	}
	if _, err := lw.w.WriteString(tail); err != nil {
		return fmt.Errorf("kube: snapshot: %w", err)
	}
	err := errors.Join(lw.w.Flush(), lw.f.Sync(), lw.f.Close())
	if err == nil {
		err = os.Rename(lw.tmp, lw.path)
	}
	if err != nil {
		return fmt.Errorf("kube: snapshot: %s: %w", filepath.Base(lw.path), err)
	}
	lw.done = true
	return nil
}

// abort removes the unfinished file; a no-op after commit.
func (lw *listWriter) abort() {
	if !lw.done {
		lw.f.Close()
		os.Remove(lw.tmp)
	}
}

func metaOf(o runtime.Object) (metav1.Object, error) { return meta.Accessor(o) }

func gvk(apiVersion, kind string) schema.GroupVersionKind {
	return schema.FromAPIVersionAndKind(apiVersion, kind)
}
