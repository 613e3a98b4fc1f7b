package server_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/testenv"
)

// TestServerLinksNoClientGo: the server reads a collector's batches through internal/wire and
// never imports the collector, which would link client-go (262 packages of it) into the server
// for nothing.
func TestServerLinksNoClientGo(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		testenv.Missing(t, "no go command on PATH: %v", err)
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 100 {
		t.Fatalf("go list -deps listed %d packages: %q", len(deps), deps)
	}
	for _, dep := range deps {
		if strings.HasPrefix(dep, "k8s.io/client-go/") || strings.HasSuffix(dep, "/internal/collect") {
			t.Errorf("internal/server depends on %s", dep)
		}
	}
}
