package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestKubectlPlugin: installed as kubectl-rootline, the binary is a kubectl plugin, and its help
// says how kubectl runs it; under its own name it says rootline.
func TestKubectlPlugin(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, want, not string }{
		{"kubectl-rootline", "kubectl rootline snapshot [flags]", "\n  rootline snapshot"},
		{"kubectl-rootline.exe", "kubectl rootline snapshot [flags]", "\n  rootline snapshot"},
		{"rootline", "\n  rootline snapshot [flags]", "kubectl rootline"},
	} {
		root := rootFor(tc.name)
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetArgs([]string{"snapshot", "--help"})
		if err := root.Execute(); err != nil {
			t.Fatal(err)
		}
		if got := out.String(); !strings.Contains(got, tc.want) || strings.Contains(got, tc.not) {
			t.Errorf("%s: help %q, want %q and not %q", tc.name, got[strings.Index(got, "Usage:"):], tc.want, tc.not)
		}
	}
}
