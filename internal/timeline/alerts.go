package timeline

import (
	"cmp"
	"maps"
	"net"
	"slices"
	"strings"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// TypeAlert is an alert Alertmanager posted (POST /api/v1/alerts): its Kind is firing or
// resolved, its Last when it resolved, and its Ref names the firing.
const TypeAlert = "alert"

// alertSeverity maps the severity label of an alert to the timeline's severities. Other values
// (none, or a team's own) are info.
var alertSeverity = map[string]string{
	"critical": SeverityCritical, "error": SeverityCritical, "page": SeverityCritical, "high": SeverityCritical,
	"warning": SeverityWarning, "warn": SeverityWarning, "medium": SeverityWarning,
}

// alertObjects are the labels naming the object an alert is about, the most precise first (a
// pod's alert carries its namespace, and often its node, too): the label and the object's kind.
var alertObjects = []struct{ label, kind string }{
	{"pod", cluster.KindPod}, {"deployment", "Deployment"}, {"statefulset", "StatefulSet"}, {"daemonset", "DaemonSet"},
	{"job_name", "Job"}, {"persistentvolumeclaim", "PersistentVolumeClaim"},
}

// nodeLabels are the labels that may name a node: node (kube-state-metrics, cAdvisor), and
// instance or hostname (node_exporter: host:port, which names one only when the model holds a
// node of that name).
var nodeLabels = []string{"node", "kubernetes_node", "instance", "hostname", "host"}

// WithAlerts returns the timeline entries (as Build made them from m) with a row for each alert,
// in time order: at its start, lasting until it resolved (Last), firing or resolved, linked to
// the symptoms on the same object (a pod, a workload, a node), which link to it in turn. entries
// is not changed: it may be shared.
func WithAlerts(entries []Entry, m *cluster.Model, alerts []alert.Alert) []Entry {
	if len(alerts) == 0 {
		return entries
	}
	out := slices.Clone(entries)
	// The symptom rows by the object they name and by their node, read once: a timeline of
	// 40,000 rows and a thousand alerts is not walked once per alert.
	byObject, byNode := map[string][]int{}, map[string][]int{}
	for i, s := range out {
		if s.Type != TypeSymptom {
			continue
		}
		if s.Object != "" {
			byObject[s.Object] = append(byObject[s.Object], i)
		}
		if s.Node != "" {
			byNode[s.Node] = append(byNode[s.Node], i)
		}
	}
	for _, a := range alerts {
		e := alertEntry(a, m)
		var on []int
		if e.Object != "" {
			on = byObject[e.Object]
		}
		if e.Node != "" && e.Object == objectName(cluster.KindNode, "", e.Node) {
			// An alert about a node is about the symptoms on it too.
			on = append(slices.Clone(on), byNode[e.Node]...)
			slices.Sort(on)
			on = slices.Compact(on)
		}
		for _, i := range on {
			s := &out[i]
			e.Links = union(e.Links, []string{s.Ref})
			s.Links = union(slices.Clone(s.Links), []string{e.Ref})
		}
		out = append(out, e)
	}
	sortEntries(out)
	return out
}

// alertEntry is an alert's row.
func alertEntry(a alert.Alert, m *cluster.Model) Entry {
	name := a.Labels["alertname"]
	summary := a.Annotations["summary"]
	if summary == "" {
		summary = a.Annotations["description"]
	}
	switch {
	case summary == "" && name == "":
		summary = "alert " + a.Fingerprint
	case summary == "":
		summary = name
	case name != "":
		summary = name + ": " + summary
	}
	sev, ok := alertSeverity[strings.ToLower(a.Labels["severity"])]
	if !ok {
		sev = SeverityInfo
	}
	e := Entry{At: a.StartsAt.UTC(), Type: TypeAlert, Kind: a.Status, Severity: sev, Summary: clip(firstLine(summary)),
		Namespace: a.Labels["namespace"], Ref: "alert-" + a.Fingerprint + "-" + a.StartsAt.UTC().Format("20060102T150405Z")}
	if !a.EndsAt.IsZero() {
		end := a.EndsAt.UTC()
		e.Last = &end
	}
	e.Node = alertNode(a.Labels, m)
	labels := subjectLabels(a.Labels)
	e.Namespace = labels["namespace"]
	if e.Namespace != "" {
		for _, o := range alertObjects {
			if v := labels[o.label]; v != "" {
				e.setObject(o.kind, e.Namespace, v)
				break
			}
		}
	}
	if e.Object == "" && e.Node != "" {
		e.setObject(cluster.KindNode, "", e.Node)
	}
	return e
}

// describingExporters are the exporters whose series describe other objects than themselves:
// kube-state-metrics the cluster's objects, node-exporter its node. Prometheus gives a series
// the pod and namespace of the target it scraped, so that a series of theirs about a node
// (kube_node_status_condition, node_filesystem_avail_bytes) carries the exporter's own pod.
var describingExporters = []string{"kube-state-metrics", "node-exporter"}

// subjectLabels are an alert's labels that name what it is about. When the subject's own pod
// and namespace clashed with the scraped target's, they come as exported_pod and
// exported_namespace; when the pod named is a describing exporter's (describingExporters), it
// is left out, and its namespace with it unless another label names an object there. An
// application's own series (job "hub", pod hub-7c9) are about the pod they were scraped from,
// and are kept as they are.
func subjectLabels(labels map[string]string) map[string]string {
	if p, ok := labels["exported_pod"]; ok {
		out := maps.Clone(labels)
		out["pod"], out["namespace"] = p, cmp.Or(labels["exported_namespace"], labels["namespace"])
		return out
	}
	pod := labels["pod"]
	if !slices.ContainsFunc(describingExporters, func(e string) bool { return strings.Contains(pod, e) }) {
		return labels
	}
	out := maps.Clone(labels)
	delete(out, "pod")
	switch {
	case labels["exported_namespace"] != "":
		out["namespace"] = labels["exported_namespace"]
	case !slices.ContainsFunc(alertObjects, func(o struct{ label, kind string }) bool { return out[o.label] != "" }):
		delete(out, "namespace") // the exporter's: it names no object of the alert's
	}
	return out
}

// alertNode is the node an alert's labels name, when the model holds a node of that name
// (an instance's port, or its domain, left off).
func alertNode(labels map[string]string, m *cluster.Model) string {
	if m == nil {
		return ""
	}
	for _, l := range nodeLabels {
		v := labels[l]
		if v == "" {
			continue
		}
		if host, _, err := net.SplitHostPort(v); err == nil {
			v = host
		}
		for _, name := range []string{v, strings.SplitN(v, ".", 2)[0]} {
			if m.Node(name) != nil {
				return name
			}
		}
	}
	return ""
}
