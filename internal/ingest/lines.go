package ingest

import (
	"bytes"
	"io"
)

// lineReader passes bytes through and answers "which line is byte offset X on?" for offsets
// that only grow. It keeps just the bytes between the last answered offset and the read
// position, so memory stays bounded by the parser's look-ahead (about one object), not the file.
type lineReader struct {
	r        io.Reader
	buf      []byte // buf[head:] are the bytes from offset base up to the read position
	head     int    // bytes before it were answered for, and are dropped when Read needs room
	base     int64  // offset of buf[head]
	baseLine int    // 1-based line of offset base
}

func newLineReader(r io.Reader) *lineReader { return &lineReader{r: r, baseLine: 1} }

func (l *lineReader) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	if l.head > 0 && l.head >= len(l.buf)/2 {
		// Drop what was answered for once it is at least half: a copy per item would move
		// the parser's whole look-ahead every time.
		rest := copy(l.buf, l.buf[l.head:])
		l.buf, l.head = l.buf[:rest], 0
	}
	l.buf = append(l.buf, p[:n]...)
	return n, err
}

// lineAt returns the 1-based line of offset off. Offsets before the last one asked about are
// answered with that one's line.
func (l *lineReader) lineAt(off int64) int {
	k := off - l.base
	if k <= 0 {
		return l.baseLine
	}
	if pending := int64(len(l.buf) - l.head); k > pending {
		k = pending
	}
	l.baseLine += bytes.Count(l.buf[l.head:l.head+int(k)], []byte{'\n'})
	l.head += int(k)
	l.base += k
	return l.baseLine
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
