package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// connTx is a transaction on a connection held for it alone: on PostgreSQL so that it can COPY
// (bulk.go), on SQLite, for a transaction that writes many rows, so that its page cache can be
// sized for it (beginBulkTx).
type connTx struct {
	tx   *gorm.DB
	conn *sql.Conn // nil on SQLite, which has no COPY
	// own is the connection of a bulk transaction on SQLite (beginBulkTx), and restore the
	// statements that set it back as it was before it is given back.
	own     *sql.Conn
	restore []string
}

// beginConnTx starts a transaction; on PostgreSQL, on a connection of its own, so that
// copyRows can use it. The caller must call end.
func (s *Store) beginConnTx(ctx context.Context) (*connTx, error) {
	if s.dialect != Postgres {
		tx := s.db.WithContext(ctx).Begin()
		if tx.Error != nil {
			return nil, tx.Error
		}
		return &connTx{tx: tx}, nil
	}
	sqlDB, err := s.db.DB()
	if err != nil {
		return nil, err
	}
	conn, err := sqlDB.Conn(ctx)
	if err != nil {
		return nil, err
	}
	db := s.db.WithContext(ctx) // a fresh statement, so that setting its pool touches no other
	db.Statement.ConnPool = conn
	tx := db.Begin()
	if tx.Error != nil {
		_ = conn.Close()
		return nil, tx.Error
	}
	return &connTx{tx: tx, conn: conn}, nil
}

// The page cache of the SQLite connection that stores a snapshot (beginBulkTx) is sized from the
// snapshot, so that the pages its transaction writes stay in it until the commit. A page spilled
// before (to the write-ahead log, once the cache is full) is copied to the statement journal
// within a part of the snapshot (Mark, a savepoint): 150,000 pods and 375,000 events in three
// files took 350 s to store with a cache of 256 MiB, 40 s with one that held them (with the
// journal in a file, as it is now for such snapshots, 58 s against 38 s, and 11 GB written to
// it). The pages written come to 0.62 bytes for each decoded byte of kubectl JSON, the same at
// 1,000, 20,000 and 150,000 pods (synth.BenchSnapshot into a new database; 0.39 for pods alone,
// 0.51 for nodes, 1.03 for events, whose five indexes take most), and to 0.71 counting the
// index pages already there that it changed, 20,000 pods stored into a database that held
// 150,000: the cache is given a page for each page of the decoded snapshot.
const (
	// sqlitePageBytes is SQLite's page, its default, which Rootline keeps.
	sqlitePageBytes = 4096
	// sqlitePageMemory is what a page held in the cache takes of the process's memory: the page
	// and its headers, which the embedded SQLite's allocator (modernc.org/libc) rounds up to
	// 8 KiB. Measured: storing 20,000 pods with a cache that held their 27,900 pages took 194 MiB
	// more of anonymous memory than with a 16 MiB cache, 8.5 KiB a page.
	sqlitePageMemory = 8704
	// sqliteCacheFloorPages is the least cache a snapshot is stored with (16 MiB of pages, 34 MiB
	// of memory): a small snapshot stored into a database that holds much already changes index
	// pages beyond its own size. 1,000 pods into one of 150,000 changed 19 MiB of pages, 2.4
	// bytes a decoded byte; with this floor 2 MiB of them were spilled, in as much time as with
	// a cache of 256 MiB.
	sqliteCacheFloorPages = 4096
)

// BulkCache is the memory that the page cache of the transaction storing a snapshot described by
// m may take in this process (see sqlitePageMemory): on SQLite, a page for each page of what its
// files decode to (m.Decoded, else m.Bytes), within m.CacheLimit, and never less than the floor,
// sqliteCacheFloorPages; nothing on PostgreSQL, whose cache is its own server's. The server
// charges it to its memory budget, beside what decoding the upload costs.
func (s *Store) BulkCache(m SnapshotMeta) int64 {
	if s.dialect != SQLite {
		return 0
	}
	return bulkCachePages(m) * sqlitePageMemory
}

// bulkCachePages is the page cache, in pages, that a snapshot described by m is stored with.
func bulkCachePages(m SnapshotMeta) int64 {
	n := m.Decoded
	if n <= 0 {
		n = m.Bytes
	}
	pages := min(n/sqlitePageBytes, m.CacheLimit/sqlitePageMemory)
	return max(pages, sqliteCacheFloorPages)
}

// beginBulkTx is beginConnTx for a transaction that writes many rows. On SQLite it runs on a
// connection of its own whose page cache holds cachePages pages (bulkCachePages), and the
// connection is set back as it was when the transaction ends. Its statement journals are kept in
// memory (a multi-row INSERT journals each page it changes, in case it fails part way: 8% more
// processor time storing 20,000 pods with a temporary file), unless it is to be written in parts
// (Mark). Within a part's savepoint the journal keeps every page the part changes that was
// written before it, and SQLite walks an in-memory journal from its start at the end of each
// statement, so the time grew with the square of those pages: 20,000 pods in three files took
// 83 s to store into a database that held 150,000 (the index pages of its events changed), 10 s
// with the journal in a file.
func (s *Store) beginBulkTx(ctx context.Context, cachePages int64, parts bool) (*connTx, error) {
	if s.dialect == Postgres {
		return s.beginConnTx(ctx)
	}
	sqlDB, err := s.db.DB()
	if err != nil {
		return nil, err
	}
	conn, err := sqlDB.Conn(ctx)
	if err != nil {
		return nil, err
	}
	var cache, temp int64
	if err := conn.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&cache); err != nil {
		_ = conn.Close()
		return nil, err
	}
	if err := conn.QueryRowContext(ctx, "PRAGMA temp_store").Scan(&temp); err != nil {
		_ = conn.Close()
		return nil, err
	}
	c := &connTx{own: conn, restore: []string{fmt.Sprintf("PRAGMA cache_size = %d", cache), fmt.Sprintf("PRAGMA temp_store = %d", temp)}}
	journal := "MEMORY"
	if parts {
		journal = "FILE"
	}
	for _, p := range []string{fmt.Sprintf("PRAGMA cache_size = %d", cachePages), "PRAGMA temp_store = " + journal} {
		if _, err := conn.ExecContext(ctx, p); err != nil {
			c.release()
			return nil, err
		}
	}
	db := s.db.WithContext(ctx) // a fresh statement, so that setting its pool touches no other
	db.Statement.ConnPool = conn
	if c.tx = db.Begin(); c.tx.Error != nil {
		err := c.tx.Error
		c.release()
		return nil, err
	}
	return c, nil
}

// commit commits the transaction and gives its connection back.
func (c *connTx) commit() error {
	err := c.tx.Commit().Error
	c.release()
	return err
}

// rollback abandons the transaction and gives its connection back.
func (c *connTx) rollback() {
	c.tx.Rollback()
	c.release()
}

func (c *connTx) release() {
	if c.conn != nil {
		_ = c.conn.Close()
		c.conn = nil
	}
	if c.own != nil {
		// Set back even when the transaction's context has ended; should that fail, the
		// connection is dropped rather than pooled as it is.
		var err error
		for _, q := range c.restore {
			if _, e := c.own.ExecContext(context.Background(), q); e != nil {
				err = e
			}
		}
		if err != nil {
			_ = c.own.Raw(func(any) error { return driver.ErrBadConn })
		}
		_ = c.own.Close()
		c.own = nil
	}
}

// inConnTx runs fn in a transaction on a connection of its own, committing when fn returns nil.
// A transaction that collided with a concurrent one (IsRetryable: a deadlock, a serialization
// failure, SQLite busy past its timeout) is run again, after a short pause, up to txAttempts
// times: fn must give the same result when run again, writing only within the transaction.
func (s *Store) inConnTx(ctx context.Context, fn func(c *connTx) error) error {
	_, err := retried(ctx, s, "a transaction collided with another, running it again", func() (struct{}, error) {
		return struct{}{}, s.inConnTxOnce(ctx, fn)
	})
	return err
}

// txAttempts is how often a transaction that collides with concurrent ones is run.
const txAttempts = 3

// retried runs fn, and again while it fails with a retryable error (IsRetryable), up to
// txAttempts times in all, pausing 100 ms, 400 ms, … between tries; say is logged at each retry.
func retried[T any](ctx context.Context, s *Store, say string, fn func() (T, error)) (T, error) {
	for attempt := 1; ; attempt++ {
		v, err := fn()
		if !IsRetryable(err) || attempt == txAttempts {
			return v, err
		}
		s.log.WarnContext(ctx, say, "attempt", attempt, "error", err)
		select {
		case <-ctx.Done():
			return v, ctx.Err()
		case <-time.After(time.Duration(attempt*attempt) * 100 * time.Millisecond):
		}
	}
}

// inConnTxOnce is one attempt of inConnTx.
func (s *Store) inConnTxOnce(ctx context.Context, fn func(c *connTx) error) error {
	c, err := s.beginConnTx(ctx)
	if err != nil {
		return err
	}
	committed := false
	defer func() {
		if !committed { // fn failed, or panicked: nothing of it stays, and the connection goes back
			c.rollback()
		}
	}()
	if err := fn(c); err != nil {
		return err
	}
	committed = true
	return c.commit()
}
