package ingest

import (
	"errors"
	"runtime"
	"sync"
)

// The items of a list are read in batches: the items the buffer holds whole after a read are
// scanned (their extent, the commas and brackets between them), then decoded into their types,
// checked and redacted at once, one share on each core (checkTyped touches nothing but its
// item), then built and emitted one by one, in order, exactly as one at a time would
// (typedChecked and rawItem, which alone report errors, count lines, share strings and emit).

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
	tops       []span
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
	var b batch
	afterItem := false // the next thing is the ',' or ']' after an item
	for {
		if err := s.ctx.Err(); err != nil {
			return err
		}
		b.reset()
		closed, cerr := s.collect(&b, &afterItem)
		if err := s.process(&b, kind, version); err != nil {
			return err
		}
		if cerr != nil {
			return s.cutItem(cerr, kind, version)
		}
		if closed {
			return nil
		}
	}
}

// collect adds to b the items that follow, the first reading more of the input as it needs,
// the others only while the buffer holds them whole. closed: the ']' was read. err is a fault
// met before any item was added. A fault met after b's first item ends b just before it: the
// next call, b empty, meets it again and reports it, once b's items were built, so that
// lines are counted in order (an Error's line is counted when it is made).
func (s *jsonStream) collect(b *batch, afterItem *bool) (closed bool, err error) {
	defer func() { s.noFill = false }()
	for len(b.items) < maxBatchItems && b.bytes < maxBatchBytes {
		first := len(b.items) == 0
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
		it.tops = append(it.tops, s.scan.tops...)
		b.items = append(b.items, it)
		b.bytes += end - start
		s.pos = end
		*afterItem = true
	}
	return false, nil
}

// process decodes b's items into their types, on as many cores as there are (up to four),
// then builds and emits them in order. It stops at the first item that fails.
func (s *jsonStream) process(b *batch, kind, version string) error {
	if len(b.items) == 0 {
		return nil
	}
	listTarget := targetOf(kind, version)
	decode := func(k, step int) {
		for i := k; i < len(b.items); i += step {
			it := &b.items[i]
			it.target, it.v, it.check = noTarget, nil, typedCheck{}
			if s.d.rawItems {
				continue
			}
			raw := s.lr.bytesFrom(it.start, it.end)
			// The item's own kind when a quick look tells it, else the list's: a wrong guess
			// is caught by checkTyped, which then leaves the item to object.
			t := nextTarget(raw, kind, version)
			if t == noTarget {
				t = listTarget
			}
			if t == noTarget {
				continue
			}
			it.target, it.v = t, t.new()
			it.check = checkTyped(t, it.v, s.d.decodeTyped(raw, it.v), raw, kind, version, it.tops)
		}
	}
	workers := min(runtime.GOMAXPROCS(0), 4, len(b.items))
	var wg sync.WaitGroup
	for k := 1; k < workers; k++ {
		wg.Go(func() { decode(k, workers) })
	}
	decode(0, workers)
	wg.Wait()
	for i := range b.items {
		if err := s.ctx.Err(); err != nil {
			return err
		}
		it := &b.items[i]
		raw := s.lr.bytesFrom(it.start, it.end)
		var err error
		if it.target != noTarget {
			err = s.typedChecked(it.check, it.v, raw, it.start, kind, version)
		} else {
			err = s.rawItem(raw, it.start, it.end, kind, version)
		}
		it.v, it.check = nil, typedCheck{} // the object is the emitted one's now
		if err != nil {
			return err
		}
	}
	return nil
}
