package store

import (
	"errors"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
)

// sqliteFull is SQLite's result code SQLITE_FULL: "database or disk is full", given when the
// file cannot grow (no space left on the device, or max_page_count reached).
const sqliteFull = 13

// IsFull reports whether err says that the storage is out of space: PostgreSQL's disk_full
// (SQLSTATE 53100, "could not extend file … No space left on device"), SQLite's SQLITE_FULL,
// or a file write that got ENOSPC or EDQUOT. Nothing is wrong with the request: the same one
// succeeds once space is freed, and the transaction it ran in was rolled back whole.
func IsFull(err error) bool {
	if err == nil {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "53100"
	}
	// The SQLite driver's error type has a Code method; it is matched by its method rather
	// than imported, the driver being gorm's dependency, not ours. Extended result codes keep
	// the primary code in their low byte.
	var coded interface{ Code() int }
	if errors.As(err, &coded) && coded.Code()&0xff == sqliteFull {
		return true
	}
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return true
	}
	return strings.Contains(err.Error(), "database or disk is full")
}
