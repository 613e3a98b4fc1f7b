package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/testenv"
)

// releaseFlags are how a user's binary is built: no file paths of the build machine, no symbol
// table or DWARF (-s -w: 138 MB down to 97 MB), and without gin's MessagePack codec, which
// Rootline never speaks (nomsgpack: 97 MB down to 91 MB).
var releaseFlags = []string{"-trimpath", "-ldflags='-s -w'", "-tags nomsgpack"}

// TestBuildLinesAreTheRelease holds every place that tells how to build the binary (README,
// docs, Dockerfile, the measuring scripts) to the release flags, so that what a user builds,
// what the image ships and what the scripts measure are one binary.
func TestBuildLinesAreTheRelease(t *testing.T) {
	t.Parallel()
	var files []string
	for _, glob := range []string{"../../README.md", "../../docs/*.md", "../../Dockerfile", "../../scripts/*.sh"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	found := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if !strings.Contains(line, "go build") || !strings.Contains(line, "./cmd/rootline") {
				continue
			}
			found++
			for _, flag := range releaseFlags {
				if !strings.Contains(line, flag) {
					t.Errorf("%s:%d builds the binary without %s: %q", f, i+1, flag, strings.TrimSpace(line))
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no build line found in the README, docs, Dockerfile or scripts")
	}
}

// TestReleaseLinksNoMessagePack checks that the release build's tags keep gin's MessagePack
// codec (github.com/ugorji/go, about 3 MB of code) out of the binary.
func TestReleaseLinksNoMessagePack(t *testing.T) {
	t.Parallel()
	goTool, err := exec.LookPath("go")
	if err != nil {
		testenv.Missing(t, "go not on PATH: %v", err)
	}
	out, err := exec.Command(goTool, "list", "-deps", "-tags", "nomsgpack", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "github.com/ugorji/go") {
			t.Errorf("the release build links %s", p)
		}
	}
}
