package evidence

import (
	"cmp"
	"context"
	"maps"
	"slices"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/store"
)

// chunk bounds the ids one question of the store names, and how many changed events make
// loading everything again cheaper than reading what changed.
const chunk = 500

// carriedEvents returns the events the snapshots carried, each once, with the provenance of
// its first sighting and the merged count and times, in time order. The events prev holds from
// the same rows are taken from it, not read again.
func carriedEvents(ctx context.Context, rows Rows, snaps []int64, prev eventSet) (eventSet, error) {
	if len(snaps) == 0 {
		return eventSet{}, nil
	}
	var (
		p    store.Prints
		only []string
		all  = true
	)
	if len(prev.byID) > 0 {
		var err error
		p, err = rows.CarriedPrints(ctx, snaps, prev.byID)
		if err != nil || p.Same {
			return prev, err
		}
		only, all = stale(p.ByID, prev)
	}
	fetched := map[string]store.DecodedEvent{}
	for start := 0; all || start < len(only); start += chunk {
		var ids []string // all of them
		if !all {
			ids = only[start:min(start+chunk, len(only))]
		}
		got, err := rows.CarriedEvents(ctx, snaps, ids)
		if err != nil {
			return eventSet{}, err
		}
		maps.Copy(fetched, got)
		if all {
			break
		}
	}
	byID := fetched
	if !all {
		byID = make(map[string]store.DecodedEvent, len(p.ByID))
		for id, print := range p.ByID {
			if d, ok := fetched[id]; ok {
				byID[id] = d
			} else if d, ok := prev.byID[id]; ok && d.Print == print {
				byID[id] = d
			}
		}
	}
	return eventSet{byID: byID, list: store.EventsInOrder(byID)}, nil
}

// collectedObjects returns what is stored of the incident's cluster for its window beyond the
// snapshots given (whose objects the caller has): the last state of each pod and node the
// collector observed up to the window's end, and the events whose time span meets the window.
// Objects come with "collected" as their file. The states and events prev decoded from the
// same rows are taken from it; ev remembers them all for the next load.
func collectedObjects(ctx context.Context, rows Rows, snapshots []int64, prev, ev *Evidence) ([]*cluster.Object, error) {
	at := ev.at
	var err error
	if ev.last, err = rows.LastStates(ctx, at.Cluster, at.To, nil); err != nil {
		return nil, err
	}
	out, err := lastStates(ctx, rows, ev.last, prev, ev)
	if err != nil {
		return nil, err
	}
	w := store.Window{Cluster: at.Cluster, From: at.From, To: at.To, Besides: snapshots}
	p, err := rows.CollectedPrints(ctx, w, nil, prev.collected.byID)
	if err != nil {
		return nil, err
	}
	if p.Same {
		ev.collected = prev.collected
		return append(out, prev.collected.list...), nil
	}
	only, all := stale(p.ByID, prev.collected)
	fetched := map[string]store.DecodedEvent{}
	for start := 0; all || start < len(only); start += chunk {
		var ids []string
		if !all {
			ids = only[start:min(start+chunk, len(only))]
		}
		got, err := rows.CollectedEvents(ctx, w, ids)
		if err != nil {
			return nil, err
		}
		maps.Copy(fetched, got)
		if all {
			break
		}
	}
	byID := make(map[string]store.DecodedEvent, len(p.ByID))
	for id, print := range p.ByID {
		if d, ok := fetched[id]; ok {
			d.Print = print // read before the rows: the next load reads them again if they changed between
			byID[id] = d
		} else if d, ok := prev.collected.byID[id]; ok && d.Print == print {
			byID[id] = d
		}
	}
	ev.collected = eventSet{byID: byID, list: store.EventsInOrder(byID)}
	return append(out, ev.collected.list...), nil
}

// lastStates returns the pods and nodes of the collected states last gives (uid → row id), in
// the order of the rows, taking those prev decoded from it and decoding the others; ev
// remembers them all for the next load.
func lastStates(ctx context.Context, rows Rows, last map[string]int64, prev, ev *Evidence) ([]*cluster.Object, error) {
	ids := make([]int64, 0, len(last))
	for _, id := range last {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var err error
	if ev.states, err = reuse(ctx, ids, prev.states, rows.StateObjects); err != nil {
		return nil, err
	}
	var out []*cluster.Object
	for _, id := range ids {
		if o := ev.states[id]; o != nil {
			out = append(out, o)
		}
	}
	return out, nil
}

// stale returns the ids of prints whose event prev lacks or holds from other rows, and
// whether they are so many that loading everything again is cheaper.
func stale(prints map[string]string, prev eventSet) (ids []string, all bool) {
	for id, p := range prints {
		if d, ok := prev.byID[id]; !ok || d.Print != p {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, len(prev.byID) == 0 || len(ids) > max(chunk, len(prints)/2)
}

// loadSince loads an incident's evidence from prev and what changed since, when prev was made
// of the same snapshots in the same window and nothing it was made of was deleted since (ok is
// false otherwise, and when so much changed that comparing everything costs less). What
// changed is what the generations say: the rows collectors wrote with a later generation of
// their cluster than prev read, the events of the snapshots committed since, and, for a window
// that ends now, what was seen since prev's end.
func loadSince(ctx context.Context, rows Rows, prev *Evidence, at store.Scope) (ev *Evidence, ok bool, err error) {
	reusable, same := sinceApplies(prev, at)
	if !reusable {
		return nil, false, nil
	}
	if same {
		cp := *prev
		cp.since = true
		return &cp, true, nil
	}
	p := prev.at
	limit := max(chunk, (len(prev.carried.byID)+len(prev.collected.byID))/2)
	changed, ok, err := changedEvents(ctx, rows, p, at, limit)
	if err != nil || !ok {
		return nil, false, err
	}
	ids := make([]int64, len(at.Snapshots))
	for i, snap := range at.Snapshots {
		ids[i] = snap.ID
	}
	ev = &Evidence{snaps: prev.snaps, at: at, since: true}
	if ev.carried, err = carriedSince(ctx, rows, prev, ids, changed); err != nil {
		return nil, false, err
	}
	for _, snap := range at.Snapshots {
		ev.Files = append(ev.Files, snap.Files...)
		ev.Objects = append(ev.Objects, prev.snaps[snap.ID].objs...)
	}
	ev.Readings, ev.Own = prev.Readings, prev.Own
	ev.Objects = append(ev.Objects, ev.carried.list...)
	if at.Cluster == 0 {
		return ev, true, nil
	}
	collected, err := collectedSince(ctx, rows, prev, ev, changed)
	if err != nil {
		return nil, false, err
	}
	if len(collected) > 0 {
		ev.Files = append([]string{store.CollectedFile}, ev.Files...)
		ev.Objects = append(collected, ev.Objects...)
	}
	if err := collectedVersions(ctx, rows, prev, ev); err != nil {
		return nil, false, wrap(err, "versions")
	}
	if ev.Alerts, err = rows.WindowAlerts(ctx, at.Cluster, at.From, at.To); err != nil {
		return nil, false, err
	}
	return ev, true, nil
}

// sinceApplies reports whether prev can be the start of a load at at: made of the same
// snapshots in the same window, nothing it was made of deleted since (reusable); and whether
// nothing changed since at all (same), a window that ends now excepted.
func sinceApplies(prev *Evidence, at store.Scope) (reusable, same bool) {
	p := prev.at
	if p.Gens == nil || p.Cluster != at.Cluster || !p.From.Equal(at.From) || p.Open != at.Open || (!at.Open && !p.To.Equal(at.To)) ||
		at.To.Before(p.To) || len(at.Snapshots) != len(prev.snaps) {
		return false, false
	}
	for _, snap := range at.Snapshots {
		if got, ok := prev.snaps[snap.ID]; !ok || got.key != snap.Key {
			return false, false
		}
	}
	same = !at.Open
	for c, g := range at.Gens {
		pg, ok := p.Gens[c]
		if !ok || at.Resets[c] > pg {
			return false, false
		}
		same = same && g == pg
	}
	return true, same
}

// carriedSince is prev's events carried by the snapshots ids, with those of them that changed
// (changed) read again.
func carriedSince(ctx context.Context, rows Rows, prev *Evidence, ids []int64, changed []string) (eventSet, error) {
	var carried map[string]store.DecodedEvent // prev's, with what changed; nil while nothing did
	for start := 0; start < len(changed) && len(ids) > 0; start += chunk {
		fetched, err := rows.CarriedEvents(ctx, ids, changed[start:min(start+chunk, len(changed))])
		if err != nil {
			return eventSet{}, err
		}
		if len(fetched) > 0 && carried == nil {
			carried = maps.Clone(prev.carried.byID)
		}
		maps.Copy(carried, fetched)
	}
	if carried == nil {
		return prev.carried, nil
	}
	return eventSet{byID: carried, list: store.EventsInOrder(carried)}, nil
}

// changedEvents returns the ids of the events that may have changed since the load p was made,
// in order: ok is false when there are more than limit.
func changedEvents(ctx context.Context, rows Rows, p, at store.Scope, limit int) (ids []string, ok bool, err error) {
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
	for c, g := range at.Gens {
		if g == p.Gens[c] {
			continue
		}
		got, err := rows.EventsChangedSince(ctx, c, p.Gens[c], limit)
		if err != nil {
			return nil, false, err
		}
		if !add(got) {
			return nil, false, nil
		}
		if got, err = rows.SnapshotEventsSince(ctx, c, p.Gens[c], limit); err != nil {
			return nil, false, err
		}
		if !add(got) {
			return nil, false, nil
		}
	}
	if at.Open && at.Cluster != 0 {
		// Seen since prev's end, as its window had it, which a window that ends now takes in
		// without any change (an event dated ahead of the clock that stored it).
		got, err := rows.EventsSeenSince(ctx, at.Cluster, p.To, limit)
		if err != nil {
			return nil, false, err
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
func collectedSince(ctx context.Context, rows Rows, prev, ev *Evidence, changed []string) ([]*cluster.Object, error) {
	at, p := ev.at, prev.at
	states, err := statesSince(ctx, rows, p, at)
	if err != nil {
		return nil, err
	}
	// The last state of each object: of those with a new state, read again.
	ev.last = prev.last
	var uids []string
	for _, r := range states {
		if !r.ObservedAt.After(at.To) {
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
		lasts, err := rows.LastStates(ctx, at.Cluster, at.To, uids)
		if err != nil {
			return nil, err
		}
		maps.Copy(ev.last, lasts)
	}
	out, err := lastStates(ctx, rows, ev.last, prev, ev)
	if err != nil {
		return nil, err
	}
	// The state changes in the window: prev's and the new ones.
	ev.States = prev.States
	var added []store.StateChange
	if len(states) > 0 {
		had := make(map[int64]bool, len(prev.States))
		for _, c := range prev.States {
			had[c.Row] = true
		}
		for _, r := range states {
			if !had[r.ID] && store.IsStateKind(r.Kind) && !r.ObservedAt.Before(at.From) && !r.ObservedAt.After(at.To) {
				added = append(added, store.StateChange{At: r.ObservedAt.UTC(), Kind: r.Kind, Namespace: r.Namespace, Name: r.Name, State: r.State, Row: r.ID})
			}
		}
	}
	if len(added) > 0 {
		ev.States = append(slices.Clone(prev.States), added...)
		slices.SortFunc(ev.States, func(a, b store.StateChange) int {
			return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.Row, b.Row))
		})
	}
	// The events: prev's, with those that changed read again. Those the snapshots carried are
	// left out here, not by the query (whose NOT IN would read every link of the snapshots).
	w := store.Window{Cluster: at.Cluster, From: at.From, To: at.To}
	ev.collected = prev.collected
	var only []string
	for _, id := range changed {
		if _, ok := ev.carried.byID[id]; !ok {
			only = append(only, id)
		}
	}
	var byID map[string]store.DecodedEvent
	for start := 0; start < len(only); start += chunk {
		ids := only[start:min(start+chunk, len(only))]
		prints, err := rows.CollectedPrints(ctx, w, ids, nil)
		if err != nil {
			return nil, err
		}
		fetched := map[string]store.DecodedEvent{}
		if len(prints.ByID) > 0 {
			if fetched, err = rows.CollectedEvents(ctx, w, ids); err != nil {
				return nil, err
			}
		}
		if byID == nil {
			byID = maps.Clone(prev.collected.byID)
			if byID == nil {
				byID = map[string]store.DecodedEvent{}
			}
		}
		for _, id := range ids {
			if d, ok := fetched[id]; ok {
				d.Print = prints.ByID[id] // read before the rows: the next load reads them again if they changed between
				byID[id] = d
			} else {
				delete(byID, id)
			}
		}
	}
	if byID != nil {
		ev.collected = eventSet{byID: byID, list: store.EventsInOrder(byID)}
	}
	return append(out, ev.collected.list...), nil
}

// statesSince returns the collected states of the incident's cluster stored since the load p
// was made, and, for a window that ends now, those observed since its end.
func statesSince(ctx context.Context, rows Rows, p, at store.Scope) ([]store.StateRow, error) {
	var out []store.StateRow
	if at.Gens[at.Cluster] != p.Gens[at.Cluster] {
		got, err := rows.StatesChangedSince(ctx, at.Cluster, p.Gens[at.Cluster])
		if err != nil {
			return nil, err
		}
		out = got
	}
	if at.Open {
		more, err := rows.StatesObservedSince(ctx, at.Cluster, p.To, at.To)
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
		slices.SortFunc(out, func(a, b store.StateRow) int { return cmp.Compare(a.ID, b.ID) })
		out = slices.CompactFunc(out, func(a, b store.StateRow) bool { return a.ID == b.ID })
	}
	return out, nil
}
