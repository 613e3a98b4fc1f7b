package jsonscan

import (
	"bytes"

	"github.com/bytedance/sonic"
)

// Valid reports whether raw is one valid JSON value, as json.Valid does. sonic checks the
// structure, numbers and literals, but not what strings hold: control characters and escapes
// are checked here.
func Valid(raw []byte) bool { return sonic.ConfigDefault.Valid(raw) && stringsValid(raw) }

// stringsValid reports whether every string in raw, a JSON value of valid structure, holds
// no control character and only escapes JSON allows.
func stringsValid(raw []byte) bool {
	for i := 0; i < len(raw); {
		q := bytes.IndexByte(raw[i:], '"')
		if q < 0 {
			return true
		}
		for i += q + 1; ; {
			if i >= len(raw) {
				return false
			}
			c := raw[i]
			if c == '"' {
				i++
				break
			}
			if c < 0x20 {
				return false
			}
			if c != '\\' {
				i++
				continue
			}
			n := escapeLen(raw, i)
			if n == 0 {
				return false
			}
			i += n
		}
	}
	return true
}

// EscapesPlain reports whether every backslash in raw, JSON of valid structure, starts an
// escape JSON allows and none spells the long s or the Kelvin sign. A backslash can only be
// in a string there, and escapes are read left to right, so the next backslash is found by a
// byte search, not by parsing.
func EscapesPlain(raw []byte) bool {
	for i := 0; ; {
		k := bytes.IndexByte(raw[i:], '\\')
		if k < 0 {
			return true
		}
		i += k
		n := escapeLen(raw, i)
		if n == 0 {
			return false
		}
		if code := raw[i+2 : i+n]; n == 6 && (bytes.EqualFold(code, []byte("017f")) || bytes.EqualFold(code, []byte("212a"))) {
			return false
		}
		i += n
	}
}

// escapeLen is the length of the escape that starts at raw[i], a backslash: 2, or 6 for \uXXXX;
// 0 when JSON does not allow it.
func escapeLen(raw []byte, i int) int {
	if i+1 >= len(raw) {
		return 0
	}
	switch raw[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if i+6 <= len(raw) && isHex4(raw[i+2:i+6]) {
			return 6
		}
	}
	return 0
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
