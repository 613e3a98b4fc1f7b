package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/bytedance/sonic"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/jsonscan"
)

// The typed decode of pods, nodes and events is bytedance/sonic's where it answers exactly as
// encoding/json does, and encoding/json's elsewhere: sonic decodes several times faster
// (a JIT-compiled decoder per type, SIMD scans), and the differential tests
// (fastjson_test.go) hold it to encoding/json's results.
//
//   - Strings are copied out of the input (CopyString): the input is the line reader's buffer,
//     reused for the next item, and a string pointing into it would also keep it all alive.
//   - Control characters in strings are refused (ValidateString), as encoding/json refuses
//     them; sonic validates the JSON of the fields it skips too (its default).
//   - encoding/json matches object keys to struct fields ignoring case by Unicode's simple
//     folding, in which the long s (U+017F) folds to s and the Kelvin sign (U+212A) to k:
//     an item holding either, raw or escaped, is left to encoding/json.
//   - sonic does not always check the escapes of the strings it skips (a bad escape in a
//     key of an unknown object went through, FuzzDecodeTyped found): jsonscan.EscapesPlain does, and
//     finds the escaped long s and Kelvin sign on the way.
//   - On any error sonic's result is dropped and encoding/json decodes the item again: errors
//     keep encoding/json's text and offsets, which the messages with file and line are made of.
var fastJSON = sonic.Config{CopyString: true, ValidateString: true}.Froze()

// The long s and the Kelvin sign in UTF-8: the bytes that may make encoding/json match a key
// that sonic would not, unescaped.
var longS, kelvin = []byte("\u017f"), []byte("\u212a")

// fastReady says whether sonic's decoders for the typed kinds are compiled. The first call
// starts compiling them, once per process, in the background: about 0.3 s of one core, which
// a one-shot `rootline analyze` would otherwise wait for before its first pod. Until they are
// ready, encoding/json decodes. (sonic's compiled decoders are process-wide; so is this.)
var fastReady = sync.OnceValue(func() *atomic.Bool {
	ready := new(atomic.Bool)
	go func() {
		// A decode compiles the decoder of its type; sonic.Pretouch was seen to compile
		// decoders that wrote broken strings (TestDecodeTypedMatchesStd).
		for _, v := range []any{new(corev1.Pod), new(corev1.Node), new(corev1.Event), new(eventsv1.Event), new(cluster.Pod), new(cluster.Event)} {
			_ = fastJSON.UnmarshalFromString(`{}`, v)
		}
		ready.Store(true)
	}()
	return ready
})

// StartWarmUp starts compiling the fast decoders, in the background, and returns.
func StartWarmUp() { fastReady() }

// WarmUp compiles the fast decoders now and waits for them, or for ctx: for servers, before
// their first upload, and benchmarks, before they time.
func WarmUp(ctx context.Context) error {
	ready := fastReady()
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for !ready.Load() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
	return nil
}

// decodeTyped decodes the JSON value raw into v, a pointer to a zero value, as json.Unmarshal
// does: with the same result, and on failure the same error.
func (d *Decoder) decodeTyped(raw []byte, v any) error {
	if d.stdJSON || !fastReady().Load() {
		return json.Unmarshal(raw, v)
	}
	if !bytes.Contains(raw, longS) && !bytes.Contains(raw, kelvin) {
		// sonic reads a string; raw is not changed while it runs, and nothing it returns
		// points into it (CopyString).
		if err := fastJSON.UnmarshalFromString(unsafe.String(unsafe.SliceData(raw), len(raw)), v); err == nil && jsonscan.EscapesPlain(raw) {
			return nil
		}
		reflect.ValueOf(v).Elem().SetZero() // what sonic filled in before it failed
	}
	d.slowTyped.Add(1)
	return json.Unmarshal(raw, v)
}
