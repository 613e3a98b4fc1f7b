//go:build race

package server_test

// raceDetector is set when the tests run under the race detector (go test -race), which makes
// the server five to ten times slower: the largest tests run there at a tenth of their size,
// and again at full size without it (.ci/run).
const raceDetector = true
