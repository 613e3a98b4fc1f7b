package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"time"

	"gorm.io/gorm"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

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
}

func (eventRow) TableName() string { return "events" }

type snapshotEventRow struct {
	SnapshotID int64
	EventID    string
	SourceFile string
	SourceLine int
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

func newEventRow(clusterID int64, o *cluster.Object, raw []byte) eventRow {
	e := o.Event
	count, first, last := cluster.EventTimes(e)
	r := eventRow{
		ClusterID: clusterID, APIVersion: o.APIVersion, UID: string(e.UID), Namespace: e.Namespace, Name: e.Name,
		InvolvedKind: e.InvolvedObject.Kind, InvolvedNamespace: e.InvolvedObject.Namespace, InvolvedName: e.InvolvedObject.Name,
		InvolvedUID: string(e.InvolvedObject.UID), InvolvedFieldPath: e.InvolvedObject.FieldPath,
		Reason: e.Reason, Message: e.Message, Type: e.Type, Count: count,
		FirstAt: timePtr(first), LastAt: timePtr(last), EventTime: timePtr(e.EventTime.Time),
		SourceComponent: e.Source.Component, SourceHost: e.Source.Host,
		ReportingController: e.ReportingController, ReportingInstance: e.ReportingInstance, Action: e.Action, Raw: raw,
	}
	r.Identity = eventIdentity(&r)
	h := sha256.Sum256([]byte(fmt.Sprintf("%d\x00%s", clusterID, r.Identity)))
	r.ID = hex.EncodeToString(h[:16])
	return r
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

func (w *SnapshotWriter) addEvent(r eventRow, src cluster.Source) {
	if old, ok := w.events[r.ID]; ok {
		r = merge(old, r)
	} else {
		w.links = append(w.links, snapshotEventRow{SnapshotID: w.row.ID, EventID: r.ID, SourceFile: src.File, SourceLine: src.Line})
	}
	w.events[r.ID] = r
}

var eventColumns = []string{"id", "cluster_id", "identity", "api_version", "uid", "namespace", "name",
	"involved_kind", "involved_namespace", "involved_name", "involved_uid", "involved_field_path",
	"reason", "message", "type", "count", "first_at", "last_at", "event_time",
	"source_component", "source_host", "reporting_controller", "reporting_instance", "action", "raw"}

// replacedWhenNewer are the columns a later sighting of an event overwrites.
var replacedWhenNewer = []string{"api_version", "reason", "message", "type", "event_time",
	"source_component", "source_host", "reporting_controller", "reporting_instance", "action", "raw"}

// upsertSQL builds the INSERT … ON CONFLICT for n events: the count only grows, the time span
// only widens, and the other fields come from whichever sighting is newer.
func (s *Store) upsertSQL(n int) string {
	greatest, least := "GREATEST", "LEAST"
	if s.dialect == SQLite { // SQLite's scalar max and min return NULL if either side is NULL
		greatest, least = "max", "min"
	}
	nullSafe := func(fn, col string) string {
		return fmt.Sprintf("%s(coalesce(events.%[2]s, excluded.%[2]s), coalesce(excluded.%[2]s, events.%[2]s))", fn, col)
	}
	isNewer := "(excluded.last_at > events.last_at OR (events.last_at IS NULL AND excluded.last_at IS NOT NULL) OR " +
		"((excluded.last_at = events.last_at OR (excluded.last_at IS NULL AND events.last_at IS NULL)) AND excluded.count > events.count))"
	var b strings.Builder
	b.WriteString("INSERT INTO events (" + strings.Join(eventColumns, ", ") + ") VALUES ")
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(eventColumns)), ", ") + ")"
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(row)
	}
	b.WriteString(" ON CONFLICT (cluster_id, identity) DO UPDATE SET ")
	sets := []string{
		fmt.Sprintf("count = %s(events.count, excluded.count)", greatest),
		"first_at = " + nullSafe(least, "first_at"),
		"last_at = " + nullSafe(greatest, "last_at"),
	}
	for _, c := range replacedWhenNewer {
		sets = append(sets, fmt.Sprintf("%[1]s = CASE WHEN %[2]s THEN excluded.%[1]s ELSE events.%[1]s END", c, isNewer))
	}
	b.WriteString(strings.Join(sets, ", "))
	// Only a sighting that changes something updates the row, so that the rows affected say
	// whether anything changed (a batch delivered again changes nothing).
	b.WriteString(" WHERE excluded.count > events.count OR excluded.last_at > events.last_at OR excluded.first_at < events.first_at" +
		" OR (events.last_at IS NULL AND excluded.last_at IS NOT NULL) OR (events.first_at IS NULL AND excluded.first_at IS NOT NULL)")
	return b.String()
}

// upsertEvents writes events in id order, so that concurrent writers lock rows in the same
// order and do not deadlock each other. It returns how many were new or changed.
func (s *Store) upsertEvents(ctx context.Context, tx *gorm.DB, events map[string]eventRow) (int, error) {
	ids := make([]string, 0, len(events))
	for id := range events {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	args := make([]any, 0, len(ids)*len(eventColumns))
	for _, id := range ids {
		r := events[id]
		args = append(args, r.ID, r.ClusterID, r.Identity, r.APIVersion, r.UID, r.Namespace, r.Name,
			r.InvolvedKind, r.InvolvedNamespace, r.InvolvedName, r.InvolvedUID, r.InvolvedFieldPath,
			r.Reason, r.Message, r.Type, r.Count, r.FirstAt, r.LastAt, r.EventTime,
			r.SourceComponent, r.SourceHost, r.ReportingController, r.ReportingInstance, r.Action, r.Raw)
	}
	res := tx.WithContext(ctx).Exec(s.upsertSQL(len(ids)), args...)
	if res.Error != nil {
		return 0, wrap(res.Error, "upsert %d events", len(ids))
	}
	return int(res.RowsAffected), nil
}

// ClusterEvents returns every event stored for the named cluster, oldest first. Each carries
// the merged sightings: the highest count and the widest time span, with the other fields of
// the newest sighting.
func (s *Store) ClusterEvents(ctx context.Context, clusterName string) ([]*corev1.Event, error) {
	var rows []eventRow
	err := s.db.WithContext(ctx).Joins("JOIN clusters ON clusters.id = events.cluster_id").
		Where("clusters.name = ?", clusterName).Order("events.first_at, events.id").Find(&rows).Error
	if err != nil {
		return nil, wrap(err, "events of cluster %s", clusterName)
	}
	out := make([]*corev1.Event, 0, len(rows))
	for _, r := range rows {
		e, err := s.storedEvent(r.Raw, r.Count, r.FirstAt, r.LastAt)
		if err != nil {
			return nil, fmt.Errorf("store: event %s: %w", r.ID, err)
		}
		out = append(out, e)
	}
	return out, nil
}

// storedEvent decodes a stored event and gives it what its row merged of all its sightings:
// the highest count and the widest time span.
func (s *Store) storedEvent(raw []byte, count int32, first, last *time.Time) (*corev1.Event, error) {
	e := new(corev1.Event)
	if err := s.unpack(raw, e); err != nil {
		return nil, err
	}
	e.Count = count
	if first != nil {
		e.FirstTimestamp = metav1.NewTime(first.UTC())
	}
	if last != nil {
		e.LastTimestamp = metav1.NewTime(last.UTC())
	}
	return e, nil
}
