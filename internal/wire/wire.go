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

// Read reads a batch from r and calls each for every item in order, one at a time, so that the
// batch is never held whole. A body that is not a batch (another shape, a field Batch or Item
// does not have, an item without its time or object, anything after the batch) is an error
// wrapping ErrMalformed that names the item; an error of each is returned as it is.
func Read(r io.Reader, each func(Item) error) error {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := expect(dec, '{', "a batch is a JSON object"); err != nil {
		return err
	}
	sawItems := false
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return malformed(err)
		}
		if key != "items" || sawItems {
			return malformed(fmt.Errorf("field %q: a batch has one field, items", key))
		}
		sawItems = true
		if err := readItems(dec, each); err != nil {
			return err
		}
	}
	if err := expect(dec, '}', "the batch does not end"); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return malformed(errors.New("more after the batch"))
	}
	return nil
}

// readItems reads the array of items, calling each for every one.
func readItems(dec *json.Decoder, each func(Item) error) error {
	if err := expect(dec, '[', "items is an array"); err != nil {
		return err
	}
	for n := 1; dec.More(); n++ {
		var it Item
		if err := dec.Decode(&it); err != nil {
			return malformed(fmt.Errorf("item %d: %w", n, err))
		}
		switch {
		case it.ObservedAt.IsZero():
			return malformed(fmt.Errorf("item %d: no observedAt", n))
		case !bytes.HasPrefix(bytes.TrimLeft(it.Object, " \t\r\n"), []byte("{")):
			return malformed(fmt.Errorf("item %d: object is not a JSON object", n))
		}
		if err := each(it); err != nil {
			return err
		}
	}
	return expect(dec, ']', "items do not end")
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
