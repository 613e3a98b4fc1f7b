package ingest

import (
	"errors"
	"runtime"
	"sync"

	"github.com/rootline-dev/rootline/internal/jsonscan"
)

// The items of a list are read in batches: the items the buffer holds whole after a read are
// scanned (their extent, the commas and brackets between them), then decoded into their types,
// checked and redacted at once, one share on each core (checkTyped touches nothing but its
// item), then built and emitted one by one, in order, exactly as one at a time would
// (typedChecked and rawItem, which alone report errors, count lines, share strings and emit).
//
// With more than one core, the items the buffer holds beyond a batch are scanned while it
// decodes, so that the scan of the next batch costs no time: nothing is read meanwhile (a
// stream's items are emitted before the next are waited for), and a fault met there ends the
// next batch before it, to be met again, and reported, once this batch is emitted.

// errNeedFill is more's answer while a batch is collected: the next value is not in the
// buffer whole; the batch ends before it.
var errNeedFill = errors.New("the next value needs another read")

const (
	maxBatchItems = 256
	maxBatchBytes = 4 << 20
)

// batchItem is an item of a batch: where it lies, the objects and arrays at its top, the type
// it was decoded into and what the decode gave.
type batchItem struct {
	start, end int64
	raw        []byte // the item's bytes, in the line reader's buffer (pinRaw)
	tops       []jsonscan.Span
	target     target
	v          any
	check      typedCheck
}

// batch is the items collected from the buffer, decoded together.
type batch struct {
	items []batchItem
	bytes int64
}

func (b *batch) reset() {
	b.items = b.items[:0]
	b.bytes = 0
}

// items streams array elements whose '[' has been consumed, up to and including the ']'.
// kind and version are what the enclosing list gives its items ("" for a List).
func (s *jsonStream) items(kind, version string) error {
	c, err := s.next()
	if err != nil {
		return s.cutItem(s.syntax(err, s.pos), kind, version)
	}
	if c == ']' {
		s.pos++
		return nil
	}
	var batches [2]batch
	cur, nxt := &batches[0], &batches[1]
	afterItem := false // the next thing is the ',' or ']' after an item
	ahead := !s.d.rawItems && runtime.GOMAXPROCS(0) > 1
	closed, cerr := s.collect(cur, &afterItem, false)
	for {
		if err := s.ctx.Err(); err != nil {
			return err
		}
		s.pinRaw(cur)
		if ahead && cerr == nil && !closed && len(cur.items) > 0 {
			wait := s.decodeBatch(cur, kind, version, true)
			nxt.reset()
			closed, _ = s.collect(nxt, &afterItem, true) // what the buffer holds: it stays put
			wait()
			if err := s.emitBatch(cur, kind, version); err != nil {
				return err
			}
			cur, nxt = nxt, cur
			if len(cur.items) == 0 && !closed { // nothing more was held whole: read on
				closed, cerr = s.collect(cur, &afterItem, false)
			}
			continue
		}
		s.decodeBatch(cur, kind, version, false)()
		if err := s.emitBatch(cur, kind, version); err != nil {
			return err
		}
		if cerr != nil {
			return s.cutItem(cerr, kind, version)
		}
		if closed {
			return nil
		}
		cur.reset()
		closed, cerr = s.collect(cur, &afterItem, false)
	}
}

// collect adds to b the items that follow, the first reading more of the input as it needs
// (unless held), the others only while the buffer holds them whole. closed: the ']' was read.
// err is a fault met before any item was added. A fault met after b's first item, or while
// held, ends b just before it: the next call, b empty, meets it again and reports it, once b's
// items were built, so that lines are counted in order (an Error's line is counted when it is
// made).
func (s *jsonStream) collect(b *batch, afterItem *bool, held bool) (closed bool, err error) {
	defer func() { s.noFill = false }()
	for len(b.items) < maxBatchItems && b.bytes < maxBatchBytes {
		first := len(b.items) == 0 && !held
		s.noFill = !first
		save := s.pos
		if *afterItem {
			if !first { // a look, not a verdict: comma reports faults
				if c, err := s.next(); err != nil || c != ',' && c != ']' {
					s.pos = save
					return false, nil
				}
			}
			more, err := s.comma(']', "after array element")
			if err != nil {
				return false, err
			}
			if !more {
				return true, nil
			}
			*afterItem = false
		}
		save = s.pos
		if _, err := s.next(); err != nil {
			if !first {
				s.pos = save
				return false, nil
			}
			return false, s.syntax(err, s.pos)
		}
		start := s.pos
		end, err := s.valueEnd()
		if err != nil {
			if !first {
				s.pos = save
				return false, nil
			}
			return false, s.syntax(err, start)
		}
		it := batchItem{start: start, end: end}
		if n := len(b.items); n < cap(b.items) {
			it.tops = b.items[:n+1][n].tops[:0] // the memory of an earlier batch's item
		}
		it.tops = append(it.tops, s.scan.Tops...)
		b.items = append(b.items, it)
		b.bytes += end - start
		s.pos = end
		*afterItem = true
	}
	return false, nil
}

// pinRaw sets the bytes of b's items, from the line reader as it holds them now: they stay
// where they are until it reads again.
func (s *jsonStream) pinRaw(b *batch) {
	for i := range b.items {
		it := &b.items[i]
		it.raw = s.lr.bytesFrom(it.start, it.end)
	}
}

// decodeBatch decodes b's items (their raw bytes set) into their types, on as many cores as
// there are (up to four), and returns a function that waits for the decode to end. In the
// background, every share runs on its own goroutine, and the caller goes on; else the caller
// decodes a share itself before it returns.
func (s *jsonStream) decodeBatch(b *batch, kind, version string, background bool) (wait func()) {
	if len(b.items) == 0 || s.d.rawItems {
		for i := range b.items {
			b.items[i].target, b.items[i].v, b.items[i].check = noTarget, nil, typedCheck{}
		}
		return func() {}
	}
	listTarget := targetOf(kind, version)
	decode := func(k, step int) {
		for i := k; i < len(b.items); i += step {
			it := &b.items[i]
			it.target, it.v, it.check = noTarget, nil, typedCheck{}
			// The item's own kind when a quick look tells it, else the list's: a wrong guess
			// is caught by checkTyped, which then leaves the item to object.
			t := nextTarget(it.raw, kind, version)
			if t == noTarget {
				t = listTarget
			}
			if t == noTarget {
				continue
			}
			it.target, it.v = t, s.d.newTarget(t)
			it.check = checkTyped(t, it.v, s.d.decodeTyped(it.raw, it.v), it.raw, kind, version, it.tops)
		}
	}
	workers := min(runtime.GOMAXPROCS(0), 4, len(b.items))
	var wg sync.WaitGroup
	first := 1
	if background {
		first = 0
	}
	for k := first; k < workers; k++ {
		wg.Go(func() { decode(k, workers) })
	}
	if !background {
		decode(0, workers)
	}
	return wg.Wait
}

// emitBatch builds and emits b's decoded items in order. It stops at the first item that
// fails.
func (s *jsonStream) emitBatch(b *batch, kind, version string) error {
	for i := range b.items {
		if err := s.ctx.Err(); err != nil {
			return err
		}
		it := &b.items[i]
		var err error
		if it.target != noTarget {
			err = s.typedChecked(it.check, it.v, it.raw, it.start, kind, version)
		} else {
			err = s.rawItem(it.raw, it.start, it.end, kind, version)
		}
		it.v, it.check, it.raw = nil, typedCheck{}, nil // the object is the emitted one's now
		if err != nil {
			return err
		}
	}
	return nil
}
