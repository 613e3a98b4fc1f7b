package server

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/store"
)

// apiDoc is the file that documents every route.
const apiDoc = "../../docs/api.md"

// TestDocsRoutes keeps docs/api.md and the router together: every route the server registers
// has a heading of its own there ("### `GET /api/v1/incidents/{id}`"), and every route a
// heading names is one the server serves, under the same pattern.
//
// Handler builds its gin engine and hands back only an http.Handler, so the routes are read
// from the source of the package (registeredRoutes), and each of them, and each route the
// docs name, is then asked of the live handler: the metrics say which pattern answered it.
func TestDocsRoutes(t *testing.T) {
	registered := registeredRoutes(t)
	if len(registered) < 10 {
		t.Fatalf("found only %d routes in the package's source: registeredRoutes no longer reads the router", len(registered))
	}
	documented := documentedRoutes(t)

	for _, r := range registered {
		if !slices.Contains(documented, r) {
			t.Errorf("%s is registered (routes.go) but has no heading in docs/api.md: add \"### `%s`\" with its auth, statuses and JSON", r, r)
		}
	}
	p := newRouteProbe(t)
	for _, r := range registered {
		if got := p.matched(t, r); got != r {
			t.Errorf("%s, read from the source, is answered by the live router as %q: registeredRoutes misreads the router", r, got)
		}
	}
	for _, r := range documented {
		if slices.Contains(registered, r) {
			continue
		}
		if got := p.matched(t, r); got != r {
			t.Errorf("docs/api.md documents %s, which the server does not serve (it answers it as %q): remove or correct the heading", r, got)
		}
	}
}

// docRoute is how docs/api.md names a route in a heading: `GET /api/v1/incidents/{id}`.
var docRoute = regexp.MustCompile("`(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) (/[^`\\s]*)`")

// documentedRoutes are the routes named in docs/api.md's headings, "METHOD /path" with
// parameters as {name}.
func documentedRoutes(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(apiDoc)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		for _, m := range docRoute.FindAllStringSubmatch(line, -1) {
			r := m[1] + " " + m[2]
			if slices.Contains(out, r) {
				t.Errorf("docs/api.md has two headings for %s", r)
			}
			out = append(out, r)
		}
	}
	return out
}

// ginParam is a path parameter as gin writes it: :id, *filepath.
var ginParam = regexp.MustCompile(`[:*]([A-Za-z0-9_]+)`)

// docPattern writes a gin pattern as the docs do: /incidents/:id → /incidents/{id}.
func docPattern(p string) string { return ginParam.ReplaceAllString(p, "{$1}") }

// routeMethods are the methods of gin's router that register a route, with the methods they
// register; Handle's method is its first argument, and the static ones register GET and HEAD.
var routeMethods = map[string][]string{
	"GET": {"GET"}, "HEAD": {"HEAD"}, "POST": {"POST"}, "PUT": {"PUT"}, "PATCH": {"PATCH"}, "DELETE": {"DELETE"},
	"OPTIONS": {"OPTIONS"}, "Handle": nil, "Any": nil, "Match": nil,
	"Static": {"GET", "HEAD"}, "StaticFS": {"GET", "HEAD"}, "StaticFile": {"GET", "HEAD"}, "StaticFileFS": {"GET", "HEAD"},
}

// registeredRoutes reads the routes the package registers from its source: in each function,
// the variables that hold gin's engine (gin.New, gin.Default) or a group of it (x.Group with a
// literal prefix), and the calls on them that register routes. A registration it cannot follow
// (a path that is not a literal, a group passed into another function, Any) fails the test,
// so that no route escapes it unseen.
func registeredRoutes(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var out []string
	add := func(method, pattern string) {
		r := method + " " + docPattern(pattern)
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		imported := map[string]bool{} // web.Static() is a package's function, not a route
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			n := path.Base(p)
			if im.Name != nil {
				n = im.Name.Name
			}
			imported[n] = true
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			prefix := map[string]string{} // variable → the path its routes start with
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.AssignStmt:
					if len(n.Lhs) != 1 || len(n.Rhs) != 1 {
						return true
					}
					v, ok := n.Lhs[0].(*ast.Ident)
					call, isCall := n.Rhs[0].(*ast.CallExpr)
					if !ok || !isCall {
						return true
					}
					sel, ok := call.Fun.(*ast.SelectorExpr)
					if !ok {
						return true
					}
					recv, _ := sel.X.(*ast.Ident)
					switch {
					case recv != nil && recv.Name == "gin" && (sel.Sel.Name == "New" || sel.Sel.Name == "Default"):
						prefix[v.Name] = "/"
					case recv != nil && sel.Sel.Name == "Group":
						base, known := prefix[recv.Name]
						p, lit := stringArg(call, 0)
						if known && lit {
							prefix[v.Name] = joinPaths(base, p)
						}
					}
				case *ast.CallExpr:
					sel, ok := n.Fun.(*ast.SelectorExpr)
					if !ok {
						return true
					}
					methods, registers := routeMethods[sel.Sel.Name]
					if !registers {
						return true
					}
					at := fset.Position(n.Pos())
					recv, _ := sel.X.(*ast.Ident)
					if recv != nil && imported[recv.Name] {
						return true
					}
					if recv == nil {
						t.Errorf("%s: %s called on an expression this test cannot follow: register routes on a variable that holds the engine or a group", at, sel.Sel.Name)
						return true
					}
					base, known := prefix[recv.Name]
					if !known {
						t.Errorf("%s: %s.%s: this test does not know which router or group %s is (an engine or group made in %s, by gin.New or a literal Group, is followed)",
							at, recv.Name, sel.Sel.Name, recv.Name, fn.Name.Name)
						return true
					}
					arg := 0
					if sel.Sel.Name == "Handle" {
						m, lit := stringArg(n, 0)
						if !lit {
							t.Errorf("%s: Handle with a method that is not a literal", at)
							return true
						}
						methods, arg = []string{m}, 1
					}
					if methods == nil {
						t.Errorf("%s: %s registers methods this test does not list: register each method on its own", at, sel.Sel.Name)
						return true
					}
					p, lit := stringArg(n, arg)
					if !lit {
						t.Errorf("%s: %s with a path that is not a literal", at, sel.Sel.Name)
						return true
					}
					if sel.Sel.Name == "Static" || sel.Sel.Name == "StaticFS" {
						p = path.Join(p, "/*filepath") // as gin's RouterGroup.StaticFS
					}
					for _, m := range methods {
						add(m, joinPaths(base, p))
					}
				}
				return true
			})
		}
	}
	return out
}

// stringArg is call's argument i when it is a string literal.
func stringArg(call *ast.CallExpr, i int) (string, bool) {
	if i >= len(call.Args) {
		return "", false
	}
	lit, ok := call.Args[i].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// joinPaths joins a group's prefix and a route's path as gin does (a trailing slash stays).
func joinPaths(base, rel string) string {
	if rel == "" {
		return base
	}
	p := path.Join(base, rel)
	if strings.HasSuffix(rel, "/") && !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return p
}

// routeProbe asks a live server (authentication off, an empty SQLite database) which route
// pattern answers a request: its metrics count every request by method and pattern.
type routeProbe struct {
	srv *Server
	h   http.Handler
}

func newRouteProbe(t *testing.T) *routeProbe {
	t.Helper()
	ctx := context.Background()
	tg, err := store.ParseTarget(filepath.Join(t.TempDir(), "rootline.db"))
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := store.Open(ctx, tg, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Default(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cfg.Auth, cfg.SpoolDir = "off", t.TempDir()
	srv := New(cfg, StoreDeps(st, log))
	t.Cleanup(func() {
		if err := srv.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return &routeProbe{srv: srv, h: srv.Handler()}
}

// probeValues fill a route's parameters for a request.
var probeValues = map[string]string{"id": "IL-1", "sid": "S1", "cid": "C1", "filepath": "app.css"}

var docParam = regexp.MustCompile(`\{([A-Za-z0-9_]+)\}`)

// matched sends route ("METHOD /path/{param}") to the server with no body, and returns the
// route that answered it as "METHOD /path/{param}", or "METHOD unmatched".
func (p *routeProbe) matched(t *testing.T, route string) string {
	t.Helper()
	method, pattern, _ := strings.Cut(route, " ")
	target := docParam.ReplaceAllStringFunc(pattern, func(m string) string {
		if v, ok := probeValues[m[1:len(m)-1]]; ok {
			return v
		}
		return "x"
	})
	before := p.counts(t)
	req := httptest.NewRequestWithContext(t.Context(), method, target, http.NoBody)
	p.h.ServeHTTP(httptest.NewRecorder(), req)
	after := p.counts(t)
	var got []string
	for k, n := range after {
		if n > before[k] {
			got = append(got, k)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%s: the metrics counted %v; want one route", route, got)
	}
	m, r, _ := strings.Cut(got[0], " ")
	if method == http.MethodHead && m == http.MethodGet {
		m = method // HEAD is served, and counted, as GET
	}
	return m + " " + docPattern(r)
}

// counts are the server's requests so far by "METHOD route".
func (p *routeProbe) counts(t *testing.T) map[string]float64 {
	t.Helper()
	mfs, err := p.srv.metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, mf := range mfs {
		if mf.GetName() != "rootline_http_requests_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			var method, route string
			for _, l := range m.GetLabel() {
				switch l.GetName() {
				case "method":
					method = l.GetValue()
				case "route":
					route = l.GetValue()
				}
			}
			out[method+" "+route] += m.GetCounter().GetValue()
		}
	}
	return out
}
