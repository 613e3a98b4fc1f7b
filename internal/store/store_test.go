package store_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/ingest"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// pg is the PostgreSQL database of this test process; storetest.Each skips or fails its cases
// when PostgreSQL is unreachable.
var pg *storetest.Postgres

func TestMain(m *testing.M) { storetest.Main(m, &pg) }

// fixtureDir holds the captured kubectl output that the ingest tests decode too.
const fixtureDir = "../ingest/testdata"

// input is one file of a snapshot: a fixture (data nil) or inline data.
type input struct {
	name string
	data []byte
}

// fixture reads a file of fixtureDir as an input named after it.
func fixture(t *testing.T, name string) input {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtureDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return input{name: name, data: data}
}

// fixtures reads several fixtures.
func fixtures(t *testing.T, names ...string) []input {
	t.Helper()
	out := make([]input, len(names))
	for i, n := range names {
		out[i] = fixture(t, n)
	}
	return out
}

// digest identifies inputs the way snapshots are identified: the SHA-256 of the files' hashes
// in name order.
func digest(ins []input) string {
	sorted := append([]input(nil), ins...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].name < sorted[j].name })
	h := sha256.New()
	for _, in := range sorted {
		f := sha256.Sum256(in.data)
		h.Write(f[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// metaFor describes inputs as a snapshot of the given incident and cluster.
func metaFor(incidentID, clusterName string, ins []input) store.SnapshotMeta {
	m := store.SnapshotMeta{Digest: digest(ins), Incident: incidentID, Cluster: clusterName}
	for _, in := range ins {
		h := sha256.Sum256(in.data)
		m.Bytes += int64(len(in.data))
		m.Files = append(m.Files, store.SnapshotFile{Name: in.name, SHA256: hex.EncodeToString(h[:]), Bytes: int64(len(in.data))})
	}
	return m
}

// decode decodes inputs with one Decoder, the way one upload is decoded, and returns the
// objects and the skipped list.
func decode(t *testing.T, ins []input) ([]*cluster.Object, []ingest.Skipped) {
	t.Helper()
	var skipped []ingest.Skipped
	dec := ingest.NewDecoder(ingest.Options{OnSkip: func(s ingest.Skipped) { skipped = append(skipped, s) }})
	var objs []*cluster.Object
	for _, in := range ins {
		err := dec.Decode(t.Context(), in.name, bytes.NewReader(in.data), func(o *cluster.Object) error {
			objs = append(objs, o)
			return nil
		})
		if err != nil {
			t.Fatalf("decode %s: %v", in.name, err)
		}
	}
	return objs, skipped
}

// storeSnapshot decodes inputs and stores them as one snapshot of the incident.
func storeSnapshot(t *testing.T, st *store.Store, m store.SnapshotMeta, ins []input) (*store.Snapshot, []ingest.Skipped) {
	t.Helper()
	objs, skipped := decode(t, ins)
	return storeObjects(t, st, m, objs, skipped), skipped
}

// storeObjects stores objects as one snapshot.
func storeObjects(t *testing.T, st *store.Store, m store.SnapshotMeta, objs []*cluster.Object, skipped []ingest.Skipped) *store.Snapshot {
	t.Helper()
	ctx := t.Context()
	w, err := st.BeginSnapshot(ctx, m)
	if err != nil {
		t.Fatalf("BeginSnapshot: %v", err)
	}
	defer w.Rollback()
	for _, o := range objs {
		if err := w.Add(ctx, o); err != nil {
			t.Fatalf("Add %s: %v", o.Ref(), err)
		}
	}
	snap, err := w.Commit(ctx, skipped)
	if err != nil {
		t.Fatalf("Commit: %v", err)
	}
	return snap
}

// createIncident stores a validated incident.
func createIncident(t *testing.T, st *store.Store, id, clusterName string, tags ...string) *incident.Incident {
	t.Helper()
	in := &incident.Incident{ID: id, Title: "Incident " + id, Cluster: clusterName, Tags: tags}
	if err := in.Validate(); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateIncident(t.Context(), in); err != nil {
		t.Fatalf("CreateIncident %s: %v", id, err)
	}
	return in
}

// counts returns the row counts of the named tables of the database at tg.
func counts(t *testing.T, tg store.Target, tables ...string) map[string]int64 {
	t.Helper()
	all := storetest.RowCounts(t, tg)
	out := make(map[string]int64, len(tables))
	for _, tb := range tables {
		n, ok := all[tb]
		if !ok {
			t.Fatalf("RowCounts has no table %q: %v", tb, all)
		}
		out[tb] = n
	}
	return out
}

// snapshotTables are the tables a snapshot writes to.
var snapshotTables = []string{"snapshots", "incident_snapshots", "pods", "pod_containers", "nodes",
	"objects", "events", "snapshot_events"}

// wantErr fails the test unless err wraps target.
func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("%s: got error %v, want one wrapping %q", what, err, target)
	}
}

// ts parses an RFC 3339 time, for expected values.
func ts(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return v.UTC()
}

// clearSnapshots deletes every snapshot and event (their links and objects cascade), so that
// the next subtest of a table starts from stored incidents only.
func clearSnapshots(t *testing.T, st *store.Store) {
	t.Helper()
	for _, table := range []string{"snapshots", "events"} {
		if err := st.DB().Exec("DELETE FROM " + table).Error; err != nil {
			t.Errorf("clear %s: %v", table, err)
		}
	}
}
