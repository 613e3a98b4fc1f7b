package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"gorm.io/gorm"
)

// Bulk writes on PostgreSQL go through the COPY protocol, which needs the driver's own
// connection: a transaction that copies runs on a connection of its own (connTx), and the
// copy borrows that connection's pgx.Conn for the length of one COPY.

// copyBatch is how many rows a flush copies at once on PostgreSQL: COPY has no limit on
// parameters, so a batch is bounded only by the memory it holds.
const copyBatch = 4000

// connTx is a transaction on a connection held for it alone.
type connTx struct {
	tx   *gorm.DB
	conn *sql.Conn // nil on SQLite, which has no COPY
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
}

// inConnTx runs fn in a transaction on a connection of its own, committing when fn returns nil.
func (s *Store) inConnTx(ctx context.Context, fn func(c *connTx) error) error {
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

// copyRows copies rows into table through the COPY protocol, inside the transaction.
func (c *connTx) copyRows(ctx context.Context, table string, columns []string, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	if c.conn == nil {
		return errors.New("store: COPY needs PostgreSQL")
	}
	return c.conn.Raw(func(driverConn any) error {
		dc, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("store: COPY needs the pgx driver, not %T", driverConn)
		}
		n, err := dc.Conn().CopyFrom(ctx, pgx.Identifier{table}, columns, pgx.CopyFromRows(rows))
		if err != nil {
			return fmt.Errorf("copy %d rows into %s: %w", len(rows), table, err)
		}
		if int(n) != len(rows) {
			return fmt.Errorf("copy into %s: %d of %d rows", table, n, len(rows))
		}
		return nil
	})
}

// columnList is columns joined for SQL.
func columnList(columns []string) string { return strings.Join(columns, ", ") }

// dayOf is the day (UTC) that t falls on, as events.stored_on holds it.
func dayOf(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// Columns copied of each kind of row (ids come from their sequences), and each row's values
// in that order.

var podColumns = []string{"snapshot_id", "namespace", "name", "uid", "node_name", "phase", "reason", "message",
	"qos_class", "priority", "priority_class", "owner_kind", "owner_name", "created_at", "started_at",
	"source_file", "source_line", "raw"}

func (r *podRow) values() []any {
	return []any{r.SnapshotID, r.Namespace, r.Name, r.UID, r.NodeName, r.Phase, r.Reason, r.Message,
		r.QOSClass, r.Priority, r.PriorityClass, r.OwnerKind, r.OwnerName, r.CreatedAt, r.StartedAt,
		r.SourceFile, int32(r.SourceLine), r.Raw}
}

var containerColumns = []string{"snapshot_id", "namespace", "pod_name", "position", "name", "init", "image",
	"cpu_request_milli", "memory_request_bytes", "cpu_limit_milli", "memory_limit_bytes", "requests", "limits",
	"state", "state_reason", "state_message", "last_state", "last_state_reason", "last_exit_code",
	"last_finished_at", "restart_count", "ready"}

func (r *containerRow) values() []any {
	return []any{r.SnapshotID, r.Namespace, r.PodName, int32(r.Position), r.Name, r.Init, r.Image,
		r.CPURequestMilli, r.MemoryRequestBytes, r.CPULimitMilli, r.MemoryLimitBytes, r.Requests, r.Limits,
		r.State, r.StateReason, r.StateMessage, r.LastState, r.LastStateReason, r.LastExitCode,
		r.LastFinishedAt, r.RestartCount, r.Ready}
}

var nodeColumns = []string{"snapshot_id", "name", "uid", "pool", "instance_type", "labels", "capacity", "allocatable",
	"cpu_allocatable_milli", "memory_allocatable_bytes", "pods_allocatable", "conditions", "taints", "ready",
	"unschedulable", "created_at", "source_file", "source_line", "raw"}

func (r *nodeRow) values() []any {
	return []any{r.SnapshotID, r.Name, r.UID, r.Pool, r.InstanceType, r.Labels, r.Capacity, r.Allocatable,
		r.CPUAllocatableMilli, r.MemoryAllocatableBytes, r.PodsAllocatable, r.Conditions, r.Taints, r.Ready,
		r.Unschedulable, r.CreatedAt, r.SourceFile, int32(r.SourceLine), r.Raw}
}

var objectColumns = []string{"snapshot_id", "api_version", "kind", "namespace", "name", "uid", "source_file", "source_line", "raw"}

func (r *objectRow) values() []any {
	return []any{r.SnapshotID, r.APIVersion, r.Kind, r.Namespace, r.Name, r.UID, r.SourceFile, int32(r.SourceLine), r.Raw}
}

var linkColumns = []string{"snapshot_id", "event_id", "source_file", "source_line"}

func (r *snapshotEventRow) values() []any {
	return []any{r.SnapshotID, r.EventID, r.SourceFile, int32(r.SourceLine)}
}

// copyAll copies the buffered rows into table and empties the buffer.
func copyAll[T any, P interface {
	*T
	values() []any
}](ctx context.Context, c *connTx, table string, columns []string, rows *[]T) error {
	if len(*rows) == 0 {
		return nil
	}
	vals := make([][]any, len(*rows))
	for i := range *rows {
		vals[i] = P(&(*rows)[i]).values()
	}
	if err := c.copyRows(ctx, table, columns, vals); err != nil {
		return wrap(err, "store %s", table)
	}
	*rows = (*rows)[:0]
	return nil
}
