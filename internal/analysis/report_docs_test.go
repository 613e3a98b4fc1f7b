package analysis_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// reportDoc documents the analysis report and the vocabulary.
const reportDoc = "../../docs/report-format.md"

// vocabularies are the lists of internal/kinds and the headings of docs/report-format.md that
// list them.
var vocabularies = map[string]string{
	"Symptoms":   "Symptom kinds",
	"Causes":     "Cause kinds",
	"Components": "Component kinds",
	"Gaps":       "Gap kinds",
}

// TestDocsReportFormat keeps docs/report-format.md and the analysis report together: each
// object of the report's JSON (analysis.Report and the structs it holds, found by reflection)
// has a section "### TypeName" in "The analysis report", whose table lists its JSON fields
// (read from the json tags; embedded structs' fields as the parent's, as encoding/json writes
// them) and no other; no section there names a type the report does not hold. And every list
// of kinds in internal/kinds has its section under "Vocabulary", whose table lists its kinds,
// all of them and no other.
func TestDocsReportFormat(t *testing.T) {
	data, err := os.ReadFile(reportDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)

	t.Run("fields", func(t *testing.T) {
		sections := docSections(t, doc, "The analysis report")
		types := reportTypes(reflect.TypeFor[analysis.Report]())
		for name, fields := range types {
			rows, ok := sections[name]
			if !ok {
				t.Errorf("docs/report-format.md has no section \"### %s\" under \"The analysis report\" for the fields %v", name, fields)
				continue
			}
			for _, f := range fields {
				if !slices.Contains(rows, f) {
					t.Errorf("docs/report-format.md: %s: field %q (json) is not in its table", name, f)
				}
			}
			for _, r := range rows {
				if !slices.Contains(fields, r) {
					t.Errorf("docs/report-format.md: %s: the table lists %q, which is not a field of its JSON", name, r)
				}
			}
		}
		for name := range sections {
			if _, ok := types[name]; !ok {
				t.Errorf("docs/report-format.md has a section %q under \"The analysis report\", an object the report does not hold", name)
			}
		}
	})

	t.Run("kinds", func(t *testing.T) {
		sections := docSections(t, doc, "Vocabulary")
		lists, consts := kindsSource(t)
		for list, kinds := range lists {
			heading, ok := vocabularies[list]
			if !ok {
				t.Errorf("internal/kinds lists %s (%v), which docs/report-format.md does not document: add a section to its Vocabulary and to this test's vocabularies", list, kinds)
				continue
			}
			rows := sections[heading]
			for _, k := range kinds {
				if !slices.Contains(rows, k) {
					t.Errorf("docs/report-format.md: %s: kind %q (kinds.%s) is not in its table", heading, k, list)
				}
			}
			for _, r := range rows {
				if !slices.Contains(kinds, r) {
					t.Errorf("docs/report-format.md: %s: the table lists %q, which is not in kinds.%s", heading, r, list)
				}
			}
		}
		for list, heading := range vocabularies {
			if _, ok := lists[list]; !ok {
				t.Errorf("this test's vocabularies name kinds.%s (%q), which internal/kinds no longer lists", list, heading)
			}
		}
		for name, v := range consts {
			if !strings.Contains(doc, "`"+v+"`") {
				t.Errorf("kinds.%s = %q is nowhere in docs/report-format.md", name, v)
			}
		}
	})
}

// docSections are the sections ("### Name") of the part of doc under "## part", each as the
// names in its table rows' first cell, in backquotes.
func docSections(t *testing.T, doc, part string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	in, cur, found := false, "", false
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			in, cur = strings.TrimPrefix(line, "## ") == part, ""
			found = found || in
			continue
		case !in:
			continue
		case strings.HasPrefix(line, "#"):
			cur = strings.TrimSpace(strings.TrimLeft(line, "#"))
			out[cur] = []string{}
			continue
		}
		if cur == "" || !strings.HasPrefix(line, "| ") {
			continue
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " |")
		for _, m := range quoted.FindAllStringSubmatch(first, -1) {
			out[cur] = append(out[cur], m[1])
		}
	}
	if !found {
		t.Fatalf("docs/report-format.md has no part \"## %s\"", part)
	}
	return out
}

var quoted = regexp.MustCompile("`([^`]+)`")

var (
	timeType      = reflect.TypeFor[time.Time]()
	marshalerType = reflect.TypeFor[json.Marshaler]()
)

// reportTypes are the struct types of the report's JSON from root, by name, each with its
// JSON field names.
func reportTypes(root reflect.Type) map[string][]string {
	out := map[string][]string{}
	for queue := []reflect.Type{root}; len(queue) > 0; queue = queue[1:] {
		t := queue[0]
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || t == timeType || t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType) {
			continue
		}
		if _, done := out[t.Name()]; done {
			continue
		}
		names, nested := jsonFields(t)
		out[t.Name()] = names
		queue = append(queue, nested...)
	}
	return out
}

// jsonFields are the names encoding/json writes t's fields under (an embedded struct's fields
// as t's own), and the types of those fields.
func jsonFields(t reflect.Type) (names []string, types []reflect.Type) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch {
		case name == "-":
		case f.Anonymous && name == "" && ft.Kind() == reflect.Struct:
			n, ts := jsonFields(ft)
			names, types = append(names, n...), append(types, ts...)
		case f.IsExported():
			if name == "" {
				name = f.Name
			}
			names, types = append(names, name), append(types, f.Type)
		}
	}
	return names, types
}

// kindsSource reads internal/kinds: its exported lists of strings (var X = []string{…}) with
// their values, and its exported string constants.
func kindsSource(t *testing.T) (lists map[string][]string, consts map[string]string) {
	t.Helper()
	files, err := filepath.Glob("../kinds/*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	lists, consts = map[string][]string{}, map[string]string{}
	var specs []*ast.ValueSpec
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || (g.Tok != token.CONST && g.Tok != token.VAR) {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				if g.Tok == token.CONST {
					for i, n := range vs.Names {
						if i < len(vs.Values) {
							if v, ok := stringLit(vs.Values[i]); ok && n.IsExported() {
								consts[n.Name] = v
							}
						}
					}
					continue
				}
				specs = append(specs, vs)
			}
		}
	}
	for _, vs := range specs {
		for i, n := range vs.Names {
			if !n.IsExported() || i >= len(vs.Values) {
				continue
			}
			cl, ok := vs.Values[i].(*ast.CompositeLit)
			if !ok {
				continue
			}
			if at, ok := cl.Type.(*ast.ArrayType); !ok || at.Elt.(*ast.Ident).Name != "string" {
				continue
			}
			var values []string
			for _, e := range cl.Elts {
				if v, ok := stringLit(e); ok {
					values = append(values, v)
				} else if id, ok := e.(*ast.Ident); ok {
					v, known := consts[id.Name]
					if !known {
						t.Fatalf("kinds.%s holds %s, which is not a string constant of the package", n.Name, id.Name)
					}
					values = append(values, v)
				} else {
					t.Fatalf("kinds.%s holds an element this test cannot read: %T", n.Name, e)
				}
			}
			lists[n.Name] = values
		}
	}
	if len(lists) == 0 {
		t.Fatal("found no lists of kinds in internal/kinds")
	}
	return lists, consts
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}
