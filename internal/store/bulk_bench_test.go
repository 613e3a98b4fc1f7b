package store_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/synth"
	"github.com/rootline-dev/rootline/internal/testenv"
)

// bulkSizes are the numbers of objects the bulk-storage benchmarks store:
// ROOTLINE_BENCH_SIZES (comma-separated), else 1,000 and 20,000.
func bulkSizes(b *testing.B) []int {
	s := os.Getenv("ROOTLINE_BENCH_SIZES")
	if s == "" {
		return []int{1000, 20000}
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			b.Fatalf("ROOTLINE_BENCH_SIZES: %q is not a size", f)
		}
		out = append(out, n)
	}
	return out
}

// bulkObjects are n generated pods, or n events, as ingestion hands them to the store.
func bulkObjects(kind string, n int) []*cluster.Object {
	o := synth.Options{Pods: n, Events: n, Seed: 7}
	if kind == "events" {
		o.Pods = max(n/3, 1)
	}
	out := make([]*cluster.Object, n)
	for i := range n {
		if kind == "pods" {
			p := synth.Pod(o, i)
			out[i] = &cluster.Object{APIVersion: "v1", Kind: cluster.KindPod, Namespace: p.Namespace, Name: p.Name, UID: string(p.UID),
				Source: cluster.Source{File: "pods.json", Line: int32(1 + i*80)}, Pod: cluster.PodOf(p)}
		} else {
			e := synth.Event(o, i)
			out[i] = &cluster.Object{APIVersion: "v1", Kind: cluster.KindEvent, Namespace: e.Namespace, Name: e.Name, UID: string(e.UID),
				Source: cluster.Source{File: "events.json", Line: int32(1 + i*30)}, Event: cluster.EventOf(e)}
		}
	}
	return out
}

// emptyBulk empties what the bulk benchmarks write and numbers ids from 1 again, then makes
// the incident and cluster they store into.
func emptyBulk(b *testing.B, st *store.Store) {
	b.Helper()
	ctx := context.Background()
	if err := st.DB().WithContext(ctx).Exec("TRUNCATE incidents, clusters, snapshots, incident_snapshots, pods, pod_containers, nodes, objects, " +
		"events, snapshot_events, object_states RESTART IDENTITY CASCADE").Error; err != nil {
		b.Fatal(err)
	}
	if err := st.CreateIncident(ctx, &incident.Incident{ID: "bulk", Title: "Bulk", Cluster: "bulk"}); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkStoreBulk stores n pods, or n events, in PostgreSQL the way an upload does
// (rootline: each object marshalled, turned into rows, and written in one transaction, events
// upserted), against PostgreSQL's COPY of the same rows (pods and their containers, events and
// their links to the snapshot), already made, into the same tables (copy). rows/s counts pods
// or events.
//
//	go test ./internal/store -run '^$' -bench StoreBulk -benchtime 3x
func BenchmarkStoreBulk(b *testing.B) {
	if err := pg.Available(); err != nil {
		testenv.Missing(b, "PostgreSQL: %v", err)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, mustTarget(b, pg.URL), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if err := st.Migrate(ctx); err != nil {
		b.Fatal(err)
	}
	for _, n := range bulkSizes(b) {
		for _, kind := range []string{"pods", "events"} {
			objs := bulkObjects(kind, n)
			b.Run(fmt.Sprintf("%s=%d/rootline", kind, n), func(b *testing.B) {
				for i := 0; b.Loop(); i++ {
					b.StopTimer()
					emptyBulk(b, st)
					b.StartTimer()
					w, err := st.BeginSnapshot(ctx, store.SnapshotMeta{Digest: fmt.Sprintf("bulk-%d", i), Incident: "bulk"})
					if err != nil {
						b.Fatal(err)
					}
					for _, o := range objs {
						if err := w.Add(ctx, o); err != nil {
							b.Fatal(err)
						}
					}
					if _, err := w.Commit(ctx, nil); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			})
			b.Run(fmt.Sprintf("%s=%d/copy", kind, n), func(b *testing.B) {
				now := time.Now().UTC()
				if err := st.EnsureEventDays(ctx, now); err != nil {
					b.Fatal(err)
				}
				day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
				rows, err := st.BareRows(objs, 1, 1, day) // ids from 1: see emptyBulk
				if err != nil {
					b.Fatal(err)
				}
				for i := 0; b.Loop(); i++ {
					b.StopTimer()
					emptyBulk(b, st)
					w, err := st.BeginSnapshot(ctx, store.SnapshotMeta{Digest: fmt.Sprintf("bulk-%d", i), Incident: "bulk"})
					if err == nil {
						_, err = w.Commit(ctx, nil)
					}
					if err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					if err := st.BareCopy(ctx, rows); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			})
		}
	}
}

// BenchmarkStoreBulkSQLite stores n pods, or n events, in a new SQLite file the way an upload
// does. rows/s counts pods or events.
//
//	go test ./internal/store -run '^$' -bench StoreBulkSQLite -benchtime 3x
func BenchmarkStoreBulkSQLite(b *testing.B) {
	ctx := context.Background()
	for _, n := range bulkSizes(b) {
		for _, kind := range []string{"pods", "events"} {
			objs := bulkObjects(kind, n)
			b.Run(fmt.Sprintf("%s=%d", kind, n), func(b *testing.B) {
				for i := 0; b.Loop(); i++ {
					b.StopTimer()
					st, err := store.Open(ctx, mustTarget(b, filepath.Join(b.TempDir(), fmt.Sprintf("bulk-%d.db", i))), nil)
					if err != nil {
						b.Fatal(err)
					}
					if err := st.Migrate(ctx); err != nil {
						b.Fatal(err)
					}
					if err := st.CreateIncident(ctx, &incident.Incident{ID: "bulk", Title: "Bulk", Cluster: "bulk"}); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					w, err := st.BeginSnapshot(ctx, store.SnapshotMeta{Digest: "bulk", Incident: "bulk"})
					if err != nil {
						b.Fatal(err)
					}
					for _, o := range objs {
						if err := w.Add(ctx, o); err != nil {
							b.Fatal(err)
						}
					}
					if _, err := w.Commit(ctx, nil); err != nil {
						b.Fatal(err)
					}
					b.StopTimer()
					st.Close()
					b.StartTimer()
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			})
		}
	}
}
