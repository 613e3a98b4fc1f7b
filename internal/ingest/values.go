package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rootline-dev/rootline/internal/textcheck"
)

// Values no Kubernetes object holds, refused wherever they are (issue 15): a NUL, which
// PostgreSQL cannot store in text (it answered 500), and numbers longer than any Kubernetes
// type takes, which cost time to parse: resource.Quantity takes time quadratic in its digits
// (a request of a million digits took 2 s to decode, and printing it again as long).
const (
	// maxNumberDigits bounds the digits in a row of a JSON number: int64 has 19, a float64
	// needs 17 significant ones, and kubectl writes every number so.
	maxNumberDigits = 32
	// maxDigitRun bounds the digits in a row anywhere, strings included: YAML turns a number
	// too long for a float64 into a string, and a quantity is a string.
	maxDigitRun = 1024
)

var nulEscape = []byte(`\u0000`)

// valueFault finds the first string of the JSON value raw that holds a NUL or a run of more
// than maxDigitRun digits, or number of more than maxNumberDigits digits in a row. A quick look
// (a search for the escape of a NUL, and every 32nd byte for a digit) clears nearly every
// object; only the rest is read token by token.
func valueFault(raw []byte) (fault, bool) {
	if !bytes.Contains(raw, nulEscape) && !hasDigitRun(raw, maxNumberDigits) {
		return fault{}, false
	}
	return walkValues(raw)
}

// hasDigitRun reports whether b holds n digits in a row.
func hasDigitRun(b []byte, n int) bool { return digitRunAt(b, n) >= 0 }

// digitRunAt returns where in b a run of at least n digits starts, or -1. A run that long holds
// a byte at a multiple of n, so only those are looked at, and around them when they are
// digits: every object is looked at so.
func digitRunAt(b []byte, n int) int {
	for i := n - 1; i < len(b); i += n {
		if !isDigit(b[i]) {
			continue
		}
		start, end := i, i+1
		for start > 0 && isDigit(b[start-1]) {
			start--
		}
		for end < len(b) && isDigit(b[end]) {
			end++
		}
		if end-start >= n {
			return start
		}
		i = end // the next look is past this run
	}
	return -1
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// longestDigitRun is the length of the longest run of digits in s.
func longestDigitRun(s string) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// walkValues reads raw token by token for what valueFault looks for, keeping the path to it.
func walkValues(raw []byte) (fault, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	type level struct {
		array   bool
		index   int    // of the next element of an array
		key     string // of the value being read in an object
		wantKey bool   // in an object, the next string is a key
		path    string // of the container
	}
	var stack []level
	path := func() string { // of the value about to be read
		if len(stack) == 0 {
			return ""
		}
		l := stack[len(stack)-1]
		if l.array {
			return l.path + "[" + strconv.Itoa(l.index) + "]"
		}
		return fieldPath(l.path, l.key)
	}
	// done moves past a value of the container on top.
	done := func() {
		if n := len(stack); n > 0 {
			if stack[n-1].array {
				stack[n-1].index++
			} else {
				stack[n-1].wantKey = true
			}
		}
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) || err != nil {
			return fault{}, false // the decode that follows reports bad syntax
		}
		off := int(dec.InputOffset())
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				stack = append(stack, level{array: v == '[', wantKey: v == '{', path: path()})
			default:
				stack = stack[:len(stack)-1]
				done()
			}
			continue
		case string:
			if n := len(stack); n > 0 && stack[n-1].wantKey {
				parent := stack[n-1].path
				if strings.IndexByte(v, 0) >= 0 {
					return fault{path: orTop(parent), msg: "holds a NUL in a key", off: off}, true
				}
				if n := longestDigitRun(v); n > maxDigitRun {
					return fault{path: orTop(parent), msg: fmt.Sprintf("has a key of %d digits in a row, more than %d", n, maxDigitRun), off: off}, true
				}
				stack[n-1].key, stack[n-1].wantKey = v, false
				continue
			}
			if strings.IndexByte(v, 0) >= 0 {
				return fault{path: path(), msg: "holds a NUL", off: off}, true
			}
			if n := longestDigitRun(v); n > maxDigitRun {
				return fault{path: path(), msg: fmt.Sprintf("holds %d digits in a row, more than %d", n, maxDigitRun), off: off}, true
			}
		case json.Number:
			if n := longestDigitRun(string(v)); n > maxNumberDigits {
				return fault{path: path(), msg: fmt.Sprintf("is a number of %d digits in a row, more than %d", n, maxNumberDigits), off: off}, true
			}
		}
		done()
	}
}

func orTop(p string) string {
	if p == "" {
		return "the object"
	}
	return p
}

// fieldPath is the path of key in the object at path: .key for a name, ["key"] otherwise
// (a label such as app.kubernetes.io/name), cut short when long.
func fieldPath(path, key string) string {
	if isIdent(key) && len(key) <= 64 {
		if path == "" {
			return key
		}
		return path + "." + key
	}
	return path + "[" + textcheck.Quote(key) + "]"
}

func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && isDigit(c)) {
			return false
		}
	}
	return s != ""
}

// digitRunError is a run of more than maxDigitRun digits found in JSON as it streams, at
// offset off of what was passed on: found before encoding/json decodes the value that holds
// it, which for a quantity would take a time quadratic in the run.
type digitRunError struct{ off int64 }

func (e *digitRunError) Error() string {
	return fmt.Sprintf("more than %d digits in a row: no Kubernetes number is that long", maxDigitRun)
}

// countDigits looks through b, about to be passed on, for a run of more than maxDigitRun
// digits, the one at the end of the last read included.
func (l *lineReader) countDigits(b []byte) error {
	lead := 0
	for lead < len(b) && isDigit(b[lead]) {
		lead++
	}
	if l.digits+lead > maxDigitRun {
		return &digitRunError{off: l.passed + int64(maxDigitRun-l.digits)}
	}
	if lead == len(b) {
		l.digits += lead
		return nil
	}
	if at := digitRunAt(b[lead:], maxDigitRun+1); at >= 0 {
		return &digitRunError{off: l.passed + int64(lead+at)}
	}
	trail := 0
	for trail < len(b) && isDigit(b[len(b)-1-trail]) {
		trail++
	}
	l.digits = trail
	return nil
}
