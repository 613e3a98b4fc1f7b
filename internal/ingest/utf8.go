package ingest

import (
	"bytes"
	"io"
	"unicode/utf8"
)

// utf8Check passes bytes through and notes where they first stop being UTF-8: Kubernetes
// writes UTF-8, and decoders would otherwise turn bad bytes quietly into U+FFFD. It does not
// stop the read, so that binary input is still told apart by its sniffed head; the decode
// asks Invalid afterwards.
type utf8Check struct {
	r       io.Reader
	pending []byte // the start of a rune cut by the end of the last read
	off     int64  // bytes checked so far
	line    int    // newlines among them
	eof     bool
	bad     bool
	badOff  int64
	badLine int
}

func (u *utf8Check) Read(p []byte) (int, error) {
	n, err := u.r.Read(p)
	if err == io.EOF {
		u.eof = true
	}
	if !u.bad {
		u.check(p[:n], u.eof)
	}
	return n, err
}

func (u *utf8Check) check(b []byte, eof bool) {
	data := b
	if len(u.pending) > 0 {
		data = append(u.pending, b...)
	}
	cut := len(data)
	if !eof {
		// Leave a rune cut by the end of the read for the next one.
		for i := len(data) - 1; i >= 0 && i >= len(data)-utf8.UTFMax; i-- {
			if utf8.RuneStart(data[i]) {
				if !utf8.FullRune(data[i:]) {
					cut = i
				}
				break
			}
		}
	}
	if !utf8.Valid(data[:cut]) {
		for i := 0; i < cut; {
			r, size := utf8.DecodeRune(data[i:cut])
			if r == utf8.RuneError && size <= 1 {
				u.bad, u.badOff, u.badLine = true, u.off+int64(i), u.line+1+bytes.Count(data[:i], []byte{'\n'})
				return
			}
			i += size
		}
	}
	u.line += bytes.Count(data[:cut], []byte{'\n'})
	u.off += int64(cut)
	u.pending = append(u.pending[:0], data[cut:]...)
}

// invalid returns where the input stopped being UTF-8: its offset and line.
func (u *utf8Check) invalid() (off int64, line int, bad bool) {
	if !u.bad && u.eof && len(u.pending) > 0 { // the input ended inside a rune
		return u.off, u.line + 1, true
	}
	return u.badOff, u.badLine, u.bad
}
