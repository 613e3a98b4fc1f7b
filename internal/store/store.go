// Package store keeps Rootline's data in PostgreSQL or in an embedded SQLite file, behind one
// API. The gorm row types are unexported and live here, so that no gorm tag reaches a domain
// type; the schema is the SQL in migrations/, never gorm's AutoMigrate.
package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/glebarez/sqlite"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/rootline-dev/rootline/internal/dbtarget"
)

// ErrNotFound is returned when a requested row does not exist.
var ErrNotFound = errors.New("not found")

// Dialect names the database behind a Store (dbtarget.Dialect).
type Dialect = dbtarget.Dialect

// The two dialects Rootline runs on.
const (
	Postgres = dbtarget.Postgres
	SQLite   = dbtarget.SQLite
)

// Store is Rootline's storage. It is safe for concurrent use.
type Store struct {
	db      *gorm.DB
	dialect Dialect
	log     *slog.Logger
	raw     *compressor      // zstd for raw objects written, zstd or gzip for rows read
	parts   partitionDays    // the event partitions known to exist (PostgreSQL)
	now     func() time.Time // the clock that dates what is stored
}

// Target is a parsed database location (dbtarget.Target).
type Target = dbtarget.Target

// ParseTarget reads a --database value (dbtarget.Parse).
func ParseTarget(database string) (Target, error) { return dbtarget.Parse(database) }

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
	s := &Store{db: db, dialect: t.Dialect, log: log, raw: newCompressor(), now: time.Now}
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
