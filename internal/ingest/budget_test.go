package ingest

import (
	"errors"
	"testing"
)

// TestSkippedEntriesCount: the entries of a tar that are skipped unread (editor litter such as
// ._foo) count against the byte budget like the rest: a gzipped tar of a large hidden file was
// decompressed whole, unbounded and uncancelled, by the tar reader stepping over it.
func TestSkippedEntriesCount(t *testing.T) {
	pod := []byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}}`)
	big := make([]byte, 16<<20)
	data := gz(t, tarOf(t, map[string][]byte{"._big": big, "pod.json": pod}, "._big", "pod.json"))
	_, _, err := decodeAll(t, "x.tar.gz", data, Options{MaxBytes: 1 << 20})
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("error %v, want too large", err)
	}
	objs, _, err := decodeAll(t, "x.tar.gz", data, Options{MaxBytes: 32 << 20})
	if err != nil || len(objs) != 1 {
		t.Fatalf("within the budget: %d objects, %v; want the pod", len(objs), err)
	}
}
