package corpustest

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// PeerDir returns the folder of the k8sgpt peer suite (../shared/peer-k8sgpt beside the
// repository, or the folder ROOTLINE_PEER names), failing t when it cannot be found.
func PeerDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("ROOTLINE_PEER")
	if dir == "" {
		_, here, _, _ := runtime.Caller(0)
		dir = filepath.Join(filepath.Dir(here), "..", "..", "..", "shared", "peer-k8sgpt")
	}
	if _, err := os.Stat(filepath.Join(dir, "truth.json")); err != nil {
		t.Fatalf("the k8sgpt peer suite is missing (%v): tests read it in place from ../shared/peer-k8sgpt beside the repository, or from the folder ROOTLINE_PEER names", err)
	}
	return dir
}
