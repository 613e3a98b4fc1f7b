package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/rootline-dev/rootline/internal/cluster"
)

type eventRow struct {
	ID                  string
	ClusterID           int64
	Identity            string
	APIVersion          string
	UID                 string
	Namespace           string
	Name                string
	InvolvedKind        string
	InvolvedNamespace   string
	InvolvedName        string
	InvolvedUID         string
	InvolvedFieldPath   string
	Reason              string
	Message             string
	Type                string
	Count               int32
	FirstAt             *time.Time
	LastAt              *time.Time
	EventTime           *time.Time
	SourceComponent     string
	SourceHost          string
	ReportingController string
	ReportingInstance   string
	Action              string
	Raw                 []byte
	ChangedGen          int64  // the cluster's generation that last changed it from a collector; 0 from uploads (see pendingGen)
	StoredOn            string // the day (UTC, YYYY-MM-DD) Rootline stored the sighting: see dayOf
}

func (eventRow) TableName() string { return "events" }

type snapshotEventRow struct {
	SnapshotID int64
	EventID    string
	SourceFile string
	SourceLine int
	Loose      bool // the sighting was a phrase in output (cluster.Source.Loose)
}

func (snapshotEventRow) TableName() string { return "snapshot_events" }

// eventIdentity is what makes two sightings the same event: its uid; or, for events without
// one (pasted tables), namespace and name; or, lacking even a name, what it says about what.
func eventIdentity(r *eventRow) string {
	switch {
	case r.UID != "":
		return "uid:" + r.UID
	case r.Name != "":
		return "name:" + r.Namespace + "/" + r.Name
	}
	first := ""
	if r.FirstAt != nil {
		first = r.FirstAt.Format(time.RFC3339)
	}
	h := sha256.Sum256([]byte(strings.Join([]string{r.InvolvedKind, r.InvolvedNamespace, r.InvolvedName, r.Reason, r.Message, first}, "\x00")))
	return "content:" + hex.EncodeToString(h[:12])
}

func newEventRow(clusterID int64, o *cluster.Object, raw []byte, storedOn string) eventRow {
	e := o.Event
	count, first, last := cluster.EventTimes(e)
	r := eventRow{
		ClusterID: clusterID, APIVersion: o.APIVersion, UID: string(e.UID), Namespace: e.Namespace, Name: e.Name,
		InvolvedKind: e.InvolvedObject.Kind, InvolvedNamespace: e.InvolvedObject.Namespace, InvolvedName: e.InvolvedObject.Name,
		InvolvedUID: string(e.InvolvedObject.UID), InvolvedFieldPath: e.InvolvedObject.FieldPath,
		Reason: e.Reason, Message: e.Message, Type: e.Type, Count: count,
		FirstAt: timePtr(first), LastAt: timePtr(last), EventTime: timePtr(e.EventTime.Time()),
		SourceComponent: e.Source.Component, SourceHost: e.Source.Host,
		ReportingController: e.ReportingController, ReportingInstance: e.ReportingInstance, Action: e.Action(), Raw: raw, StoredOn: storedOn,
	}
	r.Identity = eventIdentity(&r)
	r.ID = eventID(clusterID, r.Identity)
	return r
}

// eventID is the key of an event's rows: its identity within its cluster.
func eventID(clusterID int64, identity string) string {
	h := sha256.Sum256([]byte(fmt.Sprintf("%d\x00%s", clusterID, identity)))
	return hex.EncodeToString(h[:16])
}

// newer reports whether b is a later sighting of the event than a: seen later, or as often
// at the same time but with a higher count.
func newer(a, b *eventRow) bool {
	switch {
	case a.LastAt == nil:
		return b.LastAt != nil || b.Count > a.Count
	case b.LastAt == nil:
		return false
	case !b.LastAt.Equal(*a.LastAt):
		return b.LastAt.After(*a.LastAt)
	}
	return b.Count > a.Count
}

// merge folds sighting b into a, the way the database upsert does.
func merge(a, b eventRow) eventRow {
	out := a
	if newer(&a, &b) {
		out = b
	}
	out.Count = max(a.Count, b.Count)
	out.FirstAt = earliest(a.FirstAt, b.FirstAt)
	out.LastAt = latest(a.LastAt, b.LastAt)
	return out
}

func earliest(a, b *time.Time) *time.Time {
	if a == nil || (b != nil && b.Before(*a)) {
		return b
	}
	return a
}

func latest(a, b *time.Time) *time.Time {
	if a == nil || (b != nil && b.After(*a)) {
		return b
	}
	return a
}

func (w *SnapshotWriter) addEvent(r eventRow) {
	if old, ok := w.batch.events[r.ID]; ok {
		r = merge(old, r)
	}
	w.batch.events[r.ID] = r
}

var eventColumns = []string{"id", "cluster_id", "identity", "api_version", "uid", "namespace", "name",
	"involved_kind", "involved_namespace", "involved_name", "involved_uid", "involved_field_path",
	"reason", "message", "type", "count", "first_at", "last_at", "event_time",
	"source_component", "source_host", "reporting_controller", "reporting_instance", "action", "raw", "changed_gen", "stored_on"}

// replacedWhenNewer are the columns a later sighting of an event overwrites.
var replacedWhenNewer = []string{"api_version", "reason", "message", "type", "event_time",
	"source_component", "source_host", "reporting_controller", "reporting_instance", "action", "raw"}

// onEventConflict is how a sighting meets the row of the same event: the count only grows,
// the time span only widens, and the other fields come from whichever sighting is newer.
//
// On PostgreSQL a row is one event's sightings of one day (events are partitioned by day),
// so a sighting on a later day makes a row of its own and readers merge them (mergeEventRows).
// On SQLite an event has one row, which remembers the last day it was seen.
func (s *Store) onEventConflict() string {
	greatest, least := "GREATEST", "LEAST"
	target := "(id, stored_on)"
	if s.dialect == SQLite { // SQLite's scalar max and min return NULL if either side is NULL
		greatest, least, target = "max", "min", "(cluster_id, identity)"
	}
	nullSafe := func(fn, col string) string {
		return fmt.Sprintf("%s(coalesce(events.%[2]s, excluded.%[2]s), coalesce(excluded.%[2]s, events.%[2]s))", fn, col)
	}
	isNewer := "(excluded.last_at > events.last_at OR (events.last_at IS NULL AND excluded.last_at IS NOT NULL) OR " +
		"((excluded.last_at = events.last_at OR (excluded.last_at IS NULL AND events.last_at IS NULL)) AND excluded.count > events.count))"
	var b strings.Builder
	b.WriteString(" ON CONFLICT " + target + " DO UPDATE SET ")
	sets := []string{
		fmt.Sprintf("count = %s(events.count, excluded.count)", greatest),
		"first_at = " + nullSafe(least, "first_at"),
		"last_at = " + nullSafe(greatest, "last_at"),
	}
	if s.dialect == SQLite {
		sets = append(sets, "stored_on = max(events.stored_on, excluded.stored_on)")
	}
	// A collector's sighting marks the row changed (pendingGen); an upload's leaves the mark as
	// it was, its snapshot saying what it changed.
	sets = append(sets, "changed_gen = CASE WHEN excluded.changed_gen <> 0 THEN excluded.changed_gen ELSE events.changed_gen END")
	for _, c := range replacedWhenNewer {
		sets = append(sets, fmt.Sprintf("%[1]s = CASE WHEN %[2]s THEN excluded.%[1]s ELSE events.%[1]s END", c, isNewer))
	}
	b.WriteString(strings.Join(sets, ", "))
	// Only a sighting that changes something updates the row, so that the rows affected say
	// whether anything changed (a batch delivered again changes nothing).
	b.WriteString(" WHERE excluded.count > events.count OR excluded.last_at > events.last_at OR excluded.first_at < events.first_at" +
		" OR (events.last_at IS NULL AND excluded.last_at IS NOT NULL) OR (events.first_at IS NULL AND excluded.first_at IS NOT NULL)")
	if s.dialect == SQLite {
		b.WriteString(" OR excluded.stored_on > events.stored_on")
	}
	return b.String()
}

// upsertEvents writes events in id order, so that concurrent writers lock rows in the same
// order and do not deadlock each other. It returns how many were new or changed. On
// PostgreSQL the rows are copied into a temporary table and upserted from there in one
// statement; on SQLite they go in multi-row INSERTs (insertRows).
func (s *Store) upsertEvents(ctx context.Context, c *connTx, events map[string]eventRow, mostlyNew bool) (int, error) {
	if len(events) == 0 {
		return 0, nil
	}
	ids := make([]string, 0, len(events))
	for id := range events {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	if c.conn != nil {
		return s.copyEvents(ctx, c, ids, events, mostlyNew)
	}
	rows := make([][]any, len(ids))
	for i, id := range ids {
		r := events[id]
		rows[i] = r.values()
	}
	changed, err := c.insertRows(ctx, "events", eventColumns, rows, s.onEventConflict(), mostlyNew)
	if err != nil {
		return 0, wrap(err, "upsert %d events", len(ids))
	}
	return int(changed), nil
}

// values are the row's columns in the order of eventColumns.
func (r *eventRow) values() []any {
	return []any{r.ID, r.ClusterID, r.Identity, r.APIVersion, r.UID, r.Namespace, r.Name,
		r.InvolvedKind, r.InvolvedNamespace, r.InvolvedName, r.InvolvedUID, r.InvolvedFieldPath,
		r.Reason, r.Message, r.Type, r.Count, r.FirstAt, r.LastAt, r.EventTime,
		r.SourceComponent, r.SourceHost, r.ReportingController, r.ReportingInstance, r.Action, r.Raw, r.ChangedGen, r.StoredOn}
}

// eventsIn is the temporary table events are copied into before the upsert; it lives as long
// as the transaction.
const eventsIn = "rootline_events_in"

// copyEvents writes events through COPY. When they are mostly new (an upload), they are copied
// straight into events, and only should one of them have a row of its day already (an
// overlapping upload, a concurrent writer) are they all copied into eventsIn instead and
// upserted from there; a collector's batches, which see the same events again and again, go
// that way at once. (Asking first which ones are stored cost more than the copy as the day's
// partition grew: PostgreSQL read the partition whole for each batch.)
func (s *Store) copyEvents(ctx context.Context, c *connTx, ids []string, events map[string]eventRow, mostlyNew bool) (int, error) {
	tx := c.tx.WithContext(ctx)
	fresh, known := []string(nil), ids
	if mostlyNew {
		fresh, known = ids, nil
	}
	changed := 0
	if len(fresh) > 0 {
		rows, err := eventCopyRows(fresh, events)
		if err != nil {
			return 0, err
		}
		if err := tx.SavePoint("rootline_events").Error; err != nil {
			return 0, wrap(err, "events")
		}
		err = c.copyRows(ctx, "events", eventColumns, rows)
		var pe *pgconn.PgError
		switch {
		case err == nil:
			changed = len(fresh)
		case errors.As(err, &pe) && pe.Code == "23505": // unique_violation: some have a row of the day
			if rerr := tx.RollbackTo("rootline_events").Error; rerr != nil {
				return 0, wrap(errors.Join(err, rerr), "events")
			}
			known = ids
		default:
			return 0, wrap(err, "events")
		}
	}
	if len(known) == 0 {
		return changed, nil
	}
	if err := tx.Exec("CREATE TEMP TABLE IF NOT EXISTS " + eventsIn + " (LIKE events) ON COMMIT DROP").Error; err != nil {
		return 0, wrap(err, "events: temporary table")
	}
	if err := tx.Exec("TRUNCATE " + eventsIn).Error; err != nil {
		return 0, wrap(err, "events: temporary table")
	}
	rows, err := eventCopyRows(known, events)
	if err != nil {
		return 0, err
	}
	if err := c.copyRows(ctx, eventsIn, eventColumns, rows); err != nil {
		return 0, wrap(err, "events")
	}
	cols := columnList(eventColumns)
	res := tx.Exec("INSERT INTO events (" + cols + ") SELECT " + cols + " FROM " + eventsIn + " ORDER BY id" + s.onEventConflict())
	if res.Error != nil {
		return 0, wrap(res.Error, "upsert %d events", len(known))
	}
	return changed + int(res.RowsAffected), nil
}

// eventCopyRows are the events' values for COPY, in the order of ids.
func eventCopyRows(ids []string, events map[string]eventRow) ([][]any, error) {
	rows := make([][]any, 0, len(ids))
	days := map[string]time.Time{}
	for _, id := range ids {
		r := events[id]
		v := r.values()
		day, ok := days[r.StoredOn]
		if !ok {
			t, err := time.Parse(time.DateOnly, r.StoredOn)
			if err != nil {
				return nil, fmt.Errorf("store: event %s: stored on %q: %w", id, r.StoredOn, err)
			}
			days[r.StoredOn], day = t, t
		}
		v[len(v)-1] = day // COPY's binary format wants a date, not text
		rows = append(rows, v)
	}
	return rows, nil
}

// storedEvent decodes a stored event and gives it what its row merged of all its sightings:
// the highest count and the widest time span.
func (s *Store) storedEvent(raw []byte, count int32, first, last *time.Time) (*cluster.Event, error) {
	e := new(cluster.Event) // only what Rootline reads of it: the rest of the JSON is skipped
	if err := s.unpack(raw, e); err != nil {
		return nil, err
	}
	e.Count = count
	if first != nil {
		e.FirstTimestamp = cluster.InstantOf(*first)
	}
	if last != nil {
		e.LastTimestamp = cluster.InstantOf(*last)
	}
	return e, nil
}

// mergeEventRows folds the rows of one event into one, as the upsert folds the sightings of a
// day: on PostgreSQL an event seen on several days has a row for each day. The first row of
// each event keeps its place, and its provenance; when rows were merged the result is put
// back in time order (first_at, then id; events without a time last).
func mergeEventRows(rows []eventRow, src []cluster.Source) ([]eventRow, []cluster.Source) {
	at := make(map[string]int, len(rows))
	out, outSrc := rows[:0], src[:0]
	merged := false
	for i, r := range rows {
		if j, ok := at[r.ID]; ok {
			out[j] = merge(out[j], r)
			merged = true
			continue
		}
		at[r.ID] = len(out)
		out = append(out, r)
		if src != nil {
			outSrc = append(outSrc, src[i])
		}
	}
	if merged {
		idx := make([]int, len(out))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool {
			x, y := out[idx[a]], out[idx[b]]
			if c := compareTimes(x.FirstAt, y.FirstAt); c != 0 {
				return c < 0
			}
			return x.ID < y.ID
		})
		sorted := make([]eventRow, len(out))
		var sortedSrc []cluster.Source
		if src != nil {
			sortedSrc = make([]cluster.Source, len(out))
		}
		for i, j := range idx {
			sorted[i] = out[j]
			if src != nil {
				sortedSrc[i] = outSrc[j]
			}
		}
		return sorted, sortedSrc
	}
	return out, outSrc
}

// compareTimes orders optional times, a missing one last.
func compareTimes(a, b *time.Time) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	}
	return a.Compare(*b)
}
