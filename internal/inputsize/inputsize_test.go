package inputsize

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
