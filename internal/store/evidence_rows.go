package store

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/change"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// The rows an incident's evidence is made of, as package evidence reads them: each question
// here is of rows, by key, by time or by generation, and keeps nothing between calls. What an
// incident's evidence is, and what a later load may take again from an earlier one, is package
// evidence's.
//
// Generations: each row a collector writes and each snapshot records the generation of its
// cluster that its write made (and a deletion raises the cluster's reset_gen), so that what
// changed since a load is found by index, not by comparison.

// Scope is what an incident's evidence is read over: its snapshots, its cluster's window, and
// the generations of the clusters involved, read after the snapshots and before any event or
// state, so that whatever is written after them is marked with a later one.
type Scope struct {
	// Cluster is the incident's cluster, 0 when it has none or no window: then nothing stored
	// of a cluster beyond the snapshots is read for it.
	Cluster int64
	// From and To are the window (see incidentWindow); Open when it ends now (To is when the
	// scope was read).
	From, To time.Time
	Open     bool
	// Gens are the generations of the clusters involved (the incident's, its snapshots'), and
	// Resets the last generation of each at which rows of it were deleted.
	Gens, Resets map[int64]int64
	// Snapshots are the incident's, oldest first.
	Snapshots []ScopeSnapshot
}

// ScopeSnapshot is one snapshot of an incident.
type ScopeSnapshot struct {
	ID, Cluster int64
	Digest      string
	Created     time.Time
	Files       []string
	// Key changes whenever the snapshot's objects may have: they are only ever written with
	// it, and deleted when it expires (which changes the key), or written again when the same
	// files come back after that.
	Key string
}

// IncidentScope reads an incident's scope. ErrNotFound when the incident does not exist.
func (s *Store) IncidentScope(ctx context.Context, incidentID string) (Scope, error) {
	db := s.db.WithContext(ctx)
	if err := incidentExists(ctx, db, incidentID); err != nil {
		return Scope{}, wrap(err, "objects of incident %s", incidentID)
	}
	var in incidentRow
	if err := db.Select("cluster_id, started_at, ended_at").Where("id = ?", incidentID).Take(&in).Error; err != nil {
		return Scope{}, wrap(err, "incident %s", incidentID)
	}
	var snaps []snapshotRow
	err := db.Joins("JOIN incident_snapshots ON incident_snapshots.snapshot_id = snapshots.id").
		Where("incident_snapshots.incident_id = ?", incidentID).Order("snapshots.created_at, snapshots.id").Find(&snaps).Error
	if err != nil {
		return Scope{}, wrap(err, "snapshots of incident %s", incidentID)
	}
	at := incidentWindow(in, snaps, time.Now())
	sc := Scope{Cluster: at.cluster, From: at.from, To: at.to, Open: at.open, Snapshots: make([]ScopeSnapshot, len(snaps))}
	involved := []int64{}
	if at.cluster != 0 {
		involved = append(involved, at.cluster)
	}
	for i, snap := range snaps {
		involved = append(involved, snap.ClusterID)
		ss := ScopeSnapshot{ID: snap.ID, Cluster: snap.ClusterID, Digest: snap.Digest, Created: snap.CreatedAt.UTC(), Key: snapshotKey(snap)}
		for _, f := range filesOf(snap.Files) {
			ss.Files = append(ss.Files, f.Name)
		}
		sc.Snapshots[i] = ss
	}
	if sc.Gens, sc.Resets, err = s.generations(ctx, involved); err != nil {
		return Scope{}, wrap(err, "generations of incident %s", incidentID)
	}
	return sc, nil
}

// loadPoint is an incident's window: its cluster (0: none), and the time over which what is
// stored of that cluster is read for it.
type loadPoint struct {
	cluster  int64
	from, to time.Time
	open     bool // the window ends now: to is when it was read
}

// generations reads the generation of clusters, and the last generation at which rows of each
// were deleted (reset_gen).
func (s *Store) generations(ctx context.Context, ids []int64) (gens, resets map[int64]int64, err error) {
	gens, resets = map[int64]int64{}, map[int64]int64{}
	if len(ids) == 0 {
		return gens, resets, nil
	}
	var rows []struct{ ID, Generation, ResetGen int64 }
	if err := s.db.WithContext(ctx).Model(&clusterRow{}).Select("id, generation, reset_gen").Where("id IN ?", ids).Find(&rows).Error; err != nil {
		return nil, nil, err
	}
	for _, r := range rows {
		gens[r.ID], resets[r.ID] = r.Generation, r.ResetGen
	}
	return gens, resets, nil
}

// snapshotKey names the version of a snapshot's objects: see ScopeSnapshot.Key.
func snapshotKey(r snapshotRow) string {
	expired := int64(0)
	if r.ExpiredAt != nil {
		expired = r.ExpiredAt.UnixNano()
	}
	return fmt.Sprintf("%d/%d/%d/%s", r.ID, r.CreatedAt.UnixNano(), expired, r.Objects)
}

// DecodedEvent is one event as decoded from its rows, with the print of those rows.
type DecodedEvent struct {
	// Print names the rows' counts and times (see eventPrints): an event whose print is the
	// same is the same.
	Print string
	// Rows is how many rows it came from (a snapshot's link, or a day of sightings each).
	Rows int
	// First is the merged first sighting, which orders the events.
	First  *time.Time
	Object *cluster.Object
}

// EventsInOrder lists decoded events as a model made from their rows in one go holds them: by
// their first sighting (undated last), then id. A load that keeps some events from an earlier
// one orders them so too.
func EventsInOrder(byID map[string]DecodedEvent) []*cluster.Object {
	ids := slices.Collect(maps.Keys(byID))
	slices.SortFunc(ids, func(a, b string) int {
		return cmp.Or(compareTimes(byID[a].First, byID[b].First), strings.Compare(a, b))
	})
	out := make([]*cluster.Object, len(ids))
	for i, id := range ids {
		out[i] = byID[id].Object
	}
	return out
}

// Prints are the prints of a set of events by id, or Same when each row matched, one to one,
// an event of the known ones, from the same single row (then ByID is not filled).
type Prints struct {
	Same bool
	ByID map[string]string
}

// CarriedPrints reads the prints of the events the snapshots carried, comparing them with the
// known events as it reads (an incident can carry 100,000 events, most often all as before).
func (s *Store) CarriedPrints(ctx context.Context, snaps []int64, known map[string]DecodedEvent) (Prints, error) {
	p, err := s.eventPrints(ctx, "se.snapshot_id", "FROM snapshot_events se JOIN events ON events.id = se.event_id WHERE se.snapshot_id IN ?", known, snaps)
	return p, wrap(err, "events")
}

// CarriedEvents reads, merges and decodes the events the snapshots carried (only those of the
// ids given, unless nil), each with the provenance of its first sighting.
func (s *Store) CarriedEvents(ctx context.Context, snaps []int64, only []string) (map[string]DecodedEvent, error) {
	out := map[string]DecodedEvent{}
	return out, wrap(s.carriedRows(ctx, snaps, only, out), "events")
}

// Window names the events of a cluster whose time span meets [From, To], less those the
// snapshots Besides carried.
type Window struct {
	Cluster  int64
	From, To time.Time
	Besides  []int64
}

// query is the window's FROM and WHERE, naming the events table "events", with its arguments;
// of the ids only, unless nil.
func (w Window) query(only []string) (string, []any) {
	q := "FROM events WHERE events.cluster_id = ? AND (events.last_at IS NULL OR events.last_at >= ?) AND (events.first_at IS NULL OR events.first_at <= ?)"
	args := []any{w.Cluster, w.From.UTC(), w.To.UTC()}
	if len(w.Besides) > 0 {
		q += " AND events.id NOT IN (SELECT event_id FROM snapshot_events WHERE snapshot_id IN ?)"
		args = append(args, w.Besides)
	}
	if only != nil {
		q += " AND events.id IN ?"
		args = append(args, only)
	}
	return q, args
}

// CollectedPrints reads the prints of the collected events of the window (only those of the
// ids given, unless nil), comparing them with the known events as it reads.
func (s *Store) CollectedPrints(ctx context.Context, w Window, only []string, known map[string]DecodedEvent) (Prints, error) {
	q, args := w.query(only)
	p, err := s.eventPrints(ctx, "0", q, known, args...)
	return p, wrap(err, "collected events")
}

// CollectedEvents reads, merges and decodes the collected events of the window (only those of
// the ids given, unless nil), with "collected" as their file.
func (s *Store) CollectedEvents(ctx context.Context, w Window, only []string) (map[string]DecodedEvent, error) {
	q, args := w.query(only)
	out := map[string]DecodedEvent{}
	return out, s.collectedRows(ctx, q+" ORDER BY events.first_at, events.id", args, out)
}

// LastStates returns, by uid, the last collected state row of each object of the cluster
// observed up to to: of the uids given, or of all when uids is nil.
func (s *Store) LastStates(ctx context.Context, clusterID int64, to time.Time, uids []string) (map[string]int64, error) {
	db := s.db.WithContext(ctx)
	out := map[string]int64{}
	var lasts []struct {
		ID  int64
		UID string
	}
	if uids == nil {
		last := db.Model(&stateRow{}).Select("max(id)").Where("cluster_id = ? AND observed_at <= ?", clusterID, to.UTC()).Group("uid")
		if err := db.Model(&stateRow{}).Select("id, uid").Where("id IN (?)", last).Order("id").Find(&lasts).Error; err != nil {
			return nil, wrap(err, "collected states")
		}
	}
	for start := 0; start < len(uids); start += chunk {
		var got []struct {
			ID  int64
			UID string
		}
		if err := db.Model(&stateRow{}).Select("max(id) AS id, uid").Where("cluster_id = ? AND observed_at <= ? AND uid IN ?", clusterID, to.UTC(),
			uids[start:min(start+chunk, len(uids))]).Group("uid").Find(&got).Error; err != nil {
			return nil, wrap(err, "collected states")
		}
		lasts = append(lasts, got...)
	}
	for _, l := range lasts {
		out[l.UID] = l.ID
	}
	return out, nil
}

// StateObjects decodes the collected state rows of the ids: a pod or node, a workload or
// ConfigMap (as its JSON), or nil for another kind. An id of no row is not in the result.
func (s *Store) StateObjects(ctx context.Context, ids []int64) (map[int64]*cluster.Object, error) {
	out := make(map[int64]*cluster.Object, len(ids))
	err := s.eachState(ctx, ids, func(r stateRow, o *cluster.Object) { out[r.ID] = o })
	return out, wrap(err, "collected states")
}

// StateVersions decodes the collected state rows of the ids as versions of their objects.
func (s *Store) StateVersions(ctx context.Context, ids []int64) (map[int64]change.Version, error) {
	out := make(map[int64]change.Version, len(ids))
	err := s.eachState(ctx, ids, func(r stateRow, o *cluster.Object) {
		out[r.ID] = change.Version{Object: o, At: r.ObservedAt.UTC(), Deleted: r.State == DeletedState}
	})
	return out, wrap(err, "versions")
}

// eachState reads and decodes the state rows of the ids, in chunks.
func (s *Store) eachState(ctx context.Context, ids []int64, f func(stateRow, *cluster.Object)) error {
	for start := 0; start < len(ids); start += chunk {
		var rows []stateRow
		if err := s.db.WithContext(ctx).Where("id IN ?", ids[start:min(start+chunk, len(ids))]).Find(&rows).Error; err != nil {
			return err
		}
		for _, r := range rows {
			o, err := s.decodeState(r)
			if err != nil {
				return err
			}
			f(r, o)
		}
	}
	return nil
}

// ChangeLookback is how long before an incident's window a change the collector saw is read
// for it: a change made in the day before the symptoms may have led to them.
const ChangeLookback = 24 * time.Hour

// VersionRows returns the rows of the versions the collector saw of the cluster's workloads,
// ConfigMaps and nodes from start to to, and, of each object seen then, the last row before
// start (what the first of them changed from): those first (by the object index), then the
// window's, in the order they were seen. An object the collector saw no version of in that time
// changed in none it saw: its older rows are not read, so that the cost is the window's, not
// the months of states before it.
func (s *Store) VersionRows(ctx context.Context, clusterID int64, start, to time.Time) ([]int64, error) {
	db := s.db.WithContext(ctx)
	var window []struct {
		ID  int64
		UID string
	}
	err := db.Model(&stateRow{}).Select("id, uid").
		Where("cluster_id = ? AND kind IN ? AND observed_at > ? AND observed_at <= ?", clusterID, change.Watched, start.UTC(), to.UTC()).
		Order("observed_at, id").Find(&window).Error
	if err != nil {
		return nil, wrap(err, "versions")
	}
	uids := make([]string, 0, len(window))
	for _, w := range window {
		uids = append(uids, w.UID)
	}
	slices.Sort(uids)
	uids = slices.Compact(uids)
	var ids []int64
	for from := 0; from < len(uids); from += chunk {
		var before []int64
		if err := db.Model(&stateRow{}).Select("max(id)").Where("cluster_id = ? AND observed_at <= ? AND uid IN ?", clusterID, start.UTC(),
			uids[from:min(from+chunk, len(uids))]).Group("uid").Scan(&before).Error; err != nil {
			return nil, wrap(err, "versions")
		}
		ids = append(ids, before...)
	}
	slices.Sort(ids)
	for _, w := range window {
		ids = append(ids, w.ID)
	}
	return ids, nil
}

// ObservedStates returns the pod and node states of the cluster observed within [from, to],
// oldest first.
func (s *Store) ObservedStates(ctx context.Context, clusterID int64, from, to time.Time) ([]StateChange, error) {
	out, err := s.clusterStates(s.db.WithContext(ctx).Where("object_states.cluster_id = ?", clusterID), from, to)
	return out, wrap(err, "states")
}

// IsStateKind reports whether states of the kind are what ObservedStates returns (pods', nodes').
func IsStateKind(kind string) bool { return slices.Contains(stateKinds, kind) }

// WindowAlerts returns the alerts of the cluster whose firing overlaps [from, to], by start.
func (s *Store) WindowAlerts(ctx context.Context, clusterID int64, from, to time.Time) ([]alert.Alert, error) {
	out, err := s.windowAlerts(ctx, clusterID, from, to)
	return out, wrap(err, "alerts")
}

// The questions of what changed since a generation, each on an index of its own
// (TestSinceQueriesUseIndexes), each of at most limit+1 answers so that the caller sees when
// there are more than limit.

// EventsChangedSince returns the ids of the events of the cluster a collector changed after
// generation gen.
func (s *Store) EventsChangedSince(ctx context.Context, clusterID, gen int64, limit int) ([]string, error) {
	var got []string
	err := changedEventsQuery(s.db.WithContext(ctx), clusterID, gen).Limit(limit + 1).Scan(&got).Error
	return got, wrap(err, "changed events")
}

// SnapshotEventsSince returns the ids of the events of the cluster's snapshots committed after
// generation gen.
func (s *Store) SnapshotEventsSince(ctx context.Context, clusterID, gen int64, limit int) ([]string, error) {
	var got []string
	err := newSnapshotEventsQuery(s.db.WithContext(ctx), clusterID, gen).Limit(limit + 1).Scan(&got).Error
	return got, wrap(err, "events of new snapshots")
}

// EventsSeenSince returns the ids of the events of the cluster last seen after since.
func (s *Store) EventsSeenSince(ctx context.Context, clusterID int64, since time.Time, limit int) ([]string, error) {
	var got []string
	err := seenSinceQuery(s.db.WithContext(ctx), clusterID, since).Limit(limit + 1).Scan(&got).Error
	return got, wrap(err, "events seen since")
}

// StateRow is a collected state's row, without its object.
type StateRow struct {
	ID                         int64
	Kind, Namespace, Name, UID string
	ObservedAt                 time.Time
	State                      string
}

// StatesChangedSince returns the collected states of the cluster stored after generation gen.
func (s *Store) StatesChangedSince(ctx context.Context, clusterID, gen int64) ([]StateRow, error) {
	var rows []stateRow
	err := changedStatesQuery(s.db.WithContext(ctx), clusterID, gen).Find(&rows).Error
	return stateRows(rows), wrap(err, "collected states")
}

// StatesObservedSince returns the collected states of the cluster observed within (since, to].
func (s *Store) StatesObservedSince(ctx context.Context, clusterID int64, since, to time.Time) ([]StateRow, error) {
	var rows []stateRow
	err := observedSinceQuery(s.db.WithContext(ctx), clusterID, since, to).Find(&rows).Error
	return stateRows(rows), wrap(err, "collected states")
}

func stateRows(rows []stateRow) []StateRow {
	out := make([]StateRow, len(rows))
	for i, r := range rows {
		out[i] = StateRow{ID: r.ID, Kind: r.Kind, Namespace: r.Namespace, Name: r.Name, UID: r.UID, ObservedAt: r.ObservedAt.UTC(), State: r.State}
	}
	return out
}

func changedEventsQuery(db *gorm.DB, clusterID, gen int64) *gorm.DB {
	// changed_gen <> 0 lets PostgreSQL use the partial index of events.
	return db.Model(&eventRow{}).Select("id").Where("cluster_id = ? AND changed_gen > ? AND changed_gen <> 0", clusterID, gen)
}

func newSnapshotEventsQuery(db *gorm.DB, clusterID, gen int64) *gorm.DB {
	return db.Table("snapshot_events").Select("snapshot_events.event_id").Joins("JOIN snapshots ON snapshots.id = snapshot_events.snapshot_id").
		Where("snapshots.cluster_id = ? AND snapshots.changed_gen > ?", clusterID, gen)
}

func seenSinceQuery(db *gorm.DB, clusterID int64, since time.Time) *gorm.DB {
	return db.Model(&eventRow{}).Select("id").Where("cluster_id = ? AND last_at > ?", clusterID, since.UTC())
}

// stateSinceColumns are the columns of a collected state that the questions of what changed
// read (not its raw object).
const stateSinceColumns = "id, kind, namespace, name, uid, observed_at, state"

func changedStatesQuery(db *gorm.DB, clusterID, gen int64) *gorm.DB {
	return db.Model(&stateRow{}).Select(stateSinceColumns).Where("cluster_id = ? AND changed_gen > ?", clusterID, gen)
}

func observedSinceQuery(db *gorm.DB, clusterID int64, since, to time.Time) *gorm.DB {
	return db.Model(&stateRow{}).Select(stateSinceColumns).Where("cluster_id = ? AND observed_at > ? AND observed_at <= ?", clusterID, since.UTC(), to.UTC())
}

// chunk bounds the ids one query names.
const chunk = 500

// rowPrint is the SQL of the print of one row of the events table ("events"), carried by
// snapshot snap ("0" when none): its count and times (and, on PostgreSQL, its day: a row there
// is one day's sightings of the event, see onEventConflict), as text, so that reading it
// decodes nothing.
func (s *Store) rowPrint(snap string) string {
	stored := "''"
	if s.dialect == Postgres {
		stored = "CAST(events.stored_on AS TEXT)"
	}
	return "CAST(" + snap + " AS TEXT) || ' ' || CAST(events.count AS TEXT) || ' ' || coalesce(CAST(events.first_at AS TEXT), '') || ' ' || " +
		"coalesce(CAST(events.last_at AS TEXT), '') || ' ' || " + stored
}

// eventPrints reads the print of each event the query selects (its FROM and WHERE, naming the
// events table "events", with its arguments; snap as for rowPrint), comparing them with the
// known events.
func (s *Store) eventPrints(ctx context.Context, snap, query string, known map[string]DecodedEvent, args ...any) (Prints, error) {
	var out Prints
	rows, err := s.db.WithContext(ctx).Raw("SELECT events.id || ' ' || "+s.rowPrint(snap)+" "+query, args...).Rows()
	if err != nil {
		return out, err
	}
	defer rows.Close()
	// Each row is looked up in known as read, and kept, without a string of its own, in case
	// one is not.
	var (
		buf  []byte
		ends []int
		row  sql.RawBytes
	)
	same := true
	for rows.Next() {
		if err := rows.Scan(&row); err != nil {
			return out, err
		}
		if same {
			id, print, _ := bytes.Cut(row, []byte{' '})
			d, ok := known[string(id)]
			same = ok && d.Rows == 1 && d.Print == string(print)
		}
		buf = append(buf, row...)
		ends = append(ends, len(buf))
	}
	if err := rows.Err(); err != nil {
		return out, err
	}
	if same && len(ends) == len(known) { // each row matched a different known event
		out.Same = true
		return out, nil
	}
	parts := map[string][]string{}
	start := 0
	for _, end := range ends {
		id, print, _ := strings.Cut(string(buf[start:end]), " ")
		start = end
		parts[id] = append(parts[id], print)
	}
	out.ByID = make(map[string]string, len(parts))
	for id, ps := range parts {
		out.ByID[id] = printOf(ps)
	}
	return out, nil
}

// printOf is the print of an event from the prints of its rows, whatever order they came in.
func printOf(rows []string) string {
	if len(rows) == 1 {
		return rows[0]
	}
	slices.Sort(rows)
	return strings.Join(rows, ";")
}
