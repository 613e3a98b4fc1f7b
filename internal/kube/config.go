// Package kube is Rootline's side of a live cluster: it connects with client-go (kubeconfig,
// context, or the pod's own service account) and reads what an analysis needs. It only reads:
// get, list and watch.
package kube

import (
	"fmt"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// Target says which cluster to reach.
type Target struct {
	Kubeconfig string // a kubeconfig file; "" follows $KUBECONFIG and ~/.kube/config
	Context    string // a context of it; "" is its current context
}

// Config returns the client configuration of the target: in-cluster when no kubeconfig is
// named and the process runs in a pod, else the kubeconfig's context. It also returns the
// context's name (the cluster's name in Rootline, unless people give another).
func Config(t Target) (*rest.Config, string, error) {
	if t.Kubeconfig == "" && t.Context == "" {
		if cfg, err := rest.InClusterConfig(); err == nil {
			return withDefaults(cfg), "in-cluster", nil
		}
	}
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	if t.Kubeconfig != "" {
		rules.ExplicitPath = t.Kubeconfig
	}
	loader := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: t.Context})
	raw, err := loader.RawConfig()
	if err != nil {
		return nil, "", fmt.Errorf("kube: kubeconfig: %w", err)
	}
	name := t.Context
	if name == "" {
		name = raw.CurrentContext
	}
	if name == "" {
		return nil, "", fmt.Errorf("kube: the kubeconfig has no current context: name one with --context")
	}
	if _, ok := raw.Contexts[name]; !ok {
		return nil, "", fmt.Errorf("kube: context %q is not in the kubeconfig", name)
	}
	cfg, err := loader.ClientConfig()
	if err != nil {
		return nil, "", fmt.Errorf("kube: context %s: %w", name, err)
	}
	return withDefaults(cfg), name, nil
}

// withDefaults sets what Rootline asks of every client: a user agent that names it, and a
// gentle rate so that a snapshot of a large cluster does not crowd the API server.
func withDefaults(cfg *rest.Config) *rest.Config {
	cfg.UserAgent = "rootline"
	if cfg.QPS == 0 {
		cfg.QPS, cfg.Burst = 20, 40
	}
	return cfg
}
