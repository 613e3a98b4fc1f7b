package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/jsonscan"
)

// jsonStream decodes a JSON input: one object, a List (kind List, PodList, …) whose items are
// decoded one at a time, a top-level array of objects, or JSON Lines (any sequence of those).
//
// It reads the bytes itself, from the line reader's buffer, rather than through encoding/json's
// Decoder: it finds the extent of each item by a byte scan (jsonscan.Value, a memchr per string)
// and hands the item's bytes to the typed decode (decodeTyped), so that an item is scanned by a
// fast loop once and decoded once, not scanned by encoding/json's byte-at-a-time state machine
// and then decoded by it again. The structure around the items (the top-level object's keys,
// the commas and brackets) is parsed here, strictly: what encoding/json refuses is refused,
// with its message, at the byte at fault.
type jsonStream struct {
	d     *Decoder
	ctx   context.Context
	name  string
	lr    *lineReader
	emit  func(*cluster.Object) error
	depth int
	shift int64          // bytes before the JSON (a pasted command line), added to reported offsets
	pos   int64          // the offset of the next byte to read, in the line reader's offsets
	eof   bool           // the input has ended: nothing is left beyond lr.passed
	scan  jsonscan.Value // of the last value valueEnd found
	// noFill makes more refuse to read (errNeedFill): a batch of items (items.go) is collected
	// from what the buffer holds, so that their offsets stay where they are.
	noFill bool
	// cut is what was read of a value the input cut short, and where it starts.
	cut struct {
		bytes []byte
		src   cluster.Source
	}
}

// decodeJSON decodes JSON that starts after skipLines lines and skipBytes bytes of the file
// (a command line pasted above it), so that positions still count from the file's start.
func (d *Decoder) decodeJSON(ctx context.Context, name string, r io.Reader, emit func(*cluster.Object) error, depth, skipLines int, skipBytes int64) error {
	if d.jsonRef != nil {
		return d.jsonRef(ctx, name, r, emit, depth, skipLines, skipBytes)
	}
	lr := newLineReader(r)
	lr.baseLine += skipLines
	s := &jsonStream{d: d, ctx: ctx, name: name, lr: lr, emit: emit, depth: depth, shift: skipBytes}
	defer func() { d.handed += lr.passed }()
	for {
		before := s.pos // where the value before ends: a scalar is refused there, as encoding/json's Decoder does
		c, err := s.next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return s.syntax(err, s.pos)
		}
		switch c {
		case '{':
			s.pos++
			err = s.object(s.pos - 1)
		case '[':
			s.pos++
			err = s.items("", "")
		default:
			err = s.scalar(before)
		}
		if err != nil {
			return err
		}
	}
}

// scalar refuses a top-level value that is not an object or an array, naming its first
// token as encoding/json's Decoder reads it (000 is a 0), at before, where the value before
// it ended.
func (s *jsonStream) scalar(before int64) error {
	tok, err := s.firstToken()
	if err != nil {
		return err
	}
	return s.fail(before, fmt.Sprintf("expected a JSON object or array, found %v", tok))
}

// firstToken reads the first token of the scalar at s.pos as encoding/json's Decoder reads it:
// 000 is a 0, and so is 0", whatever follows; or the error of the value that is not one.
func (s *jsonStream) firstToken() (json.Token, error) {
	start := s.pos
	end, err := s.valueEnd()
	if err != nil && !errors.Is(err, errBadValue) {
		return nil, s.syntax(err, start)
	}
	if err != nil {
		end = s.lr.passed
	}
	tok, terr := json.NewDecoder(bytes.NewReader(s.lr.bytesFrom(start, end))).Token()
	switch {
	case terr == nil:
		return tok, nil
	case err != nil:
		return nil, s.syntax(err, start)
	}
	return nil, s.invalid(start, end)
}

// more reads more of the input into the line reader; at its end it sets eof.
func (s *jsonStream) more() error {
	if s.eof {
		return nil
	}
	if s.noFill {
		return errNeedFill
	}
	_, err := s.lr.fill()
	if errors.Is(err, io.EOF) {
		s.eof = true
		return nil
	}
	return err
}

// next skips whitespace and returns the byte at s.pos, not consumed; io.EOF when the input
// ends first.
func (s *jsonStream) next() (byte, error) {
	for {
		buf := s.lr.buf[s.lr.head+int(s.pos-s.lr.base):]
		for i, c := range buf {
			switch c {
			case ' ', '\t', '\n', '\r':
				continue
			}
			s.pos += int64(i)
			return c, nil
		}
		s.pos += int64(len(buf))
		if s.eof {
			return 0, io.EOF
		}
		if err := s.more(); err != nil {
			return 0, err
		}
	}
}

// errBadValue is a value whose bytes are not JSON, found while looking for its end.
var errBadValue = errors.New("invalid JSON value")

// valueEnd returns the offset just past the JSON value that starts at s.pos (a byte other
// than whitespace), reading more of the input as needed: io.ErrUnexpectedEOF when the input
// ends first, errBadValue when the bytes cannot start or continue a value. It checks only the
// structure it needs to find the end: the bytes are checked whole by whoever decodes them.
// The scan goes on where it stopped after each read, so a value that comes in many reads is
// scanned once.
func (s *jsonStream) valueEnd() (int64, error) {
	start := s.pos
	s.scan.Reset()
	for {
		avail := s.lr.bytesFrom(start, s.lr.passed)
		end, done, bad := s.scan.Scan(avail)
		if done {
			return start + int64(end), nil
		}
		if bad {
			return start + int64(end), errBadValue
		}
		if s.eof {
			if len(avail) > 0 && isScalarStart(avail[0]) {
				return start + int64(len(avail)), nil // a scalar the input ends with
			}
			return 0, io.ErrUnexpectedEOF
		}
		if err := s.more(); err != nil {
			return 0, err
		}
	}
}

func isScalarStart(c byte) bool { return c != '{' && c != '[' && c != '"' }

// expect consumes the byte c after whitespace, or fails with encoding/json's message for what
// stands there instead, in the context it names ("after object key", …).
func (s *jsonStream) expect(c byte, context string) error {
	got, err := s.next()
	if err != nil {
		return s.syntax(err, s.pos)
	}
	if got != c {
		return s.fail(s.pos, "invalid JSON: invalid character "+quoteChar(got)+" "+context)
	}
	s.pos++
	return nil
}

// key reads an object key (a JSON string) at s.pos, after whitespace; the ':' after it is
// left to the caller. It returns the key decoded and the offset where it starts.
func (s *jsonStream) key() (string, int64, error) {
	c, err := s.next()
	if err != nil {
		return "", s.pos, s.syntax(err, s.pos)
	}
	at := s.pos
	if c != '"' {
		return "", at, s.fail(at, "invalid JSON: invalid character "+quoteChar(c)+" looking for beginning of object key string")
	}
	end, err := s.valueEnd()
	if err != nil {
		return "", at, s.syntax(err, at)
	}
	raw := s.lr.bytesFrom(at, end)
	var key string
	if bytes.IndexByte(raw, '\\') < 0 && !jsonscan.HasControl(raw) {
		key = string(raw[1 : len(raw)-1])
	} else if err := json.Unmarshal(raw, &key); err != nil {
		return "", at, s.invalid(at, end)
	}
	s.pos = end
	return key, at, nil
}

// comma reads what follows a member or an element: ',' (true) or the closer (false).
func (s *jsonStream) comma(closer byte, context string) (bool, error) {
	c, err := s.next()
	if err != nil {
		return false, s.syntax(err, s.pos)
	}
	switch c {
	case ',':
		s.pos++
		return true, nil
	case closer:
		s.pos++
		return false, nil
	}
	return false, s.fail(s.pos, "invalid JSON: invalid character "+quoteChar(c)+" "+context)
}

// object reads a top-level object whose '{' has been consumed. A List has its items streamed;
// anything else is one object, held whole (it is one object, so that is bounded).
func (s *jsonStream) object(start int64) error {
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
	c, err := s.next()
	if err != nil {
		return s.syntax(err, start)
	}
	if c == '}' {
		s.pos++
		return s.d.object(s.ctx, []byte("{}"), src, "", "", s.emit, s.depth)
	}
	for {
		key, keyOff, err := s.key()
		if err != nil {
			return err
		}
		if keys.add([]byte(key)) {
			e := s.fail(s.pos, repeatedKey{Key: key}.String()).(*Error)
			e.Err = errRepeatedKey
			return e
		}
		if err := s.expect(':', "after object key"); err != nil {
			// Cut after a key: the object as far as it goes; not a List's, cut at its items
			// (whose value is the list's, not a member of an object).
			if isTruncated(err) && !sawItems && key != "items" {
				kb, _ := json.Marshal(key)
				s.cut.bytes, s.cut.src = append(append(buf.Bytes(), ','), kb...), src
				return s.salvage(err, "", "")
			}
			return err
		}
		if key == "items" && !sawItems {
			sawItems = true
			if err := s.listItems(kind, version); err != nil {
				return err
			}
		} else {
			keyLine := s.lr.lineAt(keyOff)
			_, err := s.next()
			valOff := s.pos
			var end int64
			if err == nil {
				end, err = s.valueEnd()
			}
			var serr error
			switch {
			case err != nil:
				serr = s.syntax(err, valOff)
			case !jsonscan.Valid(s.lr.bytesFrom(valOff, end)):
				serr = s.invalid(valOff, end) // truncated, for a literal the input cuts short
			}
			if serr != nil {
				if isTruncated(serr) && !sawItems {
					// Read the object as far as it goes: its keys so far, and the value cut short.
					if buf.Len() > 1 {
						buf.WriteByte(',')
					}
					kb, _ := json.Marshal(key)
					buf.Write(kb)
					buf.WriteByte(':')
					s.cut.bytes = append(buf.Bytes(), s.cut.bytes...)
					s.cut.src = src
					return s.salvage(serr, "", "")
				}
				return serr
			}
			raw := s.lr.bytesFrom(valOff, end)
			s.pos = end
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
		more, err := s.comma('}', "after object key:value pair")
		if err != nil {
			return err
		}
		if !more {
			break
		}
	}
	if sawItems {
		return nil
	}
	buf.WriteByte('}')
	return s.d.object(s.ctx, buf.Bytes(), src, "", "", s.emit, s.depth)
}

// listItems streams the value of an "items" key: null or an array of objects.
func (s *jsonStream) listItems(listKind, listVersion string) error {
	at := s.pos // "items is not an array" is said where the key ends, as encoding/json's Decoder says it
	c, err := s.next()
	if err != nil {
		return s.syntax(err, s.pos)
	}
	off := s.pos
	switch c {
	case '[':
		s.pos++
		return s.items(itemKind(listKind), listVersion)
	case '{':
		return s.fail(at, "items is not an array") // known at its first byte
	case 'n':
		end, err := s.valueEnd()
		if err != nil {
			return s.syntax(err, off)
		}
		if string(s.lr.bytesFrom(off, end)) != "null" {
			return s.invalid(off, end)
		}
		s.pos = end
		return nil // "items": null, as kubectl writes for an empty list
	}
	// Not an array once its first token is read: "items": 000 is a 0, and not an array,
	// before it is anything else.
	if _, err := s.firstToken(); err != nil {
		return err
	}
	return s.fail(at, "items is not an array")
}

// cutItem salvages the item the input cut short, when err says it was.
func (s *jsonStream) cutItem(err error, kind, version string) error {
	if isTruncated(err) {
		return s.salvage(err, kind, version)
	}
	return err
}

// rawItem builds the item raw, which lies from start to end, through object.
func (s *jsonStream) rawItem(raw []byte, start, end int64, kind, version string) error {
	if !jsonscan.Valid(raw) {
		return s.invalid(start, end)
	}
	return s.d.object(s.ctx, raw, s.source(start), kind, version, s.emit, s.depth)
}

// typedCheck is what is learnt of an item decoded into a guessed type before it is reported
// or emitted: made by checkTyped, which touches nothing but the item, so that a batch makes it
// on every core.
type typedCheck struct {
	syntax bool                           // the item is not JSON: reported as such
	fault  func(src cluster.Source) error // the item's fault, reported at its source
	fast   bool                           // the object is built from the decoded value
	tm     typeMeta                       // its kind, apiVersion, name and namespace, when fast
}

// checkTyped checks the item raw, decoded into v (a guess's new) with the error derr: it
// reads the item's kind and apiVersion from its bytes exactly as object does; when they call
// for the guessed type, the item's checks run and v is redacted (fast); otherwise, or when the
// decode failed on a type, the item is left to object.
func checkTyped(guess target, v any, derr error, raw []byte, kind, version string, tops []jsonscan.Span) typedCheck {
	if _, ok := errors.AsType[*json.SyntaxError](derr); ok {
		return typedCheck{syntax: true}
	}
	if derr != nil || raw[0] != '{' {
		return typedCheck{}
	}
	tm, err := typeMetaOf(raw, typeMetaIn(v))
	if err != nil {
		return typedCheck{}
	}
	if tm.Kind == "" {
		tm.Kind = kind
	}
	if tm.APIVersion == "" {
		tm.APIVersion = version
	}
	if targetOf(tm.Kind, tm.APIVersion) != guess {
		return typedCheck{}
	}
	if r, ok := duplicateKeyIn(raw, tops); ok {
		return typedCheck{fault: func(src cluster.Source) error { return repeatErr(src, raw, r) }}
	}
	if f, ok := valueFault(raw); ok {
		return typedCheck{fault: func(src cluster.Source) error { return f.err(src, raw) }}
	}
	if f, ok := metaFault(tm); ok {
		return typedCheck{fault: func(src cluster.Source) error { return f.err(src, raw) }}
	}
	if f, ok := typedFault(v); ok {
		return typedCheck{fault: func(src cluster.Source) error { return f.err(src, raw) }}
	}
	redactTyped(v)
	return typedCheck{fast: true, tm: tm}
}

// typedChecked reports or emits the item raw, starting at start, as its check c says.
func (s *jsonStream) typedChecked(c typedCheck, v any, raw []byte, start int64, kind, version string) error {
	if c.syntax {
		return s.invalid(start, start+int64(len(raw)))
	}
	src := s.source(start)
	if c.fault != nil || c.fast {
		if err := s.ctx.Err(); err != nil {
			return err
		}
	}
	if c.fault != nil {
		return c.fault(src)
	}
	if c.fast {
		o := &cluster.Object{APIVersion: c.tm.APIVersion, Kind: c.tm.Kind, Namespace: c.tm.Namespace, Name: c.tm.Name, Source: src}
		s.d.adoptRedacted(o, v)
		return s.emit(o)
	}
	return s.d.object(s.ctx, raw, src, kind, version, s.emit, s.depth)
}

// nextTarget is the type to try for the item after raw: raw's own, when a quick look tells it.
func nextTarget(raw []byte, kind, version string) target {
	tm, ok := scanTypeMeta(raw, typeMeta{})
	if !ok {
		return noTarget
	}
	if tm.Kind == "" {
		tm.Kind = kind
	}
	if tm.APIVersion == "" {
		tm.APIVersion = version
	}
	return targetOf(tm.Kind, tm.APIVersion)
}

func (s *jsonStream) source(off int64) cluster.Source {
	line := s.lr.lineAt(off)
	return cluster.Source{File: s.name, Line: cluster.LineOf(line), Offset: s.shift + s.lr.fileOffset(off)}
}

// syntax turns an error met while reading the value that starts at valueStart into an Error
// at the byte where the JSON went wrong.
func (s *jsonStream) syntax(err error, valueStart int64) error {
	if errors.Is(err, ErrTooLarge) || errors.Is(err, errNeedFill) {
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
	if errors.Is(err, errBadValue) {
		return s.invalid(valueStart, s.lr.passed)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		tail := s.lr.tail(valueStart)
		// Bytes that could never become JSON are that fault, not a cut.
		var v any
		if se, ok := errors.AsType[*json.SyntaxError](json.Unmarshal(tail, &v)); ok && !isEndOfInput(se, tail) {
			return s.fail(valueStart+se.Offset-1, "invalid JSON: "+se.Error())
		}
		// What was read of the value cut short, for salvage: before fail drops it.
		s.cut.bytes = append([]byte(nil), tail...)
		s.cut.src = s.source(valueStart)
		e := s.fail(s.lr.passed, "unexpected end of JSON: the input is truncated").(*Error)
		e.Truncated = true
		return e
	}
	return s.fail(valueStart, "invalid JSON: "+err.Error())
}

// invalid reports the JSON from start to end, which is not valid, at its first fault as
// encoding/json finds it, with its message.
func (s *jsonStream) invalid(start, end int64) error {
	var v any
	raw := s.lr.bytesFrom(start, end)
	err := json.Unmarshal(raw, &v)
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		if isEndOfInput(se, raw) { // the value stops short: its end was the byte after it
			next := s.lr.bytesFrom(end, s.lr.passed)
			if len(next) > 0 {
				return s.fail(end, "invalid JSON: invalid character "+quoteChar(next[0])+" in literal")
			}
			if s.eof {
				return s.syntax(io.ErrUnexpectedEOF, start)
			}
		}
		return s.fail(start+max(se.Offset-1, 0), "invalid JSON: "+se.Error())
	}
	if err != nil {
		return s.fail(start, "invalid JSON: "+err.Error())
	}
	return s.fail(start, "invalid JSON")
}

// isEndOfInput reports encoding/json's error for data, a value that stops before it is whole.
// At the end, its scanner reads a space, which some states refuse ("invalid character ' ' in
// string escape code" for data that ends after a backslash): an error at the end about a
// space the data does not end with is the end's.
func isEndOfInput(se *json.SyntaxError, data []byte) bool {
	if se.Error() == "unexpected end of JSON input" {
		return true
	}
	return se.Offset == int64(len(data)) && strings.Contains(se.Error(), "invalid character ' '") &&
		(len(data) == 0 || data[len(data)-1] != ' ')
}

// quoteChar formats c as encoding/json's messages do.
func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	q := strconv.Quote(string(c))
	return "'" + q[1:len(q)-1] + "'"
}

func (s *jsonStream) fail(off int64, msg string) error {
	line := s.lr.lineAt(off)
	return &Error{File: s.name, Line: line, Offset: s.shift + s.lr.fileOffset(off), Msg: msg, Err: ErrMalformed}
}

// isTruncated reports an error that says the input ended mid-value.
func isTruncated(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Truncated
}

// salvage builds and emits the object the input cut short, closed by jsonscan.Repair after its
// last whole member, and returns the truncation error, which then says so. An object that
// cannot be repaired, or does not build, leaves the error as it was.
func (s *jsonStream) salvage(cut error, kind, version string) error {
	return s.d.salvage(s.ctx, cut, s.cut.bytes, s.cut.src, kind, version, s.emit, s.depth)
}

// salvage is jsonStream's (and the reference stream's): partial is what was read of the value
// cut short, starting at src.
func (d *Decoder) salvage(ctx context.Context, cut error, partial []byte, src cluster.Source, kind, version string, emit func(*cluster.Object) error, depth int) error {
	raw, ok := jsonscan.Repair(partial)
	if !ok {
		return cut
	}
	start := bytes.IndexByte(partial, '{')
	if start > 0 {
		src.Line = cluster.LineOf(int(src.Line) + bytes.Count(partial[:start], []byte{'\n'}))
		src.Offset += int64(start)
	}
	var got []*cluster.Object
	if err := d.object(ctx, raw, src, kind, version, func(o *cluster.Object) error {
		// An object cut before it said what it is about tells nothing.
		if (o.Pod != nil || o.Node != nil) && o.Name == "" || o.Event != nil && o.Event.Reason == "" {
			return nil
		}
		got = append(got, o)
		return nil
	}, depth); err != nil || len(got) == 0 {
		return cut
	}
	for _, o := range got {
		if err := emit(o); err != nil {
			return err
		}
	}
	e := cut.(*Error)
	e.Msg += "; the object at the cut was read as far as it goes"
	e.ReadTo = e.Line
	return e
}
