package ingest

import (
	"bytes"
	"unicode/utf8"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// typeMetaOf is peekTypeMeta, answered by a plain byte scan when the object is ordinary (keys
// and the values read without escapes, metadata an object or null), which is nearly always
// and several times faster than the json.Decoder's tokens; anything else goes to peekTypeMeta.
func typeMetaOf(raw []byte, like typeMeta) (typeMeta, error) {
	if tm, ok := scanTypeMeta(raw, like); ok {
		return tm, nil
	}
	return peekTypeMeta(raw)
}

// scanTypeMeta reads what peekTypeMeta reads, the same way: top-level keys match exactly, a
// repeated key counts as long as the scan goes, and the scan stops once kind, apiVersion and
// metadata have all been seen; metadata's name and namespace match as encoding/json matches
// struct fields (ignoring case, the last one winning). It gives up (ok false) on whatever it
// cannot answer exactly the same way: escapes, non-ASCII metadata keys, invalid UTF-8,
// values of the wrong type (peekTypeMeta's error is the answer then) and malformed JSON.
// Values equal to like's are like's strings, not copies: the object's fields then share the
// memory of its typed object's.
func scanTypeMeta(raw []byte, like typeMeta) (tm typeMeta, ok bool) {
	i := skipWS(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return tm, false
	}
	i = skipWS(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return tm, true
	}
	var sawKind, sawVersion, sawMeta bool
	for {
		if sawKind && sawVersion && sawMeta {
			return tm, true
		}
		key, j, ok := scanKey(raw, i)
		if !ok {
			return tm, false
		}
		i = j
		switch string(key) {
		case "kind":
			if i, ok = scanStringValue(raw, i, &tm.Kind, like.Kind); !ok {
				return tm, false
			}
			sawKind = true
		case "apiVersion":
			if i, ok = scanStringValue(raw, i, &tm.APIVersion, like.APIVersion); !ok {
				return tm, false
			}
			sawVersion = true
		case "metadata":
			if i, ok = scanMeta(raw, i, &tm, like); !ok {
				return tm, false
			}
			sawMeta = true
		default:
			if string(key) == "items" {
				tm.HasItems = true
			}
			if i, ok = skipValue(raw, i); !ok {
				return tm, false
			}
		}
		i = skipWS(raw, i)
		if i >= len(raw) {
			return tm, false
		}
		switch raw[i] {
		case '}':
			return tm, true
		case ',':
			i = skipWS(raw, i+1)
		default:
			return tm, false
		}
	}
}

// scanMeta reads metadata's name and namespace from the object (or null) at raw[i:].
func scanMeta(raw []byte, i int, tm *typeMeta, like typeMeta) (int, bool) {
	if bytes.HasPrefix(raw[i:], []byte("null")) {
		return i + 4, true
	}
	if i >= len(raw) || raw[i] != '{' {
		return i, false
	}
	i = skipWS(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return i + 1, true
	}
	for {
		key, j, ok := scanKey(raw, i)
		if !ok {
			return i, false
		}
		i = j
		for _, c := range key {
			if c >= utf8.RuneSelf {
				return i, false // encoding/json folds some non-ASCII letters onto ASCII ones
			}
		}
		switch {
		case bytes.EqualFold(key, []byte("name")):
			i, ok = scanStringValue(raw, i, &tm.Name, like.Name)
		case bytes.EqualFold(key, []byte("namespace")):
			i, ok = scanStringValue(raw, i, &tm.Namespace, like.Namespace)
		default:
			i, ok = skipValue(raw, i)
		}
		if !ok {
			return i, false
		}
		i = skipWS(raw, i)
		if i >= len(raw) {
			return i, false
		}
		switch raw[i] {
		case '}':
			return i + 1, true
		case ',':
			i = skipWS(raw, i+1)
		default:
			return i, false
		}
	}
}

// scanKey reads an object key without escapes and the colon after it, returning the key and
// the position of its value.
func scanKey(raw []byte, i int) ([]byte, int, bool) {
	if i >= len(raw) || raw[i] != '"' {
		return nil, i, false
	}
	end := bytes.IndexByte(raw[i+1:], '"')
	if end < 0 {
		return nil, i, false
	}
	key := raw[i+1 : i+1+end]
	if bytes.IndexByte(key, '\\') >= 0 {
		return nil, i, false
	}
	i = skipWS(raw, i+2+end)
	if i >= len(raw) || raw[i] != ':' {
		return nil, i, false
	}
	return key, skipWS(raw, i+1), true
}

// scanStringValue stores the string at raw[i:] in *dst as decoding into a string would; null
// leaves *dst alone. Escapes, invalid UTF-8, control characters and other types give up.
func scanStringValue(raw []byte, i int, dst *string, like string) (int, bool) {
	if bytes.HasPrefix(raw[i:], []byte("null")) {
		return i + 4, true
	}
	if i >= len(raw) || raw[i] != '"' {
		return i, false
	}
	end := bytes.IndexByte(raw[i+1:], '"')
	if end < 0 {
		return i, false
	}
	s := raw[i+1 : i+1+end]
	if bytes.IndexByte(s, '\\') >= 0 || hasControl(s) || !utf8.Valid(s) {
		return i, false
	}
	*dst = share(s, like)
	return i + 2 + end, true
}

// share returns s as a string: like when equal, a constant for the usual kinds and versions.
func share(s []byte, like string) string {
	if string(s) == like {
		return like
	}
	switch string(s) {
	case "v1":
		return "v1"
	case cluster.KindPod:
		return cluster.KindPod
	case cluster.KindNode:
		return cluster.KindNode
	case cluster.KindEvent:
		return cluster.KindEvent
	}
	return string(s)
}

func hasControl(s []byte) bool {
	for _, c := range s {
		if c < 0x20 {
			return true
		}
	}
	return false
}

func skipWS(raw []byte, i int) int {
	for i < len(raw) {
		switch raw[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipValue steps over the JSON value at raw[i:]. It checks only as much syntax as it needs to
// find the value's end; the callers' input has been validated already, or is checked again by
// the decode that follows.
func skipValue(raw []byte, i int) (int, bool) {
	if i >= len(raw) {
		return i, false
	}
	switch raw[i] {
	case '"':
		return skipString(raw, i)
	case '{', '[':
		depth := 0
		for i < len(raw) {
			for i < len(raw) && !structural[raw[i]] { // most bytes: one look-up each
				i++
			}
			if i == len(raw) {
				break
			}
			switch raw[i] {
			case '"':
				var ok bool
				if i, ok = skipString(raw, i); !ok {
					return i, false
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, true
				}
			}
			i++
		}
		return i, false
	}
	start := i
	for i < len(raw) {
		switch raw[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i, i > start
		case '"', '{', '[', ':':
			return i, false
		}
		i++
	}
	return i, false
}

// structural marks the bytes skipValue looks at inside an object or an array.
var structural = [256]bool{'"': true, '{': true, '}': true, '[': true, ']': true}

// skipString steps over the string starting at raw[i], a '"'.
func skipString(raw []byte, i int) (int, bool) {
	i++
	for {
		end := bytes.IndexByte(raw[i:], '"')
		if end < 0 {
			return len(raw), false
		}
		i += end
		backslashes := 0
		for k := i - 1; k >= 0 && raw[k] == '\\'; k-- {
			backslashes++
		}
		i++
		if backslashes%2 == 0 {
			return i, true
		}
	}
}

// valueScan is skipValue that can stop at the end of what has been read and go on from there
// once more has come: b, given to each call, is the value's bytes so far, growing.
type valueScan struct {
	i       int  // b[:i] has been scanned
	depth   int  // brackets open
	inStr   bool // b[i-1] is inside a string
	started bool
	// tops are where the objects and arrays directly inside the value start and end, for
	// duplicateKey to step over them without scanning them again.
	tops     []span
	topStart int
}

// reset makes v ready for another value, keeping its memory.
func (v *valueScan) reset() { *v = valueScan{tops: v.tops[:0]} }

// scan goes on over b. done: the value ends at end. bad: b[end] cannot be where it is.
// Neither: the value goes on past b.
func (v *valueScan) scan(b []byte) (end int, done, bad bool) {
	i := v.i
	defer func() { v.i = i }()
	if !v.started {
		if len(b) == 0 {
			return 0, false, false
		}
		v.started = true
		switch b[0] {
		case '"':
			v.inStr, i = true, 1
		case '{', '[':
			v.depth, i = 1, 1
		default: // a scalar: short, scanned from its start each time
			v.started = false
			for k, c := range b {
				switch c {
				case ',', '}', ']', ' ', '\t', '\n', '\r':
					return k, k > 0, k == 0
				case '"', '{', '[', ':':
					return k, false, true
				}
			}
			return len(b), false, false
		}
	}
	for i < len(b) {
		if v.inStr {
			q := bytes.IndexByte(b[i:], '"')
			if q < 0 {
				i = len(b)
				return i, false, false
			}
			i += q
			backslashes := 0
			for k := i - 1; k >= 0 && b[k] == '\\'; k-- {
				backslashes++
			}
			i++
			if backslashes%2 == 0 {
				v.inStr = false
				if v.depth == 0 {
					return i, true, false
				}
			}
			continue
		}
		for i < len(b) && !structural[b[i]] {
			i++
		}
		if i == len(b) {
			break
		}
		switch b[i] {
		case '"':
			v.inStr = true
		case '{', '[':
			if v.depth == 1 {
				v.topStart = i
			}
			v.depth++
		case '}', ']':
			v.depth--
			switch v.depth {
			case 0:
				i++
				return i, true, false
			case 1:
				v.tops = append(v.tops, span{v.topStart, i + 1})
			}
		}
		i++
	}
	return i, false, false
}
