package storetest

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	"github.com/rootline-dev/rootline/internal/store"
)

// Exec runs statements on the database at tg through a connection of its own, outside any
// Store: to break or inspect the database under a test.
func Exec(tg store.Target, stmts ...string) error {
	driver := "pgx" // both drivers are registered by the store's gorm dialects
	if tg.Dialect == store.SQLite {
		driver = "sqlite"
	}
	db, err := sql.Open(driver, tg.DSN)
	if err != nil {
		return err
	}
	defer db.Close()
	for _, s := range stmts {
		// Not a test's context: cleanups run statements too, once it is cancelled.
		if _, err := db.ExecContext(context.Background(), s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	return nil
}

// Fault makes inserts into table fail, with an error that says "test fault in TABLE", once it
// holds after rows: a database error striking in the middle of a write, after the rows before
// it were written in the same transaction. It is a trigger, row by row on PostgreSQL so that
// it strikes inside a COPY too. drop removes it; so does the end of the test.
func Fault(t *testing.T, tg store.Target, table string, after int) (drop func()) {
	t.Helper()
	stmts := []string{fmt.Sprintf(`CREATE TRIGGER rootline_fault BEFORE INSERT ON %s
		WHEN (SELECT count(*) FROM %[1]s) >= %d BEGIN SELECT RAISE(ABORT, 'test fault in %[1]s'); END`, table, after)}
	undo := []string{"DROP TRIGGER IF EXISTS rootline_fault"}
	if tg.Dialect == store.Postgres {
		stmts = []string{
			fmt.Sprintf(`CREATE FUNCTION rootline_fault() RETURNS trigger LANGUAGE plpgsql AS $$
			BEGIN
				IF (SELECT count(*) FROM %s) >= %d THEN RAISE EXCEPTION 'test fault in %[1]s'; END IF;
				RETURN NEW;
			END $$`, table, after),
			"CREATE TRIGGER rootline_fault BEFORE INSERT ON " + table + " FOR EACH ROW EXECUTE FUNCTION rootline_fault()",
		}
		undo = []string{"DROP TRIGGER IF EXISTS rootline_fault ON " + table, "DROP FUNCTION IF EXISTS rootline_fault()"}
	}
	if err := Exec(tg, stmts...); err != nil {
		t.Fatalf("install a fault on %s: %v", table, err)
	}
	drop = func() {
		if err := Exec(tg, undo...); err != nil {
			t.Errorf("drop the fault on %s: %v", table, err)
		}
	}
	t.Cleanup(drop)
	return drop
}
