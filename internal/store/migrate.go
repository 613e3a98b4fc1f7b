package store

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/migrations"

	"gorm.io/gorm"
)

// migrationLockKey is the PostgreSQL advisory lock held while migrating ("rootline" in ASCII).
const migrationLockKey = 0x726f6f746c696e65

// Migration is one numbered schema change.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// Migrations lists a dialect's migrations in order.
func Migrations(d Dialect) ([]Migration, error) {
	dir := string(d)
	entries, err := fs.ReadDir(migrations.FS, dir)
	if err != nil {
		return nil, fmt.Errorf("store: read migrations: %w", err)
	}
	var out []Migration
	for _, e := range entries {
		num, name, ok := strings.Cut(strings.TrimSuffix(e.Name(), ".sql"), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || !strings.HasSuffix(e.Name(), ".sql") {
			return nil, fmt.Errorf("store: migration %s/%s: name must be NNN_name.sql", dir, e.Name())
		}
		b, err := fs.ReadFile(migrations.FS, path.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("store: read migration %s: %w", e.Name(), err)
		}
		out = append(out, Migration{Version: v, Name: name, SQL: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	for i, m := range out {
		if m.Version != i+1 {
			return nil, fmt.Errorf("store: %s migrations: expected version %d, found %d", dir, i+1, m.Version)
		}
	}
	return out, nil
}

// Migrate brings the schema up to date. Several processes may call it at once (replicas
// starting together): on PostgreSQL they queue on an advisory lock, on SQLite on the database's
// write lock, and each applies only what the others have not.
func (s *Store) Migrate(ctx context.Context) error { return s.migrateTo(ctx, 0) }

// migrateTo applies the migrations up to version upTo, or all of them when upTo is 0.
func (s *Store) migrateTo(ctx context.Context, upTo int) error {
	ms, err := Migrations(s.dialect)
	if err != nil {
		return err
	}
	if upTo > 0 && upTo < len(ms) {
		ms = ms[:upTo]
	}
	sqlDB, err := s.db.DB()
	if err != nil {
		return fmt.Errorf("store: migrate: %w", err)
	}
	conn, err := sqlDB.Conn(ctx)
	if err != nil {
		return fmt.Errorf("store: migrate: %w", err)
	}
	defer conn.Close()

	if s.dialect == Postgres {
		if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", migrationLockKey); err != nil {
			return fmt.Errorf("store: migrate: take lock: %w", err)
		}
		defer func() {
			// A fresh context: the lock must be released even when ctx is done.
			_, _ = conn.ExecContext(context.Background(), "SELECT pg_advisory_unlock($1)", migrationLockKey)
		}()
	}
	applied := 0
	for _, m := range ms {
		did, err := s.apply(ctx, conn, m)
		if err != nil {
			return err
		}
		if did {
			applied++
		}
	}
	if applied > 0 {
		s.log.InfoContext(ctx, "database migrated", "applied", applied, "version", len(ms))
	}
	return nil
}

// migrationSteps are Go steps that run after a migration's SQL, in its transaction: data that
// only the store's code can derive.
var migrationSteps = map[int]func(s *Store, tx *gorm.DB) error{
	4: func(_ *Store, tx *gorm.DB) error { return rebuildFacets(tx) }, // the facets and bit sets of every incident's effective signature
	// Node pools keyed, every incident dated, search documents with signatures and concepts.
	11: func(s *Store, tx *gorm.DB) error {
		if err := rebuildFacets(tx); err != nil {
			return err
		}
		if err := refreshDates(tx); err != nil {
			return err
		}
		return s.rebuildSearch(tx)
	},
}

// apply runs one migration in its own transaction unless it is already recorded, and reports
// whether it ran. On SQLite the transaction starts IMMEDIATE, which takes the write lock before
// reading the recorded version, so a concurrent migrator waits and then sees this one's work.
func (s *Store) apply(ctx context.Context, conn *sql.Conn, m Migration) (bool, error) {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("store: migration %d: begin: %w", m.Version, err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`); err != nil {
		return false, fmt.Errorf("store: migration table: %w", err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, s.rebind("SELECT count(*) FROM schema_migrations WHERE version = ?"), m.Version).Scan(&n); err != nil {
		return false, fmt.Errorf("store: migration %d: %w", m.Version, err)
	}
	if n > 0 {
		return false, nil
	}
	if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
		return false, fmt.Errorf("store: migration %d (%s): %w", m.Version, m.Name, err)
	}
	if step := migrationSteps[m.Version]; step != nil {
		g := s.db.Session(&gorm.Session{NewDB: true, Context: ctx})
		g.Statement.ConnPool = tx // the step runs in the migration's transaction
		if err := step(s, g); err != nil {
			return false, fmt.Errorf("store: migration %d (%s): %w", m.Version, m.Name, err)
		}
	}
	if _, err := tx.ExecContext(ctx, s.rebind("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)"),
		m.Version, m.Name, time.Now().UTC().Format(time.RFC3339)); err != nil {
		return false, fmt.Errorf("store: migration %d: record: %w", m.Version, err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("store: migration %d: commit: %w", m.Version, err)
	}
	return true, nil
}

// rebind turns ? placeholders into $1, $2… for PostgreSQL in raw database/sql queries.
func (s *Store) rebind(q string) string {
	if s.dialect != Postgres {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
