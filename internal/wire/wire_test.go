package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/testenv"
)

// read is Read gathering the items.
func read(body string) ([]Item, error) {
	var got []Item
	err := Read(strings.NewReader(body), func(it Item) error {
		got = append(got, it)
		return nil
	})
	return got, err
}

// TestRoundTrip: what Marshal writes, Read gives back item by item, in order: the time to the
// nanosecond, the mark of a deletion, the object's bytes as they were.
func TestRoundTrip(t *testing.T) {
	at := time.Date(2023, 2, 1, 17, 4, 5, 123456789, time.UTC)
	items := []Item{
		{ObservedAt: at, Object: json.RawMessage(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"hub"}}`)},
		{ObservedAt: at.Add(time.Second), Deleted: true, Object: json.RawMessage(`{"apiVersion":"v1","kind":"Node","metadata":{"name":"core-1"}}`)},
	}
	body, err := Marshal(items)
	if err != nil {
		t.Fatal(err)
	}
	got, err := read(string(body))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(items) {
		t.Fatalf("read %d items of %d: %s", len(got), len(items), body)
	}
	for i := range items {
		if !got[i].ObservedAt.Equal(items[i].ObservedAt) || got[i].Deleted != items[i].Deleted || !bytes.Equal(got[i].Object, items[i].Object) {
			t.Errorf("item %d: %+v, want %+v", i+1, got[i], items[i])
		}
	}
	if strings.Count(string(body), `"deleted"`) != 1 {
		t.Errorf("deleted is written only when true: %s", body)
	}
	empty, err := Marshal(nil)
	if err != nil || string(empty) != "{\"items\":[]}\n" {
		t.Errorf("an empty batch: %q %v", empty, err)
	}
}

// TestReadRefuses: a body that is not a batch is refused as malformed, saying where, before
// anything after the fault is handed on; the error of the caller's function comes back as it
// was.
func TestReadRefuses(t *testing.T) {
	const item = `{"observedAt": "2023-02-01T17:04:05Z", "object": {"kind": "Pod"}}`
	for _, tc := range []struct{ name, body, says string }{
		{"empty", ``, "a batch is a JSON object"},
		{"a List", `{"apiVersion": "v1", "kind": "List", "items": []}`, `field "apiVersion"`},
		{"an array", `[` + item + `]`, "a batch is a JSON object"},
		{"items twice", `{"items": [], "items": []}`, `field "items"`},
		{"items not an array", `{"items": {}}`, "items is an array"},
		{"unknown item field", `{"items": [{"observedAt": "2023-02-01T17:04:05Z", "seen": 1, "object": {}}]}`, `item 1: json: unknown field "seen"`},
		{"no time", `{"items": [` + item + `, {"object": {"kind": "Pod"}}]}`, "item 2: no observedAt"},
		{"a bad time", `{"items": [{"observedAt": "yesterday", "object": {}}]}`, "item 1:"},
		{"no object", `{"items": [{"observedAt": "2023-02-01T17:04:05Z"}]}`, "item 1: object is not a JSON object"},
		{"an object that is a string", `{"items": [{"observedAt": "2023-02-01T17:04:05Z", "object": "{}"}]}`, "item 1: object is not a JSON object"},
		{"cut short", `{"items": [` + item + `, {"observedAt": "2023-02-01T17:04:05Z", "object": {"kind": `, "item 2:"},
		{"unclosed", `{"items": [` + item + `]`, "the batch does not end"},
		{"more after", `{"items": []} {}`, "more after the batch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := read(tc.body)
			if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("error %v, want one saying %q", err, tc.says)
			}
			if tc.name == "no time" && len(got) != 1 {
				t.Errorf("handed on %d items before the fault, want 1", len(got))
			}
		})
	}
	// A Reader that failed fails again, not reading on past the fault.
	r := NewReader(strings.NewReader(`{"items": [{"object": {}}, ` + item + `]}`))
	_, err1 := r.Next()
	it, err2 := r.Next()
	if !errors.Is(err1, ErrMalformed) || err2 != err1 {
		t.Errorf("after %v, Next gave %+v, %v", err1, it, err2)
	}
	stop := errors.New("stop")
	calls := 0
	err := Read(strings.NewReader(`{"items": [`+item+`, `+item+`]}`), func(Item) error { calls++; return stop })
	if err != stop || calls != 1 {
		t.Errorf("the caller's error came back as %v after %d calls, want it as it was after 1", err, calls)
	}
}

// FuzzRead: Read never panics, and a batch it accepts is read the same once written again.
func FuzzRead(f *testing.F) {
	f.Add(`{"items": [{"observedAt": "2023-02-01T17:04:05.5Z", "deleted": true, "object": {"kind": "Node"}}]}`)
	f.Add(`{"items": []}`)
	f.Add(`{"items": [{"observedAt": "2023-02-01T17:04:05Z", "object": {"kind": "Pod", "metadata": {"name": "x"}}}, {}]}`)
	f.Fuzz(func(t *testing.T, body string) {
		items, err := read(body)
		if err != nil {
			return
		}
		again, err := Marshal(items)
		if err != nil {
			t.Fatalf("accepted %q, then Marshal: %v", body, err)
		}
		back, err := read(string(again))
		if err != nil || len(back) != len(items) {
			t.Fatalf("accepted %q, but not what Marshal made of it (%q): %v", body, again, err)
		}
		for i := range items {
			var a, b any
			if json.Unmarshal(items[i].Object, &a) != nil || json.Unmarshal(back[i].Object, &b) != nil || !reflect.DeepEqual(a, b) ||
				!items[i].ObservedAt.Equal(back[i].ObservedAt) || items[i].Deleted != back[i].Deleted {
				t.Fatalf("item %d: %+v, written and read again %+v", i+1, items[i], back[i])
			}
		}
	})
}

// TestStandardLibraryOnly: the server reads batches through this package; were it to import
// the collector or client-go, so would the server (TestServerLinksNoClientGo guards the
// server's side).
func TestStandardLibraryOnly(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		testenv.Missing(t, "no go command on PATH: %v", err)
	}
	out, err := exec.Command(goBin, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	if deps := strings.Fields(string(out)); len(deps) != 1 || deps[0] != "github.com/rootline-dev/rootline/internal/wire" {
		t.Errorf("internal/wire depends on more than the standard library: %q", deps)
	}
}
