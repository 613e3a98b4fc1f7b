// Package storetest hands tests a migrated, empty Store on each database Rootline supports:
// a fresh SQLite file, and a PostgreSQL database created for the test process (from
// ROOTLINE_TEST_POSTGRES, default postgres://postgres@127.0.0.1:5432/postgres) and emptied
// after each test. Without a reachable PostgreSQL the PostgreSQL cases are skipped with a
// message, unless CI is set: then they fail.
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/testenv"
)

// DefaultAdminURL is where tests look for PostgreSQL.
const DefaultAdminURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// Postgres is a PostgreSQL database made for one test process.
type Postgres struct {
	admin string // URL of the server's maintenance database
	URL   string // URL of the test database
	name  string
	err   error // why PostgreSQL is not available
	once  sync.Once
}

// NewPostgres describes the test database; nothing is created until first use.
func NewPostgres() *Postgres {
	admin := os.Getenv("ROOTLINE_TEST_POSTGRES")
	if admin == "" {
		admin = DefaultAdminURL
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return &Postgres{admin: admin, name: "rootline_test_" + hex.EncodeToString(b)}
}

func (p *Postgres) create(ctx context.Context) {
	conn, err := pgx.Connect(ctx, p.admin)
	if err != nil {
		p.err = fmt.Errorf("connect to %s: %w", p.admin, err)
		return
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+p.name); err != nil {
		p.err = fmt.Errorf("create database %s: %w", p.name, err)
		return
	}
	u, err := url.Parse(p.admin)
	if err != nil {
		p.err = err
		return
	}
	u.Path = "/" + p.name
	p.URL = u.String()
	st, err := store.Open(ctx, store.Target{Dialect: store.Postgres, DSN: p.URL, Display: p.name}, discard())
	if err != nil {
		p.err = err
		return
	}
	defer st.Close()
	p.err = st.Migrate(ctx)
}

// Available creates the database on first call and reports why it cannot be used, if so.
func (p *Postgres) Available() error {
	p.once.Do(func() { p.create(context.Background()) })
	return p.err
}

// Drop removes the test database; call it from TestMain after the tests.
func (p *Postgres) Drop() {
	if p.URL == "" {
		return
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, p.admin)
	if err != nil {
		return
	}
	defer conn.Close(ctx)
	_, _ = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+p.name+" WITH (FORCE)")
}

// Main runs a package's tests with a PostgreSQL test database, dropping it afterwards. Use it
// as TestMain: func TestMain(m *testing.M) { storetest.Main(m, &pg) }. after runs once the tests
// have run, before the process exits.
func Main(m *testing.M, pg **Postgres, after ...func()) {
	*pg = NewPostgres()
	code := m.Run()
	(*pg).Drop()
	for _, f := range after {
		f()
	}
	os.Exit(code)
}

// Backend is one database to run a test on.
type Backend struct {
	Name   string       // "sqlite" or "postgres"
	Target store.Target // where it is, for tests that start processes against it
	pg     *Postgres
}

// Each runs f as a subtest on every backend, with a migrated, empty Store.
func Each(t *testing.T, pg *Postgres, f func(t *testing.T, st *store.Store, b Backend)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "rootline.db")
		tg, err := store.ParseTarget(path)
		if err != nil {
			t.Fatal(err)
		}
		st := open(t, tg)
		f(t, st, Backend{Name: "sqlite", Target: tg})
	})
	t.Run("postgres", func(t *testing.T) {
		if err := pg.Available(); err != nil {
			testenv.Missing(t, "PostgreSQL not available (%v); set ROOTLINE_TEST_POSTGRES to run these cases", err)
		}
		tg, err := store.ParseTarget(pg.URL)
		if err != nil {
			t.Fatal(err)
		}
		st := open(t, tg)
		t.Cleanup(func() { truncate(t, pg.URL) })
		f(t, st, Backend{Name: "postgres", Target: tg, pg: pg})
	})
}

func open(t *testing.T, tg store.Target) *store.Store {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, tg, discard())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	return st
}

// truncate empties every table but the migration record.
func truncate(t *testing.T, dbURL string) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Errorf("truncate: %v", err)
		return
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations'")
	if err != nil {
		t.Errorf("truncate: %v", err)
		return
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Errorf("truncate: %v", err)
		return
	}
	if _, err := conn.Exec(ctx, "TRUNCATE "+strings.Join(tables, ", ")+" RESTART IDENTITY CASCADE"); err != nil {
		t.Errorf("truncate: %v", err)
	}
}

func discard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// Fresh returns a new, empty database of the backend's kind, as a --database value: a new
// SQLite file, or a new schema of the PostgreSQL test database (reached through search_path,
// dropped at the end of the test). Nothing is migrated yet.
func Fresh(t *testing.T, b Backend) string {
	t.Helper()
	if b.Target.Dialect == store.SQLite {
		return filepath.Join(t.TempDir(), "fresh.db")
	}
	ctx := context.Background()
	r := make([]byte, 4)
	_, _ = rand.Read(r)
	schema := "fresh_" + hex.EncodeToString(r)
	conn, err := pgx.Connect(ctx, b.pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn, err := pgx.Connect(ctx, b.pg.URL)
		if err != nil {
			t.Errorf("drop schema: %v", err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema: %v", err)
		}
	})
	u, err := url.Parse(b.pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
