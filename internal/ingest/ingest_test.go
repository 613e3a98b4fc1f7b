package ingest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/cluster"
)

var update = flag.Bool("update", false, "rewrite golden files")

// decodeAll decodes one input and returns the objects and the skipped list.
func decodeAll(t testing.TB, name string, data []byte, opts Options) ([]*cluster.Object, []Skipped, error) {
	t.Helper()
	var skipped []Skipped
	opts.OnSkip = func(s Skipped) { skipped = append(skipped, s) }
	var objs []*cluster.Object
	err := NewDecoder(opts).Decode(context.Background(), name, bytes.NewReader(data), func(o *cluster.Object) error {
		objs = append(objs, o)
		return nil
	})
	return objs, skipped, err
}

// render writes what a decode produced in a stable, readable form for golden files.
func render(t *testing.T, objs []*cluster.Object, skipped []Skipped) string {
	t.Helper()
	var b strings.Builder
	for _, o := range objs {
		raw, err := o.JSON()
		if err != nil {
			t.Fatal(err)
		}
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, raw, "", "  "); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "== %s %s uid=%q at %s\n%s\n", o.APIVersion, o.Ref(), o.UID, o.Source, pretty.String())
	}
	for _, s := range skipped {
		fmt.Fprintf(&b, "-- skipped %s %s/%s at %s:%d: %s\n", s.Kind, s.Namespace, s.Name, s.File, s.Line, s.Reason)
	}
	return b.String()
}

func TestDecodeGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.*")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			objs, skipped, err := decodeAll(t, filepath.Base(f), data, Options{})
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			got := render(t, objs, skipped)
			golden := filepath.Join("testdata", "golden", filepath.Base(f)+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("output differs from %s (-want +got):\n%s", golden, diff)
			}
			if strings.Contains(got, "s3cr3t") {
				t.Errorf("a secret value survived redaction:\n%s", got)
			}
		})
	}
}

func gz(t testing.TB, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func tarOf(t testing.TB, files map[string][]byte, order ...string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := tar.NewWriter(&b)
	for _, name := range order {
		if err := w.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(files[name])), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(files[name]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDecodeContainers checks that archives and compression give the same objects as the
// plain files, with the archive path in the provenance.
func TestDecodeContainers(t *testing.T) {
	pods := readTestdata(t, "pods-list.json")
	nodes := readTestdata(t, "nodes.yaml")
	bundle := map[string][]byte{"snap/pods.json": pods, "snap/nodes.yaml.gz": gz(t, nodes)}
	tests := []struct {
		name      string
		data      []byte
		wantRefs  []string
		wantFirst string
	}{
		{"pods.json.gz", gz(t, pods), []string{"Pod prod/hub-7c9f8d6b5-x2x7k", "Pod prod/dask-worker-4f1c2-0"}, "pods.json.gz:4"},
		{"snap.tar", tarOf(t, bundle, "snap/pods.json", "snap/nodes.yaml.gz"),
			[]string{"Pod prod/hub-7c9f8d6b5-x2x7k", "Pod prod/dask-worker-4f1c2-0", "Node gke-leap-core-pool-5a3f2b1c-x9kq", "Node gke-leap-dask-pool-9b8a7c6d-a1b2"},
			"snap.tar:snap/pods.json:4"},
		{"snap.tgz", gz(t, tarOf(t, bundle, "snap/nodes.yaml.gz")),
			[]string{"Node gke-leap-core-pool-5a3f2b1c-x9kq", "Node gke-leap-dask-pool-9b8a7c6d-a1b2"}, "snap.tgz:snap/nodes.yaml.gz:3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, _, err := decodeAll(t, tt.name, tt.data, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var refs []string
			for _, o := range objs {
				refs = append(refs, o.Ref())
			}
			if diff := cmp.Diff(tt.wantRefs, refs); diff != "" {
				t.Errorf("objects (-want +got):\n%s", diff)
			}
			if got := objs[0].Source.String(); got != tt.wantFirst {
				t.Errorf("first source = %s, want %s", got, tt.wantFirst)
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	pods := readTestdata(t, "pods-list.json")
	tests := []struct {
		name     string
		data     []byte
		max      int64
		want     error
		wantLine int
		wantMsg  string
	}{
		{name: "empty", data: nil, want: ErrMalformed, wantMsg: "empty input"},
		{name: "blank", data: []byte("  \n\n "), want: ErrMalformed, wantMsg: "empty input"},
		{name: "truncated.json", data: pods[:len(pods)/2], want: ErrMalformed, wantMsg: "truncated"},
		{name: "bad-char.json", data: []byte("{\"items\": [\n{\"kind\": \"Pod\"},\n{\"kind\": x}\n]}"), want: ErrMalformed, wantLine: 3, wantMsg: "invalid character 'x'"},
		{name: "wrong-type.json", data: []byte("{\"kind\": \"Pod\",\n \"metadata\": {\"name\": \"p\"},\n \"spec\": {\"containers\": 7}}"), want: ErrMalformed, wantLine: 3, wantMsg: "field spec.containers"},
		{name: "tab.yaml", data: []byte("apiVersion: v1\nkind: Pod\nmetadata:\n\tname: p\n"), want: ErrMalformed, wantLine: 4, wantMsg: "invalid YAML"},
		{name: "tab-in-item.yaml", data: []byte("apiVersion: v1\nitems:\n- kind: Pod\n  metadata:\n  \tname: p\nkind: List\n"), want: ErrMalformed, wantLine: 5, wantMsg: "invalid YAML"},
		{name: "random.bin", data: []byte("\x00\x01\x02\xff\xfe binary"), want: ErrUnsupported},
		{name: "prose.txt", data: []byte("the hub was slow, nobody knows why\n"), want: ErrUnsupported},
		{name: "no-kind.json", data: []byte(`{"metadata": {"name": "x"}}`), want: ErrMalformed, wantMsg: "without kind"},
		{name: "scalar.json", data: []byte(`[1, 2]`), want: ErrMalformed, wantMsg: "found a number"},
		{name: "bomb.gz", data: gz(t, make([]byte, 3<<20)), max: 1 << 20, want: ErrTooLarge},
		{name: "big.json", data: pods, max: 1000, want: ErrTooLarge},
		{name: "escape.tar", data: tarOf(t, map[string][]byte{"../../etc/x.json": pods}, "../../etc/x.json"), want: ErrMalformed, wantMsg: "climbs out"},
		{name: "bad.gz", data: []byte{0x1f, 0x8b, 0x08, 0x00, 0x01}, want: ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := decodeAll(t, tt.name, tt.data, Options{MaxBytes: tt.max})
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %T, want *Error", err)
			}
			if e.File != tt.name {
				t.Errorf("file = %q, want %q", e.File, tt.name)
			}
			if tt.wantLine != 0 && e.Line != tt.wantLine {
				t.Errorf("line = %d, want %d (%v)", e.Line, tt.wantLine, err)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("message %q does not contain %q", err, tt.wantMsg)
			}
		})
	}
}

// TestDecodeStreams shows that a list is decoded item by item: the first pod is emitted while
// the rest of the list has not been written yet. (The first write is larger than what format
// detection looks at, as any real list is.)
func TestDecodeStreams(t *testing.T) {
	pr, pw := io.Pipe()
	first := make(chan string, 1)
	proceed := make(chan struct{})
	go func() {
		_, _ = io.WriteString(pw, `{"apiVersion": "v1", "items": [{"kind": "Pod", "metadata": {"name": "a", "namespace": "n"}`+strings.Repeat(" ", sniffLen)+`}`)
		<-proceed // held back until the first pod has been seen
		_, _ = io.WriteString(pw, `, {"kind": "Pod", "metadata": {"name": "b", "namespace": "n"}}], "kind": "List"}`)
		pw.Close()
	}()
	var names []string
	err := NewDecoder(Options{}).Decode(context.Background(), "stream.json", pr, func(o *cluster.Object) error {
		names = append(names, o.Name)
		if len(names) == 1 {
			first <- o.Name
			close(proceed)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := <-first; got != "a" {
		t.Errorf("first object = %q, want a", got)
	}
	if diff := cmp.Diff([]string{"a", "b"}, names); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
}

func TestDecodeStopsOnEmitError(t *testing.T) {
	boom := errors.New("boom")
	err := NewDecoder(Options{}).Decode(context.Background(), "pods.json", bytes.NewReader(readTestdata(t, "pods-list.json")),
		func(*cluster.Object) error { return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
}

func FuzzDecode(f *testing.F) {
	for _, name := range []string{"pods-list.json", "nodes.yaml", "events.jsonl", "multi.yaml", "podlist-api.json"} {
		f.Add(readTestdata(f, name))
	}
	f.Add([]byte("items:\n- a\n -b\n\t- c"))
	f.Add([]byte(`{"items": [{"kind": "List", "items": [{"kind": "Pod"}]}]}`))
	// Whitespace as long as a sniff window and more, before and inside an input (issue 15).
	f.Add([]byte(strings.Repeat(" ", sniffLen) + `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}}`))
	f.Add([]byte(strings.Repeat("\n", sniffLen+1) + "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"))
	f.Add([]byte(strings.Repeat("\t", sniffLen) + "\nNAME READY STATUS RESTARTS AGE\nweb-1 1/1 Running 0 5m\n"))
	f.Add([]byte(`{"kind":"List","items":[` + strings.Repeat(" ", 2*maxBlankRun) + `{"kind":"Pod","metadata":{"name":"` + strings.Repeat(" ", 2*maxBlankRun) + `"}}]}`))
	// sonic compiles its decoders once, before the first input: in a build instrumented
	// for fuzzing that takes minutes, and the collector waits for it (every input stalled).
	warm(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		_, _, err := decodeAll(t, "fuzz", data, Options{MaxBytes: 1 << 20})
		if d := time.Since(start); d > 10*time.Second { // a hang detector, far above any real time
			t.Fatalf("decoding %d bytes took %s", len(data), d)
		}
		if err == nil {
			return
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("error is %T, not *Error: %v", err, err)
		}
		if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrTooLarge) {
			t.Fatalf("error wraps no sentinel: %v", err)
		}
	})
}

// TestRandomBytesAreBinary: random bytes are binary data whatever byte they begin with,
// '{' and '[' included (CI once read such an upload as JSON with bad UTF-8).
func TestRandomBytesAreBinary(t *testing.T) {
	for seed := range byte(200) {
		b := make([]byte, 8<<10)
		_, _ = rand.NewChaCha8([32]byte{seed}).Read(b)
		for _, first := range []byte{b[0], '{', '[', ' '} {
			b[0] = first
			if b[0] == 0x1f && b[1] == 0x8b { // gzip's magic: a broken gzip stream instead
				continue
			}
			_, _, err := decodeAll(t, "random.bin", b, Options{})
			if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "binary data") {
				t.Fatalf("seed %d, first byte %q: err = %v, want binary data", seed, first, err)
			}
		}
	}
}
