package storetest

import (
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"fmt"
	"io"
	"sort"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/rootline-dev/rootline/internal/store"
)

// The inspection of a database under a test, through a connection of its own: what tables it
// has, how many rows each holds, and every value it stores. None of it is the store's API (no
// production path asks such questions); it reads the tables as the migrations made them.

// DB opens a connection of its own to the database at tg, closed at the end of the test.
func DB(t testing.TB, tg store.Target) *sql.DB {
	t.Helper()
	db := openDB(t, tg)
	t.Cleanup(func() { db.Close() })
	return db
}

// openDB opens a connection of its own to the database at tg, for the caller to close.
func openDB(t testing.TB, tg store.Target) *sql.DB {
	t.Helper()
	driver := "pgx" // both drivers are registered by the store's gorm dialects
	if tg.Dialect == store.SQLite {
		driver = "sqlite"
	}
	db, err := sql.Open(driver, tg.DSN)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// Tables lists the tables of Rootline's schema at tg (the migration record included), sorted.
// The full-text index (incident_search…), made differently on each database (a table with a
// tsvector, or FTS5's virtual and shadow tables), is left out so that both databases list the
// same tables; so are the partitions of events on PostgreSQL, whose parent stands for them.
func Tables(t testing.TB, tg store.Target) []string {
	t.Helper()
	db := openDB(t, tg)
	defer db.Close()
	return tables(t, db, tg.Dialect)
}

func tables(t testing.TB, db *sql.DB, dialect store.Dialect) []string {
	t.Helper()
	q := "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'incident_search%'"
	if dialect == store.Postgres {
		q = "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema()" +
			" AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname NOT LIKE 'incident_search%'"
	}
	rows, err := db.QueryContext(context.Background(), q)
	if err != nil {
		t.Fatalf("list tables: %v", err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatalf("list tables: %v", err)
		}
		names = append(names, n)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("list tables: %v", err)
	}
	sort.Strings(names)
	return names
}

// RowCounts counts the rows of every table of the database at tg.
func RowCounts(t testing.TB, tg store.Target) map[string]int64 {
	t.Helper()
	db := openDB(t, tg)
	defer db.Close()
	out := map[string]int64{}
	for _, tb := range tables(t, db, tg.Dialect) {
		var n int64
		if err := db.QueryRowContext(context.Background(), "SELECT count(*) FROM "+tb).Scan(&n); err != nil {
			t.Fatalf("count %s: %v", tb, err)
		}
		out[tb] = n
	}
	return out
}

// EachValue calls f with every non-NULL value of every column of every table of the database
// at tg, as bytes, with the raw objects the store compressed (zstd, or gzip for rows of old)
// decompressed: so that a test can prove that a value (a secret) is nowhere in the database.
// f's error ends the walk and is returned.
func EachValue(t testing.TB, tg store.Target, f func(table, column string, value []byte) error) error {
	t.Helper()
	db := openDB(t, tg)
	defer db.Close()
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	for _, tb := range tables(t, db, tg.Dialect) {
		if err := eachValue(db, dec, tb, f); err != nil {
			return err
		}
	}
	return nil
}

func eachValue(db *sql.DB, dec *zstd.Decoder, table string, f func(table, column string, value []byte) error) error {
	rows, err := db.QueryContext(context.Background(), "SELECT * FROM "+table)
	if err != nil {
		return fmt.Errorf("read %s: %w", table, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return fmt.Errorf("read %s: %w", table, err)
	}
	vals, ptrs := make([]any, len(cols)), make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("read %s: %w", table, err)
		}
		for i, v := range vals {
			var b []byte
			switch x := v.(type) {
			case nil:
				continue
			case []byte:
				b = x
				if cols[i] == "raw" {
					if b, err = decompress(dec, x); err != nil {
						return fmt.Errorf("%s.%s: %w", table, cols[i], err)
					}
				}
			case string:
				b = []byte(x)
			default:
				b = []byte(fmt.Sprint(x))
			}
			if err := f(table, cols[i], b); err != nil {
				return err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read %s: %w", table, err)
	}
	return nil
}

// decompress reads a raw object as the store wrote it: zstd or gzip by its magic number, else
// as it is (PostgreSQL compresses it itself).
func decompress(dec *zstd.Decoder, b []byte) ([]byte, error) {
	switch {
	case bytes.HasPrefix(b, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		return dec.DecodeAll(b, nil)
	case bytes.HasPrefix(b, []byte{0x1f, 0x8b}):
		r, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, err
		}
		return io.ReadAll(r)
	}
	return b, nil
}
