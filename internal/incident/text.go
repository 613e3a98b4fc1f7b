package incident

import (
	"fmt"
	"unicode/utf8"

	"github.com/rootline-dev/rootline/internal/textcheck"
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
	if i := textcheck.ControlAt(s, multiline); i >= 0 {
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
