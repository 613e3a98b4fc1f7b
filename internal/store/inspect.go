package store

import (
	"context"
	"fmt"
	"sort"
)

// Tables lists the tables of Rootline's schema (the migration record included), sorted.
func (s *Store) Tables(ctx context.Context) ([]string, error) {
	// incident_search… are the full-text index, derived from the incidents and their notes, and
	// made differently on each database (a table with a tsvector, or FTS5's virtual and shadow
	// tables): they are left out, so that both databases list the same tables. So are the
	// partitions of events on PostgreSQL: their parent stands for them.
	q := "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'incident_search%'"
	if s.dialect == Postgres {
		q = "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema()" +
			" AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname NOT LIKE 'incident_search%'"
	}
	var names []string
	if err := s.db.WithContext(ctx).Raw(q).Scan(&names).Error; err != nil {
		return nil, wrap(err, "list tables")
	}
	sort.Strings(names)
	return names, nil
}

// RowCounts counts the rows of every table: for tests, diagnostics and metrics.
func (s *Store) RowCounts(ctx context.Context) (map[string]int64, error) {
	tables, err := s.Tables(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(tables))
	for _, t := range tables {
		var n int64
		if err := s.db.WithContext(ctx).Table(t).Count(&n).Error; err != nil {
			return nil, wrap(err, "count %s", t)
		}
		out[t] = n
	}
	return out, nil
}

// EachValue calls f with every non-NULL value of every column of every table, as bytes, with
// stored raw objects already decompressed. It exists so that tests can prove that a value
// (a secret) is nowhere in the database; it reads everything and is not for production paths.
func (s *Store) EachValue(ctx context.Context, f func(table, column string, value []byte) error) error {
	tables, err := s.Tables(ctx)
	if err != nil {
		return err
	}
	for _, t := range tables {
		rows, err := s.db.WithContext(ctx).Table(t).Rows()
		if err != nil {
			return wrap(err, "read %s", t)
		}
		cols, err := rows.Columns()
		if err != nil {
			rows.Close()
			return wrap(err, "read %s", t)
		}
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				rows.Close()
				return wrap(err, "read %s", t)
			}
			for i, v := range vals {
				var b []byte
				switch x := v.(type) {
				case nil:
					continue
				case []byte:
					b = x
					if col := cols[i]; col == "raw" {
						if b, err = s.raw.decompress(x); err != nil {
							rows.Close()
							return fmt.Errorf("store: %s.%s: %w", t, col, err)
						}
					}
				case string:
					b = []byte(x)
				default:
					b = []byte(fmt.Sprint(x))
				}
				if err := f(t, cols[i], b); err != nil {
					rows.Close()
					return err
				}
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return wrap(err, "read %s", t)
		}
	}
	return nil
}
