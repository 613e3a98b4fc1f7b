package ingest

// This file keeps the reference the differential tests compare json.go with.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// refStream is the JSON stream as it was before it read its bytes itself: encoding/json's
// Decoder over the line reader, its items decoded by encoding/json. The differential tests
// hold the stream of json.go to its results. It decodes a JSON input: one object, a List (kind List, PodList, …) whose items are
// decoded one at a time, a top-level array of objects, or JSON Lines (any sequence of those).
type refStream struct {
	d     *Decoder
	ctx   context.Context
	name  string
	lr    *lineReader
	dec   *json.Decoder
	emit  func(*cluster.Object) error
	depth int
	shift int64 // bytes before the JSON (a pasted command line), added to reported offsets
	// cut is what was read of a value the input cut short, and where it starts.
	cut struct {
		bytes []byte
		src   cluster.Source
	}
}

// refDecodeJSON decodes JSON that starts after skipLines lines and skipBytes bytes of the file
// (a command line pasted above it), so that positions still count from the file's start.
func (d *Decoder) refDecodeJSON(ctx context.Context, name string, r io.Reader, emit func(*cluster.Object) error, depth, skipLines int, skipBytes int64) error {
	lr := newLineReader(r)
	lr.baseLine += skipLines
	s := &refStream{d: d, ctx: ctx, name: name, lr: lr, dec: json.NewDecoder(lr), emit: emit, depth: depth, shift: skipBytes}
	defer func() { d.handed += lr.passed }()
	for {
		start := s.dec.InputOffset()
		tok, err := s.dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return s.syntax(err, start)
		}
		switch tok {
		case json.Delim('{'):
			err = s.object(s.dec.InputOffset() - 1)
		case json.Delim('['):
			err = s.items("", "")
		default:
			return s.fail(start, fmt.Sprintf("expected a JSON object or array, found %v", tok))
		}
		if err != nil {
			return err
		}
	}
}

// object reads a top-level object whose '{' has been consumed. A List has its items streamed;
// anything else is one object, held whole (it is one object, so that is bounded).
func (s *refStream) object(start int64) error {
	var (
		buf      bytes.Buffer
		kind     string
		version  string
		sawItems bool
	)
	src := s.source(start)
	// The object is rebuilt key by key; newlines keep each key on its line in the input, so
	// that a type error found later in the rebuilt bytes maps back to the right line.
	bufLine := int(src.Line)
	buf.WriteByte('{')
	var keys keySet // a List's, whose items are streamed: an object's are checked by d.object
	for s.dec.More() {
		keyOff := s.dec.InputOffset()
		tok, err := s.dec.Token()
		if err != nil {
			return s.syntax(err, keyOff)
		}
		key, _ := tok.(string)
		if keys.add([]byte(key)) {
			e := s.fail(s.dec.InputOffset(), repeatedKey{Key: key}.String()).(*Error)
			e.Err = errRepeatedKey
			return e
		}
		if key == "items" && !sawItems {
			sawItems = true
			if err := s.listItems(kind, version); err != nil {
				return err
			}
			continue
		}
		keyLine := s.lr.lineAt(s.dec.InputOffset())
		valOff := s.dec.InputOffset()
		var raw json.RawMessage
		if err := s.dec.Decode(&raw); err != nil {
			serr := s.syntax(err, valOff)
			if isTruncated(serr) && !sawItems {
				// Read the object as far as it goes: its keys so far, and the value cut short.
				if buf.Len() > 1 {
					buf.WriteByte(',')
				}
				kb, _ := json.Marshal(key)
				buf.Write(kb)
				buf.WriteByte(':')
				// The decoder reads the ':' after a key with the value: it may lead the bytes.
				s.cut.bytes = append(buf.Bytes(), bytes.TrimLeft(s.cut.bytes, " \t\r\n:")...)
				s.cut.src = src
				return s.salvage(serr, "", "")
			}
			return serr
		}
		switch key {
		case "kind":
			_ = json.Unmarshal(raw, &kind) // a non-string kind is reported when the object is built
		case "apiVersion":
			_ = json.Unmarshal(raw, &version)
		}
		if buf.Len() > 1 {
			buf.WriteByte(',')
		}
		for ; bufLine < keyLine; bufLine++ {
			buf.WriteByte('\n')
		}
		kb, _ := json.Marshal(key)
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(raw)
		bufLine += bytes.Count(raw, []byte{'\n'})
	}
	if _, err := s.dec.Token(); err != nil { // the closing '}'
		return s.syntax(err, s.dec.InputOffset())
	}
	if sawItems {
		return nil
	}
	buf.WriteByte('}')
	return s.d.object(s.ctx, buf.Bytes(), src, "", "", s.emit, s.depth)
}

// listItems streams the value of an "items" key: null or an array of objects.
func (s *refStream) listItems(listKind, listVersion string) error {
	off := s.dec.InputOffset()
	tok, err := s.dec.Token()
	if err != nil {
		return s.syntax(err, off)
	}
	if tok == nil {
		return nil // "items": null, as kubectl writes for an empty list
	}
	if tok != json.Delim('[') {
		return s.fail(off, "items is not an array")
	}
	return s.items(itemKind(listKind), listVersion)
}

// items streams array elements whose '[' has been consumed, up to and including the ']'.
// kind and version are what the enclosing list gives its items ("" for a List).
func (s *refStream) items(kind, version string) error {
	// The items of a list are nearly always of one kind, so each is decoded straight into the
	// type of the item before it (or of the list's item kind): scanned once, as a bare decode
	// of the list would. See typedItem for how a wrong guess is caught.
	guess := targetOf(kind, version)
	for s.dec.More() {
		if err := s.ctx.Err(); err != nil {
			return err
		}
		var err error
		if guess != noTarget && !s.d.rawItems {
			guess, err = s.typedItem(guess, kind, version)
		} else {
			guess, err = s.rawItem(kind, version)
		}
		if isTruncated(err) {
			return s.salvage(err, kind, version)
		}
		if err != nil {
			return err
		}
	}
	off := s.dec.InputOffset()
	if _, err := s.dec.Token(); err != nil {
		return s.syntax(err, off)
	}
	return nil
}

// rawItem reads the next item as raw JSON and builds it; it returns the type to try for the
// next item.
func (s *refStream) rawItem(kind, version string) (target, error) {
	off := s.dec.InputOffset()
	var raw json.RawMessage
	if err := s.dec.Decode(&raw); err != nil {
		return noTarget, s.syntax(err, off)
	}
	start := s.dec.InputOffset() - int64(len(raw))
	return nextTarget(raw, kind, version), s.d.object(s.ctx, raw, s.source(start), kind, version, s.emit, s.depth)
}

// typedItem decodes the next item into the type guessed for it, then reads the item's kind
// and apiVersion from its bytes, still held by the line reader, exactly as object does. When
// they call for the guessed type, the object is built from what was decoded; otherwise, or
// when the decode failed, the bytes go through object, which decodes them again and answers
// as it always does. It returns the type to try for the next item.
func (s *refStream) typedItem(guess target, kind, version string) (target, error) {
	off := s.dec.InputOffset() // before the ',' that separates this item from the one before
	v := guess.new()
	derr := s.dec.Decode(v)
	if _, ok := errors.AsType[*digitRunError](derr); ok {
		return guess, s.syntax(derr, off)
	}
	end := s.dec.InputOffset()
	lead := s.lr.bytesFrom(off, end)
	n := 0
	for n < len(lead) && (lead[n] == ',' || lead[n] == ' ' || lead[n] == '\t' || lead[n] == '\n' || lead[n] == '\r') {
		n++
	}
	if n == len(lead) { // the value was not read: bad syntax, or the input ended
		if derr == nil {
			derr = io.ErrUnexpectedEOF
		}
		return guess, s.syntax(derr, off)
	}
	start := off + int64(n)
	src := s.source(start)
	raw := s.lr.bytesFrom(start, end)
	if derr == nil && raw[0] == '{' {
		if tm, err := typeMetaOf(raw, typeMetaIn(v)); err == nil {
			if tm.Kind == "" {
				tm.Kind = kind
			}
			if tm.APIVersion == "" {
				tm.APIVersion = version
			}
			if targetOf(tm.Kind, tm.APIVersion) == guess {
				if err := s.ctx.Err(); err != nil {
					return guess, err
				}
				if r, ok := duplicateKey(raw); ok {
					return guess, repeatErr(src, raw, r)
				}
				if f, ok := valueFault(raw); ok {
					return guess, f.err(src, raw)
				}
				if f, ok := metaFault(tm); ok {
					return guess, f.err(src, raw)
				}
				if f, ok := typedFault(v); ok {
					return guess, f.err(src, raw)
				}
				o := &cluster.Object{APIVersion: tm.APIVersion, Kind: tm.Kind, Namespace: tm.Namespace, Name: tm.Name, Source: src}
				s.d.adopt(o, v)
				return guess, s.emit(o)
			}
		}
	}
	return nextTarget(raw, kind, version), s.d.object(s.ctx, raw, src, kind, version, s.emit, s.depth)
}

func (s *refStream) source(off int64) cluster.Source {
	line := s.lr.lineAt(off)
	return cluster.Source{File: s.name, Line: cluster.LineOf(line), Offset: s.shift + s.lr.fileOffset(off)}
}

// syntax turns a decoder error into an Error at the byte where the JSON went wrong. The json
// Decoder reports offsets only roughly, so the value that failed is scanned again from the
// decoder's buffer, which holds it from its first byte up to the fault.
func (s *refStream) syntax(err error, valueStart int64) error {
	if errors.Is(err, ErrTooLarge) {
		return err
	}
	if cerr := s.ctx.Err(); cerr != nil && errors.Is(err, cerr) { // the read was stopped
		return cerr
	}
	if dr, ok := errors.AsType[*digitRunError](err); ok {
		return s.fail(dr.off, dr.Error())
	}
	var rerr *Error
	if errors.As(err, &rerr) {
		return err
	}
	buffered, _ := io.ReadAll(s.dec.Buffered())
	at := s.dec.InputOffset()
	if at < valueStart {
		at = valueStart
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		// What was read of the value cut short, for salvage: before fail drops it.
		s.cut.bytes = append([]byte(nil), s.lr.tail(valueStart)...)
		s.cut.src = s.source(valueStart)
		e := s.fail(at+int64(len(buffered)), "unexpected end of JSON: the input is truncated").(*Error)
		e.Truncated = true
		return e
	}
	var v any
	var se *json.SyntaxError
	if uerr := json.Unmarshal(buffered, &v); errors.As(uerr, &se) && se.Offset > 0 {
		return s.fail(s.dec.InputOffset()+se.Offset-1, "invalid JSON: "+se.Error())
	}
	if errors.As(err, &se) {
		return s.fail(at, "invalid JSON: "+se.Error())
	}
	return s.fail(at, "invalid JSON: "+err.Error())
}

func (s *refStream) fail(off int64, msg string) error {
	line := s.lr.lineAt(off)
	return &Error{File: s.name, Line: line, Offset: s.shift + s.lr.fileOffset(off), Msg: msg, Err: ErrMalformed}
}

// salvage builds and emits the object the input cut short, closed by jsonscan.Repair after its
// last whole member, and returns the truncation error, which then says so. An object that
// cannot be repaired, or does not build, leaves the error as it was.
func (s *refStream) salvage(cut error, kind, version string) error {
	return s.d.salvage(s.ctx, cut, s.cut.bytes, s.cut.src, kind, version, s.emit, s.depth)
}

// Read passes the input on to encoding/json's Decoder, for the reference stream: it keeps
// what it passes in buf, as fill does for the stream of json.go.
func (l *lineReader) Read(p []byte) (int, error) {
	for {
		n, err := l.r.Read(p)
		n = l.squeeze(p[:n])
		if n == 0 && err == nil {
			continue // all of it dropped: read on (the reader below stops once ctx is done)
		}
		if l.head > 0 && l.head >= len(l.buf)/2 {
			// Drop what was answered for once it is at least half: a copy per item would move
			// the parser's whole look-ahead every time.
			rest := copy(l.buf, l.buf[l.head:])
			l.buf, l.head = l.buf[:rest], 0
		}
		if derr := l.countDigits(p[:n]); derr != nil {
			return 0, derr
		}
		l.buf = append(l.buf, p[:n]...)
		l.passed += int64(n)
		return n, err
	}
}
