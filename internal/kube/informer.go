package kube

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
)

// NewInformer makes a shared informer of the objects r lists and watches (obj is an empty one
// of their type), as client-go's informer factory makes one of a typed client: its cache is
// indexed by namespace and never resynced. client is r's client: when it cannot answer
// client-go's streaming list (the clientset fakes of tests), the informer lists and watches.
func NewInformer[T, L runtime.Object](client Client, r Resource[T, L], obj T) cache.SharedIndexInformer {
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			return listObject(ctx, r, o)
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			return r.Watch(ctx, o)
		},
	}
	return cache.NewSharedIndexInformerWithOptions(cache.ToListWatcherWithWatchListSemantics(lw, client), obj,
		cache.SharedIndexInformerOptions{Indexers: cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}})
}

// listObject lists r's objects as a runtime.Object: nil on error, not the list of r's type
// that a client may return beside it (a nil list of a type is not a nil runtime.Object).
func listObject[T, L runtime.Object](ctx context.Context, r Resource[T, L], o metav1.ListOptions) (runtime.Object, error) {
	l, err := r.List(ctx, o)
	if err != nil {
		return nil, err
	}
	return l, nil
}
