package incident

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	yaml "sigs.k8s.io/yaml/goyaml.v2"
)

// Component is a part of the platform an incident involved.
type Component struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
}

// Report is an incident as the library keeps it: front matter (the report format of the
// README) and free Markdown text. An export writes everything an incident is, so that an
// import gives the same incident back: its fields, its time window and cluster, its report's
// signature (and a person's, under edited), its text and its notes.
type Report struct {
	ID         string      `json:"id"`
	Title      string      `json:"title"`
	Org        string      `json:"org,omitempty"`
	Date       string      `json:"date,omitempty"` // YYYY-MM-DD
	StartedAt  *time.Time  `json:"started_at,omitempty"`
	EndedAt    *time.Time  `json:"ended_at,omitempty"`
	Cluster    string      `json:"cluster,omitempty"`
	Tags       []string    `json:"tags,omitempty"`
	Symptoms   []string    `json:"symptoms,omitempty"`
	RootCause  string      `json:"root_cause,omitempty"`
	Causes     []string    `json:"causes,omitempty"`
	Components []Component `json:"components,omitempty"`
	// Edited is the signature people set in Rootline, which wins over the report's; an export
	// writes it so that an import restores it as theirs.
	Edited *Signature `json:"edited,omitempty"`
	// Notes are the incident's notes. An import adds those the incident does not have yet
	// (the same time, author, kind and text), and never removes one.
	Notes []ReportNote `json:"notes,omitempty"`
	// Extra keeps front-matter fields Rootline does not know, so that they survive a round trip.
	Extra map[string]json.RawMessage `json:"-"`
	Body  string                     `json:"-"`
}

// ReportNote is a note as a report carries it.
type ReportNote struct {
	At     time.Time `json:"at"`
	Author string    `json:"author,omitempty"`
	Kind   string    `json:"kind"`
	Causes []string  `json:"causes,omitempty"`
	Body   string    `json:"body"`
}

// NoteOf is a report's note as a note of incident id.
func (n ReportNote) NoteOf(id string) Note {
	return Note{IncidentID: id, At: n.At, Author: n.Author, Kind: n.Kind, Causes: n.Causes, Body: n.Body}
}

// ReportNoteOf is a note as a report carries it.
func ReportNoteOf(n Note) ReportNote {
	return ReportNote{At: n.At.UTC(), Author: n.Author, Kind: n.Kind, Causes: n.Causes, Body: n.Body}
}

// Key identifies a note for an import: two notes of one incident with the same key are one.
func (n ReportNote) Key() string {
	// Microseconds: what PostgreSQL keeps of a time.
	return strings.Join([]string{n.At.UTC().Truncate(time.Microsecond).Format(time.RFC3339Nano), n.Author, n.Kind, n.Body}, "\x00")
}

// frontOrder is the order of the known fields in a written report: who and when first, the
// signature, then the unknown fields (by name), then the notes, which are the longest.
var frontOrder = []string{"id", "title", "org", "date", "started_at", "ended_at", "cluster", "tags",
	"symptoms", "root_cause", "causes", "components", "edited"}

// WriteMarkdown writes the report: YAML front matter between --- lines (the known fields in a
// fixed order, then the kept unknown ones by name, then the notes), then the body. The same
// report always gives the same bytes.
func (r Report) WriteMarkdown(w io.Writer) error {
	js, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("incident: report front matter: %w", err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(js, &fields); err != nil {
		return fmt.Errorf("incident: report front matter: %w", err)
	}
	var extra []string
	for k, v := range r.Extra {
		if _, known := fields[k]; !known && !reportFields[k] {
			fields[k] = v
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	order := append(append(append([]string{}, frontOrder...), extra...), "notes")
	var front yaml.MapSlice
	for _, k := range order {
		raw, ok := fields[k]
		if !ok {
			continue
		}
		// JSON is YAML: reading it as YAML keeps numbers, booleans and strings what they are.
		var v any
		if err := yaml.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("incident: report front matter: %s: %w", k, err)
		}
		front = append(front, yaml.MapItem{Key: k, Value: v})
	}
	fm, err := yaml.Marshal(front)
	if err != nil {
		return fmt.Errorf("incident: report front matter: %w", err)
	}
	_, err = fmt.Fprintf(w, "---\n%s---\n%s\n", fm, strings.TrimSpace(r.Body))
	return err
}

// ExtraString is an unknown front-matter field that holds a string ("source"), and whether
// the report has it.
func (r Report) ExtraString(field string) (string, bool) {
	raw, ok := r.Extra[field]
	if !ok {
		return "", false
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}
