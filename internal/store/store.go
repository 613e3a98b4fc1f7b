// Package store keeps Rootline's data in PostgreSQL or in an embedded SQLite file, behind one
// API. The gorm row types are unexported and live here, so that no gorm tag reaches a domain
// type; the schema is the SQL in migrations/, never gorm's AutoMigrate.
package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/glebarez/sqlite"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// ErrNotFound is returned when a requested row does not exist.
var ErrNotFound = errors.New("not found")

// Dialect names the database behind a Store.
type Dialect string

// The two dialects Rootline runs on.
const (
	Postgres Dialect = "postgres"
	SQLite   Dialect = "sqlite"
)

// Store is Rootline's storage. It is safe for concurrent use.
type Store struct {
	db      *gorm.DB
	dialect Dialect
	log     *slog.Logger
	gz      *compressor
	parts   partitionDays    // the event partitions known to exist (PostgreSQL)
	now     func() time.Time // the clock that dates what is stored
}

// Target is a parsed database location.
type Target struct {
	Dialect Dialect
	DSN     string // what the driver is given
	Display string // what logs show: the password removed
}

// ParseTarget reads a --database value: a postgres:// or postgresql:// URL, sqlite://PATH, or a
// plain file path (SQLite).
func ParseTarget(database string) (Target, error) {
	switch {
	case database == "":
		return Target{}, errors.New("store: no database given")
	case strings.HasPrefix(database, "postgres://"), strings.HasPrefix(database, "postgresql://"):
		u, err := url.Parse(database)
		if err != nil {
			// url.Error quotes the whole URL, password and all: only its reason is kept.
			var ue *url.Error
			if errors.As(err, &ue) {
				err = ue.Err
			}
			return Target{}, fmt.Errorf("store: database URL %s: %s", RedactDatabase(database), RedactDatabase(err.Error()))
		}
		if q := u.Query(); q.Has("password") { // libpq and pgx also take the password here
			q.Set("password", "xxxxx")
			u.RawQuery = q.Encode()
		}
		return Target{Dialect: Postgres, DSN: database, Display: u.Redacted()}, nil
	case isKeywordDSN(database): // host=… user=… password=…, as libpq takes it
		return Target{Dialect: Postgres, DSN: database, Display: RedactDatabase(database)}, nil
	case strings.Contains(database, "://") && !strings.HasPrefix(database, "sqlite://"):
		return Target{}, fmt.Errorf("store: database %q: use postgres://… or a SQLite file path", RedactDatabase(database))
	}
	path := strings.TrimPrefix(database, "sqlite://")
	if path == "" {
		return Target{}, errors.New("store: sqlite:// needs a file path")
	}
	// WAL lets pages read while an upload writes; IMMEDIATE transactions take the write lock
	// up front, so two writers queue (busy_timeout) instead of failing on lock upgrade.
	q := url.Values{}
	for _, p := range []string{"busy_timeout(15000)", "journal_mode(WAL)", "foreign_keys(1)", "synchronous(NORMAL)"} {
		q.Add("_pragma", p)
	}
	// No _time_format: the driver's default is already SQLite's own format, and in this
	// driver version setting it makes the driver ignore _txlock.
	q.Set("_txlock", "immediate")
	return Target{Dialect: SQLite, DSN: "file:" + path + "?" + q.Encode(), Display: path}, nil
}

// Open connects to the database. It does not change the schema: call Migrate for that. A nil
// log discards the store's messages.
func Open(ctx context.Context, t Target, log *slog.Logger) (*Store, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var dial gorm.Dialector
	switch t.Dialect {
	case Postgres:
		dial = postgres.Open(t.DSN)
	case SQLite:
		if dir := filepath.Dir(strings.TrimPrefix(t.Display, "file:")); dir != "" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, fmt.Errorf("store: create folder for %s: %w", t.Display, err)
			}
		}
		dial = sqlite.Open(t.DSN)
	default:
		return nil, fmt.Errorf("store: unknown dialect %q", t.Dialect)
	}
	db, err := gorm.Open(dial, &gorm.Config{
		TranslateError:         true,
		SkipDefaultTransaction: true,
		Logger:                 slogLogger{log: log, slow: 2 * time.Second},
		NowFunc:                func() time.Time { return time.Now().UTC() },
	})
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", t.Display, redactedError{err})
	}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", t.Display, redactedError{err})
	}
	if t.Dialect == SQLite {
		sqlDB.SetMaxOpenConns(8)
	} else {
		sqlDB.SetMaxOpenConns(20)
		sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	}
	s := &Store{db: db, dialect: t.Dialect, log: log, gz: newCompressor(), now: time.Now}
	if err := s.Ping(ctx); err != nil {
		_ = sqlDB.Close()
		return nil, fmt.Errorf("store: open %s: %w", t.Display, redactedError{err})
	}
	return s, nil
}

// Dialect reports which database the store runs on.
func (s *Store) Dialect() Dialect { return s.dialect }

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	return sqlDB.PingContext(ctx)
}

// Close releases the connections.
func (s *Store) Close() error {
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	return sqlDB.Close()
}

// slogLogger routes gorm's logging into slog: errors other than not-found, and slow queries.
type slogLogger struct {
	log  *slog.Logger
	slow time.Duration
}

func (l slogLogger) LogMode(logger.LogLevel) logger.Interface { return l }
func (l slogLogger) Info(ctx context.Context, msg string, args ...any) {
	l.log.InfoContext(ctx, fmt.Sprintf(msg, args...))
}
func (l slogLogger) Warn(ctx context.Context, msg string, args ...any) {
	l.log.WarnContext(ctx, fmt.Sprintf(msg, args...))
}
func (l slogLogger) Error(ctx context.Context, msg string, args ...any) {
	l.log.ErrorContext(ctx, fmt.Sprintf(msg, args...))
}
func (l slogLogger) Trace(ctx context.Context, begin time.Time, fc func() (string, int64), err error) {
	elapsed := time.Since(begin)
	switch {
	case err != nil && !errors.Is(err, gorm.ErrRecordNotFound) && !errors.Is(err, gorm.ErrDuplicatedKey) && !errors.Is(err, context.Canceled):
		sql, rows := fc()
		l.log.DebugContext(ctx, "query failed", "sql", truncate(sql, 500), "rows", rows, "elapsed", elapsed, "error", err)
	case elapsed > l.slow:
		sql, rows := fc()
		l.log.WarnContext(ctx, "slow query", "sql", truncate(sql, 500), "rows", rows, "elapsed", elapsed)
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// wrap adds context to an error and maps gorm's not-found to ErrNotFound.
func wrap(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, gorm.ErrRecordNotFound) {
		err = ErrNotFound
	}
	return fmt.Errorf("store: "+format+": %w", append(args, err)...)
}
