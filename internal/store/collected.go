package store

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/change"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// stateRow is one version of a pod or node as the collector saw it.
type stateRow struct {
	ID              int64 `gorm:"primaryKey"`
	ClusterID       int64
	Kind            string
	Namespace       string
	Name            string
	UID             string
	ResourceVersion string
	ObservedAt      time.Time
	State           string
	Raw             []byte
	ChangedGen      int64 // the cluster's generation that stored it (see pendingGen)
}

func (stateRow) TableName() string { return "object_states" }

// CollectedCounts says what a batch of the collector stored.
type CollectedCounts struct {
	Events  int // events new or changed (a higher count, a wider time span)
	States  int // new states of pods, nodes, workloads and ConfigMaps
	Known   int // states already stored (a batch delivered again)
	Ignored int // objects of other kinds
}

// collectedBatch is how many rows one statement writes.
const collectedBatch = 500

// StoreCollected stores a batch of the collector for a cluster (created when new), in one
// transaction (run again when it collides with a concurrent one): events are upserted like
// any sighting (the count only grows); each pod, node, workload and ConfigMap is a state (a
// version of it), kept once per uid and resourceVersion, so that a batch delivered twice
// changes nothing. Each object is dated by when the collector saw it (Source.ObservedAt), else
// by now. The objects are only read.
func (s *Store) StoreCollected(ctx context.Context, clusterName string, objs []*cluster.Object, now time.Time) (CollectedCounts, error) {
	var n CollectedCounts
	if err := s.ensureEventDays(ctx, storageDays(now)...); err != nil {
		return n, err
	}
	day := dayOf(now)
	err := s.inConnTx(ctx, func(c *connTx) error {
		tx := c.tx.WithContext(ctx)
		n = CollectedCounts{}
		cid, err := clusterID(ctx, tx, clusterName)
		if err != nil {
			return err
		}
		events := map[string]eventRow{}
		var states []stateRow
		for _, o := range objs {
			at := now.UTC()
			if o.Source.ObservedAt != nil {
				at = o.Source.ObservedAt.UTC()
			}
			js, err := o.JSON()
			if err != nil {
				return err
			}
			raw, err := s.pack(js)
			if err != nil {
				return err
			}
			switch {
			case o.Event != nil:
				r := newEventRow(cid, o, raw, day)
				r.ChangedGen = pendingGen
				if old, ok := events[r.ID]; ok {
					r = merge(old, r)
				}
				events[r.ID] = r
			case o.Pod != nil:
				states = append(states, stateRow{ClusterID: cid, Kind: cluster.KindPod, Namespace: o.Pod.Namespace, Name: o.Pod.Name,
					UID: string(o.Pod.UID), ResourceVersion: o.Pod.ResourceVersion, ObservedAt: at, State: cluster.PodState(o.Pod), Raw: raw, ChangedGen: pendingGen})
			case o.Node != nil:
				r := stateRow{ClusterID: cid, Kind: cluster.KindNode, Name: o.Node.Name,
					UID: string(o.Node.UID), ResourceVersion: o.Node.ResourceVersion, ObservedAt: at, State: cluster.NodeState(o.Node), Raw: raw, ChangedGen: pendingGen}
				if o.Source.Deleted {
					// Its last version, seen deleted: a state of its own (its resourceVersion
					// is that of the last version stored).
					r.State, r.ResourceVersion = DeletedState, r.ResourceVersion+"/deleted"
				}
				states = append(states, r)
			case o.Raw != nil && slices.Contains(change.Watched, o.Kind):
				// A workload or ConfigMap whose compared fields changed (the collector sends
				// no other): a version of it, for what changed (change.Over).
				states = append(states, stateRow{ClusterID: cid, Kind: o.Kind, Namespace: o.Namespace, Name: o.Name,
					UID: o.UID, ResourceVersion: resourceVersion(o.Raw), ObservedAt: at, Raw: raw, ChangedGen: pendingGen})
			default:
				n.Ignored++
			}
		}
		changed, err := s.upsertEvents(ctx, c, events, false)
		if err != nil {
			return err
		}
		n.Events = changed
		// In key order, so that concurrent batches lock rows in the same order.
		sort.Slice(states, func(i, j int) bool {
			if states[i].UID != states[j].UID {
				return states[i].UID < states[j].UID
			}
			return states[i].ResourceVersion < states[j].ResourceVersion
		})
		for start := 0; start < len(states); start += collectedBatch {
			chunk := states[start:min(start+collectedBatch, len(states))]
			res := tx.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "cluster_id"}, {Name: "uid"}, {Name: "resource_version"}}, DoNothing: true}).
				Create(&chunk)
			if res.Error != nil {
				return res.Error
			}
			n.States += int(res.RowsAffected)
		}
		n.Known = len(states) - n.States
		if n.Events == 0 && n.States == 0 {
			return nil // nothing changed: a batch delivered again
		}
		gen, err := nextGeneration(tx, cid)
		if err != nil {
			return err
		}
		return markChanged(tx, cid, gen)
	})
	return n, wrap(err, "store %d collected objects of %s", len(objs), clusterName)
}

// DeletedState is the state of a node the collector saw deleted, stored as it was last: the
// incident's model holds it so (it was there), the deletion is a state change, and the node
// gone is a change (change.Over).
const DeletedState = "deleted"

// stateKinds are the kinds whose states are state changes (StateChange): the versions of
// workloads and ConfigMaps are read for what changed in them (Evidence.Versions).
var stateKinds = []string{cluster.KindPod, cluster.KindNode}

// StateChange is a pod or node state the collector saw.
type StateChange struct {
	At                    time.Time
	Kind, Namespace, Name string
	State                 string

	// Row is the state's row, which orders states seen at the same time.
	Row int64
}

// clusterStates returns the states q selects (by cluster) observed within [from, to], oldest first.
func (s *Store) clusterStates(q *gorm.DB, from, to time.Time) ([]StateChange, error) {
	var rows []stateRow
	err := q.Select("object_states.id, object_states.kind, object_states.namespace, object_states.name, object_states.observed_at, object_states.state").
		Where("object_states.observed_at BETWEEN ? AND ?", from.UTC(), to.UTC()).Where("object_states.kind IN ?", stateKinds).
		Order("object_states.observed_at, object_states.id").Find(&rows).Error
	if err != nil {
		return nil, err
	}
	out := make([]StateChange, len(rows))
	for i, r := range rows {
		out[i] = StateChange{At: r.ObservedAt.UTC(), Kind: r.Kind, Namespace: r.Namespace, Name: r.Name, State: r.State, Row: r.ID}
	}
	return out, nil
}

// collectedRows reads collected events (the query's FROM, WHERE and ORDER BY, naming the
// events table "events", with its arguments), merges each event's rows, decodes it and adds
// it to out by id.
func (s *Store) collectedRows(ctx context.Context, query string, args []any, out map[string]DecodedEvent) error {
	var evs []eventRow
	if err := s.db.WithContext(ctx).Raw("SELECT events.* "+query, args...).Scan(&evs).Error; err != nil {
		return wrap(err, "collected events")
	}
	rows := map[string]int{}
	for _, r := range evs {
		rows[r.ID]++
	}
	evs, _ = mergeEventRows(evs, nil)
	objs, err := s.decodeEvents(evs, func(int) cluster.Source { return cluster.Source{File: CollectedFile} }, true)
	if err != nil {
		return fmt.Errorf("collected %w", err)
	}
	for i, r := range evs {
		out[r.ID] = DecodedEvent{Rows: rows[r.ID], First: r.FirstAt, Object: objs[i]}
	}
	return nil
}

// decodeState decodes a collected state: a pod or node, or a workload or ConfigMap (as its
// JSON); nil for another kind.
func (s *Store) decodeState(r stateRow) (*cluster.Object, error) {
	src := cluster.Source{File: CollectedFile}
	switch r.Kind {
	case cluster.KindPod:
		p := new(cluster.Pod) // only what Rootline reads of it: the rest of the JSON is skipped
		if err := s.unpack(r.Raw, p); err != nil {
			return nil, fmt.Errorf("collected pod %s/%s: %w", r.Namespace, r.Name, err)
		}
		return &cluster.Object{APIVersion: "v1", Kind: r.Kind, Namespace: r.Namespace, Name: r.Name, UID: r.UID, Source: src, Pod: p}, nil
	case cluster.KindNode:
		n := new(corev1.Node)
		if err := s.unpack(r.Raw, n); err != nil {
			return nil, fmt.Errorf("collected node %s: %w", r.Name, err)
		}
		return &cluster.Object{APIVersion: "v1", Kind: r.Kind, Name: r.Name, UID: r.UID, Source: src, Node: n}, nil
	}
	if !slices.Contains(change.Watched, r.Kind) {
		return nil, nil
	}
	raw, err := s.raw.decompress(r.Raw)
	if err != nil {
		return nil, fmt.Errorf("collected %s %s/%s: %w", r.Kind, r.Namespace, r.Name, err)
	}
	var head struct {
		APIVersion string `json:"apiVersion"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, fmt.Errorf("collected %s %s/%s: %w", r.Kind, r.Namespace, r.Name, err)
	}
	return &cluster.Object{APIVersion: head.APIVersion, Kind: r.Kind, Namespace: r.Namespace, Name: r.Name, UID: r.UID, Source: src, Raw: raw}, nil
}

// resourceVersion reads an object's resourceVersion off its JSON ("" when it has none).
func resourceVersion(raw []byte) string {
	var head struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	}
	_ = json.Unmarshal(raw, &head) // ingest decoded it already
	return head.Metadata.ResourceVersion
}

// CollectedFile names what the collector streamed, where evidence names a file.
const CollectedFile = "collected"

// Version names the state of everything an incident's analysis and timeline are made of, in
// two parts: Evidence, what the analysis is made of (the incident's window and cluster, its
// snapshots, what is stored of the clusters involved), and Record, the rest of what the pages
// show (the incident's row, its notes). Two equal versions mean what was made at the first is
// still right at the second; two equal Evidence parts mean the analysis is.
type Version struct {
	Evidence string
	Record   string
}

// IncidentVersion returns the incident's version: one query, on keys and indexes.
// ErrNotFound when the incident does not exist.
func (s *Store) IncidentVersion(ctx context.Context, incidentID string) (Version, error) {
	var v struct {
		UpdatedAt   time.Time
		StartedAt   *time.Time
		EndedAt     *time.Time
		ClusterID   *int64
		Snapshots   int64
		LastSnap    int64
		Notes       int64
		LastNote    int64
		Generation  int64
		Generations int64
	}
	res := s.db.WithContext(ctx).Raw(`SELECT i.updated_at, i.started_at, i.ended_at, i.cluster_id,
		(SELECT count(*) FROM incident_snapshots s WHERE s.incident_id = i.id) AS snapshots,
		(SELECT coalesce(max(s.snapshot_id), 0) FROM incident_snapshots s WHERE s.incident_id = i.id) AS last_snap,
		(SELECT count(*) FROM notes n WHERE n.incident_id = i.id) AS notes,
		(SELECT coalesce(max(n.id), 0) FROM notes n WHERE n.incident_id = i.id) AS last_note,
		coalesce((SELECT c.generation FROM clusters c WHERE c.id = i.cluster_id), 0) AS generation,
		(SELECT coalesce(sum(c.generation), 0) FROM incident_snapshots s JOIN snapshots sn ON sn.id = s.snapshot_id
			JOIN clusters c ON c.id = sn.cluster_id WHERE s.incident_id = i.id) AS generations
		FROM incidents i WHERE i.id = ?`, incidentID).Scan(&v)
	if res.Error != nil {
		return Version{}, wrap(res.Error, "version of incident %s", incidentID)
	}
	if res.RowsAffected == 0 {
		return Version{}, wrap(ErrNotFound, "version of incident %s", incidentID)
	}
	nano := func(t *time.Time) int64 {
		if t == nil {
			return 0
		}
		return t.UnixNano()
	}
	var cid int64
	if v.ClusterID != nil {
		cid = *v.ClusterID
	}
	return Version{
		Evidence: fmt.Sprintf("%d.%d.%d/%d.%d/%d.%d", nano(v.StartedAt), nano(v.EndedAt), cid, v.Snapshots, v.LastSnap, v.Generation, v.Generations),
		Record:   fmt.Sprintf("%d/%d.%d", v.UpdatedAt.UnixNano(), v.Notes, v.LastNote),
	}, nil
}
