package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// displayFields are the fields that hold text made for people, with their values beside them
// for the code: analysis.Evidence.Ref (its Object and Metric are the values),
// change.Change.Field, Before and After (its Path, Was and Is), and timeline.Entry.Object (its
// Of), which the pages' rows carry as incidents.Entry.Object.
var displayFields = []string{"Ref", "Field", "Before", "After", "Object"}

// parsers are the functions that take text apart or read a value out of it.
var parsers = map[string][]string{
	"strings":  {"Split", "SplitN", "SplitAfter", "Cut", "CutPrefix", "CutSuffix", "HasPrefix", "HasSuffix", "TrimPrefix", "TrimSuffix", "Fields", "Index", "LastIndex", "Contains"},
	"bytes":    {"Split", "Cut", "HasPrefix", "HasSuffix", "Fields"},
	"resource": {"ParseQuantity", "MustParse"},
	"strconv":  {"Atoi", "ParseInt", "ParseFloat", "ParseBool"},
}

// notDisplay are calls the check finds that read a field of the same name which is not one of
// the display strings above, by file and the text of the call's argument, each with why.
var notDisplay = map[string]string{
	// timeline.Entry.Ref is the row's own id ("burst-…" for a fold the timeline made), which
	// the page's template tests to know how to link it: an id, not a name made for people.
	"templates/incidents/timeline_view.go e.Ref": "timeline.Entry.Ref is a row id",
	// encoding/json's UnmarshalTypeError.Field is the path of the JSON field, "spec.x", which
	// the front matter's error names by its first part.
	"internal/incident/parse.go te.Field": "json.UnmarshalTypeError.Field is encoding/json's",
	// The analysis marks the ids it names in its own texts and puts in the final ids once the
	// report is numbered (refs.go): it finishes a text it is writing, it reads nothing from it.
	"internal/analysis/refs.go c.Against[i].Field": "the analysis finishing its own text",
}

// TestNoDisplayStringParsedBack: no production Go file of the module hands a display string
// (Evidence.Ref, Change.Field, Before or After) to a function that takes text apart (strings.Cut,
// HasPrefix, Split, Fields…, resource.ParseQuantity): the code reads the typed values those
// strings are made from. The check reads the syntax, so a field of another type with the same
// name must be listed in notDisplay, with why.
func TestNoDisplayStringParsedBack(t *testing.T) {
	root := moduleRoot(t)
	var found []string
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		for _, hit := range parsedDisplay(t, path) {
			key := filepath.ToSlash(rel) + " " + hit.arg
			seen[key] = true
			if _, ok := notDisplay[key]; !ok {
				found = append(found, filepath.ToSlash(rel)+":"+hit.line+": "+hit.call)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Errorf("%s parses a display string back: read the typed value it was made from (Evidence.Object, Change.Path, Was, Is)", f)
	}
	for key, why := range notDisplay {
		if !seen[key] {
			t.Errorf("notDisplay lists %q (%s), which the source no longer has: remove it", key, why)
		}
	}
}

// TestParsedDisplayFinds: the check finds each form of parsing it looks for (a call on the
// field, on a variable holding it, through a function of the file that parses its parameter),
// and not the forms that are not parsing (a comparison, formatting, another field).
func TestParsedDisplayFinds(t *testing.T) {
	src := `package x
func f() {
	_ = strings.HasSuffix(c.Field, ".image")
	_, _, _ = strings.Cut(ev.Ref, " ")
	_ = strings.Split(c.Change.Before, ", ")
	q, _ := resource.ParseQuantity(c.After)
	_ = strings.HasPrefix(e.Ref, "Metric ")
	_ = c.Field == "spec.taints"
	_ = fmt.Sprintf("%s", c.Before)
	_ = strings.HasSuffix(c.Name, "x")
	f := c.Field
	_ = strings.CutPrefix(f, "spec.")
	_ = objectTime(ev.Ref, "")
	_ = objectTime(ev.Name, ev.Field)
	_, _ = history.ParseRef(rows[i].Object)
	_ = history.Of(rows[i].Object)
}

func objectTime(ref, field string) time.Time {
	kind, _, _ := strings.Cut(ref, " ")
	return kind
}`
	path := filepath.Join(t.TempDir(), "x.go")
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range parsedDisplay(t, path) {
		got = append(got, h.line)
	}
	if want := []string{"3", "4", "5", "6", "7", "12", "13", "15"}; !slices.Equal(got, want) {
		t.Errorf("found on lines %v, want %v", got, want)
	}
}

type hit struct{ line, call, arg string }

// parsedDisplay are the calls of a file that hand one of displayFields to a parser: directly,
// through a variable of the same function it was put in, or through a parameter of a function
// of the same file that parses it.
func parsedDisplay(t *testing.T, path string) []hit {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	text := func(n ast.Node) string {
		return string(src[fset.Position(n.Pos()).Offset:fset.Position(n.End()).Offset])
	}
	parses := parsingParams(f)
	var out []hit
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		held := map[string]*ast.SelectorExpr{} // a variable → the display field put in it
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i, l := range n.Lhs {
						if id, ok := l.(*ast.Ident); ok {
							if sel := displayField(n.Rhs[i]); sel != nil {
								held[id.Name] = sel
							}
						}
					}
				}
			case *ast.CallExpr:
				name, isParser := callee(n)
				for i, a := range n.Args {
					sel := displayField(a)
					if id, ok := a.(*ast.Ident); ok && sel == nil && isParser {
						sel = held[id.Name]
					}
					if sel == nil || !isParser && !slices.Contains(parses[name], i) {
						continue
					}
					out = append(out, hit{line: strconv.Itoa(fset.Position(n.Pos()).Line), call: text(n), arg: text(sel)})
				}
			}
			return true
		})
	}
	return out
}

// displayField is e when it selects one of displayFields (x.Ref, c.Change.Field), else nil.
func displayField(e ast.Expr) *ast.SelectorExpr {
	if sel, ok := e.(*ast.SelectorExpr); ok && slices.Contains(displayFields, sel.Sel.Name) {
		return sel
	}
	return nil
}

// callee names the function a call calls, and whether it is one of parsers or a function of
// another package named Parse… (history.ParseRef, netip.ParseAddr), which reads a value out of
// text by its name.
func callee(call *ast.CallExpr) (name string, parser bool) {
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		return fn.Name, false
	case *ast.SelectorExpr:
		if pkg, ok := fn.X.(*ast.Ident); ok && (slices.Contains(parsers[pkg.Name], fn.Sel.Name) || strings.HasPrefix(fn.Sel.Name, "Parse")) {
			return "", true
		}
		return fn.Sel.Name, false
	}
	return "", false
}

// parsingParams are, by function name (methods by theirs), the indexes of the parameters of the
// file's functions that the function hands to a parser.
func parsingParams(f *ast.File) map[string][]int {
	out := map[string][]int{}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		index := map[string]int{}
		i := 0
		for _, field := range fn.Type.Params.List {
			for _, n := range field.Names {
				index[n.Name] = i
				i++
			}
			if len(field.Names) == 0 {
				i++
			}
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if _, isParser := callee(call); isParser {
					for _, a := range call.Args {
						if id, ok := a.(*ast.Ident); ok {
							if at, ok := index[id.Name]; ok && !slices.Contains(out[fn.Name.Name], at) {
								out[fn.Name.Name] = append(out[fn.Name.Name], at)
							}
						}
					}
				}
			}
			return true
		})
	}
	return out
}

// moduleRoot is the directory of go.mod above this package.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = parent
	}
}
