package store_test

import (
	"database/sql/driver"
	"fmt"
	"net"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/rootline-dev/rootline/internal/store"
)

func TestIsUnavailable(t *testing.T) {
	t.Parallel()
	for err, want := range map[error]bool{
		nil:                            false,
		store.ErrNotFound:              false,
		&pgconn.PgError{Code: "23505"}: false,
		&pgconn.PgError{Code: "40P01"}: false,
		&pgconn.PgError{Code: "57P01"}: true,
		&pgconn.PgError{Code: "08006"}: true,
		&pgconn.PgError{Code: "53300"}: true,  // too many connections
		&pgconn.PgError{Code: "53100"}: false, // disk full: a 507, not a wait
		fmt.Errorf("store: list: %w", &net.OpError{Op: "dial", Err: fmt.Errorf("connection refused")}): true,
		fmt.Errorf("store: list: %w", driver.ErrBadConn):                                               true,
	} {
		if got := store.IsUnavailable(err); got != want {
			t.Errorf("IsUnavailable(%v) = %v, want %v", err, got, want)
		}
	}
}
