package incident

import (
	"fmt"
	"unicode/utf8"
)

// Bounds of the text people give. PostgreSQL refuses a NUL in text and an index entry larger
// than about 2.7 KB, with errors that would be 500s: every text that reaches the database is
// checked here first, so that both databases refuse the same input with the same 422.
const (
	// MaxName bounds a one-line key: an org, a component's name, a query filter. 253 bytes
	// is a DNS name's bound, and far below an index entry's.
	MaxName = 253
	// MaxTitle bounds an incident's title.
	MaxTitle = 300
	// MaxAuthor bounds a note's author.
	MaxAuthor = 200
)

// CheckLine checks one line of text a field holds: valid UTF-8, at most max bytes, no control
// character (C0, DEL) at all. The error wraps ErrInvalid and names the field.
func CheckLine(field, s string, max int) error { return checkText(field, s, max, false) }

// CheckMultiline checks text of several lines (a note, a report's text): as CheckLine, but
// tabs and line ends (\t, \n, \r) are allowed.
func CheckMultiline(field, s string, max int) error { return checkText(field, s, max, true) }

func checkText(field, s string, max int, multiline bool) error {
	if p := textProblem(field, s, max, multiline); p != "" {
		return fmt.Errorf("%w: %s", ErrInvalid, p)
	}
	return nil
}

// textProblem says what is wrong with a field's text, "" when nothing is.
func textProblem(field, s string, max int, multiline bool) string {
	if len(s) > max {
		return fmt.Sprintf("%s is longer than %d bytes", field, max)
	}
	if i := controlAt(s, multiline); i >= 0 {
		return fmt.Sprintf("%s holds %s at byte %d", field, badChar(s, i), i)
	}
	return ""
}

// badChar names what controlAt found at s[i].
func badChar(s string, i int) string {
	if s[i] >= utf8.RuneSelf {
		return "invalid UTF-8"
	}
	return fmt.Sprintf("the control character U+%04X", s[i])
}

// controlAt is the offset of the first byte of s that is a control character (C0 or DEL;
// tabs and line ends allowed in multi-line text) or starts invalid UTF-8; -1 when none.
func controlAt(s string, multiline bool) int {
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

// quote is a value for an error message: quoted, and cut to its first 64 bytes, so that a
// refused value of kilobytes is not echoed back whole.
func quote(s string) string {
	const shown = 64
	if len(s) <= shown {
		return fmt.Sprintf("%q", s)
	}
	cut := shown
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%q… (%d bytes)", s[:cut], len(s))
}
