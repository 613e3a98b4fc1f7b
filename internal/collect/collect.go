// Package collect watches a live cluster and streams what happens to a Rootline server:
// events (added and updated: their count and last time change in place), pods and nodes
// whenever their state line changes (phase, reason, readiness, restarts, conditions, taints),
// and nodes, Deployments, StatefulSets, DaemonSets, ReplicaSets and ConfigMaps whenever a field
// that the server compares for what changed does (change.Fields: a template's images,
// resources, probes, placement; a node's labels, taints and capacity; a ConfigMap's keys and
// the hashes of its values, which are hashed before they leave the collector), never on status
// churn.
// Batches go through a spool folder before they are sent, so that nothing is lost while the
// server is away or the collector restarts; the server stores them idempotently, so delivery
// is at least once and nothing is stored twice.
package collect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/kube"
	"github.com/rootline-dev/rootline/internal/wire"
)

// Options configure a Collector.
type Options struct {
	Namespace    string        // "" for every namespace (nodes are cluster-wide either way)
	BatchSize    int           // objects per batch; 500 when 0
	FlushEvery   time.Duration // the longest a seen object waits before its batch is spooled; 2s when 0
	SpoolDir     string        // where batches wait for delivery (required)
	SpoolBytes   int64         // the spool's bound; 256 MiB when 0. Past it the oldest batches are dropped
	DrainTimeout time.Duration // how long Run goes on delivering after its context ends; 10s when 0
	Sender       Sender        // delivers batches (required)
	Metrics      *Metrics      // nil: a fresh set
	Log          *slog.Logger  // nil: discard
	Now          func() time.Time
}

// Collector watches one cluster.
type Collector struct {
	client kube.Client
	o      Options
	spool  *spool
	m      *Metrics
	log    *slog.Logger

	mu    sync.Mutex
	batch []wire.Item // items of the batch being filled
	first time.Time   // when its first item came
	err   error       // the first spool error, which stops the collector

	synced chan struct{} // closed once the informers' first lists are all handed over
}

// New prepares a collector; Run starts it.
func New(client kube.Client, o Options) (*Collector, error) {
	if o.SpoolDir == "" || o.Sender == nil {
		return nil, errors.New("collect: a spool folder and a sender are required")
	}
	if o.BatchSize <= 0 {
		o.BatchSize = 500
	}
	if o.FlushEvery <= 0 {
		o.FlushEvery = 2 * time.Second
	}
	if o.SpoolBytes <= 0 {
		o.SpoolBytes = 256 << 20
	}
	if o.DrainTimeout <= 0 {
		o.DrainTimeout = 10 * time.Second
	}
	if o.Metrics == nil {
		o.Metrics = NewMetrics()
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	sp, err := openSpool(o.SpoolDir, o.SpoolBytes)
	if err != nil {
		return nil, err
	}
	c := &Collector{client: client, o: o, spool: sp, m: o.Metrics, log: o.Log, synced: make(chan struct{})}
	n, b := sp.size()
	c.m.spoolBatches.Set(float64(n))
	c.m.spoolBytes.Set(float64(b))
	if n > 0 {
		c.log.Info("batches left from an earlier run will be delivered first", "batches", n, "bytes", b)
	}
	return c, nil
}

// Synced is closed once the first lists are handed over: the pod and node informers', and
// the events' (whose watch is then open).
func (c *Collector) Synced() <-chan struct{} { return c.synced }

// Run watches the cluster and delivers until ctx ends; then it spools what it holds and goes
// on delivering for the drain timeout. What is still undelivered stays in the spool for the
// next run. It returns an error when the spool cannot be written.
func (c *Collector) Run(ctx context.Context) error {
	pods := kube.NewInformer(c.client, c.client.CoreV1().Pods(c.o.Namespace), &corev1.Pod{})
	nodes := kube.NewInformer(c.client, c.client.CoreV1().Nodes(), &corev1.Node{})
	for _, inf := range []cache.SharedIndexInformer{pods, nodes} {
		// The informers' caches keep every object; managed fields are half of an object's
		// size and of no use here.
		if err := inf.SetTransform(dropManagedFields); err != nil {
			return fmt.Errorf("collect: %w", err)
		}
	}
	handlers := []struct {
		inf cache.SharedIndexInformer
		h   cache.ResourceEventHandlerFuncs
	}{
		{pods, cache.ResourceEventHandlerFuncs{
			AddFunc: func(obj any) { c.observe(obj) },
			UpdateFunc: func(old, obj any) {
				if cluster.PodState(cluster.PodOf(old.(*corev1.Pod))) != cluster.PodState(cluster.PodOf(obj.(*corev1.Pod))) {
					c.observe(obj)
				}
			},
		}},
		{nodes, cache.ResourceEventHandlerFuncs{
			AddFunc: func(obj any) { c.observe(obj) },
			UpdateFunc: func(old, obj any) {
				if cluster.NodeState(old.(*corev1.Node)) != cluster.NodeState(obj.(*corev1.Node)) || changed(old, obj) {
					c.observe(obj)
				}
			},
			// A node deleted (a pool shrunk, the autoscaler's scale-down) is sent as it was
			// last, marked deleted: what changed is that it went.
			DeleteFunc: func(obj any) {
				if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
					obj = d.Obj
				}
				if n, ok := obj.(*corev1.Node); ok {
					c.observeDeleted(n)
				}
			},
		}},
	}
	for _, k := range c.changeKinds(ctx) {
		inf := k.informer()
		if err := inf.SetTransform(k.transform); err != nil {
			return fmt.Errorf("collect: %w", err)
		}
		handlers = append(handlers, struct {
			inf cache.SharedIndexInformer
			h   cache.ResourceEventHandlerFuncs
		}{inf, cache.ResourceEventHandlerFuncs{
			AddFunc: func(obj any) { c.observe(obj) },
			UpdateFunc: func(old, obj any) {
				if changed(old, obj) {
					c.observe(obj)
				}
			},
		}})
	}
	var regs []cache.ResourceEventHandlerRegistration
	for _, h := range handlers {
		reg, err := h.inf.AddEventHandler(h.h)
		if err != nil {
			return fmt.Errorf("collect: %w", err)
		}
		regs = append(regs, reg)
	}

	watchCtx, stopWatching := context.WithCancel(ctx)
	defer stopWatching()
	var informers, wg sync.WaitGroup
	for _, h := range handlers {
		informers.Go(func() { h.inf.RunWithContext(watchCtx) })
	}
	eventsSynced := make(chan struct{})
	wg.Go(func() {
		var once sync.Once
		c.streamEvents(watchCtx, func() { once.Do(func() { close(eventsSynced) }) })
	})
	wg.Go(func() {
		synced := make([]cache.InformerSynced, len(regs))
		for i, r := range regs {
			synced[i] = r.HasSynced
		}
		if !cache.WaitForCacheSync(watchCtx.Done(), synced...) {
			return
		}
		select {
		case <-eventsSynced:
			c.log.Info("watching the cluster", "namespace", c.o.Namespace)
			close(c.synced)
		case <-watchCtx.Done():
		}
	})
	deliverCtx, stopDelivering := context.WithCancel(context.Background())
	defer stopDelivering()
	delivered, noMore := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(delivered)
		c.deliver(deliverCtx, noMore)
	}()

	ticker := time.NewTicker(c.o.FlushEvery / 2)
	defer ticker.Stop()
	var err error
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case <-ticker.C:
			if err = c.flushIfDue(false); err != nil {
				break loop
			}
		}
	}
	stopWatching()
	informers.Wait() // the informers, and so their handlers, have stopped
	wg.Wait()
	if ferr := c.flushIfDue(true); err == nil {
		err = ferr
	}
	close(noMore)
	// Deliver what can be delivered in the drain time; the rest waits in the spool.
	timer := time.AfterFunc(c.o.DrainTimeout, stopDelivering)
	defer timer.Stop()
	<-delivered
	n, b := c.spool.size()
	c.log.Info("collector stopped", "undelivered_batches", n, "undelivered_bytes", b)
	return err
}

// dropManagedFields is the informers' transform.
func dropManagedFields(obj any) (any, error) {
	if m, err := meta.Accessor(obj); err == nil {
		m.SetManagedFields(nil)
	}
	return obj, nil
}

// observe adds an object to the batch being filled, with when it was seen; a full batch is
// spooled at once.
func (c *Collector) observe(obj any) { c.add(obj, false) }

// observeDeleted adds a deleted node to the batch, as it was last, marked deleted.
func (c *Collector) observeDeleted(n *corev1.Node) { c.add(n, true) }

func (c *Collector) add(obj any, deleted bool) {
	body, kind, err := encode(obj)
	if err != nil {
		c.log.Warn("object not encoded", "error", err)
		return
	}
	c.m.observed.WithLabelValues(kind).Inc()
	it := wire.Item{ObservedAt: c.o.Now(), Deleted: deleted, Object: body}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.batch) == 0 {
		c.first = c.o.Now()
	}
	c.batch = append(c.batch, it)
	if len(c.batch) >= c.o.BatchSize {
		c.spoolLocked()
	}
}

// flushIfDue spools the batch being filled when its oldest object has waited FlushEvery (or
// always, when final).
func (c *Collector) flushIfDue(final bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.batch) > 0 && (final || c.o.Now().Sub(c.first) >= c.o.FlushEvery) {
		c.spoolLocked()
	}
	return c.err
}

func (c *Collector) spoolLocked() {
	body, err := wire.Marshal(c.batch)
	var dropped int
	if err == nil {
		dropped, err = c.spool.add(body, len(c.batch))
	}
	if err != nil {
		if c.err == nil {
			c.err = err
		}
		c.log.Error("batch not spooled: objects lost", "objects", len(c.batch), "error", err)
		c.m.dropped.Add(float64(len(c.batch)))
	} else {
		c.m.spooled.Inc()
	}
	if dropped > 0 {
		c.log.Error("spool full: the oldest batches were dropped", "objects", dropped, "bound_bytes", c.o.SpoolBytes)
		c.m.dropped.Add(float64(dropped))
	}
	n, b := c.spool.size()
	c.m.spoolBatches.Set(float64(n))
	c.m.spoolBytes.Set(float64(b))
	c.batch = c.batch[:0:0]
}

// encode writes an object as the API server gives it, with its apiVersion and kind (which
// informers' objects lack). The cached object is not changed.
func encode(obj any) (json.RawMessage, string, error) {
	var v any
	var kind string
	switch o := obj.(type) {
	case *corev1.Event:
		v, kind = typed(o, corev1.SchemeGroupVersion.WithKind("Event")), "Event"
	case *corev1.Pod:
		v, kind = typed(o, corev1.SchemeGroupVersion.WithKind("Pod")), "Pod"
	case *corev1.Node:
		v, kind = typed(o, corev1.SchemeGroupVersion.WithKind("Node")), "Node"
	case *corev1.ConfigMap:
		v, kind = typed(o, corev1.SchemeGroupVersion.WithKind("ConfigMap")), "ConfigMap"
	case *appsv1.Deployment:
		v, kind = typed(o, appsv1.SchemeGroupVersion.WithKind("Deployment")), "Deployment"
	case *appsv1.StatefulSet:
		v, kind = typed(o, appsv1.SchemeGroupVersion.WithKind("StatefulSet")), "StatefulSet"
	case *appsv1.DaemonSet:
		v, kind = typed(o, appsv1.SchemeGroupVersion.WithKind("DaemonSet")), "DaemonSet"
	case *appsv1.ReplicaSet:
		v, kind = typed(o, appsv1.SchemeGroupVersion.WithKind("ReplicaSet")), "ReplicaSet"
	default:
		return nil, "", fmt.Errorf("unexpected %T", obj)
	}
	b, err := json.Marshal(v)
	return b, kind, err
}

// apiObject is a pointer to a client-go type of object, T.
type apiObject[T any] interface {
	*T
	runtime.Object
}

// typed is a shallow copy of o with its apiVersion and kind (o, the informer's cached object,
// is not changed).
func typed[T any, P apiObject[T]](o P, gvk schema.GroupVersionKind) P {
	x := P(new(T))
	*x = *o
	x.GetObjectKind().SetGroupVersionKind(gvk)
	return x
}
