package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// whitespaceList is a List whose items are n bytes of whitespace: the body of a whitespace bomb.
func whitespaceList(n int) []byte {
	return []byte(`{"apiVersion":"v1","kind":"List","items":[` + strings.Repeat(" ", n) + `]}`)
}

// chunkReader hands out r in reads of at most n bytes, as a decompressor does.
type chunkReader struct {
	r io.Reader
	n int
}

func (c chunkReader) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.n)]) }

// TestWhitespaceSqueezed: encoding/json scans its whole buffer again after every read while it
// looks for the next token, so a long run of whitespace cost time quadratic in its length
// (16 MiB took 3.3 s through gzip). Runs are cut short before it: of 16 MiB of whitespace
// (between items, inside an object, before a value, between JSON Lines), it is handed a few
// KiB, and what it reports still counts lines and offsets in the file.
func TestWhitespaceSqueezed(t *testing.T) {
	const n = 16 << 20
	ws := strings.Repeat(" ", n-1) + "\n"
	pod := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns"}}`
	for _, tc := range []struct {
		name, data string
		objects    int
		line       int // of the last object
	}{
		{"between items", `{"apiVersion":"v1","kind":"List","items":[` + ws + `]}`, 0, 0},
		{"before an item", `{"apiVersion":"v1","kind":"List","items":[` + ws + pod + `]}`, 1, 2},
		{"after an item", `{"apiVersion":"v1","kind":"List","items":[` + pod + `,` + ws + pod + `]}`, 2, 2},
		{"inside an object", `{"apiVersion":"v1","kind":"Pod",` + ws + `"metadata":{"name":"p"}}`, 1, 1},
		{"inside a value", `{"apiVersion":"v1","kind":"Pod","metadata":{` + ws + `"name":"p"}}`, 1, 1},
		{"between JSON Lines", pod + ws + pod, 2, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := NewDecoder(Options{})
			var objs []*cluster.Object
			err := d.Decode(context.Background(), "ws.json", chunkReader{strings.NewReader(tc.data), 32 << 10}, func(o *cluster.Object) error {
				objs = append(objs, o)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(objs) != tc.objects {
				t.Fatalf("%d objects, want %d", len(objs), tc.objects)
			}
			if tc.objects > 0 {
				last := objs[len(objs)-1]
				if int(last.Source.Line) != tc.line || last.Name != "p" {
					t.Errorf("last object %s at line %d, want p at line %d", last.Name, last.Source.Line, tc.line)
				}
				if want := int64(len(tc.data) - len(pod) - len("]}")); strings.HasSuffix(tc.data, "]}") && last.Source.Offset != want {
					t.Errorf("last object at byte %d, want %d", last.Source.Offset, want)
				}
			}
			if d.handed > 64<<10 {
				t.Errorf("encoding/json was handed %d bytes of a %d-byte input, want at most 64 KiB", d.handed, len(tc.data))
			}
		})
	}
}

// TestWhitespaceErrorsAfterRun: an error after a long run of whitespace is reported at its
// line and byte in the file, not in what encoding/json was handed: as after a short run,
// moved by the run's extra lines and bytes.
func TestWhitespaceErrorsAfterRun(t *testing.T) {
	for _, tc := range []struct{ name, before, after string }{
		{"type error in an item", `{"apiVersion":"v1","kind":"List","items":[`, `{"kind":"Pod","metadata":{"name":3}}]}`},
		{"syntax error in an item", `{"apiVersion":"v1","kind":"List","items":[`, `{"kind":"Pod","metadata":{"name":"p"}]}`},
		{"syntax error after an item", `{"apiVersion":"v1","kind":"List","items":[{"kind":"Pod","metadata":{"name":"p"}}`, `x]}`},
		{"type error in an object", `{"apiVersion":"v1","kind":"Pod",`, `"spec":{"priority":"high"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errAfter := func(run int) *Error {
				data := tc.before + strings.Repeat("\n", run) + tc.after
				_, _, err := decodeAll(t, "ws.json", []byte(data), Options{})
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("after %d newlines: error %v, want an *Error", run, err)
				}
				return e
			}
			const short, long = 100, 1 << 20
			want, got := errAfter(short), errAfter(long)
			if got.Msg != want.Msg || got.Line != want.Line+long-short || got.Offset != want.Offset+long-short {
				t.Errorf("after %d newlines: line %d, byte %d: %s\nwant line %d, byte %d: %s", long, got.Line, got.Offset, got.Msg,
					want.Line+long-short, want.Offset+long-short, want.Msg)
			}
		})
	}
}

// endless is an input of prefix, then fill repeated up to size bytes, then suffix, made as it
// is read; when it has handed out cancelAt bytes it calls cancel.
type endless struct {
	prefix, fill, suffix string
	size, cancelAt, read int64
	cancel               func()
}

func (e *endless) Read(p []byte) (int, error) {
	if e.read >= e.size+int64(len(e.suffix)) {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && e.read < e.size+int64(len(e.suffix)) {
		var c byte
		switch {
		case e.read < int64(len(e.prefix)):
			c = e.prefix[e.read]
		case e.read < e.size:
			c = e.fill[(e.read-int64(len(e.prefix)))%int64(len(e.fill))]
		default:
			c = e.suffix[e.read-e.size]
		}
		p[n] = c
		n++
		e.read++
	}
	if e.read >= e.cancelAt && e.cancel != nil {
		e.cancel()
		e.cancel = nil
	}
	return n, nil
}

// TestCancelStopsDecoding: a cancelled context stops the decoding of a 1 GiB input within a
// few reads, whether it is in a run of whitespace, a long token or a long line: the decode
// returns the context's error, having read little past the point where it was cancelled.
// (A hang detector bounds the wait, far above any real time.)
func TestCancelStopsDecoding(t *testing.T) {
	const size, cancelAt = 1 << 30, 2 << 20
	for _, tc := range []struct{ name, prefix, fill, suffix string }{
		{"whitespace in a list", `{"apiVersion":"v1","kind":"List","items":[`, " ", "]}"},
		{"newlines in a list", `{"apiVersion":"v1","kind":"List","items":[`, "\n", "]}"},
		{"leading whitespace", "", " \n\t", "{}"},
		{"a long string", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"`, "a", `"}}`},
		{"a long YAML line", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: ", "a", "\n"},
		{"YAML blank lines", "apiVersion: v1\nkind: Pod\n", "\n", "metadata:\n  name: p\n"},
		{"text", "NAME READY STATUS RESTARTS AGE\n", "web-1 1/1 Running 0 5m\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			in := &endless{prefix: tc.prefix, fill: tc.fill, suffix: tc.suffix, size: size, cancelAt: cancelAt, cancel: cancel}
			done := make(chan error, 1)
			go func() {
				done <- NewDecoder(Options{MaxBytes: 2 * size}).Decode(ctx, "big", in, func(*cluster.Object) error { return nil })
			}()
			select {
			case err := <-done:
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("Decode = %v, want context.Canceled", err)
				}
				if in.read > 2*cancelAt {
					t.Errorf("read %d bytes, cancelled at %d", in.read, cancelAt)
				}
			case <-time.After(60 * time.Second):
				t.Fatalf("Decode still running 60s after it was cancelled, having read %d bytes", in.read)
			}
		})
	}
}

// BenchmarkWhitespaceList decodes a List of nothing but whitespace, plain and gzipped (as an
// upload arrives): the time per byte must not grow with the size.
func BenchmarkWhitespaceList(b *testing.B) {
	for _, size := range []int{4 << 20, 16 << 20} {
		plain := whitespaceList(size)
		for _, in := range []struct {
			name string
			data []byte
		}{{"plain", plain}, {"gzip", gz(b, plain)}} {
			b.Run(fmt.Sprintf("%s/%dMiB", in.name, size>>20), func(b *testing.B) {
				b.SetBytes(int64(len(plain)))
				for b.Loop() {
					err := NewDecoder(Options{}).Decode(context.Background(), "ws.json", bytes.NewReader(in.data), func(*cluster.Object) error { return nil })
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestSqueezeKeepsJSON: what the line reader passes on is the same JSON, read in reads of any
// size: whitespace inside strings (spaces, escaped quotes and backslashes before them) is
// kept whole, and only runs between tokens are cut, to maxBlankRun bytes.
func TestSqueezeKeepsJSON(t *testing.T) {
	long := strings.Repeat(" ", 3*maxBlankRun)
	docs := []string{
		`{"a":` + long + `"b"}`,
		`{"a":"` + long + `"}`,
		`{"a":"x\"` + long + `\\"` + long + `,` + "\n" + long + `"b":["\\\\",` + long + `"\\"]}`,
		`[` + strings.Repeat("\n", 3*maxBlankRun) + `1,` + long + `"` + long + `\"` + `"]`,
		long + `{"k\\":"` + long + `\\\\"}` + long,
	}
	for i, doc := range docs {
		for _, chunk := range []int{1, 2, 3, 7, 4095, 64 << 10} {
			t.Run(fmt.Sprintf("%d/%d", i, chunk), func(t *testing.T) {
				l := newLineReader(chunkReader{strings.NewReader(doc), chunk})
				out, err := io.ReadAll(l)
				if err != nil {
					t.Fatal(err)
				}
				var want, got bytes.Buffer
				if err := json.Compact(&want, []byte(doc)); err != nil {
					t.Fatalf("test input is not JSON: %v", err)
				}
				if err := json.Compact(&got, out); err != nil {
					t.Fatalf("passed on is not JSON: %v", err)
				}
				if got.String() != want.String() {
					t.Errorf("passed on %q, want %q", got.String(), want.String())
				}
				if n := len(doc) - len(out); n != int(l.fileOffset(int64(len(out)))-int64(len(out))) {
					t.Errorf("dropped %d bytes, fileOffset says %d", n, l.fileOffset(int64(len(out)))-int64(len(out)))
				}
				if n := longestBlankRun(out); n > maxBlankRun {
					t.Errorf("a run of %d blank bytes between tokens was passed on, want at most %d", n, maxBlankRun)
				}
			})
		}
	}
}

// longestBlankRun is the length of the longest run of whitespace between the tokens of b.
func longestBlankRun(b []byte) int {
	longest, run, inString, escaped := 0, 0, false, false
	for _, c := range b {
		switch {
		case inString:
			inString = escaped || c != '"'
			escaped = !escaped && c == '\\'
		case c == ' ' || c == '\n' || c == '\t' || c == '\r':
			run++
			longest = max(longest, run)
		default:
			run, inString = 0, c == '"'
		}
	}
	return longest
}
