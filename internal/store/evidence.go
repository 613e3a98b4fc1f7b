package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/change"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// Evidence is what an incident's analysis is made of, as IncidentEvidence loads it: the files
// and objects IncidentObjects returns and the state changes IncidentStates returns. It also
// remembers which stored rows each decoded object came from, so that the next load of the
// incident decodes only what changed since. It is not changed once returned: any number of
// requests may read it, and a later load may take objects from it.
type Evidence struct {
	Files   []string
	Objects []*cluster.Object
	States  []StateChange
	// Readings are the incident's snapshots as readings of their clusters, for what changed
	// between them (change.Across): one list per cluster, oldest snapshot first, each with the
	// objects it holds (not its events) and when it was stored.
	Readings [][]change.Reading
	// Own are the readings of the incident's own cluster (those of Readings; none when no
	// snapshot of it is the incident's), which the versions the collector saw of it are
	// compared with too (change.Join).
	Own []change.Reading
	// Versions are the versions of the workloads, ConfigMaps and nodes of the incident's
	// cluster the collector saw, for what changed in them (change.Over): those seen from
	// ChangeLookback before the window's start to its end, and the last seen before that of
	// each, in the order they were seen.
	Versions []change.Version
	// Alerts are the alerts Alertmanager posted of the incident's cluster whose firing overlaps
	// the incident's window, by start (read whole at each load: they are few).
	Alerts []alert.Alert

	snaps     map[int64]snapshotObjects // snapshot id → its pods, nodes and others
	carried   eventSet                  // the events the snapshots carried
	collected eventSet                  // the events collected in the window
	states    map[int64]*cluster.Object // collected state row id → the pod or node (nil: neither)
	versions  map[int64]change.Version  // collected state row id → its version, of Versions
	rows      []int64                   // the rows of Versions, in order
	last      map[string]int64          // collected object uid → the id of its last state row
	at        loadPoint                 // what was loaded: the window, and the generations read
	since     bool                      // made from the load before and what changed since (loadSince)
}

// readings groups the snapshots' objects by cluster, in the order of snaps (oldest first), and
// returns those of cluster own apart too.
func readings(snaps []snapshotRow, objs map[int64]snapshotObjects, own int64) (all [][]change.Reading, ofOwn []change.Reading) {
	at := map[int64]int{} // cluster → its index in all
	for _, snap := range snaps {
		i, ok := at[snap.ClusterID]
		if !ok {
			i = len(all)
			at[snap.ClusterID] = i
			all = append(all, nil)
		}
		all[i] = append(all[i], change.Reading{Objects: objs[snap.ID].objs, At: snap.CreatedAt.UTC()})
	}
	if i, ok := at[own]; ok && own != 0 {
		ofOwn = all[i]
	}
	return all, ofOwn
}

// eventSet is a set of decoded events: by id, and in the order of the model.
type eventSet struct {
	byID map[string]decodedEvent
	list []*cluster.Object
}

// snapshotObjects are the decoded objects of one snapshot, and the key of the snapshot's row
// they were read under: a snapshot's objects are only ever written with it, and deleted when it
// expires (which changes the key), or written again when the same files come back after that.
type snapshotObjects struct {
	key  string
	objs []*cluster.Object
}

// decodedEvent is one event as decoded, and the print of the rows it was decoded from.
type decodedEvent struct {
	print string     // see eventPrints
	rows  int        // how many rows it came from
	first *time.Time // the merged first sighting, which orders the events
	obj   *cluster.Object
}

// Same reports whether e holds what prev holds: the same files, the very same objects in the
// same order (which the load takes from prev only when their rows are unchanged) and the same
// state changes. An analysis of prev is then one of e.
func (e *Evidence) Same(prev *Evidence) bool {
	if prev == nil || !slices.Equal(e.Files, prev.Files) || !slices.Equal(e.Objects, prev.Objects) || len(e.States) != len(prev.States) ||
		!slices.Equal(e.rows, prev.rows) {
		return false
	}
	for i, c := range e.States {
		p := prev.States[i]
		if !c.At.Equal(p.At) || c.Kind != p.Kind || c.Namespace != p.Namespace || c.Name != p.Name || c.State != p.State {
			return false
		}
	}
	return slices.EqualFunc(e.Alerts, prev.Alerts, sameAlert)
}

// IncidentEvidence loads what IncidentObjects and IncidentStates return, in one go. Given the
// evidence of an earlier load (prev, may be nil), it decodes only the objects whose rows
// changed since or are new. When the incident's window and snapshots are as prev had them, it
// finds those rows by the generations of the clusters involved (loadSince): each row a
// collector changes and each snapshot records the generation of its cluster that its write
// made, so that what changed since prev is read by index, not found by comparison. Otherwise
// it reads again the keys of what is stored and compares them with prev's: a snapshot's
// objects unless its row is the same, an event unless its rows' counts and times are (a stored
// event only changes by a sighting that raises its count or widens its time span, which is
// when its JSON is replaced too), a collected pod or node state unless the row was read
// before (such rows never change). Both ways give the same evidence. ErrNotFound when the
// incident does not exist.
func (s *Store) IncidentEvidence(ctx context.Context, incidentID string, prev *Evidence) (*Evidence, error) {
	if prev == nil {
		prev = &Evidence{}
	}
	db := s.db.WithContext(ctx)
	if err := incidentExists(ctx, db, incidentID); err != nil {
		return nil, wrap(err, "objects of incident %s", incidentID)
	}
	var in incidentRow
	if err := db.Select("cluster_id, started_at, ended_at").Where("id = ?", incidentID).Take(&in).Error; err != nil {
		return nil, wrap(err, "incident %s", incidentID)
	}
	var snaps []snapshotRow
	err := db.Joins("JOIN incident_snapshots ON incident_snapshots.snapshot_id = snapshots.id").
		Where("incident_snapshots.incident_id = ?", incidentID).Order("snapshots.created_at, snapshots.id").Find(&snaps).Error
	if err != nil {
		return nil, wrap(err, "snapshots of incident %s", incidentID)
	}
	// The window: the incident's start and end, else the span of its snapshots' evidence.
	at := incidentWindow(in, snaps, time.Now())
	involved := []int64{}
	if at.cluster != 0 {
		involved = append(involved, at.cluster)
	}
	for _, snap := range snaps {
		involved = append(involved, snap.ClusterID)
	}
	// The generations before any event or state is read: whatever is written after them is
	// marked with a later one, and read again by the next load.
	var resets map[int64]int64
	if at.gens, resets, err = s.generations(ctx, involved); err != nil {
		return nil, wrap(err, "generations of incident %s", incidentID)
	}
	// The incident's snapshots were read before the generations: one attached in between
	// changes its list, and so the next load compares everything.
	if ev, ok, err := s.loadSince(ctx, prev, snaps, at, resets); err != nil || ok {
		return ev, wrap(err, "evidence of incident %s", incidentID)
	}
	ev := &Evidence{snaps: make(map[int64]snapshotObjects, len(snaps)), at: at}
	ids := make([]int64, len(snaps))
	for i, snap := range snaps {
		ids[i] = snap.ID
		for _, f := range filesOf(snap.Files) {
			ev.Files = append(ev.Files, f.Name)
		}
		key := snapshotKey(snap)
		got, ok := prev.snaps[snap.ID]
		if !ok || got.key != key {
			objs, err := s.snapshotObjects(ctx, snap.ID)
			if err != nil {
				return nil, wrap(err, "objects of snapshot %s", snap.Digest)
			}
			got = snapshotObjects{key: key, objs: objs}
		}
		ev.snaps[snap.ID] = got
		ev.Objects = append(ev.Objects, got.objs...)
	}
	ev.Readings, ev.Own = readings(snaps, ev.snaps, at.cluster)
	if ev.carried, err = s.carriedEvents(ctx, ids, prev.carried); err != nil {
		return nil, wrap(err, "events of incident %s", incidentID)
	}
	ev.Objects = append(ev.Objects, ev.carried.list...)
	// What the collector streamed of the incident's cluster during its time window comes
	// first, so that an uploaded snapshot of the same pod or node, read later, has the last say.
	if at.cluster == 0 {
		return ev, nil
	}
	collected, err := s.collectedObjects(ctx, at.cluster, at.from, at.to, ids, prev, ev)
	if err != nil {
		return nil, wrap(err, "collected objects of incident %s", incidentID)
	}
	if len(collected) > 0 {
		ev.Files = append([]string{CollectedFile}, ev.Files...)
		ev.Objects = append(collected, ev.Objects...)
	}
	if ev.States, err = s.clusterStates(db.Where("object_states.cluster_id = ?", at.cluster), at.from, at.to); err != nil {
		return nil, wrap(err, "states of incident %s", incidentID)
	}
	if err := s.collectedVersions(ctx, at, prev, ev); err != nil {
		return nil, wrap(err, "versions of incident %s", incidentID)
	}
	if ev.Alerts, err = s.windowAlerts(ctx, at.cluster, at.from, at.to); err != nil {
		return nil, wrap(err, "alerts of incident %s", incidentID)
	}
	return ev, nil
}

// ChangeLookback is how long before an incident's window a change the collector saw is read
// for it: a change made in the day before the symptoms may have led to them.
const ChangeLookback = 24 * time.Hour

// collectedVersions reads ev.Versions for the window at: the rows of the versions the collector
// saw of the cluster's workloads, ConfigMaps and nodes from ChangeLookback before the window to
// its end, and, of each object seen then, the last row before that (what the first of them
// changed from), decoding those prev did not (a state's row never changes). An object the
// collector saw no version of in that time changed in none it saw: its older rows are not read,
// so that the cost is the window's, not the months of states before it.
func (s *Store) collectedVersions(ctx context.Context, at loadPoint, prev, ev *Evidence) error {
	db := s.db.WithContext(ctx)
	start := at.from.Add(-ChangeLookback).UTC()
	var window []struct {
		ID  int64
		UID string
	}
	err := db.Model(&stateRow{}).Select("id, uid").
		Where("cluster_id = ? AND kind IN ? AND observed_at > ? AND observed_at <= ?", at.cluster, change.Watched, start, at.to.UTC()).
		Order("observed_at, id").Find(&window).Error
	if err != nil {
		return err
	}
	uids := make([]string, 0, len(window))
	for _, w := range window {
		uids = append(uids, w.UID)
	}
	slices.Sort(uids)
	uids = slices.Compact(uids)
	var ids []int64 // the rows before the window first (by the object index), then the window's
	for from := 0; from < len(uids); from += staleChunk {
		var before []int64
		if err := db.Model(&stateRow{}).Select("max(id)").Where("cluster_id = ? AND observed_at <= ? AND uid IN ?", at.cluster, start,
			uids[from:min(from+staleChunk, len(uids))]).Group("uid").Scan(&before).Error; err != nil {
			return err
		}
		ids = append(ids, before...)
	}
	slices.Sort(ids)
	for _, w := range window {
		ids = append(ids, w.ID)
	}
	ev.rows, ev.versions = ids, make(map[int64]change.Version, len(ids))
	var missing []int64
	for _, id := range ids {
		if v, ok := prev.versions[id]; ok {
			ev.versions[id] = v
		} else {
			missing = append(missing, id)
		}
	}
	for from := 0; from < len(missing); from += staleChunk {
		var rows []stateRow
		if err := db.Where("id IN ?", missing[from:min(from+staleChunk, len(missing))]).Find(&rows).Error; err != nil {
			return err
		}
		for _, r := range rows {
			o, err := s.decodeState(r)
			if err != nil {
				return err
			}
			ev.versions[r.ID] = change.Version{Object: o, At: r.ObservedAt.UTC(), Deleted: r.State == DeletedState}
		}
	}
	ev.Versions = make([]change.Version, 0, len(ids))
	for _, id := range ids {
		if v := ev.versions[id]; v.Object != nil {
			ev.Versions = append(ev.Versions, v)
		}
	}
	return nil
}

// snapshotKey names the version of a snapshot's objects: see snapshotObjects.
func snapshotKey(r snapshotRow) string {
	expired := int64(0)
	if r.ExpiredAt != nil {
		expired = r.ExpiredAt.UnixNano()
	}
	return fmt.Sprintf("%d/%d/%d/%s", r.ID, r.CreatedAt.UnixNano(), expired, r.Objects)
}

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

// printSet is the prints of a set of events, as eventPrints reads them.
type printSet struct {
	same   bool              // every event as prev holds it, from the same rows: the rest is not filled
	prints map[string]string // event id → its print
}

// eventPrints reads the print of each event the query selects (its FROM and WHERE, naming the
// events table "events", with its arguments; snap as for rowPrint), comparing them
// with the events of prev.
func (s *Store) eventPrints(ctx context.Context, snap, query string, prev eventSet, args ...any) (printSet, error) {
	var out printSet
	rows, err := s.db.WithContext(ctx).Raw("SELECT events.id || ' ' || "+s.rowPrint(snap)+" "+query, args...).Rows()
	if err != nil {
		return out, err
	}
	defer rows.Close()
	// An incident can carry 100,000 events, most often all as before: each row is looked up
	// in prev as read, and kept, without a string of its own, in case one is not.
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
			d, ok := prev.byID[string(id)]
			same = ok && d.rows == 1 && d.print == string(print)
		}
		buf = append(buf, row...)
		ends = append(ends, len(buf))
	}
	if err := rows.Err(); err != nil {
		return out, err
	}
	if same && len(ends) == len(prev.byID) { // each row matched a different event of prev
		out.same = true
		return out, nil
	}
	parts := map[string][]string{}
	start := 0
	for _, end := range ends {
		id, print, _ := strings.Cut(string(buf[start:end]), " ")
		start = end
		parts[id] = append(parts[id], print)
	}
	out.prints = make(map[string]string, len(parts))
	for id, ps := range parts {
		out.prints[id] = printOf(ps)
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

// stale returns the ids of prints whose event prev lacks or holds from other rows, and
// whether they are so many that loading everything again is cheaper.
func stale(prints map[string]string, prev eventSet) (ids []string, all bool) {
	for id, p := range prints {
		if d, ok := prev.byID[id]; !ok || d.print != p {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, len(prev.byID) == 0 || len(ids) > max(staleChunk, len(prints)/2)
}

// staleChunk bounds the ids one query of the events to decode again names.
const staleChunk = 500
