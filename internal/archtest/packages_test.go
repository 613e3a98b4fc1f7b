package archtest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// archDoc is the file whose table lists every package.
const archDoc = "../../docs/architecture.md"

// TestDocsPackages keeps the package table of docs/architecture.md ("## Packages") and the
// module together, as TestDocsRoutes keeps docs/api.md and the router: every package that
// `go list ./...` lists at test time has a row whose first cell names it in backquotes
// (`internal/store`; a row may name several), and every name a row gives is a package of the
// module or a folder of the repository (`examples/incidents`).
func TestDocsPackages(t *testing.T) {
	root := filepath.Join("..", "..")
	listed := modulePackages(t, root)
	if len(listed) < 20 {
		t.Fatalf("go list ./... lists only %d packages: %q", len(listed), listed)
	}
	rows := packageRows(t)
	for _, p := range listed {
		if _, ok := rows[p]; !ok {
			t.Errorf("%s is a package (go list ./...) but has no row in docs/architecture.md's package table: add \"| `%s` | what it holds |\" under \"## Packages\"", p, p)
		}
	}
	for name, what := range rows {
		if strings.TrimSpace(what) == "" {
			t.Errorf("docs/architecture.md: the row of %s does not say what it holds", name)
		}
		if slices.Contains(listed, name) {
			continue
		}
		if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(name))); err != nil || !fi.IsDir() {
			t.Errorf("docs/architecture.md's package table names %s, which is neither a package (go list ./...) nor a folder: remove or correct the row", name)
		}
	}
}

// modulePackages are the module's packages as `go list ./...` gives them at test time,
// relative to the module's root: "cmd/rootline", "internal/store".
func modulePackages(t *testing.T, root string) []string {
	t.Helper()
	const goCmd = "go" // go test puts its own go first on the PATH
	cmd := exec.Command(goCmd, "list", "-e", "-f", "{{.ImportPath}}", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v\n%s", err, stderr.String())
	}
	mod := exec.Command(goCmd, "list", "-m")
	mod.Dir = root
	module, err := mod.Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	// go test caches a result by the files the test itself read: reading every folder makes a
	// new package, or a new Go file, run the test again.
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	prefix := strings.TrimSpace(string(module)) + "/"
	var pkgs []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if p, ok := strings.CutPrefix(strings.TrimSpace(line), prefix); ok {
			pkgs = append(pkgs, p)
		}
	}
	return pkgs
}

// packageName is a name in a row's first cell: `internal/ingest/text`.
var packageName = regexp.MustCompile("`([a-z0-9_./-]+)`")

// packageRows are the rows of the table under "## Packages", by each name their first cell
// gives, each with what the row says it holds.
func packageRows(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(archDoc)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	in := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "#") {
			in = strings.TrimSpace(line) == "## Packages"
			continue
		}
		if !in || !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| ---") || strings.HasPrefix(line, "| package |") {
			continue
		}
		first, what, ok := strings.Cut(strings.TrimPrefix(line, "| "), " | ")
		if !ok {
			t.Errorf("docs/architecture.md: a package row without a second cell: %q", line)
			continue
		}
		for _, m := range packageName.FindAllStringSubmatch(first, -1) {
			if _, dup := rows[m[1]]; dup {
				t.Errorf("docs/architecture.md: two rows name %s", m[1])
			}
			rows[m[1]] = strings.TrimSuffix(strings.TrimSpace(what), "|")
		}
	}
	if len(rows) == 0 {
		t.Fatal("docs/architecture.md has no package table under \"## Packages\"")
	}
	return rows
}
