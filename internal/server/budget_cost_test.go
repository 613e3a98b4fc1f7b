package server

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

// TestUploadCostGrowsWithItsDecodedSize: the memory an upload is charged is a fixed part plus
// several bytes (3 to 5 were measured) for each byte it decodes to, file by file, a gzip file by
// what it unpacks to and no more than the decoding limit; so that ten large uploads cannot
// together take more memory than the budget allows.
func TestUploadCostGrowsWithItsDecodedSize(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) spooledFile {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return spooledFile{name: name, path: p, size: int64(len(b))}
	}
	const mib = 1 << 20
	plain := write("pods.json", make([]byte, mib))
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	if _, err := zw.Write(make([]byte, 8*mib)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	gz := write("pods.json.gz", z.Bytes())

	empty := (&spool{}).cost(1 << 30)
	if empty <= 0 {
		t.Fatalf("an empty upload costs %d, want the fixed part", empty)
	}
	one := (&spool{files: []spooledFile{plain}}).cost(1 << 30)
	perByte := float64(one-empty) / mib
	if perByte < 3 || perByte > 5 {
		t.Errorf("a 1 MiB file costs %.1f bytes a byte above the fixed part, want 3 to 5", perByte)
	}
	if two := (&spool{files: []spooledFile{plain, plain}}).cost(1 << 30); two-empty != 2*(one-empty) {
		t.Errorf("two 1 MiB files cost %d above the fixed part, want twice one's %d", two-empty, one-empty)
	}
	if got, want := (&spool{files: []spooledFile{gz}}).cost(1<<30)-empty, 8*(one-empty); got != want {
		t.Errorf("a gzip file of 8 MiB unpacked costs %d above the fixed part, want %d (8 MiB's)", got, want)
	}
	if got, want := (&spool{files: []spooledFile{gz}}).cost(2*mib)-empty, 2*(one-empty); got != want {
		t.Errorf("a gzip file past a 2 MiB limit costs %d above the fixed part, want %d (the limit's)", got, want)
	}
}
