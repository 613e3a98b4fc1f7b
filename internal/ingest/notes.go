package ingest

import (
	"context"
	"errors"
	"io"
	"path"
	"strings"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// A folder's README or notes are what people wrote about the evidence beside them, not output
// of the cluster (issue 27): the kubectl words they quote in inline code (`OOMKilled`, a
// scheduler message, a PromQL selector on reason="OOMKilled") and the examples in their
// fences are not things that happened. Among other files such a document is read as a paste's
// prose is: for the claims of its sentences, never for observed evidence. Named on purpose
// (the only file, or named on the command line), it is read as any text is.

// notesName reports whether a file's name says it is a document people wrote: Markdown,
// reStructuredText, AsciiDoc or Org, or a README or NOTES of plain text. Text files of other
// names (describe.txt, paste.log) are what people saved of kubectl's output, and stay evidence.
func notesName(name string) bool {
	base := strings.ToLower(path.Base(strings.ReplaceAll(name, "\\", "/")))
	ext := path.Ext(base)
	switch ext {
	case ".md", ".markdown", ".mdown", ".mkd", ".rst", ".adoc", ".asciidoc", ".org":
		return true
	case "", ".txt", ".text":
		stem := strings.TrimSuffix(base, ext)
		return stem == "readme" || stem == "notes" || stem == "note"
	}
	return false
}

// notesMsg is why a document of notes among other files kept nothing.
const notesMsg = "notes people wrote, read for their claims only, and they make none (the kubectl words they quote are not evidence)"

// decodeNotes reads a document of notes among other files (notesName) for its claims alone:
// every other object it yields (a phrase in inline code, a row of an example) is dropped, as
// are the skips and cuts reported about them. One with no claim, or that cannot be read, is
// skipped; too large, a cancelled ctx and emit's error fail as for any file.
func (d *Decoder) decodeNotes(ctx context.Context, f File, emit func(*cluster.Object) error) (FileResult, error) {
	res := FileResult{Name: f.Name}
	onSkip, onTruncated := d.opts.OnSkip, d.opts.OnTruncated
	d.opts.OnSkip, d.opts.OnTruncated = nil, nil
	var claims []*cluster.Object // few: a text holds at most maxPhrases of them
	err := d.Decode(ctx, f.Name, f.Content, func(o *cluster.Object) error {
		if isClaim(o) {
			claims = append(claims, o)
		}
		return nil
	})
	d.opts.OnSkip, d.opts.OnTruncated = onSkip, onTruncated
	var ie *Error
	switch {
	case err != nil && (!errors.As(err, &ie) || errors.Is(err, ErrTooLarge)):
		return res, err
	case err != nil:
		res.Outcome, res.Err = FileSkipped, ie
		return res, nil
	case len(claims) == 0:
		res.Outcome, res.Err = FileSkipped, &Error{File: f.Name, Msg: notesMsg, Err: ErrUnsupported, Prose: true, Document: true}
		return res, nil
	}
	for _, o := range claims {
		if err := emit(o); err != nil {
			return res, err
		}
	}
	res.Outcome, res.Objects = FileRead, len(claims)
	return res, nil
}

// notesEntry reads a README or notes inside an archive, which is a folder: for its claims
// alone, as decodeNotes reads one among other files. One with no claim, or that cannot be
// read, is passed over, told to OnSkip as a file skipped, and the archive read on; before,
// a README in an archive with nothing Rootline reads failed the whole archive.
func (d *Decoder) notesEntry(ctx context.Context, name string, r io.Reader, emit func(*cluster.Object) error, depth int, compressed bool) error {
	onSkip, onTruncated := d.opts.OnSkip, d.opts.OnTruncated
	d.opts.OnSkip, d.opts.OnTruncated = nil, nil
	var claims []*cluster.Object
	err := d.decodeIn(ctx, name, r, func(o *cluster.Object) error {
		if isClaim(o) {
			claims = append(claims, o)
		}
		return nil
	}, depth, compressed)
	d.opts.OnSkip, d.opts.OnTruncated = onSkip, onTruncated
	var ie *Error
	switch {
	case err != nil && (!errors.As(err, &ie) || errors.Is(err, ErrTooLarge)):
		return err
	case err != nil || len(claims) == 0:
		reason := notesMsg
		if err != nil {
			reason = ie.Msg
			// The rest of the entry counts against the budget as the rest of the archive does.
			if _, err := io.Copy(io.Discard, &budgetReader{ctx: ctx, r: r, d: d}); err != nil {
				return d.readError(name, err)
			}
		}
		d.skip(Skipped{File: name, Kind: FileKind, Reason: reason})
		return nil
	}
	for _, o := range claims {
		if err := emit(o); err != nil {
			return err
		}
	}
	return nil
}

func isClaim(o *cluster.Object) bool {
	return o.Kind == cluster.KindClaim && o.APIVersion == cluster.ClaimAPIVersion
}
