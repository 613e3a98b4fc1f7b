// Package evidence assembles what an incident's analysis is made of from the rows the store
// holds: the files and objects of its snapshots, the events they carried, what the collector
// streamed of its cluster during its window (the last state of each pod and node, the events,
// the state changes, the versions of workloads, ConfigMaps and nodes), and the alerts that
// fired then. A load remembers which stored rows each decoded object came from, so that the
// next load of the incident decodes only what changed since: found by the generations the
// store keeps per cluster when the incident's window and snapshots are as the load before had
// them, else by comparing the rows' prints with those of the load before. Both ways give the
// same evidence (TestIncidentEvidenceSince).
//
// The store answers row-level questions and keeps nothing between them; what an earlier load
// may give a later one is this package's.
package evidence

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/change"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/store"
)

// Rows is what a load reads: the store's questions about an incident's rows.
type Rows interface {
	IncidentScope(ctx context.Context, incidentID string) (store.Scope, error)
	SnapshotObjects(ctx context.Context, snap int64) ([]*cluster.Object, error)
	CarriedPrints(ctx context.Context, snaps []int64, known map[string]store.DecodedEvent) (store.Prints, error)
	CarriedEvents(ctx context.Context, snaps []int64, only []string) (map[string]store.DecodedEvent, error)
	CollectedPrints(ctx context.Context, w store.Window, only []string, known map[string]store.DecodedEvent) (store.Prints, error)
	CollectedEvents(ctx context.Context, w store.Window, only []string) (map[string]store.DecodedEvent, error)
	LastStates(ctx context.Context, clusterID int64, to time.Time, uids []string) (map[string]int64, error)
	StateObjects(ctx context.Context, ids []int64) (map[int64]*cluster.Object, error)
	StateVersions(ctx context.Context, ids []int64) (map[int64]change.Version, error)
	VersionRows(ctx context.Context, clusterID int64, start, to time.Time) ([]int64, error)
	ObservedStates(ctx context.Context, clusterID int64, from, to time.Time) ([]store.StateChange, error)
	WindowAlerts(ctx context.Context, clusterID int64, from, to time.Time) ([]alert.Alert, error)
	EventsChangedSince(ctx context.Context, clusterID, gen int64, limit int) ([]string, error)
	SnapshotEventsSince(ctx context.Context, clusterID, gen int64, limit int) ([]string, error)
	EventsSeenSince(ctx context.Context, clusterID int64, since time.Time, limit int) ([]string, error)
	StatesChangedSince(ctx context.Context, clusterID, gen int64) ([]store.StateRow, error)
	StatesObservedSince(ctx context.Context, clusterID int64, since, to time.Time) ([]store.StateRow, error)
}

// Evidence is what an incident's analysis is made of. It is not changed once returned: any
// number of requests may read it, and a later load may take objects from it.
type Evidence struct {
	Files   []string
	Objects []*cluster.Object
	// States are the pod and node states the collector saw of the incident's cluster during
	// its window, oldest first.
	States []store.StateChange
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
	// store.ChangeLookback before the window's start to its end, and the last seen before that
	// of each, in the order they were seen.
	Versions []change.Version
	// Alerts are the alerts Alertmanager posted of the incident's cluster whose firing overlaps
	// the incident's window, by start (read whole at each load: they are few).
	Alerts []alert.Alert

	snaps     map[int64]snapshot        // snapshot id → its objects
	carried   eventSet                  // the events the snapshots carried
	collected eventSet                  // the events collected in the window
	states    map[int64]*cluster.Object // collected state row id → the pod or node (nil: neither)
	versions  map[int64]change.Version  // collected state row id → its version, of Versions
	rows      []int64                   // the rows of Versions, in order
	last      map[string]int64          // collected object uid → the id of its last state row
	at        store.Scope               // what was loaded: the window, and the generations read
	since     bool                      // made from the load before and what changed since (loadSince)
}

// snapshot is the decoded objects of one snapshot, and the key they were read under.
type snapshot struct {
	key  string
	objs []*cluster.Object
}

// eventSet is a set of decoded events: by id, and in the order of the model.
type eventSet struct {
	byID map[string]store.DecodedEvent
	list []*cluster.Object
}

// Objects loads an incident's evidence whole and returns its files and objects.
func Objects(ctx context.Context, rows Rows, incidentID string) ([]string, []*cluster.Object, error) {
	ev, err := Load(ctx, rows, incidentID, nil)
	if err != nil {
		return nil, nil, err
	}
	return ev.Files, ev.Objects, nil
}

// Incremental reports whether the load was made from the load before it and what the
// generations said changed since, not by comparing everything stored: what it cost.
func (e *Evidence) Incremental() bool { return e.since }

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

// sameAlert reports whether two alerts read from the store are the same.
func sameAlert(a, b alert.Alert) bool {
	return a.Fingerprint == b.Fingerprint && a.Status == b.Status && a.StartsAt.Equal(b.StartsAt) && a.EndsAt.Equal(b.EndsAt) &&
		a.GeneratorURL == b.GeneratorURL && maps.Equal(a.Labels, b.Labels) && maps.Equal(a.Annotations, b.Annotations)
}

// reuse returns the decoded rows of the ids: those prev holds taken from it (a collected
// state's row never changes), the others read with fetch.
func reuse[V any](ctx context.Context, ids []int64, prev map[int64]V, fetch func(context.Context, []int64) (map[int64]V, error)) (map[int64]V, error) {
	out := make(map[int64]V, len(ids))
	var missing []int64
	for _, id := range ids {
		if v, ok := prev[id]; ok {
			out[id] = v
		} else {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	got, err := fetch(ctx, missing)
	if err != nil {
		return nil, err
	}
	maps.Copy(out, got)
	return out, nil
}

// wrap says what was being loaded when err struck; nil when err is.
func wrap(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf(format+": %w", append(args, err)...)
}

// Load loads an incident's evidence. Given the evidence of an earlier load (prev, may be
// nil), it decodes only the objects whose rows changed since or are new. When the incident's
// window and snapshots are as prev had them, it finds those rows by the generations of the
// clusters involved (loadSince). Otherwise it reads again the keys of what is stored and
// compares them with prev's: a snapshot's objects unless its key is the same, an event unless
// its rows' counts and times are (a stored event only changes by a sighting that raises its
// count or widens its time span, which is when its JSON is replaced too), a collected pod or
// node state unless the row was read before (such rows never change). Both ways give the same
// evidence. store.ErrNotFound when the incident does not exist.
func Load(ctx context.Context, rows Rows, incidentID string, prev *Evidence) (*Evidence, error) {
	if prev == nil {
		prev = &Evidence{}
	}
	at, err := rows.IncidentScope(ctx, incidentID)
	if err != nil {
		return nil, err
	}
	// The incident's snapshots were read before the generations: one attached in between
	// changes its list, and so the next load compares everything.
	if ev, ok, err := loadSince(ctx, rows, prev, at); err != nil || ok {
		return ev, wrap(err, "evidence of incident %s", incidentID)
	}
	ev := &Evidence{snaps: make(map[int64]snapshot, len(at.Snapshots)), at: at}
	ids := make([]int64, len(at.Snapshots))
	for i, snap := range at.Snapshots {
		ids[i] = snap.ID
		ev.Files = append(ev.Files, snap.Files...)
		got, ok := prev.snaps[snap.ID]
		if !ok || got.key != snap.Key {
			objs, err := rows.SnapshotObjects(ctx, snap.ID)
			if err != nil {
				return nil, wrap(err, "objects of snapshot %s", snap.Digest)
			}
			got = snapshot{key: snap.Key, objs: objs}
		}
		ev.snaps[snap.ID] = got
		ev.Objects = append(ev.Objects, got.objs...)
	}
	ev.Readings, ev.Own = readings(at.Snapshots, ev.snaps, at.Cluster)
	if ev.carried, err = carriedEvents(ctx, rows, ids, prev.carried); err != nil {
		return nil, wrap(err, "events of incident %s", incidentID)
	}
	ev.Objects = append(ev.Objects, ev.carried.list...)
	// What the collector streamed of the incident's cluster during its time window comes
	// first, so that an uploaded snapshot of the same pod or node, read later, has the last say.
	if at.Cluster == 0 {
		return ev, nil
	}
	collected, err := collectedObjects(ctx, rows, ids, prev, ev)
	if err != nil {
		return nil, wrap(err, "collected objects of incident %s", incidentID)
	}
	if len(collected) > 0 {
		ev.Files = append([]string{store.CollectedFile}, ev.Files...)
		ev.Objects = append(collected, ev.Objects...)
	}
	if ev.States, err = rows.ObservedStates(ctx, at.Cluster, at.From, at.To); err != nil {
		return nil, wrap(err, "states of incident %s", incidentID)
	}
	if err := collectedVersions(ctx, rows, prev, ev); err != nil {
		return nil, wrap(err, "versions of incident %s", incidentID)
	}
	if ev.Alerts, err = rows.WindowAlerts(ctx, at.Cluster, at.From, at.To); err != nil {
		return nil, wrap(err, "alerts of incident %s", incidentID)
	}
	return ev, nil
}

// readings groups the snapshots' objects by cluster, in the order of snaps (oldest first), and
// returns those of cluster own apart too.
func readings(snaps []store.ScopeSnapshot, objs map[int64]snapshot, own int64) (all [][]change.Reading, ofOwn []change.Reading) {
	at := map[int64]int{} // cluster → its index in all
	for _, snap := range snaps {
		i, ok := at[snap.Cluster]
		if !ok {
			i = len(all)
			at[snap.Cluster] = i
			all = append(all, nil)
		}
		all[i] = append(all[i], change.Reading{Objects: objs[snap.ID].objs, At: snap.Created})
	}
	if i, ok := at[own]; ok && own != 0 {
		ofOwn = all[i]
	}
	return all, ofOwn
}

// collectedVersions reads ev.Versions for ev's window: the rows of the versions the collector
// saw (store.VersionRows), decoding those prev did not (a state's row never changes).
func collectedVersions(ctx context.Context, rows Rows, prev, ev *Evidence) error {
	at := ev.at
	ids, err := rows.VersionRows(ctx, at.Cluster, at.From.Add(-store.ChangeLookback), at.To)
	if err != nil {
		return err
	}
	ev.rows = ids
	if ev.versions, err = reuse(ctx, ids, prev.versions, rows.StateVersions); err != nil {
		return err
	}
	ev.Versions = make([]change.Version, 0, len(ids))
	for _, id := range ids {
		if v := ev.versions[id]; v.Object != nil {
			ev.Versions = append(ev.Versions, v)
		}
	}
	return nil
}
