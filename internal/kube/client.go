package kube

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
)

// Client is what Rootline reads of an API server: get, list and watch of the kinds a snapshot
// writes and the collector watches, in the shape of client-go's typed clients (whose clients
// of these kinds satisfy Resource as they are).
//
// It is not client-go's kubernetes.Interface on purpose: that clientset links every API group
// Kubernetes has (56 packages of types, their clients and their scheme's registration), which
// every rootline process paid for at start whatever it ran, `rootline analyze` included:
// 11 MiB of resident memory, mostly the binary's own pages (issue 30). This client makes the
// requests client-go's typed clients make, with client-go's REST client, for the kinds of the
// four groups Rootline reads.
type Client interface {
	CoreV1() CoreV1
	AppsV1() AppsV1
	BatchV1() BatchV1
	EventsV1() EventsV1
}

// Resource reads the objects of one kind (T) and their lists (L).
type Resource[T, L runtime.Object] interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (T, error)
	List(ctx context.Context, opts metav1.ListOptions) (L, error)
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
}

// CoreV1 is the core group's kinds that Rootline reads.
type CoreV1 interface {
	Nodes() Resource[*corev1.Node, *corev1.NodeList]
	Pods(namespace string) Resource[*corev1.Pod, *corev1.PodList]
	Events(namespace string) Resource[*corev1.Event, *corev1.EventList]
	ConfigMaps(namespace string) Resource[*corev1.ConfigMap, *corev1.ConfigMapList]
}

// AppsV1 is the apps group's kinds that Rootline reads.
type AppsV1 interface {
	Deployments(namespace string) Resource[*appsv1.Deployment, *appsv1.DeploymentList]
	ReplicaSets(namespace string) Resource[*appsv1.ReplicaSet, *appsv1.ReplicaSetList]
	StatefulSets(namespace string) Resource[*appsv1.StatefulSet, *appsv1.StatefulSetList]
	DaemonSets(namespace string) Resource[*appsv1.DaemonSet, *appsv1.DaemonSetList]
	ControllerRevisions(namespace string) Resource[*appsv1.ControllerRevision, *appsv1.ControllerRevisionList]
}

// BatchV1 is the batch group's kinds that Rootline reads.
type BatchV1 interface {
	Jobs(namespace string) Resource[*batchv1.Job, *batchv1.JobList]
	CronJobs(namespace string) Resource[*batchv1.CronJob, *batchv1.CronJobList]
}

// EventsV1 is the events.k8s.io group's events.
type EventsV1 interface {
	Events(namespace string) Resource[*eventsv1.Event, *eventsv1.EventList]
}

// NewClient returns a client of the API server that cfg reaches. Its requests share one HTTP
// client (and so its connections and rate limit), as a client-go clientset's do.
func NewClient(cfg *rest.Config) (Client, error) {
	h, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, fmt.Errorf("kube: client: %w", err)
	}
	s := newScheme()
	var c restClient
	for _, g := range []struct {
		gv   schema.GroupVersion
		path string
		into *rest.Interface
	}{
		{corev1.SchemeGroupVersion, "/api", &c.core},
		{appsv1.SchemeGroupVersion, "/apis", &c.apps},
		{batchv1.SchemeGroupVersion, "/apis", &c.batch},
		{eventsv1.SchemeGroupVersion, "/apis", &c.events},
	} {
		config := *cfg
		config.GroupVersion, config.APIPath = &g.gv, g.path
		config.NegotiatedSerializer = rest.CodecFactoryForGeneratedClient(s.scheme, s.codecs).WithoutConversion()
		if config.UserAgent == "" {
			config.UserAgent = rest.DefaultKubernetesUserAgent()
		}
		rc, err := rest.RESTClientForConfigAndClient(&config, h)
		if err != nil {
			return nil, fmt.Errorf("kube: client of %s: %w", g.gv, err)
		}
		*g.into = rc
	}
	c.params = s.params
	return c, nil
}

// clientScheme is the types of the groups Client reads, and their codecs.
type clientScheme struct {
	scheme *runtime.Scheme
	codecs serializer.CodecFactory
	params runtime.ParameterCodec
}

// newScheme registers the four groups' types (and metav1's options, status and watch events
// under each) as client-go's kubernetes/scheme does for all of them.
func newScheme() clientScheme {
	s := runtime.NewScheme()
	metav1.AddToGroupVersion(s, schema.GroupVersion{Version: "v1"})
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, appsv1.AddToScheme, batchv1.AddToScheme, eventsv1.AddToScheme} {
		if err := add(s); err != nil {
			panic(fmt.Sprintf("kube: scheme: %v", err)) // the groups' own registration: cannot fail
		}
	}
	return clientScheme{scheme: s, codecs: serializer.NewCodecFactory(s), params: runtime.NewParameterCodec(s)}
}

// restClient is Client over the API server's REST interface, with client-go's generic typed
// client (gentype), configured as client-go's generated clients configure it for each kind.
type restClient struct {
	core, apps, batch, events rest.Interface
	params                    runtime.ParameterCodec
}

func (c restClient) CoreV1() CoreV1     { return coreV1(c) }
func (c restClient) AppsV1() AppsV1     { return appsV1(c) }
func (c restClient) BatchV1() BatchV1   { return batchV1(c) }
func (c restClient) EventsV1() EventsV1 { return eventsV1Client(c) }

// resource reads one kind of one group (its REST client c) in namespace ("" for all, or for a
// kind without namespaces), as client-go's generated typed client of the kind reads it: the
// same requests, protobuf preferred (every kind here is built into the API server). It is not
// client-go's generic typed client (gentype), which links client-go's testing package and
// through it the OpenAPI and structured-merge libraries, 52 packages that a client that only
// reads does not use.
type resource[T, L runtime.Object] struct {
	c         rest.Interface
	params    runtime.ParameterCodec
	name      string
	namespace string
	newObj    func() T
	newList   func() L
}

func newResource[T, L runtime.Object](c rest.Interface, params runtime.ParameterCodec, name, namespace string, newObj func() T, newList func() L) Resource[T, L] {
	return resource[T, L]{c: c, params: params, name: name, namespace: namespace, newObj: newObj, newList: newList}
}

// request is a GET of the kind, in its namespace.
func (r resource[T, L]) request() *rest.Request {
	return r.c.Get().UseProtobufAsDefaultIfPreferred(true).NamespaceIfScoped(r.namespace, r.namespace != "").Resource(r.name)
}

func (r resource[T, L]) Get(ctx context.Context, name string, opts metav1.GetOptions) (T, error) {
	obj := r.newObj()
	err := r.request().Name(name).VersionedParams(&opts, r.params).Do(ctx).Into(obj)
	return obj, err
}

func (r resource[T, L]) List(ctx context.Context, opts metav1.ListOptions) (L, error) {
	list := r.newList()
	err := r.request().VersionedParams(&opts, r.params).Timeout(timeout(opts)).Do(ctx).Into(list)
	return list, err
}

func (r resource[T, L]) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	opts.Watch = true
	return r.request().VersionedParams(&opts, r.params).Timeout(timeout(opts)).Watch(ctx)
}

// newOf is an empty T, for a resource's new objects and lists.
func newOf[T any]() *T { return new(T) }

// timeout is the request's timeout that a list or watch asks for (none when it asks none).
func timeout(opts metav1.ListOptions) time.Duration {
	if opts.TimeoutSeconds == nil {
		return 0
	}
	return time.Duration(*opts.TimeoutSeconds) * time.Second
}

type coreV1 restClient

func (c coreV1) Nodes() Resource[*corev1.Node, *corev1.NodeList] {
	return newResource(c.core, c.params, "nodes", "", newOf[corev1.Node], newOf[corev1.NodeList])
}

func (c coreV1) Pods(ns string) Resource[*corev1.Pod, *corev1.PodList] {
	return newResource(c.core, c.params, "pods", ns, newOf[corev1.Pod], newOf[corev1.PodList])
}

func (c coreV1) Events(ns string) Resource[*corev1.Event, *corev1.EventList] {
	return newResource(c.core, c.params, "events", ns, newOf[corev1.Event], newOf[corev1.EventList])
}

func (c coreV1) ConfigMaps(ns string) Resource[*corev1.ConfigMap, *corev1.ConfigMapList] {
	return newResource(c.core, c.params, "configmaps", ns, newOf[corev1.ConfigMap], newOf[corev1.ConfigMapList])
}

type appsV1 restClient

func (c appsV1) Deployments(ns string) Resource[*appsv1.Deployment, *appsv1.DeploymentList] {
	return newResource(c.apps, c.params, "deployments", ns, newOf[appsv1.Deployment], newOf[appsv1.DeploymentList])
}

func (c appsV1) ReplicaSets(ns string) Resource[*appsv1.ReplicaSet, *appsv1.ReplicaSetList] {
	return newResource(c.apps, c.params, "replicasets", ns, newOf[appsv1.ReplicaSet], newOf[appsv1.ReplicaSetList])
}

func (c appsV1) StatefulSets(ns string) Resource[*appsv1.StatefulSet, *appsv1.StatefulSetList] {
	return newResource(c.apps, c.params, "statefulsets", ns, newOf[appsv1.StatefulSet], newOf[appsv1.StatefulSetList])
}

func (c appsV1) DaemonSets(ns string) Resource[*appsv1.DaemonSet, *appsv1.DaemonSetList] {
	return newResource(c.apps, c.params, "daemonsets", ns, newOf[appsv1.DaemonSet], newOf[appsv1.DaemonSetList])
}

func (c appsV1) ControllerRevisions(ns string) Resource[*appsv1.ControllerRevision, *appsv1.ControllerRevisionList] {
	return newResource(c.apps, c.params, "controllerrevisions", ns, newOf[appsv1.ControllerRevision], newOf[appsv1.ControllerRevisionList])
}

type batchV1 restClient

func (c batchV1) Jobs(ns string) Resource[*batchv1.Job, *batchv1.JobList] {
	return newResource(c.batch, c.params, "jobs", ns, newOf[batchv1.Job], newOf[batchv1.JobList])
}

func (c batchV1) CronJobs(ns string) Resource[*batchv1.CronJob, *batchv1.CronJobList] {
	return newResource(c.batch, c.params, "cronjobs", ns, newOf[batchv1.CronJob], newOf[batchv1.CronJobList])
}

type eventsV1Client restClient

func (c eventsV1Client) Events(ns string) Resource[*eventsv1.Event, *eventsv1.EventList] {
	return newResource(c.events, c.params, "events", ns, newOf[eventsv1.Event], newOf[eventsv1.EventList])
}
