// Package corpustest locates the shared corpus of real kubectl output that tests read in
// place (it is never copied into the project: its licences vary). The corpus is the folder
// ../shared/corpus beside the repository, or the folder ROOTLINE_CORPUS names. A test that
// needs it fails when it is missing: it never skips, so that CI cannot pass without it.
package corpustest

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Dir returns the corpus folder, failing t when it cannot be found.
func Dir(t testing.TB) string {
	t.Helper()
	return shared(t, "ROOTLINE_CORPUS", "corpus", "SOURCES.md", "the shared corpus")
}

// shared returns the folder of ../shared beside the repository named name, or the folder the
// environment variable env names, failing t when it does not hold marker.
func shared(t testing.TB, env, name, marker, what string) string {
	t.Helper()
	dir := os.Getenv(env)
	if dir == "" {
		_, here, _, _ := runtime.Caller(0)
		// internal/corpustest/corpustest.go → the repository's parent folder.
		dir = filepath.Join(filepath.Dir(here), "..", "..", "..", "shared", name)
	}
	if _, err := os.Stat(filepath.Join(dir, marker)); err != nil {
		t.Fatalf("%s is missing (%v): tests read it in place from ../shared/%s beside the repository, or from the folder %s names", what, err, name, env)
	}
	return dir
}

// Files returns the corpus files whose names match pattern (filepath.Match), failing t
// when there are none.
func Files(t testing.TB, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(Dir(t), pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus file matches %s (%v)", pattern, err)
	}
	return files
}
