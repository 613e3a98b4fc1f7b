// Command testjson reads `go test -json` and says what `go test` would (each package's result,
// and the output of each failing test), then checks the tests that were skipped: a test that
// skips for want of something of the machine is a failure in CI, so every skip must be one of
// the list given (-allowed), each with its reason. It exits 1 when a test failed or skipped
// outside the list. With -slowest N it ends with the N slowest top-level tests and their time:
// where a suite's time goes.
//
//	go test -count=1 -json ./... | go run ./scripts/testjson -allowed .ci/allowed-skips -slowest 10
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

func main() {
	allowed := flag.String("allowed", "", "file of the tests allowed to skip, one `package TestName` a line (# comments)")
	slowest := flag.Int("slowest", 0, "list the `N` slowest top-level tests at the end")
	flag.Parse()
	if err := run(os.Stdin, os.Stdout, *allowed, *slowest); err != nil {
		fmt.Fprintln(os.Stderr, "testjson:", err)
		os.Exit(1)
	}
}

// event is a line of `go test -json` (cmd/test2json).
type event struct {
	Action     string
	Package    string
	ImportPath string // of build-output and build-fail
	Test       string
	Output     string
	Elapsed    float64
}

// run reads the events from r, writes the summary to w, and returns an error when a test failed
// or skipped outside the list in the file allowedPath ("" for none allowed), after listing the
// slowest top-level tests (none for 0).
func run(r io.Reader, w io.Writer, allowedPath string, slowest int) error {
	allowed, err := readAllowed(allowedPath)
	if err != nil {
		return err
	}
	res, err := read(r, w)
	if err != nil {
		return err
	}
	var problems []string
	if len(res.failed) > 0 {
		problems = append(problems, fmt.Sprintf("%d test(s) or package(s) failed: %s", len(res.failed), strings.Join(res.failed, ", ")))
	}
	var unexpected []string
	for _, s := range res.skipped {
		if !allowed[s.key] {
			unexpected = append(unexpected, fmt.Sprintf("%s (%s)", s.key, s.reason))
		}
	}
	fmt.Fprintf(w, "testjson: %d test(s) passed, %d failed, %d skipped (%d allowed)\n", res.passed, len(res.failed), len(res.skipped), len(res.skipped)-len(unexpected))
	if slowest > 0 && len(res.times) > 0 {
		sort.SliceStable(res.times, func(i, j int) bool { return res.times[i].seconds > res.times[j].seconds })
		fmt.Fprintf(w, "testjson: the slowest tests:\n")
		for _, tm := range res.times[:min(slowest, len(res.times))] {
			fmt.Fprintf(w, "  %7.1fs  %s\n", tm.seconds, tm.key)
		}
	}
	if len(unexpected) > 0 {
		problems = append(problems, fmt.Sprintf("%d test(s) skipped that are not in %s:\n  %s", len(unexpected), orNone(allowedPath), strings.Join(unexpected, "\n  ")))
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n"))
	}
	return nil
}

func orNone(path string) string {
	if path == "" {
		return "the allowed list (none given)"
	}
	return path
}

// readAllowed reads the allowed skips: "package TestName" a line, # starting a comment.
func readAllowed(path string) (map[string]bool, error) {
	out := map[string]bool{}
	if path == "" {
		return out, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	for i, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "#")
		f := strings.Fields(line)
		switch len(f) {
		case 0:
			continue
		case 2:
			out[f[0]+" "+f[1]] = true
		default:
			return nil, fmt.Errorf("%s:%d: want \"package TestName\", got %q", path, i+1, strings.TrimSpace(line))
		}
	}
	return out, nil
}

type skip struct{ key, reason string }

// timing is how long a top-level test took.
type timing struct {
	key     string // "package TestName"
	seconds float64
}

type result struct {
	passed  int
	failed  []string
	skipped []skip
	times   []timing // of the top-level tests that passed or failed
}

// read follows the events: package results are written as they come, a test's output only
// when it fails.
func read(r io.Reader, w io.Writer) (result, error) {
	var res result
	outputs := map[string][]string{} // "package test" → its output so far
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for line := 1; sc.Scan(); line++ {
		b := sc.Bytes()
		if len(b) == 0 || b[0] != '{' {
			fmt.Fprintln(w, string(b)) // build errors come as plain text
			continue
		}
		var e event
		if err := json.Unmarshal(b, &e); err != nil {
			return res, fmt.Errorf("line %d: %w", line, err)
		}
		key := e.Package + " " + e.Test
		if (e.Action == "pass" || e.Action == "fail") && e.Test != "" && !strings.Contains(e.Test, "/") {
			res.times = append(res.times, timing{key: key, seconds: e.Elapsed})
		}
		switch e.Action {
		case "output":
			if e.Test == "" {
				if isPackageLine(e.Output) {
					fmt.Fprint(w, e.Output)
				} else {
					outputs[key] = append(outputs[key], e.Output)
				}
				continue
			}
			outputs[key] = append(outputs[key], e.Output)
		case "pass":
			if e.Test != "" {
				res.passed++
			}
			delete(outputs, key)
		case "skip":
			if e.Test != "" {
				res.skipped = append(res.skipped, skip{key: key, reason: skipReason(outputs[key])})
			}
			delete(outputs, key)
		case "build-output":
			fmt.Fprint(w, e.Output)
		case "build-fail":
			res.failed = append(res.failed, "build of "+e.ImportPath)
		case "fail":
			name := e.Package
			if e.Test != "" {
				name = e.Package + "." + e.Test
			}
			res.failed = append(res.failed, name)
			for _, o := range outputs[key] {
				fmt.Fprint(w, o)
			}
			delete(outputs, key)
		}
	}
	if err := sc.Err(); err != nil {
		return res, err
	}
	sort.Slice(res.skipped, func(i, j int) bool { return res.skipped[i].key < res.skipped[j].key })
	return res, nil
}

// isPackageLine reports whether a package's own output is the line `go test` prints for it.
func isPackageLine(s string) bool {
	for _, p := range []string{"ok  \t", "FAIL\t", "?   \t", "--- FAIL", "FAIL\n", "panic:"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// skipReason is what a skipped test said: the last line of its output that is not go test's.
func skipReason(out []string) string {
	for i := len(out) - 1; i >= 0; i-- {
		s := strings.TrimSpace(out[i])
		if s == "" || strings.HasPrefix(s, "=== ") || strings.HasPrefix(s, "--- SKIP") {
			continue
		}
		return s
	}
	return "no reason given"
}
