// Package testenv decides what a test does when the machine lacks something it needs (a
// PostgreSQL server, Chromium, kube-apiserver, kubectl, root to mount a tmpfs): it is skipped,
// with the reason, on a developer's machine, and fails when CI is set, where .ci/run provides
// everything the tests need. Every test that depends on its environment ends through Missing,
// so that no test passes in CI by skipping.
package testenv

import (
	"fmt"
	"os"
	"testing"
)

// CI reports whether the tests run in CI (the environment variable CI is non-empty).
func CI() bool { return os.Getenv("CI") != "" }

// Missing ends a test whose environment lacks what it needs, the reason given as by fmt:
// skipped, or failed when CI is set.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	reason := fmt.Sprintf(format, args...)
	if CI() {
		t.Fatalf("%s (CI is set: what a test needs must be there, see .ci/run)", reason)
		return // Fatalf ends the test; a testing.TB of a test of this package may not
	}
	t.Skip(reason)
}
