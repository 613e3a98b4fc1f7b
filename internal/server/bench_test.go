package server_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/ingest"
	"github.com/rootline-dev/rootline/internal/server"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/synth"
)

// benchEvents is the size of the incident the timeline benchmarks read: ROOTLINE_BENCH_EVENTS,
// else 100,000 events, about 3 pods for every 100 events (at least 100).
func benchEvents() int {
	if n, err := strconv.Atoi(os.Getenv("ROOTLINE_BENCH_EVENTS")); err == nil && n > 0 {
		return n
	}
	return 100000
}

type benchIncident struct {
	st   *store.Store
	path string // the SQLite file
	url  string
	err  error
}

// timelineBench stores one incident of benchEvents events (and the pods and nodes they are about)
// in a SQLite file, once per test binary.
var timelineBench = sync.OnceValue(func() *benchIncident {
	b := &benchIncident{}
	dir, err := os.MkdirTemp("", "rootline-bench-")
	if err != nil {
		b.err = err
		return b
	}
	ctx := context.Background()
	b.path = filepath.Join(dir, "bench.db")
	tg, _ := store.ParseTarget(b.path)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if b.st, b.err = store.Open(ctx, tg, log); b.err != nil {
		return b
	}
	if b.err = b.st.Migrate(ctx); b.err != nil {
		return b
	}
	if b.err = b.st.CreateIncident(ctx, &incident.Incident{ID: "big", Title: fmt.Sprintf("%d events", benchEvents())}); b.err != nil {
		return b
	}
	o := synth.Options{Pods: max(benchEvents()*3/100, 100), Events: benchEvents(), Seed: 1}
	w, err := b.st.BeginSnapshot(ctx, store.SnapshotMeta{Digest: "bench", Incident: "big"})
	if err != nil {
		b.err = err
		return b
	}
	dec := ingest.NewDecoder(ingest.Options{})
	for name, write := range map[string]func(io.Writer, synth.Options) error{"nodes.json": synth.WriteNodeList, "pods.json": synth.WritePodList, "events.json": synth.WriteEventList} {
		var buf bytes.Buffer
		if b.err = write(&buf, o); b.err != nil {
			return b
		}
		if b.err = dec.Decode(ctx, name, &buf, func(o *cluster.Object) error { return w.Add(ctx, o) }); b.err != nil {
			return b
		}
	}
	if _, b.err = w.Commit(ctx, nil); b.err != nil {
		return b
	}
	srv := server.New(testConfig(), server.StoreDeps(b.st, log))
	b.url = httptest.NewServer(srv.Handler()).URL
	return b
})

// BenchmarkTimelineAPI is one page (500 entries) of the timeline of an incident of 100,000
// events, through the API, once the incident's state is made (the first view after a change
// loads and analyses it: see the first request's time, logged): check the version, filter,
// encode.
func BenchmarkTimelineAPI(b *testing.B) {
	bi := timelineBench()
	if bi.err != nil {
		b.Fatal(bi.err)
	}
	start := time.Now()
	if resp, err := http.Get(bi.url + "/api/v1/incidents/big/timeline?limit=500"); err == nil {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	b.Logf("first request (load, analyse, build the timeline): %v", time.Since(start).Round(time.Millisecond))
	for b.Loop() {
		resp, err := http.Get(bi.url + "/api/v1/incidents/big/timeline?limit=500")
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || n == 0 {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
}

// BenchmarkTimelineAPIAfterChange is the first timeline page after what the incident is made
// of changed (before each request, untimed, a collected event for its cluster bumps the
// cluster's generation): load its objects, analyse, build the timeline, filter, encode.
func BenchmarkTimelineAPIAfterChange(b *testing.B) {
	// Seen later each time, in every run of the benchmark (-count), so that each is a change.
	timelineAfter(b, func(int) (string, string) {
		return "/api/v1/events?cluster=" + store.DefaultCluster, fmt.Sprintf(`{"apiVersion": "v1", "kind": "Event",
			"metadata": {"name": "bench", "namespace": "prod", "uid": "bench-1"}, "reason": "Evicted",
			"involvedObject": {"kind": "Pod", "namespace": "prod", "name": "hub"}, "count": 1, "lastTimestamp": %q}`,
			time.Now().UTC().Format(time.RFC3339Nano))
	})
}

// BenchmarkTimelineAPIAfterNote is the first timeline page after a note was added (untimed):
// the analysis is kept, the notes read again and the timeline built again.
func BenchmarkTimelineAPIAfterNote(b *testing.B) {
	timelineAfter(b, func(int) (string, string) { return "/api/v1/incidents/big/notes", `{"body": "one more note"}` })
}

func timelineAfter(b *testing.B, change func(i int) (path, body string)) {
	bi := timelineBench()
	if bi.err != nil {
		b.Fatal(bi.err)
	}
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		path, body := change(i)
		resp, err := http.Post(bi.url+path, "application/json", strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			b.Fatalf("%s: status %d", path, resp.StatusCode)
		}
		b.StartTimer()
		resp, err = http.Get(bi.url + "/api/v1/incidents/big/timeline?limit=500")
		if err != nil {
			b.Fatal(err)
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("timeline: status %d: %s", resp.StatusCode, page)
		}
	}
}

// BenchmarkTimelineBareQuery is the yardstick: the database reading the first 500 events of
// the same incident in time order, nothing else.
func BenchmarkTimelineBareQuery(b *testing.B) {
	bi := timelineBench()
	if bi.err != nil {
		b.Fatal(bi.err)
	}
	db, err := sql.Open("sqlite", bi.path) // the driver the store registers
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	const q = `SELECT e.first_at, e.reason, e.message, e.involved_name FROM events e
		JOIN snapshot_events se ON se.event_id = e.id
		JOIN incident_snapshots i ON i.snapshot_id = se.snapshot_id
		WHERE i.incident_id = ? ORDER BY e.first_at LIMIT 500`
	for b.Loop() {
		rows, err := db.Query(q, "big")
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for rows.Next() {
			var at, reason, msg, name any
			if err := rows.Scan(&at, &reason, &msg, &name); err != nil {
				b.Fatal(err)
			}
			n++
		}
		rows.Close()
		if n != 500 {
			b.Fatalf("%d rows", n)
		}
	}
}
