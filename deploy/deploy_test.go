// Package deploy holds the manifests that run Rootline in a cluster; its test checks them.
package deploy_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/rootline-dev/rootline/internal/k8stest"
)

var manifests = []string{"namespace.yaml", "postgres.yaml", "server.yaml", "collector.yaml", "secrets.example.yaml"}

// objects decodes every document of the manifests strictly: an unknown or misspelt field is
// an error.
func objects(t *testing.T) map[string][]runtime.Object {
	t.Helper()
	dec := serializer.NewCodecFactory(scheme.Scheme, serializer.EnableStrict).UniversalDeserializer()
	out := map[string][]runtime.Object{}
	for _, name := range manifests {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, doc := range bytes.Split(b, []byte("\n---\n")) {
			obj, _, err := dec.Decode(doc, nil, nil)
			if err != nil {
				t.Fatalf("%s, document %d: %v", name, i+1, err)
			}
			out[name] = append(out[name], obj)
		}
	}
	return out
}

// TestManifests: the collector may only get, list and watch, and never Secrets or ConfigMaps
// other than the autoscaler's status; every container asks for resources and runs without
// privileges.
func TestManifests(t *testing.T) {
	for name, objs := range objects(t) {
		for _, o := range objs {
			var rules []rbacv1.PolicyRule
			var pod *corev1.PodSpec
			switch x := o.(type) {
			case *rbacv1.ClusterRole:
				rules = x.Rules
			case *rbacv1.Role:
				rules = x.Rules
			case *appsv1.Deployment:
				pod = &x.Spec.Template.Spec
			case *appsv1.StatefulSet:
				pod = &x.Spec.Template.Spec
			}
			for _, r := range rules {
				for _, v := range r.Verbs {
					if !slices.Contains([]string{"get", "list", "watch"}, v) {
						t.Errorf("%s: verb %q: the collector only reads", name, v)
					}
				}
				for _, res := range r.Resources {
					// ConfigMaps are watched for what changed in them (hashed by the collector).
					if res == "*" || res == "secrets" {
						t.Errorf("%s: resource %q %v is more than the collector needs", name, res, r.ResourceNames)
					}
				}
			}
			if pod == nil {
				continue
			}
			for _, c := range pod.Containers {
				req := c.Resources.Requests
				if req.Cpu().IsZero() || req.Memory().IsZero() || c.Resources.Limits.Memory().IsZero() {
					t.Errorf("%s: container %s: requests %v, limits %v", name, c.Name, req, c.Resources.Limits)
				}
				if c.Name != "postgres" && (c.SecurityContext == nil || c.SecurityContext.AllowPrivilegeEscalation == nil || *c.SecurityContext.AllowPrivilegeEscalation) {
					t.Errorf("%s: container %s may escalate privileges", name, c.Name)
				}
			}
		}
	}
}

// TestManifestsOnAnAPIServer applies the manifests to a real kube-apiserver (which validates
// them as a cluster would), then asks it what the collector's service account may do.
func TestManifestsOnAnAPIServer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a kube-apiserver")
	}
	c := k8stest.Start(t)
	kubectl := k8stest.Kubectl(t)
	run := func(args ...string) (string, error) { // stdout, and stderr in the error
		cmd := exec.CommandContext(context.Background(), kubectl, append([]string{"--kubeconfig", c.Kubeconfig}, args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			err = fmt.Errorf("%w: %s", err, stderr.String())
		}
		return strings.TrimSpace(string(out)), err
	}
	for _, f := range []string{"namespace.yaml", "secrets.example.yaml", "postgres.yaml", "server.yaml", "collector.yaml"} {
		if out, err := run("apply", "-f", filepath.Join(".", f)); err != nil {
			t.Fatalf("kubectl apply -f %s: %v\n%s", f, err, out)
		}
	}
	sa := "--as=system:serviceaccount:rootline:rootline-collector"
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"list", "pods", "--all-namespaces"}, "yes"},
		{[]string{"watch", "events.events.k8s.io", "--all-namespaces"}, "yes"},
		{[]string{"list", "nodes"}, "yes"},
		{[]string{"list", "replicasets.apps", "--all-namespaces"}, "yes"},
		{[]string{"get", "configmaps/cluster-autoscaler-status", "-n", "kube-system"}, "yes"},
		{[]string{"watch", "configmaps", "--all-namespaces"}, "yes"},
		{[]string{"list", "deployments.apps", "--all-namespaces"}, "yes"},
		{[]string{"get", "secrets", "--all-namespaces"}, "no"},
		{[]string{"delete", "pods", "--all-namespaces"}, "no"},
		{[]string{"patch", "nodes"}, "no"},
		{[]string{"create", "events"}, "no"},
	} {
		out, _ := run(append(append([]string{"auth", "can-i"}, tt.args...), sa)...)
		if out != tt.want {
			t.Errorf("can the collector %v? %q, want %q", tt.args, out, tt.want)
		}
	}
}
