// Package textcheck holds the checks every text bound for the database goes through, wherever
// it comes from (an object's name, an incident's title, a query parameter): PostgreSQL refuses
// a NUL and invalid UTF-8 in text, so both databases are given only what both accept, and the
// errors that refuse a value quote it cut short.
package textcheck

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// ControlAt is the offset of the first byte of s that is a control character (C0 or DEL; tabs
// and line ends are allowed when multiline) or starts invalid UTF-8; -1 when there is none.
func ControlAt(s string, multiline bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				return i
			}
			i += n
			continue
		}
		if (c < 0x20 || c == 0x7f) && !(multiline && (c == '\t' || c == '\n' || c == '\r')) {
			return i
		}
		i++
	}
	return -1
}

// Clean is s with each control character (as ControlAt finds them) and each byte of invalid
// UTF-8 replaced by U+FFFD: what a value that must be kept (an alert of a payload whose other
// alerts are fine) becomes, the same on both databases, instead of being refused.
func Clean(s string, multiline bool) string {
	if ControlAt(s, multiline) < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				b.WriteRune(utf8.RuneError)
			} else {
				b.WriteString(s[i : i+n])
			}
			i += n
			continue
		}
		if (c < 0x20 || c == 0x7f) && !(multiline && (c == '\t' || c == '\n' || c == '\r')) {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteByte(c)
		}
		i++
	}
	return b.String()
}

// shown is how much of a refused value an error quotes.
const shown = 64

// Quote quotes s for an error message, cut to its first 64 bytes (at a character's start)
// with its length said, so that a refused value of megabytes is not echoed back whole.
func Quote(s string) string {
	if len(s) <= shown {
		return strconv.Quote(s)
	}
	cut := shown
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "… (" + strconv.Itoa(len(s)) + " bytes)"
}
