package ingest

// docLines is the text of a YAML document, or of a list item, as it is read: its lines joined
// by newlines in one buffer. A string per line cost sixteen bytes a line and a scan by the
// garbage collector: a document of a few hundred million blank lines (a gzipped body of a few
// hundred KiB) took minutes and gigabytes; in one buffer it is its own size.
type docLines struct {
	buf    []byte
	n      int                  // lines
	starts [maxCutLines + 1]int // where the last lines start in buf, by line number modulo its length
}

func (d *docLines) add(line string) {
	if d.n > 0 {
		d.buf = append(d.buf, '\n')
	}
	d.starts[d.n%len(d.starts)] = len(d.buf)
	d.buf = append(d.buf, line...)
	d.n++
}

// text is the lines joined; it is valid until the next add or reset.
func (d *docLines) text() []byte { return d.buf }

// withoutLast is the text without its last k lines, 0 < k < min(d.n, len(d.starts)).
func (d *docLines) withoutLast(k int) []byte {
	end := d.starts[(d.n-k)%len(d.starts)]
	return d.buf[:max(end-1, 0)] // without the newline before the first line left out
}

func (d *docLines) reset() { d.buf, d.n = d.buf[:0], 0 }
