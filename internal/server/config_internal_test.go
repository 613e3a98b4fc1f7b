package server

import (
	"context"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/metrics"
)

// TestNewTakesTheConfiguration: New uses the configuration as it is given, parsed and checked
// once by package config: it applies no default of its own over a zero value set on purpose,
// and parses nothing again.
func TestNewTakesTheConfiguration(t *testing.T) {
	t.Parallel()
	cfg := config.Config{
		MemoryBudget: 1 << 20, UploadWait: 0, UploadTimeout: 0, BodyIdle: 0, SpoolDir: t.TempDir(),
		OpenIncidentsFor:  alert.Selector{{Name: "team", Value: "data"}},
		Prometheus:        metrics.Targets{"leap": "http://prom:9090"},
		PrometheusQueries: []metrics.Query{{Name: "up", Expr: "up"}},
	}
	srv := New(cfg, Deps{})
	t.Cleanup(func() {
		if err := srv.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	if srv.cfg.MemoryBudget != 1<<20 || srv.budget.total != 1<<20 {
		t.Errorf("memory budget %d (budget %d), want the 1 MiB given", srv.cfg.MemoryBudget, srv.budget.total)
	}
	for name, d := range map[string]time.Duration{"upload wait": srv.cfg.UploadWait, "budget's wait": srv.budget.wait,
		"upload timeout": srv.cfg.UploadTimeout, "body idle": srv.cfg.BodyIdle} {
		if d != 0 {
			t.Errorf("%s %s, want the 0 given", name, d)
		}
	}
	if len(srv.openFor) != 1 || srv.prometheus.For("leap") != "http://prom:9090" || len(srv.queries) != 1 || srv.queries[0].Name != "up" {
		t.Errorf("open for %v, prometheus %v, queries %v: want those given", srv.openFor, srv.prometheus, srv.queries)
	}
}
