package server_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bytedance/sonic"
	"github.com/jackc/pgx/v5"
	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/server"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/synth"
	"github.com/rootline-dev/rootline/internal/testenv"
)

// uploadBenchPods is the size of the uploaded snapshot (synth.BenchPods), as cmd/rootline's
// benchmarks.
func uploadBenchPods() int { return synth.BenchPods() }

// uploadBenchFiles are the snapshot's three files, named as they are uploaded.
var uploadBenchFiles = []string{"nodes.json", "pods.json", "events.json"}

// uploadBenchDir holds the generated files: cmd/rootline's (synth.BenchSnapshot), so that the
// bytes, and the bare decode measured there, are the same.
var uploadBenchDir = sync.OnceValues(func() (string, error) { return synth.BenchSnapshot(uploadBenchPods()) })

// uploadBody is the multipart request of the three files, made once and kept in memory, so
// that the client costs the server (on the same processors) as little as it can.
func uploadBody(b *testing.B) (body []byte, contentType string, size int64) {
	b.Helper()
	dir, err := uploadBenchDir()
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, name := range uploadBenchFiles {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			b.Fatal(err)
		}
		size += int64(len(data))
		part, err := mw.CreateFormFile("file", name)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := part.Write(data); err != nil {
			b.Fatal(err)
		}
	}
	if err := mw.Close(); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes(), mw.FormDataContentType(), size
}

// uploadBenchConfig lets the whole snapshot in, at any size the benchmark is given.
func uploadBenchConfig(size int64) config.Config {
	c := testConfig()
	c.MaxUploadBytes = max(c.MaxUploadBytes, 2*size)
	c.MaxDecodedBytes = max(c.MaxDecodedBytes, 2*size)
	c.MemoryBudget = max(c.MemoryBudget, 8*size)
	return c
}

// BenchmarkUploadSnapshot is issue 16's upload: the three files of a generated snapshot
// (ROOTLINE_BENCH_PODS pods, default 20,000, 500 nodes, 2.5 events a pod) posted as one
// multipart request to a real server, on a fresh incident in an empty database each time,
// timed to the 201, on each database; cpu-ms/op is this process's processor time. bare-sonic is the yardstick: bytedance/sonic decoding
// the same three files into the Kubernetes list types, warmed up (cmd/rootline's
// BenchmarkBareDecodeSonic, in this process).
//
//	CI=true go test ./internal/server -run '^$' -bench UploadSnapshot -benchtime 2x
func BenchmarkUploadSnapshot(b *testing.B) {
	body, contentType, size := uploadBody(b)
	b.Run("bare-sonic", func(b *testing.B) {
		dir, _ := uploadBenchDir()
		decode := func() {
			var nodes corev1.NodeList
			var pods corev1.PodList
			var events corev1.EventList
			for name, v := range map[string]any{"nodes.json": &nodes, "pods.json": &pods, "events.json": &events} {
				data, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					b.Fatal(err)
				}
				if err := sonic.Unmarshal(data, v); err != nil {
					b.Fatal(err)
				}
			}
		}
		decode() // sonic compiles its decoders on first use
		b.SetBytes(size)
		cpu := processCPU()
		for b.Loop() {
			decode()
		}
		reportCPU(b, processCPU()-cpu)
	})
	b.Run("sqlite", func(b *testing.B) {
		b.SetBytes(size)
		u := timedUpload{body: body, contentType: contentType, size: size}
		for i := 0; b.Loop(); i++ {
			b.StopTimer()
			path := filepath.Join(b.TempDir(), fmt.Sprintf("upload-%d.db", i))
			tg, err := store.ParseTarget(path)
			if err != nil {
				b.Fatal(err)
			}
			st := openBenchStore(b, tg)
			u.post(b, st)
			st.Close()
			os.Remove(path)
			b.StartTimer()
		}
		u.report(b)
	})
	b.Run("postgres", func(b *testing.B) {
		if err := pg.Available(); err != nil {
			testenv.Missing(b, "PostgreSQL: %v", err)
		}
		tg, err := store.ParseTarget(pg.URL)
		if err != nil {
			b.Fatal(err)
		}
		st := openBenchStore(b, tg)
		defer st.Close()
		b.SetBytes(size)
		u := timedUpload{body: body, contentType: contentType, size: size}
		for b.Loop() {
			b.StopTimer()
			emptyUploadTables(b)
			u.post(b, st)
			b.StartTimer()
		}
		u.report(b)
	})
}

// timedUpload posts the snapshot to a fresh server, one per iteration, and adds up what it
// costs: the time to the 201 (the benchmark's timer), this process's processor time to it, and
// the time to the incident's signature recorded (the refresh runs after the 201).
type timedUpload struct {
	body        []byte
	contentType string
	size        int64
	cpu, signed time.Duration
}

// post uploads to a server on st, the timer stopped before and after.
func (u *timedUpload) post(b *testing.B, st *store.Store) {
	base, stop := uploadBenchServer(b, st, u.size)
	b.StartTimer()
	u.cpu -= processCPU()
	start := time.Now()
	postSnapshot(b, base, u.body, u.contentType)
	u.cpu += processCPU()
	b.StopTimer()
	stop()
	u.signed += time.Since(start)
}

// report reports cpu-ms/op and signed-ms/op (from the request to the signature).
func (u *timedUpload) report(b *testing.B) {
	reportCPU(b, u.cpu)
	b.ReportMetric(float64(u.signed.Milliseconds())/float64(b.N), "signed-ms/op")
}

// reportCPU reports the processor time of this process per operation (cpu-ms/op: the
// server's, the client's and the garbage collector's; not PostgreSQL's), steadier than the
// wall time on a machine shared with other work.
func reportCPU(b *testing.B, cpu time.Duration) {
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
}

func openBenchStore(b *testing.B, tg store.Target) *store.Store {
	b.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, tg, nil)
	if err != nil {
		b.Fatal(err)
	}
	if err := st.Migrate(ctx); err != nil {
		st.Close()
		b.Fatal(err)
	}
	return st
}

// uploadBenchServer starts a server on st with a new incident to upload to (bench).
// stop closes it, once the signature refresh the upload asked for is done.
func uploadBenchServer(b *testing.B, st *store.Store, size int64) (base string, stop func()) {
	b.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := server.New(uploadBenchConfig(size), server.StoreDeps(st, log))
	ts := httptest.NewServer(srv.Handler())
	resp, err := http.Post(ts.URL+"/api/v1/incidents", "application/json", strings.NewReader(`{"id": "bench", "title": "Upload benchmark"}`))
	if err != nil {
		ts.Close()
		b.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		ts.Close()
		b.Fatalf("create incident: status %d", resp.StatusCode)
	}
	return ts.URL, func() {
		ts.Close()
		if err := srv.Close(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// postSnapshot uploads the body to the incident and fails unless it was stored (201).
func postSnapshot(b *testing.B, base string, body []byte, contentType string) {
	b.Helper()
	resp, err := http.Post(base+"/api/v1/incidents/bench/snapshots", contentType, bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	answer, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		b.Fatalf("upload: status %d: %.500s", resp.StatusCode, answer)
	}
}

// emptyUploadTables empties every table of the PostgreSQL test database but the migration
// record, so that the same bytes are a new snapshot again.
func emptyUploadTables(b *testing.B) {
	b.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations'")
	if err != nil {
		b.Fatal(err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		b.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "TRUNCATE "+strings.Join(tables, ", ")+" RESTART IDENTITY CASCADE"); err != nil {
		b.Fatal(err)
	}
}
