package text

import (
	"strings"

	"github.com/rootline-dev/rootline/internal/lazyre"
)

// A quoted string of YAML (kubectl get -o yaml) that is longer than the line folds onto the
// lines below it, each more indented than its key:
//
//	message: '0/6 nodes are available: 2 node(s) had taint {node.kubernetes.io/unreachable:
//	  }, that the pod didn''t tolerate, 4 node(s) didn''t find available persistent
//	  volumes to bind.'
//
// A paste of part of such a document is not read as YAML; folded joins the string's lines back
// into one, as YAML reads them (each line break a space), so that its message is read whole.

// maxFolded bounds the lines one quoted string is looked for on.
const maxFolded = 64

// quotedKeyRe is a YAML key whose value opens a quoted string: its indentation, the quote, and
// the rest of the line.
var quotedKeyRe = lazyre.New(`^(\s*)(?:-\s+)?[A-Za-z_][\w.-]*:\s+(['"])(.*)$`)

// openQuote returns the quote of a YAML string opened on the line and not closed on it, with
// the key's indentation; 0 when the line opens none.
func openQuote(raw string) (q byte, indent int) {
	if !strings.Contains(raw, ": '") && !strings.Contains(raw, `: "`) {
		return 0, 0 // the cheap test first: most lines open no quoted value
	}
	t := strings.TrimRight(stripQuote(strings.TrimRight(raw, "\r\n")), " \t")
	m := quotedKeyRe.FindStringSubmatch(t)
	if m == nil || closes(m[3], m[2][0]) {
		return 0, 0
	}
	return m[2][0], len(m[1])
}

// closes reports whether s holds the quote that ends a YAML string opened with q: a single
// quote not doubled, or a double quote not escaped.
func closes(s string, q byte) bool {
	for i := 0; i < len(s); i++ {
		switch {
		case q == '"' && s[i] == '\\':
			i++
		case s[i] == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			i++
		case s[i] == q:
			return true
		}
	}
	return false
}

// folded reads the lines after first that continue its quoted string, up to the one that
// closes it, and returns them joined as one line. Where the string does not close (a paste cut
// inside it, a line that is not its continuation), the lines read are returned as they were.
func (l *lineReader) folded(first rawLine, q byte, indent int) rawLine {
	joined := strings.TrimRight(first.text, " \t\r\n")
	var read []rawLine
	for len(read) < maxFolded {
		r, ok, err := l.read()
		if !ok || err != nil {
			break
		}
		read = append(read, r)
		t := strings.TrimRight(stripQuote(strings.TrimRight(r.text, "\r\n")), " \t")
		body := strings.TrimLeft(t, " ")
		if r.cut || body == "" || len(t)-len(body) <= indent || len(joined)+len(body) > MaxLine {
			break // not the string's: a blank line, a line no deeper than its key
		}
		if q == '"' && strings.HasSuffix(joined, `\`) {
			joined = strings.TrimSuffix(joined, `\`) + body // an escaped line break: no space
		} else {
			joined += " " + body
		}
		if closes(body, q) {
			return rawLine{text: joined + "\n", num: first.num, end: r.num, off: first.off, eol: r.eol}
		}
	}
	l.queue = append(l.queue, read...)
	return first
}
