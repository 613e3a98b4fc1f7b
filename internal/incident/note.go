package incident

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/textcheck"
)

// Note kinds.
const (
	Observation = "observation"
	Hypothesis  = "hypothesis"
	Action      = "action"
	Decision    = "decision"
)

// NoteKinds lists the kinds of notes, in the order people pick them.
var NoteKinds = []string{Observation, Hypothesis, Action, Decision}

// maxNoteBody bounds a note's Markdown.
const maxNoteBody = 64 << 10

// Note is what someone wrote about an incident, at a time of the incident (not necessarily when
// it was written down).
type Note struct {
	ID         int64
	IncidentID string
	At         time.Time
	Author     string
	Kind       string
	Body       string   // Markdown
	Causes     []string // for a hypothesis: the cause kinds it proposes
	CreatedAt  time.Time
}

// ValidateNote checks a note against the cause vocabulary (known cause kinds) and normalises
// it: kind defaults to observation, time to now, and cause kinds are trimmed and deduplicated.
func (n *Note) Validate(now time.Time, causeKinds []string) error {
	// Browsers send a textarea's lines with CRLF: one line ending, so that a note reads and
	// exports the same whatever wrote it.
	n.Body = strings.TrimSpace(strings.ReplaceAll(n.Body, "\r\n", "\n"))
	if n.Body == "" {
		return fmt.Errorf("%w: body is required", ErrInvalid)
	}
	if err := CheckMultiline("body", n.Body, maxNoteBody); err != nil {
		return err
	}
	if n.Kind == "" {
		n.Kind = Observation
	}
	if !slices.Contains(NoteKinds, n.Kind) {
		return fmt.Errorf("%w: kind %s: use one of %s", ErrInvalid, textcheck.Quote(n.Kind), strings.Join(NoteKinds, ", "))
	}
	n.Author = strings.TrimSpace(n.Author)
	if err := CheckLine("author", n.Author, MaxAuthor); err != nil {
		return err
	}
	if n.At.IsZero() {
		n.At = now
	}
	n.At = n.At.UTC()
	var causes []string
	for _, c := range n.Causes {
		c = strings.TrimSpace(c)
		if !slices.Contains(causeKinds, c) {
			return fmt.Errorf("%w: cause %s is not a cause kind (%s)", ErrInvalid, textcheck.Quote(c), strings.Join(causeKinds, ", "))
		}
		if !slices.Contains(causes, c) {
			causes = append(causes, c)
		}
	}
	if len(causes) > 0 && n.Kind != Hypothesis {
		return fmt.Errorf("%w: only a hypothesis names causes", ErrInvalid)
	}
	n.Causes = causes
	return nil
}
