package store

import (
	"errors"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// IsRetryable reports whether err is a transient conflict between concurrent transactions
// (a PostgreSQL deadlock or serialization failure, a SQLite database busy past its timeout):
// the whole transaction may succeed if run again.
func IsRetryable(err error) bool {
	if err == nil {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "40P01" || pe.Code == "40001"
	}
	msg := err.Error()
	return strings.Contains(msg, "SQLITE_BUSY") || strings.Contains(msg, "database is locked")
}
