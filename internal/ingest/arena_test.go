package ingest

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/synth"
)

// TestArenaOwn: every string an arena took is still itself after the arena filled chunk after
// chunk (its bytes are never written again), is a copy (not the caller's bytes), and what it
// does not take (empty, too long, no arena) comes back as it was.
func TestArenaOwn(t *testing.T) {
	t.Parallel()
	a := &arena{}
	var want, got []string
	for i := 0; len(want) == 0 || 3*arenaChunk > len(strings.Join(want, "")); i++ {
		s := fmt.Sprintf("pod-%d-%s", i, strings.Repeat("x", i%300))
		in := string([]byte(s))
		o := a.own(in)
		if unsafe.StringData(o) == unsafe.StringData(in) {
			t.Fatal("own returned the caller's bytes")
		}
		want, got = append(want, s), append(got, o)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("string %d = %q after the arena went on, want %q", i, got[i], want[i])
		}
	}
	long := strings.Repeat("m", maxArenaString+1)
	if o := a.own(long); unsafe.StringData(o) != unsafe.StringData(long) {
		t.Error("a string longer than maxArenaString was copied")
	}
	var none *arena
	if o := none.own("web-1"); o != "web-1" {
		t.Errorf("nil arena: %q", o)
	}
}

// TestUnstoredObjectNameIsThePodsName: decoded for analysis alone, an object's name is its
// pod's or event's own string (the one the arena holds), not the decoder's copy beside it.
func TestUnstoredObjectNameIsThePodsName(t *testing.T) {
	t.Parallel()
	for _, write := range []func(*bytes.Buffer) error{
		func(b *bytes.Buffer) error {
			return synth.WritePodList(b, synth.Options{Pods: 300, Events: 10, Seed: 3})
		},
		func(b *bytes.Buffer) error {
			return synth.WriteEventList(b, synth.Options{Pods: 100, Events: 300, Seed: 3})
		},
	} {
		var list bytes.Buffer
		if err := write(&list); err != nil {
			t.Fatal(err)
		}
		objs, _, err := decodeAll(t, "list.json", list.Bytes(), Options{Unstored: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(objs) == 0 {
			t.Fatal("nothing decoded")
		}
		for _, o := range objs {
			var name string
			switch {
			case o.Pod != nil:
				name = o.Pod.Name
			case o.Event != nil:
				name = o.Event.Name
			default:
				continue
			}
			if o.Name != name || unsafe.StringData(o.Name) != unsafe.StringData(name) {
				t.Fatalf("%s %s: the object's name is not its own object's string", o.Kind, o.Name)
			}
		}
	}
}

// TestArenaOnlyForUnstored: the decoder of rootline analyze, whose objects all live to its end,
// keeps its strings in an arena; the server's, whose objects go once stored, does not (a
// string kept past its upload would keep its whole chunk).
func TestArenaOnlyForUnstored(t *testing.T) {
	t.Parallel()
	var list bytes.Buffer
	if err := synth.WritePodList(&list, synth.Options{Pods: 20, Events: 10, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	for _, unstored := range []bool{true, false} {
		d := NewDecoder(Options{Unstored: unstored})
		if err := d.Decode(context.Background(), "pods.json", bytes.NewReader(list.Bytes()), func(*cluster.Object) error { return nil }); err != nil {
			t.Fatal(err)
		}
		if d.strs == nil {
			t.Fatal("no interner")
		}
		if got := d.strs.arena != nil; got != unstored {
			t.Errorf("Unstored %v: arena %v", unstored, got)
		}
	}
}
