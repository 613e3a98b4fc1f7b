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

// SnapshotObjects decodes the pods, nodes and other objects of a snapshot (not its events),
// each with the file and line it came from, in the order they were written.
func (s *Store) SnapshotObjects(ctx context.Context, snap int64) ([]*cluster.Object, error) {
	db := s.db.WithContext(ctx)
	var out []*cluster.Object
	var pods []podRow
	if err := db.Where("snapshot_id = ?", snap).Order("id").Find(&pods).Error; err != nil {
		return nil, err
	}
	for _, r := range pods {
		p := new(cluster.Pod) // only what Rootline reads of it: the rest of the JSON is skipped
		if err := s.unpack(r.Raw, p); err != nil {
			return nil, fmt.Errorf("pod %s/%s: %w", r.Namespace, r.Name, err)
		}
		out = append(out, &cluster.Object{APIVersion: "v1", Kind: cluster.KindPod, Namespace: r.Namespace, Name: r.Name, UID: r.UID,
			Source: cluster.Source{File: r.SourceFile, Line: cluster.LineOf(r.SourceLine)}, Pod: p, Printed: cluster.NewPrinted(nil, listedAge(r.ListedAgeSeconds))})
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
		o := &cluster.Object{APIVersion: "v1", Kind: cluster.KindNode, Name: r.Name, UID: r.UID,
			Source: cluster.Source{File: r.SourceFile, Line: cluster.LineOf(r.SourceLine)}, Node: n}
		if r.DescribeAllocated != nil {
			var alloc []cluster.Allocation
			if err := json.Unmarshal([]byte(*r.DescribeAllocated), &alloc); err != nil {
				return nil, fmt.Errorf("node %s: its Allocated resources: %w", r.Name, err)
			}
			o.Printed = cluster.NewPrinted(alloc, 0)
		}
		out = append(out, o)
	}
	var others []objectRow
	if err := db.Where("snapshot_id = ?", snap).Order("id").Find(&others).Error; err != nil {
		return nil, err
	}
	for _, r := range others {
		raw, err := s.raw.decompress(r.Raw)
		if err != nil {
			return nil, err
		}
		out = append(out, &cluster.Object{APIVersion: r.APIVersion, Kind: r.Kind, Namespace: r.Namespace, Name: r.Name, UID: r.UID,
			Source: cluster.Source{File: r.SourceFile, Line: cluster.LineOf(r.SourceLine)}, Raw: raw, Printed: cluster.NewPrinted(nil, listedAge(r.ListedAgeSeconds))})
	}
	return out, nil
}

// carriedRows reads the rows of the events the snapshots carried (only those of the ids given,
// unless nil), merges each event's rows, decodes it and adds it to out by id.
func (s *Store) carriedRows(ctx context.Context, snaps []int64, only []string, out map[string]DecodedEvent) error {
	// An incident can carry 100,000 events: the columns it needs, scanned by hand (gorm's
	// reflection per row cost more than the query).
	q := s.db.WithContext(ctx).Table("events").
		Select("events.id, events.api_version, events.namespace, events.name, events.uid, events.count, events.first_at, events.last_at, events.raw, "+
			"snapshot_events.source_file, snapshot_events.source_line, snapshot_events.loose, snapshot_events.snapshot_id, "+s.rowPrint("snapshot_events.snapshot_id")).
		Joins("JOIN snapshot_events ON snapshot_events.event_id = events.id").
		Where("snapshot_events.snapshot_id IN ?", snaps)
	if only != nil {
		q = q.Where("events.id IN ?", only)
	}
	rows, err := q.Rows() // sorted below: a database sorting the rows with their raw bytes took seconds
	if err != nil {
		return err
	}
	defer rows.Close()
	var (
		evs    []eventRow
		srcs   []cluster.Source
		from   []int64 // the snapshot of each row
		prints = map[string][]string{}
	)
	for rows.Next() {
		var (
			r           eventRow
			src         cluster.Source
			first, last sql.NullTime
			snap        int64
			print       string
		)
		if err := rows.Scan(&r.ID, &r.APIVersion, &r.Namespace, &r.Name, &r.UID, &r.Count, &first, &last, &r.Raw, &src.File, &src.Line, &src.Loose, &snap, &print); err != nil {
			return err
		}
		r.FirstAt, r.LastAt = nullTime(first), nullTime(last)
		evs, srcs, from = append(evs, r), append(srcs, src), append(from, snap)
		prints[r.ID] = append(prints[r.ID], print)
	}
	if err := rows.Err(); err != nil {
		return err
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
	objs, err := s.decodeEvents(evs, func(i int) cluster.Source { return srcs[i] }, false)
	if err != nil {
		return err
	}
	for i, r := range evs {
		out[r.ID] = DecodedEvent{Print: printOf(prints[r.ID]), Rows: len(prints[r.ID]), First: r.FirstAt, Object: objs[i]}
	}
	return nil
}

// decodeEvents decodes merged event rows, each with the source src gives it, named as its row
// says or, for what the collector sent (collected), as the event says. Decompressing and
// decoding is most of the time: spread over the processors.
func (s *Store) decodeEvents(evs []eventRow, src func(i int) cluster.Source, collected bool) ([]*cluster.Object, error) {
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
					Source: src(i), Event: e}
				if collected {
					out[i].APIVersion, out[i].Namespace, out[i].Name, out[i].UID = "v1", e.Namespace, e.Name, string(e.UID)
				}
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
	raw, err := s.raw.decompress(stored)
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
