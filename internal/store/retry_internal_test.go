package store

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestTransactionsRunAgain: a transaction that collides with a concurrent one (a deadlock) is
// run again, up to txAttempts times, and nothing of a failed attempt stays; any other error
// ends it at once.
func TestTransactionsRunAgain(t *testing.T) {
	t.Parallel()
	tg, err := ParseTarget(filepath.Join(t.TempDir(), "retry.db"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(t.Context(), tg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Migrate(t.Context()); err != nil {
		t.Fatal(err)
	}
	deadlock := &pgconn.PgError{Code: "40P01", Message: "deadlock detected"}
	clusters := func() int64 {
		var n int64
		if err := s.db.Model(&clusterRow{}).Count(&n).Error; err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, tc := range []struct {
		name      string
		failures  int   // attempts that end in fail before one that succeeds
		fail      error // how they end
		wantCalls int
		wantErr   bool
	}{
		{"a deadlock, then success", 1, deadlock, 2, false},
		{"deadlocks every time", txAttempts, deadlock, txAttempts, true},
		{"another error", 1, errors.New("disk on fire"), 1, true},
	} {
		before, calls := clusters(), 0
		err := s.inConnTx(t.Context(), func(c *connTx) error {
			calls++
			if err := c.tx.Exec("INSERT INTO clusters (name, created_at) VALUES (?, CURRENT_TIMESTAMP)", tc.name).Error; err != nil {
				return err
			}
			if calls <= tc.failures {
				return tc.fail
			}
			return nil
		})
		if calls != tc.wantCalls || (err != nil) != tc.wantErr {
			t.Errorf("%s: ran %d times, error %v; want %d times, error %v", tc.name, calls, err, tc.wantCalls, tc.wantErr)
		}
		want := before + 1
		if tc.wantErr {
			want = before
		}
		if got := clusters(); got != want {
			t.Errorf("%s: %d clusters after it, want %d: a failed attempt left a row", tc.name, got, want)
		}
	}
}
