package inputsize

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/testenv"
)

// TestDecoded: a gzip file is estimated by the size it says it unpacks to, capped by the
// decoding limit; JSON and YAML by their size; pasted text by TextGrowth times its size, capped
// before it grows.
func TestDecoded(t *testing.T) {
	dir := t.TempDir()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(make([]byte, 10<<20)); err != nil || zw.Close() != nil {
		t.Fatal(err)
	}
	gz := filepath.Join(dir, "z.gz")
	write(t, gz, b.Bytes())
	plain := filepath.Join(dir, "p.json")
	write(t, plain, make([]byte, 1000))
	text := filepath.Join(dir, "pods")
	write(t, text, []byte(strings.Repeat("app-0   0/1   CrashLoopBackOff   3   1m\n", 25)))
	yaml := filepath.Join(dir, "paste")
	write(t, yaml, []byte("apiVersion: v1\nkind: Pod\n"))
	for _, tc := range []struct {
		path, name  string
		size, limit int64
		want        int64
	}{
		{gz, "z.gz", int64(b.Len()), 1 << 30, 10 << 20},
		{gz, "z.gz", int64(b.Len()), 1 << 20, 1 << 20},
		{gz, "z.gz", int64(b.Len()), 0, 10 << 20},
		{plain, "p.json", 1000, 1 << 30, 1000},
		{text, "pods.json", 1000, 0, 1000},
		{text, "pods.txt", 1000, 0, 1000 * TextGrowth},
		{text, "pods.txt", 1000, 100, 100 * TextGrowth},
		{yaml, "paste", 25, 0, 25},
	} {
		if got := Decoded(tc.path, tc.name, tc.size, tc.limit); got != tc.want {
			t.Errorf("%s limit %d: %d, want %d", tc.name, tc.limit, got, tc.want)
		}
	}
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestSeries: the series of a saved Prometheus answer are counted, plain or gzipped, a key
// across two reads included, up to the limit; other JSON holds none.
func TestSeries(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	answer := func(n int) []byte {
		var b bytes.Buffer
		b.WriteString(`{"status":"success","data":{"resultType":"matrix","result":[`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"metric":{"pod":"p-` + strings.Repeat("x", i%50) + `"},"values":[[1,"1"]]}`)
		}
		b.WriteString(`]}}`)
		return b.Bytes()
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain := answer(20_000) // over a megabyte: keys straddle the reads
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	if _, err := zw.Write(plain); err != nil || zw.Close() != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		path  string
		limit int64
		want  int64
	}{
		{"plain", write("q.json", plain), 0, 20_000},
		{"gzipped", write("q.json.gz", z.Bytes()), 0, 20_000},
		{"cut at the limit", write("q2.json", plain), int64(len(plain) / 2), 0},
		{"pods", write("pods.json", []byte(`{"apiVersion":"v1","kind":"List","items":[{"metadata":{"name":"metric"}}]}`)), 0, 0},
		{"missing", filepath.Join(dir, "none.json"), 0, 0},
	} {
		got := Series(tt.path, tt.limit)
		if tt.name == "cut at the limit" {
			if got < 9_000 || got > 11_000 {
				t.Errorf("%s: %d series, want about half of 20,000", tt.name, got)
			}
			continue
		}
		if got != tt.want {
			t.Errorf("%s: %d series, want %d", tt.name, got, tt.want)
		}
	}
}

// TestDecodedLeavesAPipeAlone: a named pipe is estimated by its size without being opened,
// since opening it would wait for a writer, and a writer's first bytes read here would be lost
// to the decoder.
func TestDecodedLeavesAPipeAlone(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "pods.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		testenv.Missing(t, "no named pipes here: %v", err)
	}
	done := make(chan int64, 1)
	go func() { done <- Decoded(fifo, "pods.json", 0, 0) }()
	select {
	case got := <-done:
		if got != 0 {
			t.Errorf("Decoded(pipe) = %d, want 0", got)
		}
	case <-time.After(10 * time.Second):
		// Opened: give the opener a writer, so that the goroutine ends.
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		t.Fatal("Decoded opened the named pipe and waited for a writer")
	}
}
