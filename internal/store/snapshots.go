package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/ingest"
)

// DefaultCluster names the cluster of uploads that neither name one nor belong to an incident
// that does.
const DefaultCluster = "unnamed"

// batchSize is how many rows a flush hands to the writer at once on SQLite (PostgreSQL copies
// copyBatch); each goes in INSERTs of a few rows (rowsPerInsert).
const batchSize = 1000

type snapshotRow struct {
	ID         int64 `gorm:"primaryKey"`
	Digest     string
	ClusterID  int64
	Bytes      int64
	Files      string
	Objects    string
	Skipped    string
	CreatedAt  time.Time
	ExpiredAt  *time.Time // when its objects were deleted (see Expire)
	ChangedGen int64      // the cluster's generation its commit made: its events changed then
	// EvidenceFrom and EvidenceTo are the span of the times its evidence records (see
	// evidenceSpan), nil when it records none: they make the window of an incident without
	// a start (incidentWindow).
	EvidenceFrom, EvidenceTo *time.Time
}

func (snapshotRow) TableName() string { return "snapshots" }

type incidentSnapshotRow struct {
	IncidentID string
	SnapshotID int64
	AttachedAt time.Time
}

func (incidentSnapshotRow) TableName() string { return "incident_snapshots" }

// SnapshotFile is one file of a snapshot. Its JSON is how a snapshot's files are stored (the
// snapshots.files column), not an answer of the API.
type SnapshotFile struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
	Bytes  int64  `json:"bytes"`
}

// SnapshotMeta describes a snapshot before its objects are read.
type SnapshotMeta struct {
	Digest   string
	Incident string
	// Create, when set, is a new incident (of id Incident) created with the snapshot, in its
	// transaction: when the upload fails or is abandoned, the incident is not left behind.
	// BeginSnapshot fails with ErrIncidentExists when the id is taken.
	Create  *incident.Incident
	Cluster string // "" for the incident's cluster, or DefaultCluster
	Bytes   int64
	// Files are the snapshot's files; each of several is written as a part of it (Mark), as
	// the server does, so that an unreadable one can be dropped.
	Files []SnapshotFile
	// Decoded is what the files decode to, in bytes (a gzip file by what it unpacks to), which
	// the page cache of the transaction that stores them is sized by on SQLite (BulkCache); 0
	// for Bytes.
	Decoded int64
	// CacheLimit is the most memory that page cache may take: the part of the server's memory
	// budget left to it. The cache is given a floor whatever the limit (0: the floor alone).
	CacheLimit int64
}

// Snapshot is a stored snapshot.
type Snapshot struct {
	ID        string // the digest
	Cluster   string
	Bytes     int64
	Files     []SnapshotFile
	Objects   map[string]int
	Skipped   []ingest.Skipped
	CreatedAt time.Time
}

// AttachSnapshot links an already stored snapshot to an incident (again, harmlessly) and
// returns it; ErrNotFound when no snapshot has that digest (or its objects expired) or the
// incident does not exist.
func (s *Store) AttachSnapshot(ctx context.Context, digest, incidentID string) (*Snapshot, error) {
	var out *Snapshot
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := incidentExists(ctx, tx, incidentID); err != nil {
			return err
		}
		var row snapshotRow
		// A snapshot whose objects expired is as good as absent: the caller stores it anew.
		if err := tx.Where("digest = ? AND expired_at IS NULL", digest).Take(&row).Error; err != nil {
			return err
		}
		link := incidentSnapshotRow{IncidentID: incidentID, SnapshotID: row.ID, AttachedAt: time.Now().UTC()}
		if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&link).Error; err != nil {
			return err
		}
		var err error
		out, err = snapshotFromRow(ctx, tx, row)
		return err
	})
	return out, wrap(err, "attach snapshot %s to %s", digest, incidentID)
}

func incidentExists(ctx context.Context, db *gorm.DB, id string) error {
	if !incident.ValidID(id) { // no incident has it (and PostgreSQL refuses a NUL in text)
		return fmt.Errorf("incident %.64q: %w", id, ErrNotFound)
	}
	var n int64
	if err := db.WithContext(ctx).Model(&incidentRow{}).Where("id = ?", id).Count(&n).Error; err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("incident %s: %w", id, ErrNotFound)
	}
	return nil
}

func snapshotFromRow(ctx context.Context, db *gorm.DB, row snapshotRow) (*Snapshot, error) {
	snap := &Snapshot{ID: row.Digest, Bytes: row.Bytes, CreatedAt: row.CreatedAt.UTC()}
	if err := json.Unmarshal([]byte(row.Skipped), &snap.Skipped); err != nil {
		return nil, fmt.Errorf("snapshot %s skipped list: %w", row.Digest, err)
	}

	if err := json.Unmarshal([]byte(row.Files), &snap.Files); err != nil {
		return nil, fmt.Errorf("snapshot %s files: %w", row.Digest, err)
	}
	if err := json.Unmarshal([]byte(row.Objects), &snap.Objects); err != nil {
		return nil, fmt.Errorf("snapshot %s objects: %w", row.Digest, err)
	}
	err := db.WithContext(ctx).Model(&clusterRow{}).Where("id = ?", row.ClusterID).Pluck("name", &snap.Cluster).Error
	return snap, err
}

// SnapshotWriter stores one snapshot's objects inside one transaction: either all of it is
// stored (Commit) or none of it (Rollback, or any error). It is not safe for concurrent use.
type SnapshotWriter struct {
	s       *Store
	tx      *gorm.DB
	row     snapshotRow
	cluster string
	counts  map[string]int
	seen    map[string]cluster.Source // kind/namespace/name → where it was first seen
	evSeen  map[string]bool           // ids of the events in this snapshot
	span    evidenceSpan              // the times its objects record
	batch   *rowBatch                 // the rows being gathered
	c       *connTx                   // the transaction (tx is c.tx)
	day     string                    // the day events are stored on
	writing chan error                // the batch being written, when one is
	err     error                     // the first error writing a batch
	part    *partUndo                 // what to undo should the part begun by Mark be dropped
	done    bool
}

// partUndo is what a part of a snapshot (see Mark) added to the writer's own bookkeeping.
type partUndo struct {
	counts map[string]int // the counts before the part
	span   evidenceSpan   // the span before the part
	seen   []string       // keys the part added to seen
	events []string       // event ids the part added to evSeen
}

// rowBatch is the rows of a snapshot written together.
type rowBatch struct {
	pods    []podRow
	conts   []containerRow
	nodes   []nodeRow
	objects []objectRow
	events  map[string]eventRow // by id, merged within the batch
	links   []snapshotEventRow
}

func newRowBatch() *rowBatch { return &rowBatch{events: map[string]eventRow{}} }

func (b *rowBatch) size() int {
	return max(len(b.pods)+len(b.nodes)+len(b.objects)+len(b.events), len(b.conts))
}

// ErrDuplicate is returned by Add for an object already in the snapshot.
var ErrDuplicate = errors.New("duplicate object")

// BeginSnapshot starts storing a snapshot. It returns ErrExists when a snapshot with the same
// digest is stored already (then use AttachSnapshot), ErrNotFound when the incident does not
// exist, and ErrIncidentExists when it is to be created (m.Create) and exists. The caller must
// Commit or Rollback the writer.
func (s *Store) BeginSnapshot(ctx context.Context, m SnapshotMeta) (*SnapshotWriter, error) {
	now := s.now()
	if err := s.ensureEventDays(ctx, storageDays(now)...); err != nil {
		return nil, err
	}
	c, err := s.beginBulkTx(ctx, bulkCachePages(m), len(m.Files) > 1)
	if err != nil {
		return nil, wrap(err, "begin snapshot")
	}
	w, err := s.beginSnapshot(ctx, c.tx, m)
	if err != nil {
		c.rollback()
		if errors.Is(err, gorm.ErrDuplicatedKey) {
			err = ErrExists
		}
		return nil, wrap(err, "begin snapshot %s", m.Digest)
	}
	w.c, w.day = c, dayOf(now)
	return w, nil
}

func (s *Store) beginSnapshot(ctx context.Context, tx *gorm.DB, m SnapshotMeta) (*SnapshotWriter, error) {
	var old []snapshotRow
	if err := tx.Where("digest = ?", m.Digest).Limit(1).Find(&old).Error; err != nil {
		return nil, err
	}
	if len(old) > 0 && old[0].ExpiredAt == nil {
		return nil, gorm.ErrDuplicatedKey
	}
	if m.Create != nil {
		// In the snapshot's transaction: a refused upload leaves no incident behind.
		m.Create.ID = m.Incident
		if err := s.insertIncident(ctx, tx, m.Create); err != nil {
			if errors.Is(err, ErrExists) {
				return nil, fmt.Errorf("incident %s: %w", m.Incident, ErrIncidentExists)
			}
			return nil, err
		}
	}
	var inc incidentRow
	if err := tx.Where("id = ?", m.Incident).Take(&inc).Error; err != nil {
		return nil, fmt.Errorf("incident %s: %w", m.Incident, err)
	}
	name := m.Cluster
	if name == "" && inc.ClusterID != nil {
		if err := tx.Model(&clusterRow{}).Where("id = ?", *inc.ClusterID).Pluck("name", &name).Error; err != nil {
			return nil, err
		}
	}
	if name == "" {
		name = DefaultCluster
	}
	cid, err := clusterID(ctx, tx, name)
	if err != nil {
		return nil, err
	}
	files, _ := json.Marshal(m.Files)
	// PostgreSQL keeps microseconds: truncate, so that the caller gets what is read back later.
	now := time.Now().UTC().Truncate(time.Microsecond)
	row := snapshotRow{Digest: m.Digest, ClusterID: cid, Bytes: m.Bytes, Files: string(files), Objects: "{}", Skipped: "[]", CreatedAt: now}
	switch {
	case len(old) > 0:
		// The same files again after their objects expired: the snapshot is stored anew, under
		// its row, so that the incidents it was attached to get their evidence back.
		row.ID = old[0].ID
		if err := tx.Model(&snapshotRow{}).Where("id = ?", row.ID).
			UpdateColumns(map[string]any{"cluster_id": cid, "created_at": now, "expired_at": nil, "objects": "{}", "skipped": "[]"}).Error; err != nil {
			return nil, err
		}
	default:
		if err := tx.Create(&row).Error; err != nil {
			return nil, err
		}
	}
	if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&incidentSnapshotRow{IncidentID: m.Incident, SnapshotID: row.ID, AttachedAt: now}).Error; err != nil {
		return nil, err
	}
	return &SnapshotWriter{s: s, tx: tx, row: row, cluster: name, counts: map[string]int{},
		seen: map[string]cluster.Source{}, evSeen: map[string]bool{}, batch: newRowBatch()}, nil
}

// Add stores one object (in batches). An object already in the snapshot returns an error
// wrapping ErrDuplicate, naming where the first one came from; the writer stays usable.
func (w *SnapshotWriter) Add(ctx context.Context, o *cluster.Object) error {
	if w.err != nil {
		return w.err
	}
	if o.Kind != cluster.KindEvent {
		key := o.Kind + "/" + o.Namespace + "/" + o.Name
		if o.Name == "" {
			key += "@" + o.Source.String() // a fragment a paste did not name: each its own
		}
		if first, ok := w.seen[key]; ok {
			return fmt.Errorf("%s is already in this snapshot (from %s): %w", o.Ref(), first, ErrDuplicate)
		}
		w.seen[key] = o.Source
		if w.part != nil {
			w.part.seen = append(w.part.seen, key)
		}
	}
	js, err := objectJSON(o)
	if err != nil {
		return err
	}
	raw, err := w.s.pack(js)
	if err != nil {
		return err
	}
	if o.Event == nil {
		w.counts[o.Kind]++
	}
	w.span.see(o)
	switch {
	case o.Pod != nil:
		p, cs := newPodRows(w.row.ID, o, raw)
		w.batch.pods = append(w.batch.pods, p)
		w.batch.conts = append(w.batch.conts, cs...)
	case o.Node != nil:
		w.batch.nodes = append(w.batch.nodes, newNodeRow(w.row.ID, o, raw))
	case o.Event != nil:
		r := newEventRow(w.row.ClusterID, o, raw, w.day)
		if !w.evSeen[r.ID] { // an event met twice in one snapshot is one event, sighted twice
			w.evSeen[r.ID] = true
			if w.part != nil {
				w.part.events = append(w.part.events, r.ID)
			}
			w.counts[o.Kind]++
			w.batch.links = append(w.batch.links, snapshotEventRow{SnapshotID: w.row.ID, EventID: r.ID, SourceFile: o.Source.File, SourceLine: int(o.Source.Line), Loose: o.Source.Loose})
		}
		w.addEvent(r)
	default:
		w.batch.objects = append(w.batch.objects, objectRow{SnapshotID: w.row.ID, APIVersion: o.APIVersion, Kind: o.Kind,
			Namespace: o.Namespace, Name: o.Name, UID: o.UID, SourceFile: o.Source.File, SourceLine: int(o.Source.Line), Raw: raw,
			ListedAgeSeconds: listedSeconds(o.ListedAge())})
	}
	limit := batchSize
	if w.c.conn != nil {
		limit = copyBatch
	}
	if w.batch.size() >= limit {
		return w.flush(ctx)
	}
	return nil
}

// flush hands the batch gathered to a goroutine that writes it, and starts the next: the
// caller makes the rows of one batch (marshalling, compressing) while the database stores the
// one before. At most one batch is being written at a time, on the writer's transaction,
// which nothing else uses meanwhile.
func (w *SnapshotWriter) flush(ctx context.Context) error {
	if err := w.wait(); err != nil {
		return err
	}
	b := w.batch
	w.batch = newRowBatch()
	w.writing = make(chan error, 1)
	go func() { w.writing <- w.write(ctx, b) }()
	return nil
}

// wait waits for the batch being written, and returns the first error of any.
func (w *SnapshotWriter) wait() error {
	if w.writing != nil {
		if err := <-w.writing; err != nil && w.err == nil {
			w.err = err
		}
		w.writing = nil
	}
	return w.err
}

// write writes a batch: through COPY on PostgreSQL, in multi-row INSERTs on SQLite (putAll).
func (w *SnapshotWriter) write(ctx context.Context, b *rowBatch) error {
	if err := putAll(ctx, w.c, "pods", podColumns, &b.pods); err != nil {
		return err
	}
	if err := putAll(ctx, w.c, "pod_containers", containerColumns, &b.conts); err != nil {
		return err
	}
	if err := putAll(ctx, w.c, "nodes", nodeColumns, &b.nodes); err != nil {
		return err
	}
	if err := putAll(ctx, w.c, "objects", objectColumns, &b.objects); err != nil {
		return err
	}
	if len(b.events) > 0 {
		if _, err := w.s.upsertEvents(ctx, w.c, b.events, true); err != nil {
			return err
		}
	}
	return putAll(ctx, w.c, "snapshot_events", linkColumns, &b.links)
}

// partSavepoint marks the start of a part of a snapshot in its transaction.
const partSavepoint = "rootline_part"

// Mark begins a part of the snapshot that may yet be dropped: a file of several, which an
// upload stores as it decodes it but skips, nothing of it kept, should it turn out unreadable
// part way. Drop abandons what was added since, Keep keeps it; parts do not nest. Marking
// writes what is buffered, so that the part starts on a batch of its own.
func (w *SnapshotWriter) Mark(ctx context.Context) error {
	if w.part != nil {
		return errors.New("store: a part of the snapshot is open already")
	}
	if err := w.settle(ctx); err != nil {
		return err
	}
	if err := w.tx.WithContext(ctx).SavePoint(partSavepoint).Error; err != nil {
		return w.fail(wrap(err, "begin part of snapshot"))
	}
	w.part = &partUndo{counts: maps.Clone(w.counts), span: w.span}
	return nil
}

// Keep ends the part begun by Mark, keeping what it added.
func (w *SnapshotWriter) Keep(ctx context.Context) error {
	if w.part == nil {
		return errors.New("store: no part of the snapshot is open")
	}
	w.part = nil
	if err := w.wait(); err != nil {
		return err
	}
	if err := w.tx.WithContext(ctx).Exec("RELEASE SAVEPOINT " + partSavepoint).Error; err != nil {
		return w.fail(wrap(err, "keep part of snapshot"))
	}
	return nil
}

// Drop abandons what was added since Mark: its rows, the counts and the objects it made
// known (an object of a dropped part may come again). An error writing a batch of the part
// is returned, not dropped: it fails the snapshot.
func (w *SnapshotWriter) Drop(ctx context.Context) error {
	p := w.part
	if p == nil {
		return errors.New("store: no part of the snapshot is open")
	}
	w.part = nil
	if err := w.wait(); err != nil {
		return err
	}
	w.batch = newRowBatch()
	tx := w.tx.WithContext(ctx)
	if err := tx.RollbackTo(partSavepoint).Error; err != nil {
		return w.fail(wrap(err, "drop part of snapshot"))
	}
	if err := tx.Exec("RELEASE SAVEPOINT " + partSavepoint).Error; err != nil {
		return w.fail(wrap(err, "drop part of snapshot"))
	}
	w.counts, w.span = p.counts, p.span
	for _, k := range p.seen {
		delete(w.seen, k)
	}
	for _, id := range p.events {
		delete(w.evSeen, id)
	}
	return nil
}

// settle writes what is buffered and waits until it is written.
func (w *SnapshotWriter) settle(ctx context.Context) error {
	if err := w.wait(); err != nil {
		return err
	}
	b := w.batch
	w.batch = newRowBatch()
	return w.fail(w.write(ctx, b))
}

// fail records the first error of the writer, which fails every later call, and returns it.
func (w *SnapshotWriter) fail(err error) error {
	if err != nil && w.err == nil {
		w.err = err
	}
	return w.err
}

// Commit writes what is buffered, records the counts and the skipped list, and commits.
func (w *SnapshotWriter) Commit(ctx context.Context, skipped []ingest.Skipped) (*Snapshot, error) {
	if w.done {
		return nil, errors.New("store: snapshot writer already finished")
	}
	defer w.Rollback()
	if err := w.wait(); err != nil {
		return nil, err
	}
	if err := w.write(ctx, w.batch); err != nil {
		return nil, err
	}
	counts, _ := json.Marshal(w.counts)
	if skipped == nil {
		skipped = []ingest.Skipped{} // [] when stored and answered, not null
	}
	sk, err := json.Marshal(skipped)
	if err != nil {
		return nil, fmt.Errorf("store: skipped list: %w", err)
	}
	w.row.Objects, w.row.Skipped = string(counts), string(sk)
	// The generation last, after the other writes, so that concurrent writers lock rows in the
	// same order (see bumpGeneration).
	gen, err := nextGeneration(w.tx.WithContext(ctx), w.row.ClusterID)
	if err != nil {
		return nil, wrap(err, "finish snapshot")
	}
	w.row.ChangedGen = gen
	w.row.EvidenceFrom, w.row.EvidenceTo = w.span.bounds()
	if err := w.tx.WithContext(ctx).Model(&snapshotRow{}).Where("id = ?", w.row.ID).
		Updates(map[string]any{"objects": w.row.Objects, "skipped": w.row.Skipped, "changed_gen": gen,
			"evidence_from": w.row.EvidenceFrom, "evidence_to": w.row.EvidenceTo}).Error; err != nil {
		return nil, wrap(err, "finish snapshot")
	}
	if err := w.c.commit(); err != nil {
		return nil, wrap(err, "commit snapshot")
	}
	w.done = true
	return &Snapshot{ID: w.row.Digest, Cluster: w.cluster, Bytes: w.row.Bytes, Objects: w.counts, Skipped: skipped, CreatedAt: w.row.CreatedAt,
		Files: filesOf(w.row.Files)}, nil
}

// Rollback abandons the snapshot; nothing of it stays. It is safe to call after Commit.
func (w *SnapshotWriter) Rollback() {
	if !w.done {
		w.done = true
		_ = w.wait() // the transaction is not to be touched while a batch is written
		w.c.rollback()
	}
}

func filesOf(js string) []SnapshotFile {
	var f []SnapshotFile
	_ = json.Unmarshal([]byte(js), &f) // written by this package from the same type
	return f
}
