package ingest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"unsafe"

	"github.com/bytedance/sonic"
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
//   - On any error sonic's result is dropped and encoding/json decodes the item again: errors
//     keep encoding/json's text and offsets, which the messages with file and line are made of.
var fastJSON = sonic.Config{CopyString: true, ValidateString: true}.Froze()

// foldTraps are the bytes that may make encoding/json match a key that sonic would not.
var foldTraps = [][]byte{[]byte("\u017f"), []byte("\u212a"), []byte(`\u017f`), []byte(`\u017F`), []byte(`\u212a`), []byte(`\u212A`)}

// decodeTyped decodes the JSON value raw into v, a pointer to a zero value, as json.Unmarshal
// does: with the same result, and on failure the same error.
func (d *Decoder) decodeTyped(raw []byte, v any) error {
	if !d.stdJSON && !hasFoldTrap(raw) {
		if len(raw) == 0 {
			return json.Unmarshal(raw, v)
		}
		// sonic reads a string; raw is not changed while it runs, and nothing it returns
		// points into it (CopyString).
		if err := fastJSON.UnmarshalFromString(unsafe.String(unsafe.SliceData(raw), len(raw)), v); err == nil {
			return nil
		}
		reflect.ValueOf(v).Elem().SetZero() // what sonic filled in before it failed
	}
	return json.Unmarshal(raw, v)
}

func hasFoldTrap(raw []byte) bool {
	for _, t := range foldTraps {
		if bytes.Contains(raw, t) {
			return true
		}
	}
	return false
}

// validJSON reports whether raw is one valid JSON value, as json.Valid does.
func validJSON(raw []byte) bool { return sonic.ConfigDefault.Valid(raw) }
