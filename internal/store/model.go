package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// IncidentObjects loads what an incident's snapshots hold, as the objects ingestion decoded:
// pods, nodes and other kinds from each snapshot (oldest snapshot first, so that a model built
// from them keeps the newest state of an object), and the events those snapshots carried, with
// every sighting merged; and, for an incident with a cluster and a start time, what the
// collector streamed of that cluster during the incident's window (file "collected"). Each
// object keeps the file and line it came from. It returns the names of the files too.
// ErrNotFound when the incident does not exist.
func (s *Store) IncidentObjects(ctx context.Context, incidentID string) ([]string, []*cluster.Object, error) {
	db := s.db.WithContext(ctx)
	if err := incidentExists(ctx, db, incidentID); err != nil {
		return nil, nil, wrap(err, "objects of incident %s", incidentID)
	}
	var snaps []snapshotRow
	err := db.Joins("JOIN incident_snapshots ON incident_snapshots.snapshot_id = snapshots.id").
		Where("incident_snapshots.incident_id = ?", incidentID).Order("snapshots.created_at, snapshots.id").Find(&snaps).Error
	if err != nil {
		return nil, nil, wrap(err, "snapshots of incident %s", incidentID)
	}
	var files []string
	var objs []*cluster.Object
	for _, snap := range snaps {
		for _, f := range filesOf(snap.Files) {
			files = append(files, f.Name)
		}
		got, err := s.snapshotObjects(ctx, snap.ID)
		if err != nil {
			return nil, nil, wrap(err, "objects of snapshot %s", snap.Digest)
		}
		objs = append(objs, got...)
	}
	ids := make([]int64, len(snaps))
	for i, sn := range snaps {
		ids[i] = sn.ID
	}
	evs, err := s.snapshotEvents(ctx, ids)
	if err != nil {
		return nil, nil, wrap(err, "events of incident %s", incidentID)
	}
	objs = append(objs, evs...)
	// What the collector streamed of the incident's cluster during its time window comes
	// first, so that an uploaded snapshot of the same pod or node, read later, has the last say.
	var in incidentRow
	if err := db.Select("cluster_id, started_at, ended_at").Where("id = ?", incidentID).Take(&in).Error; err != nil {
		return nil, nil, wrap(err, "incident %s", incidentID)
	}
	if in.ClusterID != nil && in.StartedAt != nil {
		to := time.Now().UTC()
		if in.EndedAt != nil {
			to = *in.EndedAt
		}
		collected, err := s.clusterObjects(ctx, *in.ClusterID, *in.StartedAt, to, ids)
		if err != nil {
			return nil, nil, wrap(err, "collected objects of incident %s", incidentID)
		}
		if len(collected) > 0 {
			files = append([]string{CollectedFile}, files...)
			objs = append(collected, objs...)
		}
	}
	return files, objs, nil
}

func (s *Store) snapshotObjects(ctx context.Context, snap int64) ([]*cluster.Object, error) {
	db := s.db.WithContext(ctx)
	var out []*cluster.Object
	var pods []podRow
	if err := db.Where("snapshot_id = ?", snap).Order("id").Find(&pods).Error; err != nil {
		return nil, err
	}
	for _, r := range pods {
		p := new(corev1.Pod)
		if err := s.unpack(r.Raw, p); err != nil {
			return nil, fmt.Errorf("pod %s/%s: %w", r.Namespace, r.Name, err)
		}
		out = append(out, &cluster.Object{APIVersion: "v1", Kind: cluster.KindPod, Namespace: r.Namespace, Name: r.Name, UID: r.UID,
			Source: cluster.Source{File: r.SourceFile, Line: r.SourceLine}, Pod: p})
	}
	var nodes []nodeRow
	if err := db.Where("snapshot_id = ?", snap).Order("id").Find(&nodes).Error; err != nil {
		return nil, err
	}
	for _, r := range nodes {
		n := new(corev1.Node)
		if err := s.unpack(r.Raw, n); err != nil {
			return nil, fmt.Errorf("node %s: %w", r.Name, err)
		}
		out = append(out, &cluster.Object{APIVersion: "v1", Kind: cluster.KindNode, Name: r.Name, UID: r.UID,
			Source: cluster.Source{File: r.SourceFile, Line: r.SourceLine}, Node: n})
	}
	var others []objectRow
	if err := db.Where("snapshot_id = ?", snap).Order("id").Find(&others).Error; err != nil {
		return nil, err
	}
	for _, r := range others {
		raw, err := s.gz.decompress(r.Raw)
		if err != nil {
			return nil, err
		}
		out = append(out, &cluster.Object{APIVersion: r.APIVersion, Kind: r.Kind, Namespace: r.Namespace, Name: r.Name, UID: r.UID,
			Source: cluster.Source{File: r.SourceFile, Line: r.SourceLine}, Raw: raw})
	}
	return out, nil
}

// snapshotEvents loads the events the snapshots carried, each once, with the provenance of
// its first sighting and the merged count and times.
func (s *Store) snapshotEvents(ctx context.Context, snaps []int64) ([]*cluster.Object, error) {
	if len(snaps) == 0 {
		return nil, nil
	}
	// An incident can carry 100,000 events: the columns it needs, scanned by hand (gorm's
	// reflection per row cost more than the query).
	rows, err := s.db.WithContext(ctx).Table("events").
		Select("events.id, events.api_version, events.namespace, events.name, events.uid, events.count, events.first_at, events.last_at, events.raw, "+
			"snapshot_events.source_file, snapshot_events.source_line, snapshot_events.snapshot_id").
		Joins("JOIN snapshot_events ON snapshot_events.event_id = events.id").
		Where("snapshot_events.snapshot_id IN ?", snaps).Rows() // sorted below: a database sorting the rows with their raw bytes took seconds

	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var (
		evs  []eventRow
		srcs []cluster.Source
		from []int64 // the snapshot of each row
	)
	for rows.Next() {
		var (
			r           eventRow
			src         cluster.Source
			first, last sql.NullTime
			snap        int64
		)
		if err := rows.Scan(&r.ID, &r.APIVersion, &r.Namespace, &r.Name, &r.UID, &r.Count, &first, &last, &r.Raw, &src.File, &src.Line, &snap); err != nil {
			return nil, err
		}
		r.FirstAt, r.LastAt = nullTime(first), nullTime(last)
		evs, srcs, from = append(evs, r), append(srcs, src), append(from, snap)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// In time order, and each event's rows by snapshot, so that its first sighting is the one
	// of the first snapshot that carried it.
	order := make([]int, len(evs))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool {
		x, y := &evs[order[a]], &evs[order[b]]
		if c := compareTimes(x.FirstAt, y.FirstAt); c != 0 {
			return c < 0
		}
		if x.ID != y.ID {
			return x.ID < y.ID
		}
		return from[order[a]] < from[order[b]]
	})
	sortedEvs, sortedSrcs := make([]eventRow, len(evs)), make([]cluster.Source, len(evs))
	for i, j := range order {
		sortedEvs[i], sortedSrcs[i] = evs[j], srcs[j]
	}
	evs, srcs = sortedEvs, sortedSrcs
	// An event carried by several snapshots, or stored on several days, comes in several rows.
	evs, srcs = mergeEventRows(evs, srcs)
	// Decompressing and decoding is most of the time: spread over the processors.
	out := make([]*cluster.Object, len(evs))
	errs := make([]error, len(evs))
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), max(len(evs)/1000, 1))
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(evs); i += workers {
				r := &evs[i]
				e, err := s.storedEvent(r.Raw, r.Count, r.FirstAt, r.LastAt)
				if err != nil {
					errs[i] = fmt.Errorf("event %s: %w", r.ID, err)
					continue
				}
				out[i] = &cluster.Object{APIVersion: r.APIVersion, Kind: cluster.KindEvent, Namespace: r.Namespace, Name: r.Name, UID: r.UID,
					Source: srcs[i], Event: e}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *Store) unpack(stored []byte, v any) error {
	raw, err := s.gz.decompress(stored)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, v)
}

func nullTime(t sql.NullTime) *time.Time {
	if !t.Valid {
		return nil
	}
	return &t.Time
}
