package testenv

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records how a test ended.
type recorder struct {
	testing.TB
	failed, skipped string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Fatalf(format string, args ...any) { r.failed = format }
func (r *recorder) Skip(args ...any)                  { r.skipped = args[0].(string) }

func TestMissing(t *testing.T) {
	t.Setenv("CI", "")
	r := &recorder{TB: t}
	Missing(r, "no %s here", "kubectl")
	if r.skipped != "no kubectl here" || r.failed != "" {
		t.Errorf("outside CI: skipped %q, failed %q; want skipped with the reason", r.skipped, r.failed)
	}
	t.Setenv("CI", "true")
	r = &recorder{TB: t}
	Missing(r, "no %s here", "kubectl")
	if r.failed == "" || r.skipped != "" {
		t.Errorf("in CI: skipped %q, failed %q; want failed", r.skipped, r.failed)
	}
}

// TestOnlyTestenvReadsCI: whether a missing tool skips or fails a test is decided here only;
// a test elsewhere that read CI itself would decide it its own way.
func TestOnlyTestenvReadsCI(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	self, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || path == self) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		if bytes.Contains(b, []byte(`Getenv("CI")`)) || bytes.Contains(b, []byte(`LookupEnv("CI")`)) {
			rel, _ := filepath.Rel(root, path)
			t.Errorf("%s reads CI itself: end a test whose machine lacks something with testenv.Missing", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Errorf("read %d Go files under %s: not the repository", files, root)
	}
}
