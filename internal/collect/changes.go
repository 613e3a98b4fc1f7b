package collect

import (
	"context"
	"maps"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"

	"github.com/rootline-dev/rootline/internal/change"
	"github.com/rootline-dev/rootline/internal/kube"
)

// changeKind is a kind the collector watches for changes (besides nodes, whose informer it
// has for their states): its informer, the transform its cache keeps objects through, and a
// list of one object that tells whether the collector may read it.
type changeKind struct {
	name      string
	informer  func() cache.SharedIndexInformer
	transform cache.TransformFunc
	probe     func(ctx context.Context, o metav1.ListOptions) error
}

// changeKindOf is the kind r reads (obj an empty one of its objects), watched for changes.
func changeKindOf[T, L runtime.Object](c *Collector, name string, r kube.Resource[T, L], obj T, transform cache.TransformFunc) changeKind {
	return changeKind{name: name,
		informer:  func() cache.SharedIndexInformer { return kube.NewInformer(c.client, r, obj) },
		transform: transform,
		probe: func(ctx context.Context, o metav1.ListOptions) error {
			_, err := r.List(ctx, o)
			return err
		}}
}

// changeKinds are the kinds watched for changes that the collector may list. One it may not
// (its role leaves it out: deploy/collector.yaml lists them all, and an operator may remove
// ConfigMaps, say) is left out with a warning; the collector goes on with the others.
func (c *Collector) changeKinds(ctx context.Context) []changeKind {
	apps, ns := c.client.AppsV1(), c.o.Namespace
	all := []changeKind{
		changeKindOf(c, "Deployment", apps.Deployments(ns), &appsv1.Deployment{}, dropManagedFields),
		changeKindOf(c, "StatefulSet", apps.StatefulSets(ns), &appsv1.StatefulSet{}, dropManagedFields),
		changeKindOf(c, "DaemonSet", apps.DaemonSets(ns), &appsv1.DaemonSet{}, dropManagedFields),
		changeKindOf(c, "ReplicaSet", apps.ReplicaSets(ns), &appsv1.ReplicaSet{}, dropManagedFields),
		changeKindOf(c, "ConfigMap", c.client.CoreV1().ConfigMaps(ns), &corev1.ConfigMap{}, hashConfigMap),
	}
	var out []changeKind
	for _, k := range all {
		err := k.probe(ctx, metav1.ListOptions{Limit: 1})
		switch {
		case err == nil:
			out = append(out, k)
		case apierrors.IsForbidden(err) || apierrors.IsNotFound(err):
			c.log.Warn("not watching a kind for changes: the collector may not list it", "kind", k.name, "namespace", c.o.Namespace, "error", err)
		default:
			// Not known to be refused: watch it, and let the informer retry as it does.
			c.log.Warn("listing a kind watched for changes failed; watching it anyway", "kind", k.name, "error", err)
			out = append(out, k)
		}
	}
	return out
}

// hashConfigMap is the ConfigMaps' transform: what the cache keeps, and so what is ever sent,
// is each value's hash (change.HashValues), never the value.
func hashConfigMap(obj any) (any, error) {
	obj, _ = dropManagedFields(obj)
	if cm, ok := obj.(*corev1.ConfigMap); ok {
		change.HashValues(cm)
	}
	return obj, nil
}

// changed reports whether a field the server compares for what changed differs between two
// versions of an object (change.Fields); status churn is no change.
func changed(old, obj any) bool {
	a, ok := change.Fields(old)
	if !ok {
		return false
	}
	b, _ := change.Fields(obj)
	return !maps.Equal(a, b)
}
