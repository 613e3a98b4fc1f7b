package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// leadingBlank is the whitespace skipped before an input's first character.
type leadingBlank struct {
	bytes int64
	lines int // newlines among them
}

// skipBlankLines discards the whitespace before an input's first character, so that format
// detection sniffs content however much blank space comes first (a sniff window of nothing
// but whitespace once read past its end). It discards whole lines, up to the last newline of
// a window, so that the first line of YAML or text keeps its indentation; a window without a
// newline goes whole (the first line is then blank for longer than any indentation). What is
// left is shorter than a sniff window, and the parsers skip it as they always did.
func skipBlankLines(br *bufio.Reader) (leadingBlank, error) {
	var lead leadingBlank
	for {
		head, err := br.Peek(sniffLen)
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
			return lead, err
		}
		if len(head) < sniffLen || skipSpace(head) < len(head) {
			return lead, nil // content within the window, or the input ends in it
		}
		n := len(head)
		if nl := bytes.LastIndexByte(head, '\n'); nl >= 0 {
			n = nl + 1
		}
		lead.bytes += int64(n)
		lead.lines += bytes.Count(head[:n], []byte{'\n'})
		if _, err := br.Discard(n); err != nil {
			return lead, err
		}
	}
}

// replay gives the text parser the skipped newlines again before r, so that the lines it
// reports count from the file's start (it has no other way to be told where it starts).
func (l leadingBlank) replay(r io.Reader) io.Reader {
	if l.lines == 0 {
		return r
	}
	return io.MultiReader(&newlines{n: l.lines}, r)
}

// newlines reads as n newlines.
type newlines struct{ n int }

func (nl *newlines) Read(p []byte) (int, error) {
	if nl.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), nl.n)
	for i := range k {
		p[i] = '\n'
	}
	nl.n -= k
	return k, nil
}
