package ingest

import (
	"bytes"
	"io"
)

// lineReader holds the JSON the stream reads (fill) and answers "which line is byte offset X
// on?" for offsets that only grow. It keeps just the bytes between the last answered offset and
// the read position, so memory stays bounded by the parser's look-ahead (about one object), not
// the file.
//
// It also cuts long runs of whitespace between tokens short (see maxBlankRun). Offsets given to
// and by it are the decoder's, in the bytes passed on; fileOffset and lineAt turn them into the
// file's, counting what was dropped.
type lineReader struct {
	r        io.Reader
	buf      []byte // buf[head:] are the bytes from offset base up to the read position
	head     int    // bytes before it were answered for, and are dropped when fill needs room
	base     int64  // offset of buf[head]
	baseLine int    // 1-based line of offset base
	passed   int64  // bytes passed on

	// Where the JSON is, across reads: in a string (after an escape) or in a run of blank
	// bytes between tokens, and how long that run is so far.
	inString, escaped bool
	blank             int
	gaps              []gap // whitespace dropped at or after offset base, in order
	dropped           int64 // bytes of whitespace dropped before offset base
	digits            int   // the digits in a row at the end of what was passed on
}

// maxBlankRun is how much of a run of whitespace between JSON tokens is kept; the rest is
// dropped as it is read. encoding/json's Decoder, which the stream used before, scanned its
// whole buffer again after every read that brought only whitespace: a run cost time quadratic
// in its length (16 MiB of spaces in a gzipped List took seconds, 1 GiB never finished). The
// stream's own scan is linear, but a run kept whole would be held in the buffer with the value
// around it. Whitespace between tokens means nothing in JSON, and kubectl indents by a few
// dozen bytes. The one thing a cut run changes is the line of a type error inside an object
// that holds one (objErr counts lines in the bytes kept).
const maxBlankRun = 4 << 10

// gap is a run of whitespace dropped just before offset at.
type gap struct {
	at    int64
	bytes int64
	lines int
}

func newLineReader(r io.Reader) *lineReader { return &lineReader{r: r, baseLine: 1} }

// minFill is the least room fill makes for a read.
const minFill = 64 << 10

// fill reads more of the input into buf, for the JSON stream that reads buf itself: what one
// read of the reader below gives (a stream's items are decoded as they come). The room it
// makes is at least as large as what is pending already, so that a long value costs copies
// linear in its length. Bytes answered for (before head) are dropped first once they are
// half of buf.
func (l *lineReader) fill() (int, error) {
	if l.head > 0 && l.head >= len(l.buf)/2 {
		rest := copy(l.buf, l.buf[l.head:])
		l.buf, l.head = l.buf[:rest], 0
	}
	if room := max(minFill, len(l.buf)-l.head); cap(l.buf)-len(l.buf) < room/2 {
		grown := make([]byte, len(l.buf), len(l.buf)+room)
		copy(grown, l.buf)
		l.buf = grown
	}
	for {
		p := l.buf[len(l.buf):cap(l.buf)]
		n, err := l.r.Read(p)
		n = l.squeeze(p[:n])
		if n == 0 && err == nil {
			continue // all of it dropped: read on (the reader below stops once ctx is done)
		}
		derr := l.countDigits(p[:n])
		l.buf = l.buf[:len(l.buf)+n] // kept on a fault too: its line is counted in them
		l.passed += int64(n)
		if derr != nil {
			return n, derr
		}
		return n, err
	}
}

// squeeze drops, in place, the whitespace of b that lies beyond maxBlankRun bytes into a run
// between tokens, and returns how many bytes are left. Invalid JSON may fool it about where
// strings are; encoding/json then reports the fault all the same.
//
// It runs over every byte of every JSON input, so it goes from quote to quote with
// bytes.IndexByte, and looks at the bytes between strings one by one only where they may hold
// a run too long (kubectl's are a newline and some indentation).
func (l *lineReader) squeeze(b []byte) int {
	w := 0 // b[:w] is kept; bytes move only once one was dropped
	keep := func(from, to int) {
		if w != from {
			copy(b[w:], b[from:to])
		}
		w += to - from
	}
	for i := 0; i < len(b); {
		if l.inString {
			start := i
			if l.escaped {
				l.escaped, i = false, i+1
			}
			q := bytes.IndexByte(b[i:], '"')
			if q < 0 {
				l.escaped = trailingBackslashes(b[i:])%2 == 1
				keep(start, len(b))
				break
			}
			q += i
			if trailingBackslashes(b[i:q])%2 == 0 {
				l.inString = false
			}
			keep(start, q+1)
			i = q + 1
			continue
		}
		end := len(b)
		if q := bytes.IndexByte(b[i:], '"'); q >= 0 {
			end = i + q
		}
		if l.blank+end-i <= maxBlankRun { // no run can grow too long here
			keep(i, end)
			if end == len(b) { // the run at the end goes on in the next read
				if t := trailingBlank(b[i:end]); t == end-i {
					l.blank += t
				} else {
					l.blank = t
				}
			}
		} else {
			for ; i < end; i++ {
				c := b[i]
				if c == ' ' || c == '\n' || c == '\t' || c == '\r' {
					if l.blank++; l.blank > maxBlankRun {
						l.drop(l.passed+int64(w), c)
						continue
					}
				} else {
					l.blank = 0
				}
				keep(i, i+1)
			}
		}
		i = end
		if i < len(b) { // the quote that opens a string
			l.inString, l.blank = true, 0
			keep(i, i+1)
			i++
		}
	}
	return w
}

func trailingBackslashes(b []byte) int {
	n := 0
	for n < len(b) && b[len(b)-1-n] == '\\' {
		n++
	}
	return n
}

// trailingBlank is the length of the whitespace that ends b.
func trailingBlank(b []byte) int {
	n := 0
	for n < len(b) {
		switch b[len(b)-1-n] {
		case ' ', '\n', '\t', '\r':
			n++
		default:
			return n
		}
	}
	return n
}

// drop counts the blank byte c, dropped just before offset at.
func (l *lineReader) drop(at int64, c byte) {
	if n := len(l.gaps); n == 0 || l.gaps[n-1].at != at {
		l.gaps = append(l.gaps, gap{at: at})
	}
	g := &l.gaps[len(l.gaps)-1]
	g.bytes++
	if c == '\n' {
		g.lines++
	}
}

// lineAt returns the 1-based line of offset off. Offsets before the last one asked about are
// answered with that one's line.
func (l *lineReader) lineAt(off int64) int {
	k := off - l.base
	if k < 0 {
		return l.baseLine
	}
	if pending := int64(len(l.buf) - l.head); k > pending {
		k = pending
	}
	l.baseLine += bytes.Count(l.buf[l.head:l.head+int(k)], []byte{'\n'})
	l.head += int(k)
	l.base += k
	for len(l.gaps) > 0 && l.gaps[0].at <= l.base {
		l.baseLine += l.gaps[0].lines
		l.dropped += l.gaps[0].bytes
		l.gaps = l.gaps[1:]
	}
	return l.baseLine
}

// fileOffset returns the offset in the file of offset off: off plus the whitespace dropped
// before it.
func (l *lineReader) fileOffset(off int64) int64 {
	d := l.dropped
	for _, g := range l.gaps {
		if g.at > off {
			break
		}
		d += g.bytes
	}
	return off + d
}

// bytesFrom returns the bytes read from offset off (not before the last offset asked about)
// up to offset end (not past the read position). They are valid until the next Read.
func (l *lineReader) bytesFrom(off, end int64) []byte {
	return l.buf[l.head+int(off-l.base) : l.head+int(end-l.base)]
}

// tail returns the bytes read from offset off to the read position, or nil when they were
// dropped already. They are valid until the next Read.
func (l *lineReader) tail(off int64) []byte {
	if off < l.base {
		return nil
	}
	k := l.head + int(off-l.base)
	if k > len(l.buf) {
		return nil
	}
	return l.buf[k:]
}
