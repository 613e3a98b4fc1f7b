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
	dir := os.Getenv("ROOTLINE_CORPUS")
	if dir == "" {
		_, here, _, _ := runtime.Caller(0)
		// internal/corpustest/corpustest.go → the repository's parent folder.
		dir = filepath.Join(filepath.Dir(here), "..", "..", "..", "shared", "corpus")
	}
	if _, err := os.Stat(filepath.Join(dir, "SOURCES.md")); err != nil {
		t.Fatalf("the shared corpus is missing (%v): tests read it in place from ../shared/corpus beside the repository, or from the folder ROOTLINE_CORPUS names", err)
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
