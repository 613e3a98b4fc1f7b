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
	pending  []byte // bytes from offset base up to the read position
	base     int64  // offset of pending[0]
	baseLine int    // 1-based line of offset base
}

func newLineReader(r io.Reader) *lineReader { return &lineReader{r: r, baseLine: 1} }

func (l *lineReader) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	l.pending = append(l.pending, p[:n]...)
	return n, err
}

// lineAt returns the 1-based line of offset off. Offsets before the last one asked about are
// answered with that one's line.
func (l *lineReader) lineAt(off int64) int {
	k := off - l.base
	if k <= 0 {
		return l.baseLine
	}
	if k > int64(len(l.pending)) {
		k = int64(len(l.pending))
	}
	l.baseLine += bytes.Count(l.pending[:k], []byte{'\n'})
	rest := copy(l.pending, l.pending[k:])
	l.pending = l.pending[:rest]
	l.base += k
	return l.baseLine
}
