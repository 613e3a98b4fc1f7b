package cluster

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// annotationConst is a constant naming a rootline.dev/ annotation key (an apiVersion such as
// rootline.dev/v1 is not one).
var annotationConst = regexp.MustCompile(`(?m)^\s*(?:const\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*"rootline\.dev/([a-z][a-z-]*)"`)

// TestAnnotationKeysStayHome: a rootline.dev/ annotation is the private wire format of the one
// package that writes it (the collector's observed-at, the text parser's log marker). What
// another package needs to know of an object is a typed field of Object or Source, so no
// annotation key is written in two packages, nor its constant named outside its own.
func TestAnnotationKeysStayHome(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	sources := map[string]string{} // path → content, non-test Go files
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sources[path] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(sources) < 100 {
		t.Fatalf("read %d Go files under %s: not the repository", len(sources), root)
	}
	home := map[string]string{}   // key → the package directory that spells it
	consts := map[string]string{} // constant name → its package directory
	for path, src := range sources {
		for _, m := range annotationConst.FindAllStringSubmatch(src, -1) {
			dir := filepath.Dir(path)
			if other, ok := home[m[2]]; ok && other != dir {
				t.Errorf("annotation rootline.dev/%s is spelt in %s and in %s", m[2], rel(root, other), rel(root, dir))
			}
			home[m[2]] = dir
			consts[m[1]] = dir
		}
		if n := strings.Count(src, `"rootline.dev/`) - strings.Count(src, `"rootline.dev/v1"`); n > len(annotationConst.FindAllString(src, -1)) {
			t.Errorf("%s writes a rootline.dev/ key other than as a constant: name it once, in its package", rel(root, path))
		}
	}
	if len(home) == 0 {
		t.Fatal("found no rootline.dev/ annotation: the pattern no longer matches how they are declared")
	}
	for path, src := range sources {
		for name, dir := range consts {
			if filepath.Dir(path) != dir && regexp.MustCompile(`\.`+name+`\b`).MatchString(src) {
				t.Errorf("%s names %s, an annotation of %s: read what it needs from a typed field instead", rel(root, path), name, rel(root, dir))
			}
		}
	}
}

func rel(root, path string) string {
	r, err := filepath.Rel(root, path)
	if err != nil {
		return path
	}
	return r
}
