package cluster

import (
	corev1 "k8s.io/api/core/v1"
)

// poolLabels are the node labels that name a node pool, most specific first: GKE, EKS (managed
// and eksctl), AKS, Karpenter (v1 and before), DigitalOcean, OKE, kops, and generic ones.
var poolLabels = []string{
	"cloud.google.com/gke-nodepool",
	"eks.amazonaws.com/nodegroup",
	"alpha.eksctl.io/nodegroup-name",
	"kubernetes.azure.com/agentpool",
	"agentpool",
	"karpenter.sh/nodepool",
	"karpenter.sh/provisioner-name",
	"doks.digitalocean.com/node-pool",
	"oke.oraclecloud.com/pool.name",
	"kops.k8s.io/instancegroup",
	"node-pool",
	"nodepool",
}

// instanceTypeLabels name the machine type, the fallback for a pool.
var instanceTypeLabels = []string{"node.kubernetes.io/instance-type", "beta.kubernetes.io/instance-type"}

// NodePool returns the node's pool from its labels, and the label it came from. Without a pool
// label the instance type stands in for the pool ("instance-type:n2-highmem-4"), since nodes of
// one type are usually created together; without either, both results are "".
func NodePool(labels map[string]string) (pool, label string) {
	for _, l := range poolLabels {
		if v := labels[l]; v != "" {
			return v, l
		}
	}
	if t := InstanceType(labels); t != "" {
		return "instance-type:" + t, "node.kubernetes.io/instance-type"
	}
	return "", ""
}

// InstanceType returns the node's machine type from its labels.
func InstanceType(labels map[string]string) string {
	for _, l := range instanceTypeLabels {
		if v := labels[l]; v != "" {
			return v
		}
	}
	return ""
}

// NodeCondition returns the status of a node condition ("True", "False", "Unknown"), or "" when
// the node does not report it.
func NodeCondition(n *corev1.Node, t corev1.NodeConditionType) string {
	for _, c := range n.Status.Conditions {
		if c.Type == t {
			return string(c.Status)
		}
	}
	return ""
}
