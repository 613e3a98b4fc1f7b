package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// cacheProbe is the snapshot store of a server under test that notes, when an upload is
// written, how much of the budget is held and what the store was told of the snapshot.
type cacheProbe struct {
	*store.Store
	b    *budget
	held int64
	meta store.SnapshotMeta
}

func (p *cacheProbe) WriteSnapshot(ctx context.Context, m store.SnapshotMeta, fill store.SnapshotFill) (*store.Snapshot, error) {
	p.held, p.meta = p.b.total-freeOf(p.b), m
	return p.Store.WriteSnapshot(ctx, m, fill)
}

// TestBudgetChargesTheSQLiteCache: an upload stored on SQLite takes, beside what decoding it
// costs, the page cache its transaction may fill (store.BulkCache), memory of the process
// outside Go's heap, so that concurrent uploads cannot together take more than the budget; it
// gives that part back once the snapshot is written. The cache is sized from what the upload
// decodes to (a gzip file by what it unpacks to), within what the budget holds beside the
// decoding's cost. On PostgreSQL, whose cache is its own server's, the charge is the
// decoding's alone.
func TestBudgetChargesTheSQLiteCache(t *testing.T) {
	t.Parallel()
	// Two files, one a pod list that unpacks to 40 MiB (most of it blanks between its items).
	dir := t.TempDir()
	write := func(name string, b []byte) spooledFile {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		return spooledFile{name: name, path: p, size: int64(len(b)), sha256: hex.EncodeToString(sum[:])}
	}
	pod := func(name string) string {
		return fmt.Sprintf(`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": %q, "namespace": "prod", "uid": "uid-%[1]s"},
			"spec": {"nodeName": "core-1", "containers": [{"name": "app"}]}, "status": {"phase": "Running"}}`, name)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	fmt.Fprintf(zw, `{"apiVersion": "v1", "kind": "List", "items": [%s,%s%s]}`, pod("a"), strings.Repeat(" ", 40<<20), pod("b"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	files := []spooledFile{write("pods.json.gz", z.Bytes()), write("more.json", []byte(`{"apiVersion": "v1", "kind": "List", "items": [`+pod("c")+`]}`))}

	pg := storetest.NewPostgres()
	t.Cleanup(pg.Drop)
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := t.Context()
		cfg := offConfig()
		srv := New(cfg, quietDeps(st))
		probe := &cacheProbe{Store: st}
		srv.deps.Snapshots = probe
		sp := &spool{files: files}
		cost := sp.cost(cfg.MaxDecodedBytes)
		for i, total := range []int64{16 << 30, cost + 64<<20} { // room for the whole cache, then for part of it
			srv.budget = newBudget(total, 4, 50*time.Millisecond)
			probe.b = srv.budget
			id := fmt.Sprintf("upload-%d", i)
			if err := st.CreateIncident(ctx, &incident.Incident{ID: id, Title: "Upload"}); err != nil {
				t.Fatal(err)
			}
			_, status, add, err := srv.storeSnapshotAdding(ctx, id, fmt.Sprintf("cluster-%d", i), nil, sp, true)
			if err != nil || status != http.StatusCreated {
				t.Fatalf("upload with a budget of %d: %d %v", total, status, err)
			}
			// Stored, the upload keeps what it added for the signature's refresh, and its share
			// of the budget but for the cache, which its transaction handed back.
			if held := total - freeOf(srv.budget); held != cost {
				t.Errorf("the upload stored, its addition holds %d of the budget, want the decoding's %d alone", held, cost)
			}
			add.done()
			m := probe.meta
			if want := sp.decoded(cfg.MaxDecodedBytes); m.Decoded != want || m.Decoded < 40<<20 {
				t.Errorf("the store was told the upload decodes to %d bytes, want %d (the gzip file unpacked)", m.Decoded, want)
			}
			if m.CacheLimit != total-cost {
				t.Errorf("with a budget of %d and a decoding cost of %d the cache was allowed %d, want the rest, %d", total, cost, m.CacheLimit, total-cost)
			}
			cache, floor := st.BulkCache(m), st.BulkCache(store.SnapshotMeta{})
			switch {
			case b.Name == "postgres" && cache != 0:
				t.Errorf("on PostgreSQL the store says the cache takes %d of this process, want nothing", cache)
			case b.Name == "sqlite" && i == 0 && cache <= floor:
				t.Errorf("the cache of an upload decoding to %d bytes is %d, want it sized from them, above the floor %d", m.Decoded, cache, floor)
			case b.Name == "sqlite" && cost+cache > total:
				t.Errorf("with a budget of %d the cache is %d beside a decoding cost of %d, want the two within the budget", total, cache, cost)
			}
			if probe.held != cost+cache {
				t.Errorf("the upload held %d of the budget while stored, want %d: %d to decode it and %d for the cache", probe.held, cost+cache, cost, cache)
			}
			if free := freeOf(srv.budget); free != total {
				t.Errorf("after the upload %d of the budget is still held", total-free)
			}
			// The same files again: attached as they are, without a transaction to write them.
			if _, status, err := srv.storeSnapshot(ctx, id, fmt.Sprintf("cluster-%d", i), nil, sp); err != nil || status != http.StatusOK {
				t.Fatalf("the same upload again: %d %v, want 200", status, err)
			}
			if free := freeOf(srv.budget); free != total {
				t.Errorf("after the same upload again %d of the budget is still held", total-free)
			}
		}
	})
}
