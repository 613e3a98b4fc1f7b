package archtest

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// unlinked are packages the rootline binary must not link, and why.
var unlinked = map[string]string{
	// Every rootline process, `rootline analyze` included, paid for the clientset at start:
	// its 56 API groups' types, clients and scheme registration are 14 MiB of resident memory,
	// mostly the binary's own pages (issue 30). kube.Client reads the four groups Rootline
	// reads with client-go's own parts.
	"k8s.io/client-go/kubernetes":        "the clientset of every API group: use kube.Client",
	"k8s.io/client-go/kubernetes/scheme": "the scheme of every API group: kube.Client has its own of four",
	"k8s.io/client-go/informers":         "the informer factory of every API group: use kube.NewInformer",
	// The generic typed client links client-go's testing package, and through it the
	// OpenAPI and structured-merge libraries: 52 packages kube.Client does without.
	"k8s.io/client-go/gentype": "links client-go/testing and 51 packages more: kube.Client makes its requests itself",
	"k8s.io/client-go/testing": "a tests' package",
	// Tests make a kube.Client of client-go's fake clientset with it.
	"github.com/rootline-dev/rootline/internal/kube/kubetest": "a tests' package",
}

// TestBinaryLinksNoClientset keeps out of the rootline binary what would link every API group
// of Kubernetes (unlinked): `go list -deps ./cmd/rootline`, as the binary is built.
func TestBinaryLinksNoClientset(t *testing.T) {
	const goCmd = "go" // go test puts its own go first on the PATH
	cmd := exec.Command(goCmd, "list", "-deps", "-tags", "nomsgpack", "./cmd/rootline")
	cmd.Dir = filepath.Join("..", "..")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./cmd/rootline: %v\n%s", err, stderr.String())
	}
	deps := strings.Fields(string(out))
	if len(deps) < 100 {
		t.Fatalf("go list -deps ./cmd/rootline lists only %d packages", len(deps))
	}
	for _, p := range deps {
		if why, ok := unlinked[p]; ok {
			t.Errorf("the rootline binary links %s: %s", p, why)
		}
	}
}
