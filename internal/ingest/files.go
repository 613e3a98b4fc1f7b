package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/ingest/text"
)

// This file is the one policy for the files of a run or an upload (issue 13): which are read,
// which are skipped and why, and how far a truncated one goes. `rootline analyze` and the
// upload handler both decode through DecodeFile, so that they accept, skip and salvage the
// same files alike.

// FileKind is the Kind of a Skipped entry that stands for a whole file (skipped, or cut short)
// rather than for one object.
const FileKind = "File"

// Outcome is what became of a file given to DecodeFile.
type Outcome int

const (
	// FileRead means the file was read to its end.
	FileRead Outcome = iota
	// FileTruncated means the file ended in the middle of an object: the objects read before
	// the cut were emitted (whole, and the one at the cut as far as it goes when the decoder
	// could), and the signal phrases found after the last of them. That
	// may be nothing at all (a file cut before its first object): a door that needs objects
	// refuses it then with FileResult.Err, as the upload handler does.
	FileTruncated
	// FileSkipped means the file could not be read (not a format Rootline reads, binary,
	// empty, malformed, or a damaged archive) and nothing of it was emitted.
	FileSkipped
)

func (o Outcome) String() string {
	switch o {
	case FileRead:
		return "read"
	case FileTruncated:
		return "truncated"
	case FileSkipped:
		return "skipped"
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// File is one file for DecodeFile.
type File struct {
	// Name names the file in sources, errors and skipped lists.
	Name string
	// Content is the file, from its start. It is read from the start again to salvage a
	// truncated file, or to emit a large file whose objects were not held (MaxHeld).
	Content io.ReadSeeker
	// Explicit is set for a file the user named (on the command line, or the only file of an
	// upload): one that cannot be read is an error, not a skip.
	Explicit bool
	// Beside is set for a file that came with others (an upload of several files) which the
	// caller reads as Explicit only to stream its objects and skips itself: a document of
	// notes among them is still read for its claims alone (notes.go).
	Beside bool
	// MaxHeld bounds the decompressed bytes of a file that may yet be skipped (one not
	// explicit) whose objects are held back until its outcome is known. A larger file is
	// decoded twice, once to learn its outcome and once to emit, so that memory stays bounded
	// by the largest object as with Decode. Zero holds any file whole: for a caller that keeps
	// every object anyway, as analyze does.
	MaxHeld int64
}

// FileResult is what became of a file.
type FileResult struct {
	Name    string
	Outcome Outcome
	// Objects counts the objects emitted, the salvaged phrases included.
	Objects int
	// Salvaged counts the phrases of a truncated file read after its last whole object.
	Salvaged int
	// Err is why a skipped file could not be read, or where a truncated one was cut; nil for a
	// file read whole.
	Err *Error
}

// Reason says why the file was skipped, or where it was cut and what was kept; it does not
// name the file. Empty for a file read whole.
func (r FileResult) Reason() string {
	if r.Err == nil {
		return ""
	}
	msg := r.Err.Msg
	if r.Err.File != r.Name {
		// The fault is inside an archive: name the entry ("x.tar.gz:pods.json:3: …" without
		// "x.tar.gz:").
		msg = strings.TrimPrefix(r.Err.Error(), r.Name+":")
	}
	if r.Outcome == FileTruncated {
		if r.Objects == 0 {
			return msg + "; nothing before the cut could be read"
		}
		msg += fmt.Sprintf("; kept %s before the cut and %s after the last of them",
			plural(r.Objects-r.Salvaged, "object"), plural(r.Salvaged, "signal phrase"))
	}
	return msg
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// line is the line of the fault in the file itself, when known (not inside an archive).
func (r FileResult) line() int {
	if r.Err == nil || r.Err.File != r.Name {
		return 0
	}
	return r.Err.Line
}

// String is the file, the line when known, and the reason: "truth.json:1: object without kind".
func (r FileResult) String() string {
	pos := r.Name
	if l := r.line(); l > 0 {
		pos = fmt.Sprintf("%s:%d", r.Name, l)
	}
	if r.Err == nil {
		return pos + ": " + r.Outcome.String()
	}
	return pos + ": " + r.Reason()
}

// Skipped is the file as an entry of a skipped list (Kind FileKind), for a file skipped or cut.
func (r FileResult) Skipped() Skipped {
	return Skipped{File: r.Name, Line: r.line(), Kind: FileKind, Reason: r.Reason(), Truncated: r.Outcome == FileTruncated}
}

// DecodeFile decodes one file of a run or an upload and says what became of it, calling emit
// for the objects of a file that is read or truncated, never for those of a file skipped:
//
//   - A file that ends in the middle of an object (a JSON document cut short) is truncated,
//     explicit or not: the objects read before the cut are kept, and the signal phrases a
//     text parse finds after the last of them. A compressed or archived file is not
//     salvaged: with its end missing its checksum cannot be verified, as with a damaged
//     archive (it is unreadable, below).
//   - A file that cannot be read (ErrUnsupported, ErrMalformed) is skipped, with
//     FileResult.Err saying why; an explicit one returns that *Error instead, except a
//     document of prose (Error.Prose), which is read with nothing kept and Err saying so.
//   - A README or notes among other files (not explicit, or Beside) is read for the claims
//     of its sentences alone, never for evidence, and skipped when it makes none (notes.go).
//   - Too large (ErrTooLarge), a cancelled ctx, a failure to read Content and emit's own error
//     are returned as errors whatever the file: they fail the whole run or upload.
//
// The objects of an explicit file stream to emit as they are decoded, as with Decode; those of
// another file are held until the file has been read to its end (see File.MaxHeld).
func (d *Decoder) DecodeFile(ctx context.Context, f File, emit func(*cluster.Object) error) (FileResult, error) {
	if (!f.Explicit || f.Beside) && notesName(f.Name) {
		return d.decodeNotes(ctx, f, emit)
	}
	res := FileResult{Name: f.Name}
	p := &held{d: d, max: f.MaxHeld, start: d.read}
	head := &headReader{r: f.Content}
	var err error
	if f.Explicit {
		err = d.Decode(ctx, f.Name, head, func(o *cluster.Object) error {
			p.saw(o)
			return emit(o)
		})
	} else {
		err = d.decodeHeld(ctx, f.Name, head, p)
	}
	if err == nil {
		res.Outcome, res.Objects = FileRead, p.objects
		return res, p.release(ctx, f, emit)
	}
	var ie *Error
	if !errors.As(err, &ie) || errors.Is(err, ErrTooLarge) {
		return res, err
	}
	if ie.Truncated && ie.File == f.Name && !bytes.HasPrefix(head.b, gzipMagic) {
		// After the last object emitted, or the object at the cut where the decoder read it
		// as far as it goes (ReadTo): nothing is read twice.
		phrases, err := d.loosePhrases(ctx, f, max(p.lastLine, ie.ReadTo))
		if err != nil {
			return res, err
		}
		res.Outcome, res.Err, res.Objects, res.Salvaged = FileTruncated, ie, p.objects+len(phrases), len(phrases)
		if err := p.release(ctx, f, emit); err != nil {
			return res, err
		}
		for _, o := range phrases {
			if err := emit(o); err != nil {
				return res, err
			}
		}
		return res, nil
	}
	if f.Explicit && p.objects == 0 && rereadAsText(f.Name, ie, head.b) {
		return d.asText(ctx, f, ie, emit)
	}
	if f.Explicit && ie.Prose && ie.File == f.Name {
		// A person's document named on purpose is read, though nothing in it is kept: a
		// person could read it, and the run says what it held.
		res.Outcome, res.Err = FileRead, ie
		return res, nil
	}
	if f.Explicit {
		return res, err
	}
	res.Outcome, res.Err = FileSkipped, ie
	return res, nil
}

var gzipMagic = []byte{0x1f, 0x8b}

// asText reads an explicit file again as text, after its structured decode found no object
// in it (structured is that failure): what the text holds is kept, and a text with nothing is
// read with nothing kept, as any text is.
func (d *Decoder) asText(ctx context.Context, f File, structured *Error, emit func(*cluster.Object) error) (FileResult, error) {
	res := FileResult{Name: f.Name, Outcome: FileRead}
	if _, err := f.Content.Seek(0, io.SeekStart); err != nil {
		return res, fmt.Errorf("read %s again: %w", f.Name, err)
	}
	n := 0
	err := d.decodeText(ctx, f.Name, f.Content, func(o *cluster.Object) error {
		n++
		return emit(o)
	})
	res.Objects = n
	var ie *Error
	switch {
	case err == nil:
		return res, nil
	case errors.As(err, &ie) && ie.Prose && structured.NoKind:
		// No Kubernetes object, and no message either: the JSON's or YAML's own error says
		// where it is not what was asked for.
		return FileResult{Name: f.Name}, structured
	case errors.As(err, &ie) && ie.Prose:
		ie.Msg += " (read as text: " + structured.Msg + ")"
		res.Err = ie
		return res, nil
	}
	return res, err
}

// rereadAsText reports whether a file named on purpose, in which the structured decode found no
// object before its error ie, is read again as text. Text is never refused: a file that held
// no Kubernetes object as JSON or YAML (a JSON log, notes that YAML takes for a list) is read
// as text, for the messages in it. A file named .json or .yaml says what it is, and its error
// says where, unless what it holds is no Kubernetes object at all (a tool's export, a jq
// filter's conditions): that is read as text too. Binary data and archives never are.
func rereadAsText(name string, ie *Error, head []byte) bool {
	return ie.File == name && !ie.Prose && !ie.Binary && !ie.Truncated && (!structuredName(name) || ie.NoKind) &&
		(errors.Is(ie, ErrMalformed) || errors.Is(ie, ErrUnsupported)) && !bytes.HasPrefix(head, gzipMagic) && !tarHeader(head)
}

// structuredName reports a file named as JSON or YAML.
func structuredName(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	return jsonName(name) || ext == ".yaml" || ext == ".yml"
}

// tarHeader reports whether b starts like a tar archive (its "ustar" magic at offset 257).
func tarHeader(b []byte) bool {
	return len(b) >= 262 && string(b[257:262]) == "ustar"
}

// loosePhrases reads a truncated file again as text and returns the signal phrases found
// after line `after`, the last line read as objects: what the part that was cut still says. It is
// the one place that calls text.Parse for salvage.
func (d *Decoder) loosePhrases(ctx context.Context, f File, after int) ([]*cluster.Object, error) {
	if _, err := f.Content.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("read %s again: %w", f.Name, err)
	}
	var out []*cluster.Object
	_, err := text.Parse(ctx, f.Name, f.Content, d.opts.Now, func(o *cluster.Object) error {
		if o.Event != nil && o.Source.Loose && int(o.Source.Line) > after {
			if err := textFault(o); err != nil {
				return err
			}
			redactObject(o)
			out = append(out, o)
		}
		return nil
	})
	return out, err
}

// decodeHeld decodes a file that may yet be skipped: its objects, and what it tells
// Options.OnSkip and OnTruncated, are held in p until the outcome is known.
func (d *Decoder) decodeHeld(ctx context.Context, name string, r io.Reader, p *held) error {
	onSkip, onTruncated := d.opts.OnSkip, d.opts.OnTruncated
	defer func() { d.opts.OnSkip, d.opts.OnTruncated = onSkip, onTruncated }()
	if onSkip != nil {
		d.opts.OnSkip = func(s Skipped) { p.hold(heldItem{note: func() { onSkip(s) }}) }
	}
	if onTruncated != nil {
		d.opts.OnTruncated = func(file string) { p.hold(heldItem{note: func() { onTruncated(file) }}) }
	}
	return d.Decode(ctx, name, r, func(o *cluster.Object) error {
		p.saw(o)
		p.hold(heldItem{obj: o})
		return nil
	})
}

// held is what the decoding of one file found, and for a file that may yet be skipped, what
// is held back from emit, in input order.
type held struct {
	d        *Decoder
	max      int64 // File.MaxHeld
	start    int64 // the decoder's byte count before the file
	objects  int   // objects decoded
	lastLine int   // the line of the last object read whole
	items    []heldItem
	spilled  bool // the file outgrew max: nothing is held, it is decoded again to emit
}

// heldItem is an object, or a call of OnSkip or OnTruncated, held back.
type heldItem struct {
	obj  *cluster.Object
	note func()
}

func (p *held) saw(o *cluster.Object) {
	p.objects++
	p.lastLine = max(p.lastLine, int(o.Source.Line))
}

func (p *held) hold(it heldItem) {
	if p.spilled {
		return
	}
	if p.max > 0 && p.d.read-p.start > p.max {
		p.spilled, p.items = true, nil
		return
	}
	p.items = append(p.items, it)
}

// release emits what was held back for a file that is kept. A file that outgrew MaxHeld is
// decoded again from its start, straight to emit and to the callbacks; its bytes count once
// against the budget.
func (p *held) release(ctx context.Context, f File, emit func(*cluster.Object) error) error {
	if f.Explicit {
		return nil // streamed already
	}
	if !p.spilled {
		for _, it := range p.items {
			if it.note != nil {
				it.note()
				continue
			}
			if err := emit(it.obj); err != nil {
				return err
			}
		}
		p.items = nil
		return nil
	}
	if _, err := f.Content.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("read %s again: %w", f.Name, err)
	}
	p.d.read = p.start
	err := p.d.Decode(ctx, f.Name, f.Content, emit)
	var ie *Error
	if err != nil && (!errors.As(err, &ie) || errors.Is(err, ErrTooLarge)) {
		return err
	}
	return nil // the same bytes end as they did the first time: whole, or cut where they were
}

// headKept is how much of a file's start headReader keeps: enough for the magic of gzip and of
// tar (at offset 257).
const headKept = 262

// headReader keeps the first bytes read through it, to tell what kind of file it was.
type headReader struct {
	r io.Reader
	b []byte
}

func (h *headReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if need := headKept - len(h.b); need > 0 && n > 0 {
		h.b = append(h.b, p[:min(n, need)]...)
	}
	return n, err
}
