package kube_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/kube"
)

const kubeconfig = `apiVersion: v1
kind: Config
clusters:
- name: a
  cluster: {server: "https://a.example:6443"}
- name: b
  cluster: {server: "https://b.example:6443"}
users:
- name: u
  user: {token: t0k3n}
contexts:
- name: leap
  context: {cluster: a, user: u}
- name: prod
  context: {cluster: b, user: u}
current-context: leap
`

// TestConfig: the current context, or the one named; errors name what is wrong.
func TestConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(path, []byte(kubeconfig), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, name, err := kube.Config(kube.Target{Kubeconfig: path})
	if err != nil || name != "leap" || cfg.Host != "https://a.example:6443" || cfg.BearerToken != "t0k3n" || cfg.UserAgent != "rootline" {
		t.Errorf("current context: %v %q %v", cfg, name, err)
	}
	cfg, name, err = kube.Config(kube.Target{Kubeconfig: path, Context: "prod"})
	if err != nil || name != "prod" || cfg.Host != "https://b.example:6443" {
		t.Errorf("named context: %v %q %v", cfg, name, err)
	}
	if _, _, err := kube.Config(kube.Target{Kubeconfig: path, Context: "nope"}); err == nil || !strings.Contains(err.Error(), `context "nope" is not in the kubeconfig`) {
		t.Errorf("unknown context: %v", err)
	}
	noCurrent := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(noCurrent, []byte(strings.Replace(kubeconfig, "current-context: leap", "", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := kube.Config(kube.Target{Kubeconfig: noCurrent}); err == nil || !strings.Contains(err.Error(), "--context") {
		t.Errorf("no current context: %v", err)
	}
	if _, _, err := kube.Config(kube.Target{Kubeconfig: filepath.Join(t.TempDir(), "missing")}); err == nil {
		t.Error("a missing kubeconfig gave no error")
	}
}
