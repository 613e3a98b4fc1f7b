package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestAnalyzeGolden runs `rootline analyze` on the IL-0070 fixtures and compares the text and
// JSON output with golden files (refresh with go test ./cmd/rootline -update).
func TestAnalyzeGolden(t *testing.T) {
	for _, variant := range []string{"evicted", "liveness"} {
		for _, format := range []string{"text", "json"} {
			t.Run(variant+"-"+format, func(t *testing.T) {
				dir := filepath.Join("..", "..", "internal", "analysis", "testdata", "il0070", variant)
				var out, errOut bytes.Buffer
				root := newRootCmd()
				root.SetArgs([]string{"analyze", "--format", format, dir})
				root.SetOut(&out)
				root.SetErr(&errOut)
				if err := root.Execute(); err != nil {
					t.Fatalf("analyze: %v (%s)", err, errOut.String())
				}
				golden := filepath.Join("testdata", "il0070-"+variant+"."+format+".golden")
				if *update {
					if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./cmd/rootline -update)", err)
				}
				if diff := cmp.Diff(string(want), out.String()); diff != "" {
					t.Errorf("output differs from %s (-want +got):\n%s", golden, diff)
				}
			})
		}
	}
}

func TestAnalyzeExitCodes(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"items": [{"kind": x}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.json") // truncated: analysed as far as it goes
	if err := os.WriteFile(cut, []byte(`{"items": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want int
	}{
		{[]string{"analyze", filepath.Join("..", "..", "internal", "analysis", "testdata", "il0070", "evicted")}, exitOK},
		{[]string{"analyze", bad}, exitFailure},
		{[]string{"analyze", cut}, exitOK},
		{[]string{"analyze", filepath.Join(dir, "missing.json")}, exitFailure},
		{[]string{"analyze", "--format", "xml", bad}, exitUsage},
		{[]string{"analyze"}, exitFailure},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			if got := run(tt.args); got != tt.want {
				t.Errorf("exit code = %d, want %d", got, tt.want)
			}
		})
	}
}
