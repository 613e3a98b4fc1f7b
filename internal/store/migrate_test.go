package store_test

import (
	"io"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// schemaTables is Rootline's schema after all migrations, on either database.
var schemaTables = []string{"accounts", "alerts", "api_tokens", "clusters", "events", "incident_facets", "incident_signatures", "incident_snapshots", "incident_tags", "incidents", "nodes", "notes", "object_states",
	"objects", "pod_containers", "pods", "schema_migrations", "sessions", "snapshot_events", "snapshots"}

func TestMigrationsInStep(t *testing.T) {
	t.Parallel()
	type version struct {
		Version int
		Name    string
	}
	versions := func(d store.Dialect) []version {
		ms, err := store.Migrations(d)
		if err != nil {
			t.Fatal(err)
		}
		var out []version
		for _, m := range ms {
			if strings.TrimSpace(m.SQL) == "" {
				t.Errorf("%s migration %d is empty", d, m.Version)
			}
			out = append(out, version{m.Version, m.Name})
		}
		return out
	}
	pgv, litev := versions(store.Postgres), versions(store.SQLite)
	if len(pgv) == 0 {
		t.Fatal("no migrations")
	}
	if diff := cmp.Diff(pgv, litev); diff != "" {
		t.Errorf("PostgreSQL and SQLite migrations differ (-postgres +sqlite):\n%s", diff)
	}
}

func TestMigrateTwice(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ms, err := store.Migrations(st.Dialect())
		if err != nil {
			t.Fatal(err)
		}
		// Each migrated already; this is the second run.
		if err := st.Migrate(t.Context()); err != nil {
			t.Fatalf("second Migrate: %v", err)
		}
		v, err := st.SchemaVersion(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if v != len(ms) {
			t.Errorf("SchemaVersion = %d, want %d", v, len(ms))
		}
		if diff := cmp.Diff(map[string]int64{"schema_migrations": int64(len(ms))}, counts(t, b.Target, "schema_migrations")); diff != "" {
			t.Errorf("migration records (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(schemaTables, storetest.Tables(t, b.Target)); diff != "" {
			t.Errorf("Tables (-want +got):\n%s", diff)
		}
	})
}

// TestMigrateConcurrently starts several Stores on one empty database at once, the way
// replicas start together: every Migrate succeeds and the migrations are applied once.
func TestMigrateConcurrently(t *testing.T) {
	t.Parallel()
	const replicas = 4
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		target := freshTarget(t, st, b)
		stores := make([]*store.Store, replicas)
		for i := range stores {
			s, err := store.Open(t.Context(), target, discard())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			stores[i] = s
		}
		errs := make([]error, replicas)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i, s := range stores {
			wg.Go(func() {
				<-start
				errs[i] = s.Migrate(t.Context())
			})
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("replica %d: Migrate: %v", i, err)
			}
		}
		ms, err := store.Migrations(b.Target.Dialect)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range stores {
			v, err := s.SchemaVersion(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if v != len(ms) {
				t.Errorf("replica %d: SchemaVersion = %d, want %d", i, v, len(ms))
			}
		}
		if diff := cmp.Diff(map[string]int64{"schema_migrations": int64(len(ms))}, counts(t, target, "schema_migrations")); diff != "" {
			t.Errorf("migration records (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(schemaTables, storetest.Tables(t, target)); diff != "" {
			t.Errorf("Tables (-want +got):\n%s", diff)
		}
	})
}

// freshTarget returns an empty database for the backend: a new SQLite file, or a new schema
// in the PostgreSQL test database (dropped at the end), reached through search_path. The
// advisory lock is per database, so schemas exercise it as separate databases would.
func freshTarget(t *testing.T, _ *store.Store, b storetest.Backend) store.Target {
	t.Helper()
	tg, err := store.ParseTarget(storetest.Fresh(t, b))
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

func TestParseTarget(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in          string
		wantErr     bool
		dialect     store.Dialect
		display     string
		dsn         string // exact for PostgreSQL; the prefix before the options for SQLite
		notInOutput string // a password that Display must not show
	}{
		{in: "", wantErr: true},
		{in: "rootline.db", dialect: store.SQLite, display: "rootline.db", dsn: "file:rootline.db?"},
		{in: "data/sub/rootline.db", dialect: store.SQLite, display: "data/sub/rootline.db", dsn: "file:data/sub/rootline.db?"},
		{in: "sqlite:///tmp/x.db", dialect: store.SQLite, display: "/tmp/x.db", dsn: "file:/tmp/x.db?"},
		{in: "sqlite://", wantErr: true},
		{in: "postgres://u:pw@h/db", dialect: store.Postgres, display: "postgres://u:xxxxx@h/db", dsn: "postgres://u:pw@h/db", notInOutput: "pw"},
		{in: "postgresql://u@h:5433/db?sslmode=disable", dialect: store.Postgres,
			display: "postgresql://u@h:5433/db?sslmode=disable", dsn: "postgresql://u@h:5433/db?sslmode=disable"},
		{in: "postgres://u@h/db?password=hunter2&sslmode=disable", dialect: store.Postgres,
			dsn: "postgres://u@h/db?password=hunter2&sslmode=disable", notInOutput: "hunter2"},
		{in: "mysql://x", wantErr: true},
		{in: "file:///tmp/x.db", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := store.ParseTarget(tt.in)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("ParseTarget(%q) = %+v, want an error", tt.in, got)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseTarget(%q): %v", tt.in, err)
			}
			if got.Dialect != tt.dialect {
				t.Errorf("Dialect = %q, want %q", got.Dialect, tt.dialect)
			}
			if tt.display != "" && got.Display != tt.display {
				t.Errorf("Display = %q, want %q", got.Display, tt.display)
			}
			if tt.notInOutput != "" && strings.Contains(got.Display, tt.notInOutput) {
				t.Errorf("Display %q shows the password %q", got.Display, tt.notInOutput)
			}
			switch got.Dialect {
			case store.Postgres:
				if got.DSN != tt.dsn {
					t.Errorf("DSN = %q, want %q", got.DSN, tt.dsn)
				}
			case store.SQLite:
				opts, ok := strings.CutPrefix(got.DSN, tt.dsn)
				if !ok {
					t.Fatalf("DSN = %q, want it to start with %q", got.DSN, tt.dsn)
				}
				q, err := url.ParseQuery(opts)
				if err != nil {
					t.Fatal(err)
				}
				want := url.Values{
					"_pragma": {"busy_timeout(15000)", "journal_mode(WAL)", "foreign_keys(1)", "synchronous(NORMAL)"},
					"_txlock": {"immediate"},
				}
				if diff := cmp.Diff(want, q); diff != "" {
					t.Errorf("SQLite options (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func discard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
