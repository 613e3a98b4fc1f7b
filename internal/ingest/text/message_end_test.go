package text

import (
	"strings"
	"testing"
)

// TestMessageAt: where a message found in a line ends — the closing quote of the quotation it
// opens (past escaped quotes and apostrophes), where the string or structured log value around
// it ends, or, in no string, where an escaped line end or a logger's fields begin.
func TestMessageAt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, line, phrase, want string
	}{
		{"single-quoted, an apostrophe inside", `reason: 'Pod didn't fit on node' next`, "Pod didn't", "Pod didn't fit on node"},
		{"double-quoted, escaped quotes inside", `msg="pods \"web-1\" is forbidden: exceeded quota" x=1`, `pods \"web-1\"`, `pods "web-1" is forbidden: exceeded quota`},
		{"inside a JSON string", `{"message": "The node was low on resource: memory.", "reason": "Evicted"}`, "The node was low", "The node was low on resource: memory."},
		{"inside a klog value, keys after it", `err="preemption: 0/3 nodes are available: 3 Insufficient cpu." pod="a/b"`, "0/3 nodes", "0/3 nodes are available: 3 Insufficient cpu."},
		{"in no string, zap's fields after a tab", "ERROR\tno instance type satisfied resources {\"cpu\":\"1\"} and requirements x In [y]\t{\"pod\": \"a/b\"}", "no instance type", `no instance type satisfied resources {"cpu":"1"} and requirements x In [y]`},
		{"in no string, an escaped line end", `Back-off restarting failed container\nnext line`, "Back-off", "Back-off restarting failed container"},
		{"to the end of the line", `Readiness probe failed: HTTP probe failed with statuscode: 503`, "Readiness", "Readiness probe failed: HTTP probe failed with statuscode: 503"},
	} {
		at := strings.Index(tc.line, tc.phrase)
		if at < 0 {
			t.Fatalf("%s: %q not in %q", tc.name, tc.phrase, tc.line)
		}
		if got := messageAt(tc.line, at); got != tc.want {
			t.Errorf("%s: messageAt = %q, want %q", tc.name, got, tc.want)
		}
	}
}
