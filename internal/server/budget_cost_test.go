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

// TestUploadCostCountsSeries: a saved Prometheus answer of many small series is charged for its
// series beside its bytes, a KiB each.
func TestUploadCostCountsSeries(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var b bytes.Buffer
	b.WriteString(`{"status":"success","data":{"resultType":"matrix","result":[`)
	for i := range 10_000 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"metric":{"pod":"p"},"values":[[1,"1"]]}`)
	}
	b.WriteString(`]}}`)
	p := filepath.Join(dir, "container_memory.json")
	if err := os.WriteFile(p, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	answer := (&spool{files: []spooledFile{{name: "prometheus/container_memory.json", path: p, size: int64(b.Len())}}}).cost(1 << 30)
	if want := int64(costBase) + costPerByte*int64(b.Len()) + 10_000*costPerSeries; answer != want {
		t.Errorf("an answer of 10,000 series costs %d, want %d (its bytes and a KiB a series)", answer, want)
	}
}
