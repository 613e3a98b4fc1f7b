package text

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"time"
)

// line is one cleaned input line with its position.
type line struct {
	num  int      // 1-based line number
	off  int64    // byte offset of the line's start
	text string   // the cleaned text (see clean)
	kind lineKind // what clean made of it
	eol  bool     // the line ended with a newline
	cut  bool     // the line was longer than MaxLine and was cut
	code bool     // inside a code fence or <pre>: pasted output
	item bool     // a Markdown list item outside code
	cmd  *command // for kindCommand: the command, nil for a prompt without kubectl
	raw  int      // length of the line before cleaning, for telling hard wraps
	// flat is a command line's text, for output a paste flattened onto the line of its
	// command ("$ kubectl describe pod x ... Events: … 0/4 nodes are available: …"), or a
	// heading's, for a message it quotes.
	flat string
	end  int // the last line number a wrapped line continued onto; 0 when it did not
	// at is the time a log collector's record gave the line (see unwrap), zero when none.
	at time.Time
	// inset is a blank line that kept an indentation of four spaces or more: the empty value
	// of a describe's field (a container's empty argument), not a line between outputs.
	inset bool
}

// last is the number of the last input line ln covers.
func (ln line) last() int { return max(ln.num, ln.end) }

// minFlat is how long a command line must be for output flattened onto it to be looked for:
// a command alone is shorter.
const minFlat = 160

// lineReader reads lines of at most MaxLine bytes, dropping the rest of longer ones.
type lineReader struct {
	br      *bufio.Reader
	num     int
	off     int64
	lastEOL bool
	buf     []byte
	clean   cleaner
	// queue holds lines read ahead and still to be returned: those a padded terminal line was
	// cut into (padded), or those read looking for the end of a quoted YAML string that did
	// not end (folded).
	queue []rawLine
}

// rawLine is an input line before cleaning, with where it was.
type rawLine struct {
	text     string
	num, end int // its line number, and the last one it covers when lines were joined
	off      int64
	eol, cut bool
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10), lastEOL: true}
}

// next returns the next cleaned line; ok is false at the end of the input.
func (l *lineReader) next() (ln line, ok bool, err error) {
	if len(l.queue) > 0 {
		r := l.queue[0]
		l.queue = l.queue[1:]
		return l.make(r), true, nil
	}
	r, ok, err := l.read()
	if !ok || err != nil {
		return line{}, ok, err
	}
	if lines := padded(strings.TrimRight(r.text, "\r\n")); lines != nil && !r.cut {
		// A screen's lines run together, padded to its width: each read as a line.
		for i, t := range lines {
			l.queue = append(l.queue, rawLine{text: t, num: r.num, off: r.off, eol: r.eol || i < len(lines)-1})
		}
		return l.next()
	}
	if q, indent := openQuote(r.text); q != 0 && !r.cut {
		return l.make(l.folded(r, q, indent)), true, nil
	}
	return l.make(r), true, nil
}

// read reads the next input line, at most MaxLine bytes of it.
func (l *lineReader) read() (rawLine, bool, error) {
	l.buf = l.buf[:0]
	start := l.off
	cut := false
	eol := false
	for {
		chunk, rerr := l.br.ReadSlice('\n')
		l.off += int64(len(chunk))
		if room := MaxLine - len(l.buf); len(chunk) > room {
			chunk, cut = chunk[:room], true
		}
		l.buf = append(l.buf, chunk...)
		if rerr == nil {
			eol = true
			break
		}
		if errors.Is(rerr, bufio.ErrBufferFull) {
			continue
		}
		if errors.Is(rerr, io.EOF) {
			break
		}
		return rawLine{}, false, rerr
	}
	if l.off == start {
		return rawLine{}, false, nil
	}
	if cut && len(l.buf) > 0 && l.buf[len(l.buf)-1] == '\n' {
		eol = true
	}
	l.num++
	l.lastEOL = eol
	return rawLine{text: string(l.buf), num: l.num, off: start, eol: eol, cut: cut}, true, nil
}

// make cleans the raw text of a line and records where it was.
func (l *lineReader) make(r rawLine) line {
	raw := r.text
	c := l.clean.clean(raw)
	ln := line{num: r.num, end: r.end, off: r.off, text: c.text, kind: c.kind, eol: r.eol, cut: r.cut, code: c.code, item: c.bullet && !c.code, cmd: c.cmd,
		raw: len(strings.TrimRight(raw, " \t\r\n")), at: c.at}
	if c.inner > 0 {
		ln.raw = c.inner // a record's line is as wide as the line it holds
	}
	if c.kind == kindBlank && strings.HasPrefix(raw, "    ") {
		ln.inset = true
	}
	if c.kind == kindCommand && ln.raw >= minFlat {
		ln.flat = strings.TrimSpace(raw)
	}
	if _, title, heading := strings.Cut(c.text, " "); c.kind == kindSep && heading {
		ln.flat = title // a heading that quotes a message: an issue's title, "# Failed create pod sandbox: …"
	}
	return ln
}
