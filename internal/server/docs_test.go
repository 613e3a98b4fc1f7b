package server

import (
	"context"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/config"
)

// apiDoc is the file that documents every route.
const apiDoc = "../../docs/api.md"

// TestDocsRoutes keeps docs/api.md and the router together: every route the server registers
// has a heading of its own there ("### `GET /api/v1/incidents/{id}`"), and every route a
// heading names is one the router registers. The routes are the gin engine's own list.
func TestDocsRoutes(t *testing.T) {
	t.Parallel()
	var registered []string
	for _, r := range docServer(t).router().Routes() {
		registered = append(registered, r.Method+" "+docPattern(r.Path))
	}
	if len(registered) < 10 {
		t.Fatalf("the router lists only %d routes", len(registered))
	}
	documented := documentedRoutes(t)
	for _, r := range registered {
		if !slices.Contains(documented, r) {
			t.Errorf("%s is registered (routes.go) but has no heading in docs/api.md: add \"### `%s`\" with its auth, statuses and JSON", r, r)
		}
	}
	for _, r := range documented {
		if !slices.Contains(registered, r) {
			t.Errorf("docs/api.md documents %s, which the router does not register: remove or correct the heading", r)
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

// docServer is a server with nothing behind it: registering the routes reads no store.
func docServer(t *testing.T) *Server {
	t.Helper()
	cfg, err := config.Default(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cfg.SpoolDir = t.TempDir()
	srv := New(cfg, Deps{})
	t.Cleanup(func() {
		if err := srv.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return srv
}
