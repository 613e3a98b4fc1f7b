package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/jsonscan"
)

// A key said twice at the top of an object, or in its metadata, makes the object two things
// at once: the scan of its type reads the first "kind", encoding/json and the redacted copy
// keep the last. {"kind": "Deployment", …, "kind": "Secret", "stringData": …} was stored as a
// Deployment whose raw JSON was the Secret, in plain text. The API server's strict decoding
// refuses such objects, and so does Rootline, as malformed. Deeper repeats decide nothing
// that a row says (every reader keeps the last), and are left to encoding/json.

// errRepeatedKey is ErrMalformed, for a key said twice.
var errRepeatedKey = fmt.Errorf("%w: a key said twice", ErrMalformed)

// repeatedKey is a key said twice: Key, in metadata when Meta, the second time at Off.
type repeatedKey struct {
	Key  string
	Meta bool
	Off  int
}

func (r repeatedKey) String() string {
	if r.Meta {
		return fmt.Sprintf("duplicate key %q in metadata", r.Key)
	}
	return fmt.Sprintf("duplicate key %q", r.Key)
}

// duplicateKey finds the first key repeated at the top level of the JSON object raw or in its
// metadata. raw is one JSON value (a type error is left to the decode).
func duplicateKey(raw []byte) (repeatedKey, bool) { return duplicateKeyIn(raw, nil) }

// duplicateKeyIn is duplicateKey for a value whose nested objects and arrays at the top are
// known already (a jsonscan.Value's Tops, in order): they are stepped over, not scanned again.
func duplicateKeyIn(raw []byte, tops []jsonscan.Span) (repeatedKey, bool) {
	if r, meta, ok := firstRepeat(raw, tops); ok {
		return repeatedKey{Key: r.Key, Off: r.Off}, true
	} else if meta.Off >= 0 {
		if r, _, ok := firstRepeat(raw[meta.Off:meta.End], nil); ok {
			return repeatedKey{Key: r.Key, Meta: true, Off: meta.Off + r.Off}, true
		}
	}
	return repeatedKey{}, false
}

// firstRepeat returns the first key of the JSON object raw that repeats an earlier one, and
// where its "metadata" value is. It reads keys and skips values with the scanner of peek.go,
// which gives up on escapes: keys are compared as decoded then, by encoding/json.
func firstRepeat(raw []byte, tops []jsonscan.Span) (repeatedKey, jsonscan.Span, bool) {
	meta := jsonscan.Span{Off: -1}
	i := jsonscan.SkipWS(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return repeatedKey{}, meta, false
	}
	i = jsonscan.SkipWS(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return repeatedKey{}, meta, false
	}
	var seen keySet
	for {
		key, j, ok := jsonscan.Key(raw, i)
		if !ok {
			return firstRepeatDecoded(raw)
		}
		if seen.add(key) {
			return repeatedKey{Key: string(key), Off: i}, meta, true
		}
		for len(tops) > 0 && tops[0].Off < j {
			tops = tops[1:]
		}
		var end int
		switch {
		case len(tops) > 0 && tops[0].Off == j:
			end, ok = tops[0].End, true
		case raw[j] == '{' || raw[j] == '[':
			if e, fast := jsonscan.SkipFast(raw[j:]); fast {
				end, ok = j+e, true
				break
			}
			fallthrough
		default:
			end, ok = jsonscan.SkipValue(raw, j)
		}
		if !ok {
			return firstRepeatDecoded(raw)
		}
		if string(key) == "metadata" {
			meta = jsonscan.Span{Off: j, End: end}
		}
		i = jsonscan.SkipWS(raw, end)
		if i >= len(raw) {
			return repeatedKey{}, meta, false
		}
		switch raw[i] {
		case ',':
			i = jsonscan.SkipWS(raw, i+1)
		case '}':
			return repeatedKey{}, meta, false
		default:
			return firstRepeatDecoded(raw)
		}
	}
}

// firstRepeatDecoded is firstRepeat by encoding/json's tokens, for keys with escapes.
func firstRepeatDecoded(raw []byte) (repeatedKey, jsonscan.Span, bool) {
	meta := jsonscan.Span{Off: -1}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return repeatedKey{}, meta, false
	}
	var seen keySet
	for dec.More() {
		off := int(dec.InputOffset())
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return repeatedKey{}, meta, false
		}
		if seen.add([]byte(key)) {
			return repeatedKey{Key: key, Off: off + bytes.IndexByte(raw[off:], '"')}, meta, true
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return repeatedKey{}, meta, false
		}
		if key == "metadata" {
			end := int(dec.InputOffset())
			meta = jsonscan.Span{Off: end - len(v), End: end}
		}
	}
	return repeatedKey{}, meta, false
}

// keySet is a set of keys: an array of the keys' bytes while small, as objects' keys are (no
// copies, no allocation), a map beyond (no quadratic time for an object of a million keys).
type keySet struct {
	few  [16][]byte
	n    int
	many map[string]bool
}

// add adds k and reports whether it was there already.
func (s *keySet) add(k []byte) bool {
	if s.many != nil {
		if s.many[string(k)] {
			return true
		}
		s.many[string(k)] = true
		return false
	}
	for _, f := range s.few[:s.n] {
		if bytes.Equal(f, k) {
			return true
		}
	}
	if s.n < len(s.few) {
		s.few[s.n] = k
		s.n++
		return false
	}
	s.many = make(map[string]bool, 2*len(s.few))
	for _, f := range s.few {
		s.many[string(f)] = true
	}
	s.many[string(k)] = true
	return false
}

// repeatErr reports a repeated key of the object raw, found at src, at its own line.
func repeatErr(src cluster.Source, raw []byte, r repeatedKey) error {
	e := &Error{File: src.File, Line: int(src.Line), Offset: src.Offset + int64(r.Off), Msg: r.String(), Err: errRepeatedKey}
	if e.Line > 0 {
		e.Line += bytes.Count(raw[:r.Off], []byte{'\n'})
	}
	return e
}
