package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestGraphvizLoadsOnlyWhereAChainIsDrawn: Graphviz's wasm module (go-graphviz, patched in
// third_party to load on first use) costs a process tens of megabytes and a tenth of a second
// to a second to load, so analyze, which draws no chain, must not load it, and serve loads it
// in the background before its first page. The module's compilation cache is made in the
// process's temporary folder when it loads, which is what tells.
func TestGraphvizLoadsOnlyWhereAChainIsDrawn(t *testing.T) {
	t.Parallel()
	cache := func(tmp string) string { return filepath.Join(tmp, "go-graphviz") }

	tmp := t.TempDir()
	cmd := exec.Command(os.Args[0], "analyze", "--format", "json", filepath.Join("..", "..", "internal", "analysis", "testdata", "il0070", "evicted"))
	cmd.Env = append(os.Environ(), "ROOTLINE_TEST_RUN_MAIN=1", "TMPDIR="+tmp)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("analyze: %v\n%s", err, out)
	}
	if _, err := os.Stat(cache(tmp)); !os.IsNotExist(err) {
		t.Errorf("analyze loaded Graphviz (%s: %v)", cache(tmp), err)
	}

	tmp = t.TempDir()
	startServerEnv(t, filepath.Join(t.TempDir(), "rootline.db"), "", "TMPDIR="+tmp)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(cache(tmp)); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not load Graphviz before its first page (no %s after 30 s)", cache(tmp))
		}
	}
}
