package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/ingest"
	"github.com/rootline-dev/rootline/internal/store"
)

// fileResponse is a file of an upload, as the answer names it.
type fileResponse struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
	Bytes  int64  `json:"bytes"`
}

// snapshotResponse answers an upload.
type snapshotResponse struct {
	Snapshot string           `json:"snapshot"`
	Incident string           `json:"incident"`
	Cluster  string           `json:"cluster"`
	Bytes    int64            `json:"bytes"`
	Files    []fileResponse   `json:"files"`
	Objects  map[string]int   `json:"objects"`
	Skipped  []ingest.Skipped `json:"skipped"`
	// Truncated names the files that ended in the middle of an object, stored as far as they
	// go; each also has an entry in Skipped (kind File) saying what was kept.
	Truncated []string `json:"truncated,omitempty"`
	Existing  bool     `json:"existing"`
	// Created says that the upload created its incident (create=true).
	Created bool `json:"created,omitempty"`
}

// uploadSnapshot takes kubectl output for an incident: received whole, then identified by
// its hash (the same bytes again answer 200 with the stored snapshot), then decoded and stored
// in one transaction, whole or not at all. Each file goes through ingest's file policy, as in
// `rootline analyze`: the only file of an upload must be readable; of several files, one that
// cannot be read (a README, a binary) is skipped and listed with its reason, and a truncated
// one is stored as far as it goes and flagged.
//
// With create=true (a query parameter or a multipart field), the incident is created with the
// snapshot, titled by title= (else after the first file), in the snapshot's transaction: an
// upload that is refused leaves no incident behind. The id must be new (409 otherwise). Files
// already stored for an incident go to that incident instead (the answer names it, created
// false): the same files sent twice make one incident, not two holding the same evidence.
func (s *Server) uploadSnapshot(c *gin.Context) error {
	ctx := c.Request.Context()
	id := c.Param("id")
	create := c.Query("create") == "true"
	if !create {
		if _, err := s.deps.Incidents.Incident(ctx, id); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return errStatus(http.StatusNotFound, fmt.Sprintf("incident %s not found", id))
			}
			return err
		}
	}
	sp, err := receive(c.Writer, c.Request, s.spoolDir(), s.cfg.MaxUploadBytes, csrfLater(c))
	if err != nil {
		s.metrics.uploadResults.WithLabelValues("rejected").Inc()
		return err
	}
	defer sp.remove()
	s.metrics.uploadBytes.Add(float64(sp.total()))
	if len(sp.files) == 0 {
		s.metrics.uploadResults.WithLabelValues("rejected").Inc()
		return errStatus(http.StatusUnprocessableEntity, "empty upload: no file and no body")
	}
	clusterName := c.Query("cluster")
	if v := sp.fields["cluster"]; clusterName == "" {
		clusterName = v
	}
	if clusterName != "" {
		if err := incident.ValidateClusterName(clusterName); err != nil {
			return errStatus(http.StatusUnprocessableEntity, err.Error())
		}
	}
	var fresh *incident.Incident
	if create = create || sp.fields["create"] == "true"; create {
		holder, err := s.deps.Snapshots.SnapshotHolder(ctx, sp.digest())
		switch {
		case err == nil:
			id, create = holder, false
		case !errors.Is(err, store.ErrNotFound):
			s.metrics.uploadResults.WithLabelValues("failed").Inc()
			return err
		}
	}
	if create {
		if fresh, err = s.newUploadIncident(ctx, c, id, clusterName, sp); err != nil {
			s.metrics.uploadResults.WithLabelValues("rejected").Inc()
			return err
		}
	}
	resp, status, add, err := s.storeSnapshotAdding(ctx, id, clusterName, fresh, sp, true)
	if err != nil {
		result := "rejected"
		if s.classify(err).Status >= 500 {
			result = "failed"
		}
		s.metrics.uploadResults.WithLabelValues(result).Inc()
		return err
	}
	if status == http.StatusCreated {
		s.metrics.uploadResults.WithLabelValues("created").Inc()
		for kind, n := range resp.Objects {
			s.metrics.objects.WithLabelValues(kind).Add(float64(n))
		}
		s.log.InfoContext(ctx, "snapshot stored", "incident_id", id, "snapshot", resp.Snapshot, "bytes", resp.Bytes, "objects", resp.Objects,
			"incident_created", resp.Created)
		s.refreshSignature(ctx, id, add)
	} else {
		// The bytes were stored already, perhaps for another incident: this one may never have
		// been analysed with them.
		s.metrics.uploadResults.WithLabelValues("existing").Inc()
		s.refreshSignature(ctx, id, nil)
	}
	c.JSON(status, resp)
	return nil
}

// newUploadIncident is the incident an upload with create=true creates: id, titled by the
// title= query parameter or multipart field, else after its first file.
func (s *Server) newUploadIncident(ctx context.Context, c *gin.Context, id, clusterName string, sp *spool) (*incident.Incident, error) {
	title := c.Query("title")
	if v := sp.fields["title"]; title == "" {
		title = v
	}
	if strings.TrimSpace(title) == "" {
		title = "Upload of " + sp.files[0].name + " at " + time.Now().UTC().Format("2006-01-02 15:04 UTC")
	}
	in := &incident.Incident{ID: id, Title: title, Cluster: clusterName}
	if err := in.Validate(); err != nil {
		return nil, errStatus(http.StatusUnprocessableEntity, err.Error())
	}
	if _, err := s.deps.Incidents.Incident(ctx, id); err == nil {
		return nil, errStatus(http.StatusConflict, fmt.Sprintf("incident %s already exists", id))
	} else if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	return in, nil
}

// snapshotID is the id of a snapshot of files whose digest is files, uploaded for an incident
// of cluster clusterName: the files' digest for an incident of no cluster, else a SHA-256 of it
// and the cluster's name. The same bytes uploaded for incidents of two clusters are two
// snapshots, each of its own cluster (as one snapshot they kept the first uploader's, and the
// second incident read a cluster not its own).
func snapshotID(files, clusterName string) string {
	if clusterName == "" {
		return files
	}
	h := sha256.Sum256([]byte(files + "\x00cluster\x00" + clusterName))
	return hex.EncodeToString(h[:])
}

// storeSnapshot stores an upload for an incident; fresh, when not nil, is the incident to
// create with it.
//
// It first waits for its share of the server's memory budget (503 when none comes in time),
// and then has --upload-timeout to finish. An upload that collides with a concurrent one
// (deadlock, busy database) is written again by the store (WriteSnapshot); the spooled files
// make that cheap and exact.
func (s *Server) storeSnapshot(ctx context.Context, incidentID, clusterName string, fresh *incident.Incident, sp *spool) (snapshotResponse, int, error) {
	resp, status, _, err := s.storeSnapshotAdding(ctx, incidentID, clusterName, fresh, sp, false)
	return resp, status, err
}

// storeSnapshotAdding is storeSnapshot, and when keep is set and the snapshot was stored now
// (201), what it added to the incident: its objects as Rootline keeps them, held with the
// upload's budget share until the addition is done with (addition.done), so that the
// incident's signature is refreshed from them without reading the incident back.
func (s *Server) storeSnapshotAdding(ctx context.Context, incidentID, clusterName string, fresh *incident.Incident, sp *spool, keep bool) (snapshotResponse, int, *addition, error) {
	digest := snapshotID(sp.digest(), clusterName)
	files := make([]store.SnapshotFile, len(sp.files))
	for i, f := range sp.files {
		files[i] = store.SnapshotFile{Name: f.name, SHA256: f.sha256, Bytes: f.size}
	}
	cost := sp.cost(s.cfg.MaxDecodedBytes)
	// On SQLite the transaction's page cache is memory of this process too, outside Go's heap:
	// it is sized from the upload within what the budget holds beside the decoding, and charged
	// until the snapshot is written, when the cache is handed back.
	meta := store.SnapshotMeta{Digest: digest, Incident: incidentID, Create: fresh, Cluster: clusterName, Bytes: sp.total(), Files: files,
		Decoded: sp.decoded(s.cfg.MaxDecodedBytes), CacheLimit: max(s.budget.total-cost, 0)}
	sh, err := s.budget.acquireSplit(ctx, cost, s.deps.Snapshots.BulkCache(meta))
	if err != nil {
		return snapshotResponse{}, 0, nil, err
	}
	var add *addition
	if keep {
		add = &addition{}
	}
	defer func() {
		if add == nil || add.release == nil {
			sh.release()
		}
	}()
	ctx, cancel := context.WithTimeout(ctx, s.cfg.UploadTimeout)
	defer cancel()
	if fresh == nil {
		if snap, err := s.deps.Snapshots.AttachSnapshot(ctx, digest, incidentID); err == nil {
			return response(incidentID, snap, true), http.StatusOK, nil, nil
		} else if !errors.Is(err, store.ErrNotFound) {
			return snapshotResponse{}, 0, nil, err
		}
	}
	snap, err := s.deps.Snapshots.WriteSnapshot(ctx, meta, func(ctx context.Context, w store.SnapshotSink) ([]ingest.Skipped, error) {
		return s.fillSnapshot(ctx, w, sp, add)
	})
	sh.releaseExtra() // the transaction has ended, and its connection's cache is set back
	if errors.Is(err, store.ErrIncidentExists) {
		return snapshotResponse{}, 0, nil, errStatus(http.StatusConflict, fmt.Sprintf("incident %s already exists", incidentID))
	}
	if errors.Is(err, store.ErrExists) { // the same bytes, stored before or by a concurrent request
		if fresh != nil {
			// A concurrent upload of the same files stored them first, for its incident: they
			// go there, as they would have had it finished before this one began.
			if holder, err := s.deps.Snapshots.SnapshotHolder(ctx, digest); err == nil {
				snap, err := s.deps.Snapshots.AttachSnapshot(ctx, digest, holder)
				if err != nil {
					return snapshotResponse{}, 0, nil, err
				}
				return response(holder, snap, true), http.StatusOK, nil, nil
			} else if !errors.Is(err, store.ErrNotFound) {
				return snapshotResponse{}, 0, nil, err
			}
			// Stored bytes were accepted before: the incident is created and they are attached.
			in := *fresh
			if err := s.deps.Incidents.CreateIncident(ctx, &in); errors.Is(err, store.ErrExists) {
				return snapshotResponse{}, 0, nil, errStatus(http.StatusConflict, fmt.Sprintf("incident %s already exists", incidentID))
			} else if err != nil {
				return snapshotResponse{}, 0, nil, err
			}
		}
		snap, err := s.deps.Snapshots.AttachSnapshot(ctx, digest, incidentID)
		if err != nil {
			return snapshotResponse{}, 0, nil, err
		}
		resp := response(incidentID, snap, true)
		resp.Created = fresh != nil
		return resp, http.StatusOK, nil, nil
	}
	if err != nil {
		return snapshotResponse{}, 0, nil, err
	}
	resp := response(incidentID, snap, false)
	resp.Created = fresh != nil
	if add != nil {
		sh.releaseSlot() // the objects are kept for the refresh, which runs in a slot of its own
		add.release = sh.release
	}
	return resp, http.StatusCreated, add, nil
}

// fillSnapshot decodes the spooled files into w and returns what was skipped. An upload of
// which nothing could be read fails as its first file did (415, 422), and one with nothing
// Rootline keeps with 422 and the skipped list. When add is not nil, it keeps there the
// objects stored (without their stored JSON, which w has written) and the files they came
// from.
func (s *Server) fillSnapshot(ctx context.Context, w store.SnapshotSink, sp *spool, add *addition) ([]ingest.Skipped, error) {
	if add != nil {
		add.files, add.objects = nil, nil // a write tried again fills it again
	}
	sk := &skipList{}
	dec := ingest.NewDecoder(ingest.Options{MaxBytes: s.cfg.MaxDecodedBytes, OnSkip: sk.add, ValueKey: s.deps.ValueKey})
	stored := 0
	emit := func(o *cluster.Object) error {
		var held *cluster.Object
		if add != nil {
			held = o.Unstored()
		}
		err := w.Add(ctx, o)
		if errors.Is(err, store.ErrDuplicate) {
			sk.add(ingest.Skipped{File: o.Source.File, Line: int(o.Source.Line), Kind: o.Kind, Namespace: o.Namespace, Name: o.Name, Reason: err.Error()})
			return nil
		}
		if err == nil {
			stored++
			if held != nil {
				add.objects = append(add.objects, held)
			}
		}
		return err
	}
	var (
		kept       int   // files of which anything could be read
		firstBad   error // the first file of which nothing could be read
		firstEmpty error // the first text file read with nothing in it Rootline keeps
	)
	for _, f := range sp.files {
		res, err := decodeFile(ctx, dec, w, sk, f, len(sp.files) == 1, emit)
		if err != nil {
			return nil, err
		}
		if res.Outcome != ingest.FileRead {
			sk.addFile(res)
		} else if res.Err != nil && firstEmpty == nil {
			firstEmpty = res.Err
		}
		if res.Outcome == ingest.FileSkipped || res.Outcome == ingest.FileTruncated && res.Objects == 0 {
			if firstBad == nil {
				firstBad = res.Err
			}
			continue
		}
		kept++
		if add != nil {
			add.files = append(add.files, f.name)
		}
	}
	if kept == 0 { // as for a single file: the first file's own error (415, 422)
		return nil, firstBad
	}
	for _, name := range sp.empty {
		sk.count(ingest.FileKind)
		sk.list = append(sk.list, ingest.Skipped{File: name, Kind: ingest.FileKind, Reason: "empty input: no Kubernetes objects"})
	}
	if stored == 0 {
		msg := "no objects Rootline keeps in this upload" + sk.summary()
		if firstEmpty != nil {
			msg += " (" + firstEmpty.Error() + ")"
		}
		return nil, &httpError{Status: http.StatusUnprocessableEntity, Msg: msg, Extra: gin.H{"skipped": sk.list}}
	}
	return sk.list, nil
}

// decodeFile decodes a spooled file, its objects going to emit as they are decoded; explicit
// when it is the only file of the upload. A file of several may turn out unreadable part way,
// and is then skipped whole, as ingest's file policy says: it is stored as a part of the
// snapshot (w.Mark), dropped with what it added to sk should it be skipped. (Holding its
// objects back until its end, as ingest.DecodeFile does for a file that may be skipped, made
// every file above 16 MiB be decoded twice, to keep the memory bounded.)
func decodeFile(ctx context.Context, dec *ingest.Decoder, w store.SnapshotSink, sk *skipList, f spooledFile, explicit bool,
	emit func(*cluster.Object) error) (ingest.FileResult, error) {
	r, err := os.Open(f.path)
	if err != nil {
		return ingest.FileResult{}, fmt.Errorf("open spooled %s: %w", f.name, err)
	}
	defer r.Close()
	if explicit {
		return dec.DecodeFile(ctx, ingest.File{Name: f.name, Content: r, Explicit: true}, emit)
	}
	if err := w.Mark(ctx); err != nil {
		return ingest.FileResult{}, err
	}
	mark := sk.mark()
	var emitErr error // emit's own failure fails the upload, whatever the decoder makes of it
	res, err := dec.DecodeFile(ctx, ingest.File{Name: f.name, Content: r, Explicit: true, Beside: true}, func(o *cluster.Object) error {
		if err := emit(o); err != nil {
			emitErr = err
			return err
		}
		return nil
	})
	switch {
	case emitErr != nil:
		return res, emitErr
	case err != nil:
		// Read as explicit, an unreadable file returns its *ingest.Error; one of several is
		// skipped instead. Too large, a cancelled ctx or a failing read fail the upload.
		var ie *ingest.Error
		if !errors.As(err, &ie) || errors.Is(err, ingest.ErrTooLarge) {
			return res, err
		}
		res = ingest.FileResult{Name: f.name, Outcome: ingest.FileSkipped, Err: ie}
	case res.Outcome == ingest.FileRead && res.Err != nil:
		// A document of prose, which an explicit file is read as with nothing kept: one of
		// several is skipped.
		res = ingest.FileResult{Name: f.name, Outcome: ingest.FileSkipped, Err: res.Err}
	}
	if res.Outcome == ingest.FileSkipped {
		sk.reset(mark)
		return res, w.Drop(ctx)
	}
	return res, w.Keep(ctx)
}

func response(incidentID string, snap *store.Snapshot, existing bool) snapshotResponse {
	files := make([]fileResponse, len(snap.Files))
	for i, f := range snap.Files {
		files[i] = fileResponse{Name: f.Name, SHA256: f.SHA256, Bytes: f.Bytes}
	}
	return snapshotResponse{Snapshot: snap.ID, Incident: incidentID, Cluster: snap.Cluster, Bytes: snap.Bytes, Files: files,
		Objects: snap.Objects, Skipped: snap.Skipped, Truncated: truncatedFiles(snap.Skipped), Existing: existing}
}

// truncatedFiles names the files a stored skipped list flags as truncated.
func truncatedFiles(list []ingest.Skipped) []string {
	var out []string
	for _, s := range list {
		if s.Truncated {
			out = append(out, s.File)
		}
	}
	return out
}

// maxSkippedListed bounds the skipped objects listed one by one (in the answer and the stored
// snapshot); the summary still counts them all.
const maxSkippedListed = 500

// skipEntry is an entry of an upload's skipped list: an object not kept, or a file (kind
// ingest.FileKind) skipped or, when Truncated, stored only as far as it went.
// skipList collects what an upload did not keep.
type skipList struct {
	list   []ingest.Skipped
	byKind map[string]int
	kinds  []string
	objs   int // entries of list that are objects, against maxSkippedListed
}

func (l *skipList) add(s ingest.Skipped) {
	l.count(s.Kind)
	if l.objs < maxSkippedListed {
		l.objs++
		l.list = append(l.list, s)
	}
}

// addFile lists a file skipped or truncated; files are always listed, whatever the number of
// objects skipped.
func (l *skipList) addFile(r ingest.FileResult) {
	s := r.Skipped()
	if !s.Truncated {
		l.count(ingest.FileKind)
	}
	l.list = append(l.list, s)
}

// skipMark is how far a skipList went, to go back to (reset).
type skipMark struct {
	entries, objs, kinds int
	byKind               map[string]int
}

func (l *skipList) mark() skipMark {
	return skipMark{entries: len(l.list), objs: l.objs, kinds: len(l.kinds), byKind: maps.Clone(l.byKind)}
}

// reset forgets what was added since m was taken.
func (l *skipList) reset(m skipMark) {
	l.list, l.objs, l.kinds, l.byKind = l.list[:m.entries], m.objs, l.kinds[:m.kinds], m.byKind
}

func (l *skipList) count(kind string) {
	if l.byKind == nil {
		l.byKind = map[string]int{}
	}
	if l.list == nil {
		l.list = []ingest.Skipped{} // [] in the answer, not null; a truncated file may be listed already
	}
	if l.byKind[kind] == 0 {
		l.kinds = append(l.kinds, kind)
	}
	l.byKind[kind]++
}

// summary says what was skipped, by kind: ": skipped 2 Secret, 1 Service".
func (l *skipList) summary() string {
	if len(l.kinds) == 0 {
		return ""
	}
	parts := make([]string, len(l.kinds))
	for i, k := range l.kinds {
		parts[i] = fmt.Sprintf("%d %s", l.byKind[k], k)
	}
	return ": skipped " + strings.Join(parts, ", ")
}

func formatBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
