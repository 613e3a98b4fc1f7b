package ingest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// TestUTF8Check: runes cut by reads of any size are whole; the first bad byte is found with
// its offset and line; an input that ends inside a rune is bad.
func TestUTF8Check(t *testing.T) {
	for _, c := range []struct {
		in        string
		bad       bool
		off, line int
	}{
		{"plain ascii\nline two\n", false, 0, 0},
		{"héllo — wörld 日本語 🙂\n", false, 0, 0},
		{"ok\nstill ok\nbad \xff here", true, 16, 3},
		{"\xc3", true, 0, 1},
		{"ends inside a rune \xe6\x97", true, 19, 1},
		{"overlong \xc0\xaf", true, 9, 1},
	} {
		for _, wrap := range []func(io.Reader) io.Reader{func(r io.Reader) io.Reader { return r }, iotest.OneByteReader, iotest.HalfReader} {
			u := &utf8Check{r: wrap(strings.NewReader(c.in))}
			if _, err := io.Copy(io.Discard, u); err != nil {
				t.Fatal(err)
			}
			off, line, bad := u.invalid()
			if bad != c.bad || (bad && (off != int64(c.off) || line != c.line)) {
				t.Errorf("%q: bad %v at %d line %d, want %v at %d line %d", c.in, bad, off, line, c.bad, c.off, c.line)
			}
		}
	}
}

// TestDecodeRefusesInvalidUTF8: JSON, YAML and kubectl text that are not UTF-8 are refused
// with the position of the first bad byte; a byte order mark is skipped.
func TestDecodeRefusesInvalidUTF8(t *testing.T) {
	for name, in := range map[string]string{
		"pod.json":  "{\"apiVersion\": \"v1\", \"kind\": \"Pod\",\n \"metadata\": {\"name\": \"p\xff\"}}",
		"pod.yaml":  "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\xfe\n",
		"pods.json": "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"a\"}},\n{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"b\xc3\x28\"}}]}",
	} {
		err := NewDecoder(Options{}).Decode(context.Background(), name, strings.NewReader(in), func(*cluster.Object) error { return nil })
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrMalformed) || !strings.Contains(e.Msg, "invalid UTF-8 at byte") || e.Line < 2 {
			t.Errorf("%s: %v", name, err)
		}
	}
	bom := append([]byte("\xef\xbb\xbf"), `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "x"}}`...)
	n := 0
	if err := NewDecoder(Options{}).Decode(context.Background(), "bom.json", bytes.NewReader(bom), func(*cluster.Object) error { n++; return nil }); err != nil || n != 1 {
		t.Errorf("JSON after a byte order mark: %d objects, %v", n, err)
	}
}
