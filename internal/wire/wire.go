// Package wire is the body of a collector's batch, POST /api/v1/events with ContentType: the
// objects `rootline collect` saw, each with when it saw it and whether it saw it deleted, so
// that neither travels inside the object. The collector writes it (Marshal) and the server
// reads it (Read). It depends on the standard library only, so that the server, reading it,
// links nothing of the collector's client-go.
package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// ContentType marks a request body as a Batch. The server reads a body of any other type as it
// reads an upload: objects with no time of their own.
const ContentType = "application/vnd.rootline.batch+json"

// Batch is one delivery: {"items": [...]}, in the order the collector saw the objects.
type Batch struct {
	Items []Item `json:"items"`
}

// Item is one object as the collector saw it.
type Item struct {
	// ObservedAt is when the collector saw the object (required).
	ObservedAt time.Time `json:"observedAt"`
	// Deleted says the collector saw the object deleted, at ObservedAt: Object is as it was
	// last.
	Deleted bool `json:"deleted,omitempty"`
	// Object is the object as the API server gave it, with its apiVersion and kind.
	Object json.RawMessage `json:"object"`
}

// ErrMalformed marks a body that is not a batch.
var ErrMalformed = errors.New("malformed collector batch")

// Marshal writes a batch of items.
func Marshal(items []Item) ([]byte, error) {
	if items == nil {
		items = []Item{}
	}
	b, err := json.Marshal(Batch{Items: items})
	if err != nil {
		return nil, fmt.Errorf("wire: %w", err)
	}
	return append(b, '\n'), nil
}

// Read reads a batch from r and calls each for every item in order (see Reader); an error of
// each is returned as it is.
func Read(r io.Reader, each func(Item) error) error {
	br := NewReader(r)
	for {
		it, err := br.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := each(it); err != nil {
			return err
		}
	}
}

// Reader reads a batch an item at a time, so that the batch is never held whole.
type Reader struct {
	dec   *json.Decoder
	state int   // before the items, among them, or after the batch
	n     int   // items read
	err   error // the first error, returned by every Next after it
}

const (
	beforeItems = iota
	inItems
	done
)

// NewReader reads a batch from r.
func NewReader(r io.Reader) *Reader {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	return &Reader{dec: dec}
}

// Next returns the next item, or io.EOF once the batch has ended as a batch ends. A body that
// is not a batch (another shape, a field Batch or Item does not have, an item without its time
// or object, anything after the batch) is an error wrapping ErrMalformed that names the item.
func (r *Reader) Next() (Item, error) {
	if r.err != nil {
		return Item{}, r.err
	}
	it, err := r.next()
	if err != nil && err != io.EOF {
		r.err = err
	}
	return it, err
}

func (r *Reader) next() (Item, error) {
	switch r.state {
	case beforeItems:
		if err := expect(r.dec, '{', "a batch is a JSON object"); err != nil {
			return Item{}, err
		}
		if !r.dec.More() {
			return Item{}, r.end()
		}
		if err := r.items(); err != nil {
			return Item{}, err
		}
		r.state = inItems
	case done:
		return Item{}, io.EOF
	}
	if !r.dec.More() {
		if err := expect(r.dec, ']', "items do not end"); err != nil {
			return Item{}, err
		}
		if r.dec.More() {
			return Item{}, r.items() // a second items field: refused
		}
		return Item{}, r.end()
	}
	r.n++
	var it Item
	if err := r.dec.Decode(&it); err != nil {
		return Item{}, malformed(fmt.Errorf("item %d: %w", r.n, err))
	}
	switch {
	case it.ObservedAt.IsZero():
		return Item{}, malformed(fmt.Errorf("item %d: no observedAt", r.n))
	case !bytes.HasPrefix(bytes.TrimLeft(it.Object, " \t\r\n"), []byte("{")):
		return Item{}, malformed(fmt.Errorf("item %d: object is not a JSON object", r.n))
	}
	return it, nil
}

// items reads the batch's one field up to the first item.
func (r *Reader) items() error {
	key, err := r.dec.Token()
	if err != nil {
		return malformed(err)
	}
	if key != "items" || r.state != beforeItems {
		return malformed(fmt.Errorf("field %q: a batch has one field, items", key))
	}
	return expect(r.dec, '[', "items is an array")
}

// end reads the end of the batch, and that nothing follows.
func (r *Reader) end() error {
	if err := expect(r.dec, '}', "the batch does not end"); err != nil {
		return err
	}
	if _, err := r.dec.Token(); err != io.EOF {
		return malformed(errors.New("more after the batch"))
	}
	r.state = done
	return io.EOF
}

// expect reads the delimiter want, else fails saying what.
func expect(dec *json.Decoder, want json.Delim, what string) error {
	tok, err := dec.Token()
	if err != nil {
		return malformed(fmt.Errorf("%s: %w", what, err))
	}
	if tok != want {
		return malformed(fmt.Errorf("%s, not %v", what, tok))
	}
	return nil
}

func malformed(err error) error { return fmt.Errorf("%w: %w", ErrMalformed, err) }
