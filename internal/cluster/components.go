package cluster

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// Component kinds, as CONTRACT.md names them.
const (
	ComponentNodePool   = "NodePool"
	ComponentPrometheus = "Prometheus"
	ComponentHub        = "Hub"
	ComponentProxy      = "Proxy"
	ComponentIngress    = "Ingress"
	ComponentDNS        = "DNS"
	ComponentAutoscaler = "Autoscaler"
	ComponentScheduler  = "Scheduler"
	ComponentDatabase   = "Database"
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
func PodComponent(p *corev1.Pod) string {
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

// SystemCritical reports whether the pod runs with one of Kubernetes' own critical priority
// classes.
func SystemCritical(p *corev1.Pod) bool {
	return p.Spec.PriorityClassName == "system-cluster-critical" || p.Spec.PriorityClassName == "system-node-critical"
}
