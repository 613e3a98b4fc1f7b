package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// DB exposes the gorm handle to the external tests, which read columns that the API does not
// return (an event's count and time span) and create scratch schemas.
func (s *Store) DB() *gorm.DB { return s.db }

// ClusterEvents returns every event stored for the named cluster, oldest first. Each carries
// the merged sightings: the highest count and the widest time span, with the other fields of
// the newest sighting.
func (s *Store) ClusterEvents(ctx context.Context, clusterName string) ([]*cluster.Event, error) {
	var rows []eventRow
	err := s.db.WithContext(ctx).Joins("JOIN clusters ON clusters.id = events.cluster_id").
		Where("clusters.name = ?", clusterName).Order("events.first_at, events.id").Find(&rows).Error
	if err != nil {
		return nil, wrap(err, "events of cluster %s", clusterName)
	}
	rows, _ = mergeEventRows(rows, nil)
	out := make([]*cluster.Event, 0, len(rows))
	for _, r := range rows {
		e, err := s.storedEvent(r.Raw, r.Count, r.FirstAt, r.LastAt)
		if err != nil {
			return nil, fmt.Errorf("store: event %s: %w", r.ID, err)
		}
		out = append(out, e)
	}
	return out, nil
}

// MigrateTo applies the migrations up to a version, to test the next one on data of the
// schema before it.
func (s *Store) MigrateTo(ctx context.Context, version int) error { return s.migrateTo(ctx, version) }

// SignatureBits exposes the fixed bit of each symptom, cause and component kind.
func SignatureBits() (symptoms, causes, components map[string]uint) {
	return symptomBit, causeBit, componentBit
}

// SetClock sets the clock that dates what the store stores (the day events are stored on).
func (s *Store) SetClock(now func() time.Time) { s.now = now }

// EventID is the key of an event's rows.
func EventID(clusterID int64, identity string) string { return eventID(clusterID, identity) }

// BareRows are the rows Rootline stores for objs (pods with their containers, events with
// their links to the snapshot) in the columns COPY takes, by table: the yardstick of the
// bulk-storage benchmarks copies them.
func (s *Store) BareRows(objs []*cluster.Object, clusterID, snapshotID int64, day time.Time) (map[string][][]any, error) {
	out := map[string][][]any{}
	for _, o := range objs {
		js, err := o.JSON()
		if err != nil {
			return nil, err
		}
		raw, err := s.pack(js)
		if err != nil {
			return nil, err
		}
		switch {
		case o.Pod != nil:
			p, cs := newPodRows(snapshotID, o, raw)
			out["pods"] = append(out["pods"], p.values())
			for i := range cs {
				out["pod_containers"] = append(out["pod_containers"], cs[i].values())
			}
		case o.Event != nil:
			r := newEventRow(clusterID, o, raw, dayOf(day))
			v := r.values()
			v[len(v)-1] = day
			out["events"] = append(out["events"], v)
			link := snapshotEventRow{SnapshotID: snapshotID, EventID: r.ID, SourceFile: o.Source.File, SourceLine: int(o.Source.Line), Loose: o.Source.Loose}
			out["snapshot_events"] = append(out["snapshot_events"], link.values())
		}
	}
	return out, nil
}

// BareCopy copies rows (from BareRows) with nothing else: one transaction, one COPY a table.
func (s *Store) BareCopy(ctx context.Context, rows map[string][][]any) error {
	columns := map[string][]string{"pods": podColumns, "pod_containers": containerColumns, "events": eventColumns, "snapshot_events": linkColumns}
	return s.inConnTx(ctx, func(c *connTx) error {
		for _, table := range []string{"pods", "pod_containers", "events", "snapshot_events"} {
			if err := c.copyRows(ctx, table, columns[table], rows[table]); err != nil {
				return err
			}
		}
		return nil
	})
}

// EnsureEventDays creates the event partitions of the days of t.
func (s *Store) EnsureEventDays(ctx context.Context, t time.Time) error {
	return s.ensureEventDays(ctx, storageDays(t)...)
}

// SinceQueryPlans returns the plan of each query that finds what changed since a load, and of
// the statements that mark what a collector's batch changed: EXPLAIN QUERY PLAN on SQLite;
// EXPLAIN on PostgreSQL with sequential scans discouraged (a test's tables are small enough
// that reading them whole costs least).
//
// The queries are those of a load of the named cluster made at generation gen and time since,
// made again at time to.
func (s *Store) SinceQueryPlans(ctx context.Context, clusterName string, gen int64, since, to time.Time) (map[string]string, error) {
	c, err := clusterID(ctx, s.db, clusterName)
	if err != nil {
		return nil, err
	}
	queries := map[string]func(tx *gorm.DB) *gorm.DB{
		"changed events":          func(tx *gorm.DB) *gorm.DB { var v []string; return changedEventsQuery(tx, c, gen).Scan(&v) },
		"events of new snapshots": func(tx *gorm.DB) *gorm.DB { var v []string; return newSnapshotEventsQuery(tx, c, gen).Scan(&v) },
		"events seen since":       func(tx *gorm.DB) *gorm.DB { var v []string; return seenSinceQuery(tx, c, since).Scan(&v) },
		"changed states":          func(tx *gorm.DB) *gorm.DB { var v []stateRow; return changedStatesQuery(tx, c, gen).Find(&v) },
		"states observed since":   func(tx *gorm.DB) *gorm.DB { var v []stateRow; return observedSinceQuery(tx, c, since, to).Find(&v) },
		"mark changed events":     func(tx *gorm.DB) *gorm.DB { return tx.Exec(markChangedSQL("events"), gen+1, c, pendingGen) },
		"mark changed states":     func(tx *gorm.DB) *gorm.DB { return tx.Exec(markChangedSQL("object_states"), gen+1, c, pendingGen) },
	}
	plans := map[string]string{}
	for name, q := range queries {
		sql := s.db.ToSQL(q)
		if s.dialect == SQLite {
			plan, err := s.explain(ctx, sql)
			if err != nil {
				return nil, err
			}
			plans[name] = plan
			continue
		}
		err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			if err := tx.Exec("SET LOCAL enable_seqscan = off").Error; err != nil {
				return err
			}
			var lines []string
			if err := tx.Raw("EXPLAIN " + sql).Scan(&lines).Error; err != nil {
				return err
			}
			plans[name] = strings.Join(lines, "\n")
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return plans, nil
}

// SQLitePageMemory is what BulkCache counts for each page of a snapshot's page cache.
const SQLitePageMemory = sqlitePageMemory

// Pragma reads a setting of the connection that w writes through (SQLite's PRAGMA name).
func (w *SnapshotWriter) Pragma(ctx context.Context, name string) (int64, error) {
	var v int64
	err := w.tx.WithContext(ctx).Raw("PRAGMA " + name).Row().Scan(&v)
	return v, err
}
