//go:build race

package e2e

// raceDetector is set when the tests run under the race detector (go test -race), which makes
// the server five to ten times slower.
const raceDetector = true
