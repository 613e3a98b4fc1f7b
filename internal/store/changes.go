package store

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"time"

	"gorm.io/gorm"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// loadPoint is what a load of an incident's evidence read: the cluster and the window of what
// was collected (cluster 0: none), and the generation of each cluster involved, read before
// any row.
type loadPoint struct {
	cluster  int64
	from, to time.Time
	open     bool            // the window ends now: to is when the load was made
	gens     map[int64]int64 // cluster id → its generation
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

// loadSince loads an incident's evidence from prev and what changed since, when prev was made
// of the same snapshots in the same window and nothing it was made of was deleted since (ok is
// false otherwise, and when so much changed that comparing everything costs less). What
// changed is what the generations say: the rows collectors wrote with a later generation of
// their cluster than prev read, the events of the snapshots committed since, and, for a window
// that ends now, what was seen since prev's end.
func (s *Store) loadSince(ctx context.Context, prev *Evidence, snaps []snapshotRow, at loadPoint, resets map[int64]int64) (ev *Evidence, ok bool, err error) {
	reusable, same := sinceApplies(prev, snaps, at, resets)
	if !reusable {
		return nil, false, nil
	}
	if same {
		cp := *prev
		cp.since = true
		return &cp, true, nil
	}
	p := prev.at
	limit := max(staleChunk, (len(prev.carried.byID)+len(prev.collected.byID))/2)
	changed, ok, err := s.changedEvents(ctx, p, at, limit)
	if err != nil || !ok {
		return nil, false, err
	}
	ids := make([]int64, len(snaps))
	for i, snap := range snaps {
		ids[i] = snap.ID
	}
	ev = &Evidence{snaps: prev.snaps, at: at, since: true}
	if ev.carried, err = s.carriedSince(ctx, prev, ids, changed); err != nil {
		return nil, false, err
	}
	for _, snap := range snaps {
		for _, f := range filesOf(snap.Files) {
			ev.Files = append(ev.Files, f.Name)
		}
		ev.Objects = append(ev.Objects, prev.snaps[snap.ID].objs...)
	}
	ev.Readings, ev.Own = prev.Readings, prev.Own
	ev.Objects = append(ev.Objects, ev.carried.list...)
	if at.cluster == 0 {
		return ev, true, nil
	}
	collected, err := s.collectedSince(ctx, prev, ev, changed)
	if err != nil {
		return nil, false, err
	}
	if len(collected) > 0 {
		ev.Files = append([]string{CollectedFile}, ev.Files...)
		ev.Objects = append(collected, ev.Objects...)
	}
	if err := s.collectedVersions(ctx, at, prev, ev); err != nil {
		return nil, false, wrap(err, "versions")
	}
	if ev.Alerts, err = s.windowAlerts(ctx, at.cluster, at.from, at.to); err != nil {
		return nil, false, wrap(err, "alerts")
	}
	return ev, true, nil
}

// sinceApplies reports whether prev can be the start of a load at at: made of the same
// snapshots in the same window, nothing it was made of deleted since (reusable); and whether
// nothing changed since at all (same), a window that ends now excepted.
func sinceApplies(prev *Evidence, snaps []snapshotRow, at loadPoint, resets map[int64]int64) (reusable, same bool) {
	p := prev.at
	if p.gens == nil || p.cluster != at.cluster || !p.from.Equal(at.from) || p.open != at.open || (!at.open && !p.to.Equal(at.to)) ||
		at.to.Before(p.to) || len(snaps) != len(prev.snaps) {
		return false, false
	}
	for _, snap := range snaps {
		if got, ok := prev.snaps[snap.ID]; !ok || got.key != snapshotKey(snap) {
			return false, false
		}
	}
	same = !at.open
	for c, g := range at.gens {
		pg, ok := p.gens[c]
		if !ok || resets[c] > pg {
			return false, false
		}
		same = same && g == pg
	}
	return true, same
}

// carriedSince is prev's events carried by the snapshots ids, with those of them that changed
// (changed) read again.
func (s *Store) carriedSince(ctx context.Context, prev *Evidence, ids []int64, changed []string) (eventSet, error) {
	var carried map[string]decodedEvent // prev's, with what changed; nil while nothing did
	for start := 0; start < len(changed) && len(ids) > 0; start += staleChunk {
		fetched := map[string]decodedEvent{}
		if err := s.carriedRows(ctx, ids, changed[start:min(start+staleChunk, len(changed))], fetched); err != nil {
			return eventSet{}, wrap(err, "events")
		}
		if len(fetched) > 0 && carried == nil {
			carried = maps.Clone(prev.carried.byID)
		}
		maps.Copy(carried, fetched)
	}
	if carried == nil {
		return prev.carried, nil
	}
	return eventSet{byID: carried, list: inTimeOrder(carried)}, nil
}

// changedEvents returns the ids of the events that may have changed since the load p was made,
// in order: ok is false when there are more than limit.
func (s *Store) changedEvents(ctx context.Context, p, at loadPoint, limit int) (ids []string, ok bool, err error) {
	db := s.db.WithContext(ctx)
	seen := map[string]bool{}
	add := func(got []string) bool {
		for _, id := range got {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
		return len(ids) <= limit
	}
	for c, g := range at.gens {
		if g == p.gens[c] {
			continue
		}
		var got []string
		if err := changedEventsQuery(db, c, p.gens[c]).Limit(limit + 1).Scan(&got).Error; err != nil {
			return nil, false, wrap(err, "changed events")
		}
		if !add(got) {
			return nil, false, nil
		}
		got = nil
		if err := newSnapshotEventsQuery(db, c, p.gens[c]).Limit(limit + 1).Scan(&got).Error; err != nil {
			return nil, false, wrap(err, "events of new snapshots")
		}
		if !add(got) {
			return nil, false, nil
		}
	}
	if at.open && at.cluster != 0 {
		// Seen since prev's end, as its window had it, which a window that ends now takes in
		// without any change (an event dated ahead of the clock that stored it).
		var got []string
		if err := seenSinceQuery(db, at.cluster, p.to).Limit(limit + 1).Scan(&got).Error; err != nil {
			return nil, false, wrap(err, "events seen since")
		}
		if !add(got) {
			return nil, false, nil
		}
	}
	slices.Sort(ids)
	return ids, true, nil
}

// collectedSince returns what is stored of the incident's cluster for its window beyond the
// events its snapshots carried (ev's), as collectedObjects does, from prev and the events that
// changed since (changed) and the states stored since; ev remembers them all for the next load.
func (s *Store) collectedSince(ctx context.Context, prev, ev *Evidence, changed []string) ([]*cluster.Object, error) {
	at, p := ev.at, prev.at
	states, err := s.statesSince(ctx, p, at)
	if err != nil {
		return nil, err
	}
	// The last state of each object: of those with a new state, read again.
	ev.last = prev.last
	var uids []string
	for _, r := range states {
		if !r.ObservedAt.After(at.to) {
			uids = append(uids, r.UID)
		}
	}
	slices.Sort(uids)
	uids = slices.Compact(uids)
	if len(uids) > 0 {
		ev.last = maps.Clone(prev.last)
		if ev.last == nil {
			ev.last = map[string]int64{}
		}
	}
	db := s.db.WithContext(ctx)
	for start := 0; start < len(uids); start += staleChunk {
		var lasts []struct {
			ID  int64
			UID string
		}
		if err := db.Model(&stateRow{}).Select("max(id) AS id, uid").Where("cluster_id = ? AND observed_at <= ? AND uid IN ?", at.cluster, at.to.UTC(),
			uids[start:min(start+staleChunk, len(uids))]).Group("uid").Find(&lasts).Error; err != nil {
			return nil, wrap(err, "collected states")
		}
		for _, l := range lasts {
			ev.last[l.UID] = l.ID
		}
	}
	out, err := s.lastStates(ctx, ev.last, prev, ev)
	if err != nil {
		return nil, err
	}
	// The state changes in the window: prev's and the new ones.
	ev.States = prev.States
	var added []StateChange
	if len(states) > 0 {
		had := make(map[int64]bool, len(prev.States))
		for _, c := range prev.States {
			had[c.row] = true
		}
		for _, r := range states {
			if !had[r.ID] && slices.Contains(stateKinds, r.Kind) && !r.ObservedAt.Before(at.from) && !r.ObservedAt.After(at.to) {
				added = append(added, StateChange{At: r.ObservedAt.UTC(), Kind: r.Kind, Namespace: r.Namespace, Name: r.Name, State: r.State, row: r.ID})
			}
		}
	}
	if len(added) > 0 {
		ev.States = append(slices.Clone(prev.States), added...)
		slices.SortFunc(ev.States, func(a, b StateChange) int {
			return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.row, b.row))
		})
	}
	// The events: prev's, with those that changed read again. Those the snapshots carried are
	// left out here, not by the query (whose NOT IN would read every link of the snapshots).
	window, args := collectedWindow(at.cluster, at.from, at.to, nil)
	ev.collected = prev.collected
	var only []string
	for _, id := range changed {
		if _, ok := ev.carried.byID[id]; !ok {
			only = append(only, id)
		}
	}
	var byID map[string]decodedEvent
	for start := 0; start < len(only); start += staleChunk {
		chunk := only[start:min(start+staleChunk, len(only))]
		q, qargs := window+" AND events.id IN ?", append(slices.Clip(args), chunk)
		prints, err := s.eventPrints(ctx, "0", q, eventSet{}, qargs...)
		if err != nil {
			return nil, wrap(err, "collected events")
		}
		fetched := map[string]decodedEvent{}
		if len(prints.prints) > 0 {
			if err := s.collectedRows(ctx, q+" ORDER BY events.first_at, events.id", qargs, fetched); err != nil {
				return nil, err
			}
		}
		if byID == nil {
			byID = maps.Clone(prev.collected.byID)
			if byID == nil {
				byID = map[string]decodedEvent{}
			}
		}
		for _, id := range chunk {
			if d, ok := fetched[id]; ok {
				d.print = prints.prints[id] // read before the rows: the next load reads them again if they changed between
				byID[id] = d
			} else {
				delete(byID, id)
			}
		}
	}
	if byID != nil {
		ev.collected = eventSet{byID: byID, list: inTimeOrder(byID)}
	}
	return append(out, ev.collected.list...), nil
}

// statesSince returns the collected states of the incident's cluster stored since the load p
// was made, and, for a window that ends now, those observed since its end.
func (s *Store) statesSince(ctx context.Context, p, at loadPoint) ([]stateRow, error) {
	db := s.db.WithContext(ctx)
	var rows []stateRow
	if at.gens[at.cluster] != p.gens[at.cluster] {
		if err := changedStatesQuery(db, at.cluster, p.gens[at.cluster]).Find(&rows).Error; err != nil {
			return nil, wrap(err, "collected states")
		}
	}
	if at.open {
		var more []stateRow
		if err := observedSinceQuery(db, at.cluster, p.to, at.to).Find(&more).Error; err != nil {
			return nil, wrap(err, "collected states")
		}
		rows = append(rows, more...)
		slices.SortFunc(rows, func(a, b stateRow) int { return cmp.Compare(a.ID, b.ID) })
		rows = slices.CompactFunc(rows, func(a, b stateRow) bool { return a.ID == b.ID })
	}
	return rows, nil
}

// The queries that find what changed since a load, each on an index of its own
// (TestSinceQueriesUseIndexes): the events a collector changed after generation gen of a
// cluster, the events of its snapshots committed after it, the events seen after a time, and
// the same for collected states.

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

// stateSinceColumns are the columns of a collected state that loadSince reads (not its raw object).
const stateSinceColumns = "id, kind, namespace, name, uid, observed_at, state"

func changedStatesQuery(db *gorm.DB, clusterID, gen int64) *gorm.DB {
	return db.Model(&stateRow{}).Select(stateSinceColumns).Where("cluster_id = ? AND changed_gen > ?", clusterID, gen)
}

func observedSinceQuery(db *gorm.DB, clusterID int64, since, to time.Time) *gorm.DB {
	return db.Model(&stateRow{}).Select(stateSinceColumns).Where("cluster_id = ? AND observed_at > ? AND observed_at <= ?", clusterID, since.UTC(), to.UTC())
}
