// Package jsonscan steps over JSON by its bytes: where a value, a string or a key ends,
// whether a value is valid (as json.Valid says, checked by sonic), a value read in pieces
// (Value, for a stream that reads as it goes), and the repair of a value the input cut short.
// It decodes nothing and knows nothing of Kubernetes; ingest's stream and its checks of keys
// and limits are built on it.
package jsonscan

import "bytes"

// Key reads an object key without escapes and the colon after it, returning the key and
// the position of its value.
func Key(raw []byte, i int) ([]byte, int, bool) {
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
	i = SkipWS(raw, i+2+end)
	if i >= len(raw) || raw[i] != ':' {
		return nil, i, false
	}
	return key, SkipWS(raw, i+1), true
}

// HasControl reports whether s holds a control character, which JSON strings may not.
func HasControl(s []byte) bool {
	for _, c := range s {
		if c < 0x20 {
			return true
		}
	}
	return false
}

// SkipWS returns the position of the first byte at or after i that is not JSON whitespace.
func SkipWS(raw []byte, i int) int {
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

// SkipValue steps over the JSON value at raw[i:]. It checks only as much syntax as it needs to
// find the value's end; the callers' input has been validated already, or is checked again by
// the decode that follows.
func SkipValue(raw []byte, i int) (int, bool) {
	if i >= len(raw) {
		return i, false
	}
	switch raw[i] {
	case '"':
		return SkipString(raw, i)
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
				if i, ok = SkipString(raw, i); !ok {
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

// structural marks the bytes SkipValue looks at inside an object or an array.
var structural = [256]bool{'"': true, '{': true, '}': true, '[': true, ']': true}

// SkipString steps over the string starting at raw[i], a '"'.
func SkipString(raw []byte, i int) (int, bool) {
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

// valueScan is SkipValue that can stop at the end of what has been read and go on from there
// once more has come: b, given to each call, is the value's bytes so far, growing.
type Value struct {
	i       int  // b[:i] has been scanned
	depth   int  // brackets open
	inStr   bool // b[i-1] is inside a string
	started bool
	// Tops are where the objects and arrays directly inside the value start and end, for
	// duplicateKey to step over them without scanning them again.
	Tops     []Span
	topStart int
}

// Reset makes v ready for another value, keeping its memory.
func (v *Value) Reset() { *v = Value{Tops: v.Tops[:0]} }

// Scan goes on over b. done: the value ends at end. bad: b[end] cannot be where it is.
// Neither: the value goes on past b.
func (v *Value) Scan(b []byte) (end int, done, bad bool) {
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
				v.Tops = append(v.Tops, Span{Off: v.topStart, End: i + 1})
			}
		}
		i++
	}
	return i, false, false
}

// Span is where a value lies in its object's bytes; Off is -1 when there is none.
type Span struct{ Off, End int }
