package store_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/evidence"
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

// files are inputs as storetest's files.
func files(ins []input) []storetest.File {
	out := make([]storetest.File, len(ins))
	for i, in := range ins {
		out[i] = storetest.File{Name: in.name, Data: in.data}
	}
	return out
}

// digest identifies inputs the way snapshots are identified.
func digest(ins []input) string { return storetest.Digest(files(ins)) }

// metaFor describes inputs as a snapshot of the given incident and cluster.
func metaFor(incidentID, clusterName string, ins []input) store.SnapshotMeta {
	return storetest.Meta(incidentID, clusterName, files(ins))
}

// decode decodes inputs with one Decoder, the way one upload is decoded, and returns the
// objects and the skipped list.
func decode(t *testing.T, ins []input) ([]*cluster.Object, []ingest.Skipped) {
	t.Helper()
	return storetest.Decode(t, files(ins))
}

// storeSnapshot decodes inputs and stores them as one snapshot of the incident.
func storeSnapshot(t *testing.T, st *store.Store, m store.SnapshotMeta, ins []input) (*store.Snapshot, []ingest.Skipped) {
	t.Helper()
	objs, skipped := decode(t, ins)
	return storetest.StoreObjects(t, st, m, objs, skipped), skipped
}

// storeObjects stores objects as one snapshot.
func storeObjects(t *testing.T, st *store.Store, m store.SnapshotMeta, objs []*cluster.Object, skipped []ingest.Skipped) *store.Snapshot {
	t.Helper()
	return storetest.StoreObjects(t, st, m, objs, skipped)
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

// loadStates is the pod and node states the collector saw of an incident's cluster during its
// window, as its evidence holds them.
func loadStates(t *testing.T, st *store.Store, incidentID string) ([]store.StateChange, error) {
	t.Helper()
	ev, err := evidence.Load(t.Context(), st, incidentID, nil)
	if err != nil {
		return nil, err
	}
	return ev.States, nil
}
