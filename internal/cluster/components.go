package cluster

import (
	"strings"

	"github.com/rootline-dev/rootline/internal/kinds"
)

// Component kinds: see internal/kinds, the vocabulary's one home.
const (
	ComponentNodePool   = kinds.NodePool
	ComponentPrometheus = kinds.Prometheus
	ComponentHub        = kinds.Hub
	ComponentProxy      = kinds.Proxy
	ComponentIngress    = kinds.Ingress
	ComponentDNS        = kinds.DNS
	ComponentAutoscaler = kinds.Autoscaler
	ComponentScheduler  = kinds.Scheduler
	ComponentDatabase   = kinds.Database
)

// componentSigns recognise well-known components by what their pods are called and labelled:
// the first sign that matches a pod's name, its app/component labels or its first image wins.
var componentSigns = []struct {
	kind  string
	signs []string
}{
	{ComponentPrometheus, []string{"prometheus-server", "prometheus-k8s", "prometheus-kube-prometheus", "prometheus"}},
	{ComponentIngress, []string{"ingress-nginx", "ingress-controller", "traefik", "contour", "haproxy-ingress"}},
	{ComponentDNS, []string{"coredns", "kube-dns", "node-local-dns"}},
	{ComponentAutoscaler, []string{"cluster-autoscaler", "karpenter"}},
	{ComponentScheduler, []string{"user-scheduler", "kube-scheduler"}},
	{ComponentHub, []string{"hub"}},
	{ComponentProxy, []string{"proxy", "chp"}},
	{ComponentDatabase, []string{"postgres", "mysql", "mariadb", "redis", "mongodb"}},
}

// PodComponent names the well-known platform component a pod belongs to, or "".
// JupyterHub's chart labels its pods component=hub and component=proxy; other projects are
// recognised by the names of their pods and images.
func PodComponent(p *Pod) string {
	label := strings.ToLower(p.Labels["component"] + " " + p.Labels["app"] + " " + p.Labels["app.kubernetes.io/name"] + " " + p.Labels["k8s-app"])
	switch strings.TrimSpace(p.Labels["component"]) {
	case "hub":
		return ComponentHub
	case "proxy", "autohttps":
		return ComponentProxy
	}
	image := ""
	if len(p.Spec.Containers) > 0 {
		image = strings.ToLower(p.Spec.Containers[0].Image)
	}
	name := strings.ToLower(p.Name)
	for _, c := range componentSigns {
		if c.kind == ComponentPrometheus && besidePrometheus(name, label, image) {
			continue
		}
		for _, s := range c.signs {
			if c.kind == ComponentHub || c.kind == ComponentProxy {
				// Short words: only a whole first name segment counts ("hub-7c9…", not "github-…").
				if first, _, _ := strings.Cut(name, "-"); first == s {
					return c.kind
				}
				continue
			}
			if strings.Contains(name, s) || strings.Contains(label, s) || strings.Contains(image, "/"+s) || strings.HasPrefix(image, s) {
				return c.kind
			}
		}
	}
	return ""
}

// notPrometheusServer are the pods of a Prometheus installation that are not the server whose
// memory grows with its targets: exporters, the alert manager, the operator and the adapter.
var notPrometheusServer = []string{"kube-state-metrics", "node-exporter", "alertmanager", "pushgateway", "blackbox-exporter", "operator", "adapter"}

func besidePrometheus(name, label, image string) bool {
	for _, s := range notPrometheusServer {
		if strings.Contains(name, s) || strings.Contains(label, s) || strings.Contains(image, s) {
			return true
		}
	}
	return false
}

// GrowsWithCluster reports whether a pod's memory grows with the size of the cluster though it
// is no Prometheus server: kube-state-metrics keeps every object of the cluster in memory.
func GrowsWithCluster(p *Pod) bool {
	label := strings.ToLower(p.Labels["app.kubernetes.io/name"] + " " + p.Labels["app"] + " " + p.Labels["k8s-app"])
	return strings.Contains(strings.ToLower(p.Name), "kube-state-metrics") || strings.Contains(label, "kube-state-metrics")
}

// WorkloadName names what runs a pod, as a component of an incident is best named
// (Workload's name): unlike pods' names, it stays the same across restarts, so incidents of
// one cluster name their components alike.
func WorkloadName(p *Pod) string {
	_, name := Workload(p)
	return name
}

// SystemCritical reports whether the pod runs with one of Kubernetes' own critical priority
// classes.
func SystemCritical(p *Pod) bool {
	return p.Spec.PriorityClassName == "system-cluster-critical" || p.Spec.PriorityClassName == "system-node-critical"
}
