package store

import (
	"context"
	"time"

	"gorm.io/gorm"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// DB exposes the gorm handle to the external tests, which read columns that the API does not
// return (an event's count and time span) and create scratch schemas.
func (s *Store) DB() *gorm.DB { return s.db }

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
			link := snapshotEventRow{SnapshotID: snapshotID, EventID: r.ID, SourceFile: o.Source.File, SourceLine: o.Source.Line}
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

// Since reports whether the evidence was made from the load before it and what the
// generations said changed since, not by comparing everything stored.
func (e *Evidence) Since() bool { return e.since }
