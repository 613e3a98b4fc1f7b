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

// sqliteParams bounds the parameters of one INSERT on SQLite. The driver binds each
// parameter by looking for it among all the statement's arguments, so a statement's binding
// grows with the square of its parameters (100 events a statement, 2,600 parameters, spent
// 6 of 18 s storing 20,000 pods and 50,000 events); and it parses every statement it runs, so
// statements of one row each parse the same text over and over. A few hundred parameters a
// statement costs least.
const sqliteParams = 250

// rowsPerInsert is how many rows of columns go into one INSERT on SQLite.
func rowsPerInsert(columns []string) int { return max(1, sqliteParams/len(columns)) }

// insertRows inserts rows into table in multi-row INSERTs ending with onConflict (an ON
// CONFLICT clause, or ""), inside the transaction, and returns the rows affected. With
// mostlyNew, each statement is run without onConflict first, and again with it only should it
// fail on a unique constraint (a statement that fails changes nothing): SQLite parses every
// statement, and a long clause cost more than the rows themselves (the events' upsert: 4.6 s
// of parsing for 50,000 events).
func (c *connTx) insertRows(ctx context.Context, table string, columns []string, rows [][]any, onConflict string, mostlyNew bool) (int64, error) {
	per := rowsPerInsert(columns)
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(columns)), ", ") + ")"
	head := "INSERT INTO " + table + " (" + columnList(columns) + ") VALUES "
	stmt := func(n int, suffix string) string {
		var b strings.Builder
		b.Grow(len(head) + n*(len(row)+2) + len(suffix))
		b.WriteString(head)
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(row)
		}
		b.WriteString(suffix)
		return b.String()
	}
	first := onConflict
	if mostlyNew {
		first = ""
	}
	full := stmt(per, first)
	pool := c.tx.Statement.ConnPool // the *sql.Tx: gorm's statement building is not needed here
	exec := func(q string, args []any) (sql.Result, error) {
		res, err := pool.ExecContext(ctx, q, args...)
		if t, ok := c.tx.Dialector.(gorm.ErrorTranslator); ok && err != nil {
			err = t.Translate(err)
		}
		return res, err
	}
	var affected int64
	args := make([]any, 0, per*len(columns))
	for start := 0; start < len(rows); start += per {
		chunk := rows[start:min(start+per, len(rows))]
		q := full
		if len(chunk) < per {
			q = stmt(len(chunk), first)
		}
		args = args[:0]
		for _, r := range chunk {
			args = append(args, r...)
		}
		res, err := exec(q, args)
		if first != onConflict && errors.Is(err, gorm.ErrDuplicatedKey) {
			res, err = exec(stmt(len(chunk), onConflict), args)
		}
		if err != nil {
			return affected, fmt.Errorf("insert %d rows into %s: %w", len(chunk), table, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return affected, err
		}
		affected += n
	}
	return affected, nil
}

// columnList is columns joined for SQL.
func columnList(columns []string) string { return strings.Join(columns, ", ") }

// dayOf is the day (UTC) that t falls on, as events.stored_on holds it.
func dayOf(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// Columns copied of each kind of row (ids come from their sequences), and each row's values
// in that order.

var podColumns = []string{"snapshot_id", "namespace", "name", "uid", "node_name", "phase", "reason", "message",
	"qos_class", "priority", "priority_class", "owner_kind", "owner_name", "created_at", "started_at",
	"source_file", "source_line", "raw", "listed_age_seconds"}

func (r *podRow) values() []any {
	return []any{r.SnapshotID, r.Namespace, r.Name, r.UID, r.NodeName, r.Phase, r.Reason, r.Message,
		r.QOSClass, r.Priority, r.PriorityClass, r.OwnerKind, r.OwnerName, r.CreatedAt, r.StartedAt,
		r.SourceFile, int32(r.SourceLine), r.Raw, r.ListedAgeSeconds}
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
	"unschedulable", "created_at", "source_file", "source_line", "raw", "describe_allocated"}

func (r *nodeRow) values() []any {
	return []any{r.SnapshotID, r.Name, r.UID, r.Pool, r.InstanceType, r.Labels, r.Capacity, r.Allocatable,
		r.CPUAllocatableMilli, r.MemoryAllocatableBytes, r.PodsAllocatable, r.Conditions, r.Taints, r.Ready,
		r.Unschedulable, r.CreatedAt, r.SourceFile, int32(r.SourceLine), r.Raw, r.DescribeAllocated}
}

var objectColumns = []string{"snapshot_id", "api_version", "kind", "namespace", "name", "uid", "source_file", "source_line", "raw", "listed_age_seconds"}

func (r *objectRow) values() []any {
	return []any{r.SnapshotID, r.APIVersion, r.Kind, r.Namespace, r.Name, r.UID, r.SourceFile, int32(r.SourceLine), r.Raw, r.ListedAgeSeconds}
}

var linkColumns = []string{"snapshot_id", "event_id", "source_file", "source_line", "loose"}

func (r *snapshotEventRow) values() []any {
	return []any{r.SnapshotID, r.EventID, r.SourceFile, int32(r.SourceLine), r.Loose}
}

// putAll writes the buffered rows into table and empties the buffer: through COPY on
// PostgreSQL, in multi-row INSERTs on SQLite.
func putAll[T any, P interface {
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
	var err error
	if c.conn != nil {
		err = c.copyRows(ctx, table, columns, vals)
	} else {
		_, err = c.insertRows(ctx, table, columns, vals, "", false)
	}
	if err != nil {
		return wrap(err, "store %s", table)
	}
	*rows = (*rows)[:0]
	return nil
}
