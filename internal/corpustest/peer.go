package corpustest

import "testing"

// PeerDir returns the folder of the k8sgpt peer suite (../shared/peer-k8sgpt beside the
// repository, or the folder ROOTLINE_PEER names), failing t when it cannot be found.
func PeerDir(t testing.TB) string {
	t.Helper()
	return shared(t, "ROOTLINE_PEER", "peer-k8sgpt", "truth.json", "the k8sgpt peer suite")
}
