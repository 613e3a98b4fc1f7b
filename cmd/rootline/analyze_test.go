package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/fixtures"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestAnalyzeGolden runs `rootline analyze` on the IL-0070 fixtures and compares the text and
// JSON output with golden files (refresh with go test ./cmd/rootline -update).
func TestAnalyzeGolden(t *testing.T) {
	t.Parallel()
	for _, variant := range []string{"evicted", "liveness"} {
		for _, format := range []string{"text", "json"} {
			t.Run(variant+"-"+format, func(t *testing.T) {
				// The JSON golden files quote the path as given: relative to this folder.
				wd, err := os.Getwd()
				if err != nil {
					t.Fatal(err)
				}
				dir, err := filepath.Rel(wd, fixtures.IL0070VariantDir(variant))
				if err != nil {
					t.Fatal(err)
				}
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
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"items": [{"kind": x}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.json") // truncated: analysed as far as it goes, here nothing
	if err := os.WriteFile(cut, []byte(`{"items": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(dir, "notes.md") // a person could read it: read, nothing in it kept
	if err := os.WriteFile(notes, []byte("# Notes\n\nWe met on Monday and talked about the dashboards for the team.\nNobody had time for the alert rules this week.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want int
	}{
		{[]string{"analyze", fixtures.IL0070Dir()}, exitOK},
		{[]string{"analyze", notes}, exitOK},
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

// TestAnalyzeFolderStrays: files beside the evidence that Rootline cannot read are skipped with
// their reasons (on stderr and in the gaps) and the rest is analysed; a folder where nothing
// can be read fails, naming each file and why.
func TestAnalyzeFolderStrays(t *testing.T) {
	t.Parallel()
	evidence := filepath.Join(fixtures.IL0070Dir(), "pods.json")
	pods, err := os.ReadFile(evidence)
	if err != nil {
		t.Fatal(err)
	}
	strays := map[string]string{
		"README.md":  "# What we captured\n\nThe files of the outage, for the post-mortem.\n",
		"truth.json": `{"expected":["pod_evicted"]}`,
		"empty.txt":  "\n",
	}
	write := func(dir string, files map[string]string) {
		for name, content := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}

	dir := t.TempDir()
	write(dir, strays)
	write(dir, map[string]string{"pods.json": string(pods)})
	var stderr bytes.Buffer
	rep, err := analyzePaths(context.Background(), []string{dir}, analysis.Options{}, &stderr)
	if err != nil {
		t.Fatalf("analyze: %v", err)
	}
	if rep.Inputs.Files != 1 || rep.Inputs.Pods == 0 {
		t.Errorf("inputs = %+v, want pods.json alone", rep.Inputs)
	}
	var gaps []string
	for _, g := range rep.Gaps {
		if g.Kind == "file_skipped" {
			gaps = append(gaps, g.Summary)
		}
	}
	// The reasons are the decoder's; each line names the file (and line) and gives one.
	want := []string{
		"skipped " + filepath.Join(dir, "README.md") + ": ",
		"skipped " + filepath.Join(dir, "empty.txt") + ": empty input",
		"skipped " + filepath.Join(dir, "truth.json") + ":1: ",
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) != len(want) || len(gaps) != len(want) {
		t.Fatalf("stderr:\n%s\ngaps: %q\nwant %d of each", stderr.String(), gaps, len(want))
	}
	for i, w := range want {
		reason := strings.TrimSpace(strings.TrimPrefix(lines[i], w))
		if !strings.HasPrefix(lines[i], w) || reason == "" || !strings.HasPrefix(gaps[i], "not read: "+strings.TrimPrefix(w, "skipped ")) {
			t.Errorf("stderr line %q, gap %q; want them to begin %q", lines[i], gaps[i], w)
		}
	}

	only := t.TempDir()
	write(only, strays)
	_, err = analyzePaths(context.Background(), []string{only}, analysis.Options{}, io.Discard)
	if err == nil {
		t.Fatal("a folder of strays was analysed")
	}
	for name := range strays {
		if !strings.Contains(err.Error(), filepath.Join(only, name)) {
			t.Errorf("error %q does not name %s", err, name)
		}
	}
	if got := run([]string{"analyze", only}); got != exitFailure {
		t.Errorf("exit code = %d, want %d", got, exitFailure)
	}
}
