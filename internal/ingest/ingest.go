// Package ingest turns the kubectl output people have after an incident into cluster.Objects.
//
// Every door into Rootline (a file given to analyze, an upload, a snapshot, a collector batch)
// goes through Decoder.Decode, which detects the format (gzip, tar, JSON, JSON Lines, YAML, and
// multi-document YAML), streams lists object by object so that memory stays bounded by the
// largest object rather than the file, refuses Secrets, and redacts environment-variable values
// and secret-looking annotations before any object leaves the package.
package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// Sentinel errors that callers map to their own answers (the server to 413, 415 and 422).
var (
	// ErrTooLarge means the decompressed input exceeded Options.MaxBytes.
	ErrTooLarge = errors.New("input too large")
	// ErrUnsupported means the input is not in a format Rootline reads.
	ErrUnsupported = errors.New("unsupported format")
	// ErrMalformed means the input is in a known format but does not parse.
	ErrMalformed = errors.New("malformed input")
)

// Error is a decoding failure with its position in the (decompressed) file.
type Error struct {
	File   string
	Line   int   // 1-based; 0 when unknown
	Offset int64 // byte offset in the decompressed file
	Msg    string
	Err    error // one of the sentinels above
	// Truncated is set when the input ended in the middle of an object: what came before it
	// was read (and emitted) in full.
	Truncated bool
	// ReadTo is set, with Truncated, when the object at the cut was read as far as it goes
	// (and emitted): the line up to which the input was read, so that nothing of it is read
	// twice.
	ReadTo int
	// Prose is set, with ErrUnsupported, for text in which Rootline found nothing it reads: a
	// document people wrote that holds neither kubectl output nor a claim (a README beside the
	// evidence, notes), or text with no message of a Kubernetes component in it. Text is never
	// refused for what it is: named on purpose, it is read with nothing kept (a gap says so).
	Prose bool
	// Document is set, with Prose, when the text is a document people wrote (paragraphs,
	// headings, lists), not output.
	Document bool
	// Binary is set for data that is not text at all: it is never read as text instead.
	Binary bool
	// NoKind is set, with ErrMalformed, for JSON or YAML whose first object has no kind: not a
	// Kubernetes object but a tool's record (a dashboard's export, a jq filter's
	// `.status.conditions`), whose text still holds the components' messages.
	NoKind bool
}

func (e *Error) Error() string {
	pos := e.File
	if e.Line > 0 {
		pos = fmt.Sprintf("%s:%d", e.File, e.Line)
	} else if e.Offset > 0 {
		pos = fmt.Sprintf("%s (byte %d)", e.File, e.Offset)
	}
	return pos + ": " + e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

// DefaultMaxBytes is the default limit on the decompressed bytes of one input: 256 MiB.
const DefaultMaxBytes = 256 << 20

// Options tunes a Decoder.
type Options struct {
	// MaxBytes limits the decompressed bytes read over all Decode calls of one Decoder.
	// Zero means DefaultMaxBytes.
	MaxBytes int64
	// OnSkip, if set, is told about every object that is deliberately not emitted.
	OnSkip func(Skipped)
	// OnTruncated, if set, is told about every file that ended in the middle of an object.
	OnTruncated func(file string)
	// Now is the reference time for the relative ages of pasted text ("4m58s"); zero leaves
	// them unset.
	Now time.Time
	// ValueKey, when set, keys the hashes that stand for a ConfigMap's values
	// (change.KeyValues): the server's installation key, so that what it stores cannot be
	// matched against guessed values. Empty: unkeyed hashes (change.HashValues).
	ValueKey []byte
	// Unstored says that the objects are only analysed, never stored (rootline analyze): pods
	// and core/v1 events are then decoded straight into what Rootline keeps of them
	// (cluster.Pod, cluster.Event) and keep no JSON of their whole (cluster.Object.Raw).
	Unstored bool
}

// Skipped is an object that was read but not kept, and why.
type Skipped struct {
	File      string `json:"file"`
	Line      int    `json:"line,omitempty"`
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name,omitempty"`
	Reason    string `json:"reason"`
	// Truncated marks a file (Kind FileKind) that ended in the middle of an object: kept as far
	// as it goes, not skipped.
	Truncated bool `json:"truncated,omitempty"`
}

// Decoder decodes inputs. One Decoder serves one upload or one analyze run: its byte budget
// spans every file given to it. It is not safe for concurrent use.
type Decoder struct {
	opts Options
	read int64 // decompressed bytes consumed so far, against opts.MaxBytes
	// rawItems sends every list item through object, not decoded straight into a guessed
	// type (checkTyped); tests compare the two.
	rawItems bool
	// stdJSON decodes typed objects with encoding/json alone, as before decodeTyped used sonic;
	// the differential tests compare the two.
	stdJSON bool
	// slowTyped counts the typed decodes left to encoding/json once sonic was ready (a fault,
	// a key that folds to ASCII): the tests hold the fast path to being the one taken.
	slowTyped atomic.Int64
	// jsonRef, when set, decodes JSON in place of the stream of json.go: the differential
	// tests set it to the stream as it was before, over encoding/json.
	jsonRef func(ctx context.Context, name string, r io.Reader, emit func(*cluster.Object) error, depth, skipLines int, skipBytes int64) error
	strs    *interner // shares what repeats between the objects; made on first use
	// handed counts the bytes handed to encoding/json over all inputs: runs of whitespace
	// are cut short before it (see maxBlankRun), which tests check here.
	handed int64
}

// NewDecoder returns a Decoder with the given options.
func NewDecoder(opts Options) *Decoder {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	return &Decoder{opts: opts}
}

// Decode reads one input named name (a file name, used for format hints and in errors) and calls
// emit for every object, in input order. It stops at the first error: a *Error wrapping one of
// the sentinels for bad input, ctx.Err() when cancelled, or emit's own error unchanged.
func (d *Decoder) Decode(ctx context.Context, name string, r io.Reader, emit func(*cluster.Object) error) error {
	return d.decode(ctx, name, r, emit, 0)
}

// maxNesting bounds archives inside archives and lists inside lists.
const maxNesting = 4

func (d *Decoder) skip(s Skipped) {
	if d.opts.OnSkip != nil {
		d.opts.OnSkip(s)
	}
}
