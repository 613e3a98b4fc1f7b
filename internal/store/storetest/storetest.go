// Package storetest hands each test a migrated, empty database of its own, on each database
// Rootline supports, as pkgsite's tests do: the migrations run once per test process, into a
// template, and each test gets a copy of it.
//
//   - SQLite: a file migrated once per process (in a temporary folder), copied into the test's
//     own temporary folder; a file copy costs a fraction of the migrations.
//   - PostgreSQL (ROOTLINE_TEST_POSTGRES, default postgres://postgres@127.0.0.1:5432/postgres):
//     a database migrated once per process, used as the template of a database per test
//     (CREATE DATABASE … TEMPLATE), dropped WITH (FORCE) when the test ends.
//
// No two tests share a database, so the tests of Each may call t.Parallel. Without a reachable
// PostgreSQL the PostgreSQL cases are skipped with a message, unless CI is set: then they fail.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/testenv"
)

// DefaultAdminURL is where tests look for PostgreSQL.
const DefaultAdminURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// pgTemplate is the process's migrated PostgreSQL database, the template of every test's.
type pgTemplate struct {
	once  sync.Once
	admin string  // URL of the server's maintenance database
	conn  *sql.DB // to it, for CREATE and DROP DATABASE
	name  string
	err   error // why PostgreSQL is not available
}

var pgTmpl pgTemplate

func (tp *pgTemplate) available() error {
	tp.once.Do(func() { tp.err = tp.create(context.Background()) })
	return tp.err
}

func (tp *pgTemplate) create(ctx context.Context) error {
	tp.admin = os.Getenv("ROOTLINE_TEST_POSTGRES")
	if tp.admin == "" {
		tp.admin = DefaultAdminURL
	}
	db, err := sql.Open("pgx", tp.admin) // the driver the store's gorm dialect registers
	if err != nil {
		return fmt.Errorf("connect to %s: %w", tp.admin, err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return fmt.Errorf("connect to %s: %w", tp.admin, err)
	}
	tp.conn = db
	tp.name = randomName("rootline_tmpl_")
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+tp.name); err != nil {
		return fmt.Errorf("create database %s: %w", tp.name, err)
	}
	u, err := tp.url(tp.name)
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, store.Target{Dialect: store.Postgres, DSN: u, Display: tp.name}, discard())
	if err != nil {
		return err
	}
	// Closed before any copy: PostgreSQL copies no database another session is connected to.
	defer st.Close()
	return st.Migrate(ctx)
}

// url is the URL of the database name on the template's server.
func (tp *pgTemplate) url(name string) (string, error) {
	u, err := url.Parse(tp.admin)
	if err != nil {
		return "", err
	}
	u.Path = "/" + name
	return u.String(), nil
}

// clone makes the database name, a copy of the migrated template, and returns its URL.
func (tp *pgTemplate) clone(ctx context.Context, name string) (string, error) {
	if _, err := tp.conn.ExecContext(ctx, "CREATE DATABASE "+name+" TEMPLATE "+tp.name); err != nil {
		return "", fmt.Errorf("create database %s: %w", name, err)
	}
	// A test's commits need not wait for the disk: PostgreSQL keeps running, so what a test
	// committed stays committed; what it costs is a flush to disk at every commit.
	if _, err := tp.conn.ExecContext(ctx, "ALTER DATABASE "+name+" SET synchronous_commit = off"); err != nil {
		return "", fmt.Errorf("alter database %s: %w", name, err)
	}
	return tp.url(name)
}

func (tp *pgTemplate) drop(name string) error {
	_, err := tp.conn.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	return err
}

// dropAll drops the template, once the process's tests have run.
func (tp *pgTemplate) dropAll() {
	if tp.conn == nil {
		return
	}
	if tp.name != "" {
		_ = tp.drop(tp.name)
	}
	tp.conn.Close()
}

// Postgres is a test process's access to PostgreSQL: the migrated template of the tests'
// databases, and URL, a migrated database of its own for benchmarks.
type Postgres struct {
	URL  string // a migrated database made on first use (Available), for benchmarks
	name string
	err  error // why PostgreSQL is not available
	once sync.Once
}

// NewPostgres describes the test process's PostgreSQL; nothing is created until first use.
func NewPostgres() *Postgres { return &Postgres{name: randomName("rootline_test_")} }

// Available migrates the template and makes URL's database on first call, and reports why
// PostgreSQL cannot be used, if so.
func (p *Postgres) Available() error {
	p.once.Do(func() {
		if p.err = pgTmpl.available(); p.err != nil {
			return
		}
		p.URL, p.err = pgTmpl.clone(context.Background(), p.name)
	})
	return p.err
}

// Drop removes URL's database; call it once the tests that use it have run.
func (p *Postgres) Drop() {
	if p.URL == "" {
		return
	}
	_ = pgTmpl.drop(p.name)
}

// Main runs a package's tests, then drops the databases they left and the templates. Use it as
// TestMain: func TestMain(m *testing.M) { storetest.Main(m, &pg) }. after runs once the tests
// have run, before the process exits.
func Main(m *testing.M, pg **Postgres, after ...func()) {
	*pg = NewPostgres()
	code := m.Run()
	(*pg).Drop()
	pgTmpl.dropAll()
	sqliteTemplate.remove()
	for _, f := range after {
		f()
	}
	os.Exit(code)
}

// Backend is one database to run a test on.
type Backend struct {
	Name   string       // "sqlite" or "postgres"
	Target store.Target // where it is, for tests that start processes against it
}

// Each runs f as a subtest on every backend, with a migrated, empty Store of the subtest's own.
// The test calling Each may call t.Parallel.
func Each(t *testing.T, pg *Postgres, f func(t *testing.T, st *store.Store, b Backend)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) {
		tg := SQLite(t)
		f(t, open(t, tg), Backend{Name: "sqlite", Target: tg})
	})
	t.Run("postgres", func(t *testing.T) {
		if err := pg.Available(); err != nil {
			testenv.Missing(t, "PostgreSQL not available (%v); set ROOTLINE_TEST_POSTGRES to run these cases", err)
		}
		tg := postgres(t)
		f(t, open(t, tg), Backend{Name: "postgres", Target: tg})
	})
}

// sqliteFile is the process's migrated SQLite file, the template of every test's.
type sqliteFile struct {
	once sync.Once
	dir  string
	path string
	err  error
}

var sqliteTemplate sqliteFile

func (s *sqliteFile) available() error {
	s.once.Do(func() { s.err = s.create(context.Background()) })
	return s.err
}

func (s *sqliteFile) create(ctx context.Context) error {
	dir, err := os.MkdirTemp("", "rootline-storetest-")
	if err != nil {
		return err
	}
	s.dir = dir
	path := filepath.Join(dir, "template.db")
	tg, err := store.ParseTarget(path)
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, tg, discard())
	if err != nil {
		return err
	}
	if err := st.Migrate(ctx); err != nil {
		st.Close()
		return err
	}
	// Closing the last connection checkpoints the write-ahead log into the file and removes
	// it: the file alone is the migrated database.
	if err := st.Close(); err != nil {
		return err
	}
	for _, suffix := range []string{"-wal", "-journal"} {
		if _, err := os.Stat(path + suffix); err == nil {
			return fmt.Errorf("the migrated template %s left %s behind", path, path+suffix)
		}
	}
	s.path = path
	return nil
}

func (s *sqliteFile) remove() {
	if s.dir != "" {
		os.RemoveAll(s.dir)
	}
}

// SQLite returns a migrated, empty SQLite database of the test's own, in its temporary folder.
func SQLite(t testing.TB) store.Target {
	t.Helper()
	if err := sqliteTemplate.available(); err != nil {
		t.Fatalf("migrate the SQLite template: %v", err)
	}
	// Not in t.TempDir(): its name is the test's, and a '#' there (a second subtest of the same
	// name, "sqlite#01") would end the file: URL of the database before the file's name.
	dir, err := os.MkdirTemp("", "rootline-sqlite-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := filepath.Join(dir, "rootline.db")
	if err := copyFile(path, sqliteTemplate.path); err != nil {
		t.Fatal(err)
	}
	tg, err := store.ParseTarget(path)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// postgres returns a migrated, empty PostgreSQL database of the test's own, dropped when the
// test ends (after the test's own cleanups, which were registered later).
func postgres(t testing.TB) store.Target {
	t.Helper()
	name := randomName("rootline_t_")
	u, err := pgTmpl.clone(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := pgTmpl.drop(name); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	tg, err := store.ParseTarget(u)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

func copyFile(dst, src string) (err error) {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, out.Close()) }()
	_, err = io.Copy(out, in)
	return err
}

// open opens the migrated database at tg, closed when the test ends.
func open(t *testing.T, tg store.Target) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), tg, discard())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func discard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func randomName(prefix string) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// Fresh returns a new, empty database of the backend's kind, as a --database value: a new
// SQLite file, or a new schema of the test's PostgreSQL database (reached through search_path,
// dropped at the end of the test). Nothing is migrated yet.
func Fresh(t *testing.T, b Backend) string {
	t.Helper()
	if b.Target.Dialect == store.SQLite {
		return filepath.Join(t.TempDir(), "fresh.db")
	}
	ctx := context.Background()
	schema := randomName("fresh_")
	conn, err := pgx.Connect(ctx, b.Target.DSN)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := Exec(b.Target, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema: %v", err)
		}
	})
	u, err := url.Parse(b.Target.DSN)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
