// Package kubetest makes a kube.Client of a client-go clientset, for tests: client-go's fake
// clientset (with its object tracker and reactors) or a clientset of a test API server. Only
// tests import it, so that the rootline binary does not link the clientset (kube.Client says
// why); an archtest holds that.
package kubetest

import (
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/watchlist"

	"github.com/rootline-dev/rootline/internal/kube"
)

// Client is c as a kube.Client. client-go's typed clients of the kinds kube.Client reads are
// its Resources as they are.
func Client(c kubernetes.Interface) kube.Client { return clientset{c} }

type clientset struct{ c kubernetes.Interface }

func (c clientset) CoreV1() kube.CoreV1     { return core(c) }
func (c clientset) AppsV1() kube.AppsV1     { return apps(c) }
func (c clientset) BatchV1() kube.BatchV1   { return batch(c) }
func (c clientset) EventsV1() kube.EventsV1 { return events(c) }

// IsWatchListSemanticsUnSupported says what the clientset says of client-go's streaming list
// (the fake cannot answer one), for kube.NewInformer.
func (c clientset) IsWatchListSemanticsUnSupported() bool {
	return watchlist.DoesClientNotSupportWatchListSemantics(c.c)
}

type core clientset

func (c core) Nodes() kube.Resource[*corev1.Node, *corev1.NodeList] { return c.c.CoreV1().Nodes() }
func (c core) Pods(ns string) kube.Resource[*corev1.Pod, *corev1.PodList] {
	return c.c.CoreV1().Pods(ns)
}
func (c core) Events(ns string) kube.Resource[*corev1.Event, *corev1.EventList] {
	return c.c.CoreV1().Events(ns)
}
func (c core) ConfigMaps(ns string) kube.Resource[*corev1.ConfigMap, *corev1.ConfigMapList] {
	return c.c.CoreV1().ConfigMaps(ns)
}

type apps clientset

func (c apps) Deployments(ns string) kube.Resource[*appsv1.Deployment, *appsv1.DeploymentList] {
	return c.c.AppsV1().Deployments(ns)
}
func (c apps) ReplicaSets(ns string) kube.Resource[*appsv1.ReplicaSet, *appsv1.ReplicaSetList] {
	return c.c.AppsV1().ReplicaSets(ns)
}
func (c apps) StatefulSets(ns string) kube.Resource[*appsv1.StatefulSet, *appsv1.StatefulSetList] {
	return c.c.AppsV1().StatefulSets(ns)
}
func (c apps) DaemonSets(ns string) kube.Resource[*appsv1.DaemonSet, *appsv1.DaemonSetList] {
	return c.c.AppsV1().DaemonSets(ns)
}
func (c apps) ControllerRevisions(ns string) kube.Resource[*appsv1.ControllerRevision, *appsv1.ControllerRevisionList] {
	return c.c.AppsV1().ControllerRevisions(ns)
}

type batch clientset

func (c batch) Jobs(ns string) kube.Resource[*batchv1.Job, *batchv1.JobList] {
	return c.c.BatchV1().Jobs(ns)
}
func (c batch) CronJobs(ns string) kube.Resource[*batchv1.CronJob, *batchv1.CronJobList] {
	return c.c.BatchV1().CronJobs(ns)
}

type events clientset

func (c events) Events(ns string) kube.Resource[*eventsv1.Event, *eventsv1.EventList] {
	return c.c.EventsV1().Events(ns)
}
