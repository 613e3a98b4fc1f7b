package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stream is go test -json of two packages: one passes with a test skipped on purpose and one
// skipped for want of the machine; the other fails one test.
const stream = `{"Action":"start","Package":"example.com/a"}
{"Action":"run","Package":"example.com/a","Test":"TestOK"}
{"Action":"output","Package":"example.com/a","Test":"TestOK","Output":"=== RUN   TestOK\n"}
{"Action":"output","Package":"example.com/a","Test":"TestOK","Output":"--- PASS: TestOK (0.00s)\n"}
{"Action":"pass","Package":"example.com/a","Test":"TestOK","Elapsed":0}
{"Action":"run","Package":"example.com/a","Test":"TestOnPurpose/sqlite"}
{"Action":"output","Package":"example.com/a","Test":"TestOnPurpose/sqlite","Output":"    x_test.go:9: SQLite has no deferred triggers\n"}
{"Action":"skip","Package":"example.com/a","Test":"TestOnPurpose/sqlite","Elapsed":0}
{"Action":"run","Package":"example.com/a","Test":"TestNeedsChromium"}
{"Action":"output","Package":"example.com/a","Test":"TestNeedsChromium","Output":"    e2e_test.go:20: no chromium\n"}
{"Action":"output","Package":"example.com/a","Test":"TestNeedsChromium","Output":"--- SKIP: TestNeedsChromium (0.00s)\n"}
{"Action":"skip","Package":"example.com/a","Test":"TestNeedsChromium","Elapsed":0}
{"Action":"output","Package":"example.com/a","Output":"ok  \texample.com/a\t0.01s\n"}
{"Action":"pass","Package":"example.com/a","Elapsed":0.01}
{"Action":"run","Package":"example.com/b","Test":"TestBroken"}
{"Action":"output","Package":"example.com/b","Test":"TestBroken","Output":"    b_test.go:5: got 1, want 2\n"}
{"Action":"output","Package":"example.com/b","Test":"TestBroken","Output":"--- FAIL: TestBroken (0.00s)\n"}
{"Action":"fail","Package":"example.com/b","Test":"TestBroken","Elapsed":0}
{"Action":"output","Package":"example.com/b","Output":"FAIL\texample.com/b\t0.01s\n"}
{"Action":"fail","Package":"example.com/b","Elapsed":0.01}
{"Action":"skip","Package":"example.com/c"}
{"ImportPath":"example.com/d [example.com/d.test]","Action":"build-output","Output":"d_test.go:3:2: undefined: x\n"}
{"ImportPath":"example.com/d [example.com/d.test]","Action":"build-fail"}
`

func allowedFile(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "allowed")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRun(t *testing.T) {
	onPurpose := "# SQLite has no deferred triggers\nexample.com/a TestOnPurpose/sqlite\n"
	for _, tt := range []struct {
		name, stream, allowed string
		wantErr               []string // each in the error; none for no error
		notInErr              []string
	}{
		{name: "a failure and a skip for want of the machine", stream: stream, allowed: onPurpose,
			wantErr:  []string{"example.com/b.TestBroken", "example.com/b", "example.com/a TestNeedsChromium (e2e_test.go:20: no chromium)", "build of example.com/d"},
			notInErr: []string{"TestOnPurpose", "example.com/c"}},
		{name: "only the allowed skip", stream: strings.ReplaceAll(strings.ReplaceAll(stream, `"skip","Package":"example.com/a","Test":"TestNeedsChromium"`, `"pass","Package":"example.com/a","Test":"TestNeedsChromium"`),
			`"fail","Package":"example.com/b`, `"pass","Package":"example.com/b`)[:strings.Index(stream, `{"ImportPath"`)], allowed: onPurpose},
		{name: "no list: the skip on purpose is reported too", stream: stream,
			wantErr: []string{"example.com/a TestOnPurpose/sqlite (x_test.go:9: SQLite has no deferred triggers)"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var path string
			if tt.allowed != "" {
				path = allowedFile(t, tt.allowed)
			}
			var out strings.Builder
			err := run(strings.NewReader(tt.stream), &out, path, 0)
			if len(tt.wantErr) == 0 {
				if err != nil {
					t.Fatalf("run: %v\noutput:\n%s", err, out.String())
				}
				return
			}
			if err == nil {
				t.Fatalf("run gave no error; output:\n%s", out.String())
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not name %q:\n%v", w, err)
				}
			}
			for _, w := range tt.notInErr {
				if strings.Contains(err.Error(), w) {
					t.Errorf("error names %q:\n%v", w, err)
				}
			}
		})
	}
}

// TestOutput: what is written is what go test would print: the package lines, and the output
// of a failing test, never that of a passing one.
func TestOutput(t *testing.T) {
	var out strings.Builder
	_ = run(strings.NewReader(stream), &out, "", 0)
	got := out.String()
	for _, want := range []string{"ok  \texample.com/a", "FAIL\texample.com/b", "b_test.go:5: got 1, want 2", "--- FAIL: TestBroken", "d_test.go:3:2: undefined: x"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "--- PASS: TestOK") {
		t.Errorf("output shows a passing test's lines:\n%s", got)
	}
}

func TestReadAllowedRefusesBadLines(t *testing.T) {
	if _, err := readAllowed(allowedFile(t, "example.com/a\n")); err == nil || !strings.Contains(err.Error(), ":1:") {
		t.Errorf("a line without a test name: err = %v, want one naming line 1", err)
	}
}

// TestSlowest: -slowest N lists the N slowest top-level tests, slowest first, with their time;
// subtests are in their test's time.
func TestSlowest(t *testing.T) {
	in := `{"Action":"pass","Package":"example.com/a","Test":"TestQuick","Elapsed":0.5}
{"Action":"pass","Package":"example.com/a","Test":"TestSlow/sqlite","Elapsed":9}
{"Action":"pass","Package":"example.com/a","Test":"TestSlow","Elapsed":12.25}
{"Action":"fail","Package":"example.com/b","Test":"TestMiddle","Elapsed":3}
`
	var out strings.Builder
	_ = run(strings.NewReader(in), &out, "", 2)
	got := out.String()
	want := "testjson: the slowest tests:\n     12.2s  example.com/a TestSlow\n      3.0s  example.com/b TestMiddle\n"
	if !strings.HasSuffix(got, want) {
		t.Errorf("-slowest 2: got\n%s\nwant it to end with\n%s", got, want)
	}
	out.Reset()
	_ = run(strings.NewReader(in), &out, "", 0)
	if strings.Contains(out.String(), "slowest") {
		t.Errorf("-slowest 0 lists tests:\n%s", out.String())
	}
}
