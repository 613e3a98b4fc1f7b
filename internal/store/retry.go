package store

import (
	"database/sql/driver"
	"errors"
	"io"
	"net"
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

// IsUnavailable reports whether err says the database cannot be reached (PostgreSQL down,
// restarting, or the connection lost): the request may succeed later, with no change to it.
func IsUnavailable(err error) bool {
	if err == nil {
		return false
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		// Class 08: connection exception; 57P01-57P03: the server shutting down or starting;
		// 53300: too many connections, which frees up as others end.
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03" || pe.Code == "53300"
	}
	var ne *net.OpError
	if errors.As(err, &ne) {
		return true
	}
	return errors.Is(err, driver.ErrBadConn) || (errors.Is(err, io.ErrUnexpectedEOF) && strings.Contains(err.Error(), "conn"))
}
