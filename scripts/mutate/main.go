// Command mutate is a small mutation tester over `go test`. It reads the Go files given, makes
// one-line mutants of their code (a comparison flipped, a condition negated, && and || swapped,
// a statement removed, a returned bool or an integer constant changed), and runs the tests of
// each file's package once per mutant. A mutant is killed when the tests fail (or time out),
// survives when they pass, and is not counted when it does not compile.
//
// No file is written in the module: each mutant is a file in a temporary directory handed to
// `go test -overlay`, so the command may run in a checkout others are building in.
//
//	go run ./scripts/mutate -n 12 -seed 1 \
//		-run 'internal/server=^Test(Budget|Spool|Decoded)' \
//		internal/metrics/downsample.go internal/server/budget.go
//
// The mutants are chosen deterministically: all the mutants of the files of a package, sorted
// by place, and, when there are more than -n, a sample of -n drawn with -seed. Each survivor
// is printed as file:line: original → mutant, and the score at the end. -func narrows a file to
// the functions (and constants) that decide, -run a package's tests to those that cover them.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// mutant is one change of one file: the bytes [from, to) of the source replaced by with.
type mutant struct {
	file     string // path as given
	line     int
	from, to int
	with     string
	op       string // the operator's name
}

// runFlags maps a package directory to the -run pattern of its tests.
type runFlags map[string]string

func (r runFlags) String() string { return fmt.Sprint(map[string]string(r)) }

func (r runFlags) Set(s string) error {
	dir, pat, ok := strings.Cut(s, "=")
	if !ok {
		return errors.New("want dir=regexp")
	}
	r[filepath.Clean(dir)] = pat
	return nil
}

// alsoFlags maps a package directory to the directories of the packages whose tests also
// judge its mutants: an engine's tests with those of the rules that drive it.
type alsoFlags map[string][]string

func (a alsoFlags) String() string { return fmt.Sprint(map[string][]string(a)) }

func (a alsoFlags) Set(s string) error {
	dir, other, ok := strings.Cut(s, "=")
	if !ok {
		return errors.New("want dir=otherdir")
	}
	a[filepath.Clean(dir)] = append(a[filepath.Clean(dir)], "./"+filepath.ToSlash(filepath.Clean(other)))
	return nil
}

type options struct {
	also    alsoFlags
	n       int
	seed    int64
	timeout time.Duration
	run     runFlags
	list    bool
	ops     map[string]bool
	funcs   *regexp.Regexp
}

func main() {
	o := options{run: runFlags{}, also: alsoFlags{}}
	flag.IntVar(&o.n, "n", 20, "mutants per package at most (0: all)")
	flag.Int64Var(&o.seed, "seed", 1, "seed of the sample drawn when a package has more than -n mutants")
	flag.DurationVar(&o.timeout, "timeout", 5*time.Minute, "time a mutant's tests may take (build included); past it the mutant counts as killed")
	flag.Var(o.run, "run", "dir=regexp: run only the tests of the package in dir that match (repeatable)")
	flag.Var(o.also, "also", "dir=otherdir: the tests of the package in otherdir judge the mutants of dir's too, with -run's pattern of dir (repeatable)")
	flag.BoolVar(&o.list, "list", false, "list the chosen mutants and stop")
	funcs := flag.String("func", "", "mutate only the functions, and the constants and variables, whose names match this regexp")
	opList := flag.String("ops", "", "comma-separated operators to use (default all: "+strings.Join(allOps, ",")+")")
	flag.Parse()
	if *opList != "" {
		o.ops = map[string]bool{}
		for op := range strings.SplitSeq(*opList, ",") {
			o.ops[op] = true
		}
	}
	if *funcs != "" {
		o.funcs = regexp.MustCompile(*funcs)
	}
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: mutate [flags] file.go ...")
		os.Exit(2)
	}
	killed, survived, err := run(o, flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
		os.Exit(1)
	}
	if total := killed + survived; total > 0 {
		fmt.Printf("score: %d of %d killed (%.0f%%)\n", killed, total, 100*float64(killed)/float64(total))
	}
}

func run(o options, files []string) (killed, survived int, err error) {
	byDir := map[string][]string{}
	var dirs []string
	for _, f := range files {
		d := filepath.Dir(filepath.Clean(f))
		if byDir[d] == nil {
			dirs = append(dirs, d)
		}
		byDir[d] = append(byDir[d], f)
	}
	tmp, err := os.MkdirTemp("", "mutate")
	if err != nil {
		return 0, 0, err
	}
	defer os.RemoveAll(tmp)
	for _, d := range dirs {
		var all []mutant
		for _, f := range byDir[d] {
			ms, err := mutants(f, o.ops, o.funcs)
			if err != nil {
				return 0, 0, err
			}
			all = append(all, ms...)
		}
		chosen := sample(all, o.n, o.seed)
		fmt.Printf("%s: %d mutants, %d chosen\n", d, len(all), len(chosen))
		if o.list {
			for _, m := range chosen {
				fmt.Printf("  %s\n", describe(m))
			}
			continue
		}
		pkg := append([]string{"./" + filepath.ToSlash(d)}, o.also[d]...)
		if out, ok := goTest(pkg, o.run[d], "", o.timeout); ok != passed {
			return killed, survived, fmt.Errorf("the tests of %s do not pass unmutated:\n%s", pkg, out)
		}
		for i, m := range chosen {
			overlay, err := writeMutant(tmp, i, m)
			if err != nil {
				return killed, survived, err
			}
			_, res := goTest(pkg, o.run[d], overlay, o.timeout)
			switch res {
			case passed:
				survived++
				fmt.Printf("  SURVIVED %s\n", describe(m))
			case failed, timedOut:
				killed++
				fmt.Printf("  killed   %s\n", describe(m))
			case unbuilt:
				fmt.Printf("  no build %s\n", describe(m))
			}
		}
	}
	return killed, survived, nil
}

// describe says where a mutant is and what it changed, as file:line: original → mutant.
func describe(m mutant) string {
	src, err := os.ReadFile(m.file)
	if err != nil {
		return fmt.Sprintf("%s:%d: %s", m.file, m.line, m.op)
	}
	start := bytes.LastIndexByte(src[:m.from], '\n') + 1
	end := m.to + bytes.IndexByte(src[m.to:], '\n')
	if end < m.to {
		end = len(src)
	}
	before := strings.TrimSpace(string(src[start:end]))
	after := strings.TrimSpace(string(src[start:m.from]) + m.with + string(src[m.to:end]))
	if after == "" {
		after = "(removed)"
	}
	return fmt.Sprintf("%s:%d: [%s] %s → %s", m.file, m.line, m.op, before, after)
}

// sample keeps every mutant when there are n or fewer, else n of them drawn with seed; the
// result is in the order of the source.
func sample(all []mutant, n int, seed int64) []mutant {
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].file != all[j].file {
			return all[i].file < all[j].file
		}
		if all[i].from != all[j].from {
			return all[i].from < all[j].from
		}
		return all[i].with < all[j].with
	})
	if n <= 0 || len(all) <= n {
		return all
	}
	idx := rand.New(rand.NewSource(seed)).Perm(len(all))[:n]
	sort.Ints(idx)
	out := make([]mutant, n)
	for i, k := range idx {
		out[i] = all[k]
	}
	return out
}

// writeMutant writes the mutated file and an overlay naming it in dir, and returns the
// overlay's path.
func writeMutant(dir string, i int, m mutant) (string, error) {
	src, err := os.ReadFile(m.file)
	if err != nil {
		return "", err
	}
	abs, err := filepath.Abs(m.file)
	if err != nil {
		return "", err
	}
	out := append(append(append([]byte{}, src[:m.from]...), m.with...), src[m.to:]...)
	path := filepath.Join(dir, strconv.Itoa(i)+"_"+filepath.Base(m.file))
	if err := os.WriteFile(path, out, 0o644); err != nil {
		return "", err
	}
	j, err := json.Marshal(map[string]map[string]string{"Replace": {abs: path}})
	if err != nil {
		return "", err
	}
	overlay := filepath.Join(dir, strconv.Itoa(i)+".json")
	return overlay, os.WriteFile(overlay, j, 0o644)
}

type result int

const (
	passed result = iota
	failed
	unbuilt
	timedOut
)

// goTest runs the tests of the packages (only those matching run, when given), with overlay
// when given.
func goTest(pkg []string, run, overlay string, timeout time.Duration) (string, result) {
	args := []string{"test", "-count=1", "-failfast"}
	if overlay != "" {
		args = append(args, "-overlay="+overlay)
	}
	if run != "" {
		args = append(args, "-run="+run)
	}
	args = append(args, pkg...)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	switch {
	case ctx.Err() != nil:
		return string(out), timedOut
	case err == nil:
		return string(out), passed
	case bytes.Contains(out, []byte("[build failed]")) || bytes.Contains(out, []byte("[setup failed]")) || bytes.Contains(out, []byte("vet:")):
		return string(out), unbuilt
	}
	return string(out), failed
}

var allOps = []string{"compare", "negate", "andor", "remove", "bool", "int"}

// mutants lists the one-line mutants of a file's code (of the declarations funcs matches,
// when given).
func mutants(path string, ops map[string]bool, funcs *regexp.Regexp) ([]mutant, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		return nil, err
	}
	c := &collector{path: path, src: src, fset: fset, ops: ops}
	for _, d := range f.Decls {
		if funcs == nil || funcs.MatchString(declName(d)) {
			ast.Inspect(d, c.visit)
		}
	}
	return c.out, nil
}

// collector gathers the mutants of one file.
type collector struct {
	path string
	src  []byte
	fset *token.FileSet
	ops  map[string]bool
	out  []mutant
}

// add records the mutant that replaces [from, to) by with, when its operator is chosen and it
// stays on one line.
func (c *collector) add(op string, from, to token.Pos, with string) {
	if c.ops != nil && !c.ops[op] {
		return
	}
	a, b := c.fset.Position(from), c.fset.Position(to)
	if a.Line != b.Line {
		return // one-line mutants only
	}
	c.out = append(c.out, mutant{file: c.path, line: a.Line, from: a.Offset, to: b.Offset, with: with, op: op})
}

func (c *collector) text(n ast.Node) string {
	return string(c.src[c.fset.Position(n.Pos()).Offset:c.fset.Position(n.End()).Offset])
}

func (c *collector) visit(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.GenDecl:
		// Imports and types hold nothing to mutate; constants and variables do.
		return n.Tok == token.CONST || n.Tok == token.VAR
	case *ast.BinaryExpr:
		c.binary(n)
	case *ast.IfStmt:
		c.add("negate", n.Cond.Pos(), n.Cond.End(), "!("+c.text(n.Cond)+")")
	case *ast.ForStmt:
		if n.Cond != nil {
			c.add("negate", n.Cond.Pos(), n.Cond.End(), "!("+c.text(n.Cond)+")")
		}
	case *ast.BlockStmt:
		c.removals(n.List)
	case *ast.CaseClause:
		c.removals(n.Body)
	case *ast.ReturnStmt:
		for _, r := range n.Results {
			if id, ok := r.(*ast.Ident); ok && (id.Name == "true" || id.Name == "false") {
				c.add("bool", id.Pos(), id.End(), map[string]string{"true": "false", "false": "true"}[id.Name])
			}
		}
	case *ast.BasicLit:
		c.integer(n)
	}
	return true
}

// binary flips a comparison, and swaps && and ||.
func (c *collector) binary(n *ast.BinaryExpr) {
	if with, ok := flipped[n.Op]; ok {
		c.add("compare", n.OpPos, n.OpPos+token.Pos(len(n.Op.String())), with)
	}
	switch n.Op {
	case token.LAND:
		c.add("andor", n.OpPos, n.OpPos+2, "||")
	case token.LOR:
		c.add("andor", n.OpPos, n.OpPos+2, "&&")
	}
}

// removals removes each statement of a list that can go.
func (c *collector) removals(list []ast.Stmt) {
	for _, s := range list {
		if removable(s) {
			c.add("remove", s.Pos(), s.End(), "")
		}
	}
}

// integer replaces an integer constant n by n+1, and by 0 unless it is 0 or 1.
func (c *collector) integer(n *ast.BasicLit) {
	if n.Kind != token.INT {
		return
	}
	v, err := strconv.ParseInt(n.Value, 0, 64)
	if err != nil {
		return
	}
	c.add("int", n.Pos(), n.End(), strconv.FormatInt(v+1, 10))
	if v != 0 && v != 1 {
		c.add("int", n.Pos(), n.End(), "0")
	}
}

// declName is the name of a function or method, or the names of the constants or variables
// a declaration holds, space-separated.
func declName(d ast.Decl) string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		return d.Name.Name
	case *ast.GenDecl:
		var names []string
		for _, s := range d.Specs {
			if v, ok := s.(*ast.ValueSpec); ok {
				for _, n := range v.Names {
					names = append(names, n.Name)
				}
			}
		}
		return strings.Join(names, " ")
	}
	return ""
}

var flipped = map[token.Token]string{
	token.LSS: "<=", token.LEQ: "<", token.GTR: ">=", token.GEQ: ">",
	token.EQL: "!=", token.NEQ: "==",
}

// removable reports whether a statement can go without the file failing to compile for
// certain: a call, an assignment to what exists already, ++ or --, a break or a continue.
func removable(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ExprStmt:
		_, ok := s.X.(*ast.CallExpr)
		return ok
	case *ast.AssignStmt:
		return s.Tok != token.DEFINE
	case *ast.IncDecStmt:
		return true
	case *ast.BranchStmt:
		return s.Tok == token.BREAK || s.Tok == token.CONTINUE
	}
	return false
}
