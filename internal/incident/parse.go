package incident

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/rootline-dev/rootline/internal/textcheck"
)

// known front-matter fields; any other field is kept in Report.Extra and written back.
var reportFields = map[string]bool{"id": true, "title": true, "org": true, "date": true, "started_at": true, "ended_at": true,
	"cluster": true, "tags": true, "symptoms": true, "root_cause": true, "causes": true, "components": true, "edited": true, "notes": true}

// ParseError is a report that cannot be read, with the file and line at fault.
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

var (
	yamlLine = regexp.MustCompile(`^(?:error converting YAML to JSON: )?yaml: (?:unmarshal errors:\s+)?line (\d+): `)
	dateRe   = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
)

// ParseReport reads an incident report in the library's Markdown format (README): YAML front
// matter between --- lines, then free text. A report without front matter is taken whole as
// its text, with the id from the file name and the title from its first heading. Unknown
// front-matter fields are kept. The kinds are checked against the vocabulary given (symptom
// and cause kinds); an error names the file and the line.
func ParseReport(name string, data []byte, symptomKinds, causeKinds []string) (Report, error) {
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	if strings.TrimSpace(text) == "" {
		return Report{}, &ParseError{File: name, Line: 1, Msg: "empty report"}
	}
	if i := textcheck.ControlAt(text, true); i >= 0 {
		// PostgreSQL keeps no NUL in text, and no control character belongs in a report:
		// refused here, with its line, whether it is in the front matter or the text.
		line := 1 + strings.Count(text[:i], "\n")
		col := 1 + i - (strings.LastIndexByte(text[:i], '\n') + 1)
		return Report{}, &ParseError{File: name, Line: line, Msg: fmt.Sprintf("%s at column %d: a report holds text, tabs and line ends only", badChar(text, i), col)}
	}
	front, body, hasFront := splitFrontMatter(text)
	var r Report
	if !hasFront {
		r.ID = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
		r.Body = strings.TrimSpace(text)
		r.Title = firstHeading(r.Body, r.ID)
		if err := (&Incident{ID: r.ID, Title: r.Title}).Validate(); err != nil {
			return r, &ParseError{File: name, Line: 1, Msg: "a report without front matter needs a file name usable as an id: " + err.Error()}
		}
		return r, nil
	}
	js, err := yaml.YAMLToJSONStrict([]byte(front)) // a key given twice is refused, not the last taken
	if err != nil {
		line, msg := 2, err.Error()
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			n, _ := strconv.Atoi(m[1])
			line, msg = n+1, msg[len(m[0]):]
		}
		return r, &ParseError{File: name, Line: line, Msg: "front matter: " + msg}
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(js, &fields); err != nil {
		return r, &ParseError{File: name, Line: 2, Msg: "front matter is not a mapping of fields"}
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	if err := dec.Decode(&r); err != nil {
		return r, &ParseError{File: name, Line: lineOf(front, fieldOf(err)), Msg: "front matter: " + err.Error()}
	}
	for k, v := range fields {
		if !reportFields[k] {
			if r.Extra == nil {
				r.Extra = map[string]json.RawMessage{}
			}
			r.Extra[k] = v
		}
	}
	r.Body = strings.TrimSpace(body)
	if err := r.check(front, symptomKinds, causeKinds); err != nil {
		err.File = name
		return r, err
	}
	return r, nil
}

// check validates the fields against each other and the vocabulary.
func (r *Report) check(front string, symptomKinds, causeKinds []string) *ParseError {
	bad := func(field, msg string) *ParseError { return &ParseError{Line: lineOf(front, field), Msg: msg} }
	in := Incident{ID: r.ID, Title: r.Title, Tags: r.Tags}
	if err := in.Validate(); err != nil {
		field := "id"
		for _, f := range []string{"title", "tag"} {
			if strings.Contains(err.Error(), f) {
				field = f
				if f == "tag" {
					field = "tags"
				}
			}
		}
		return bad(field, err.Error())
	}
	r.Title = in.Title
	if len(in.Tags) > 0 {
		r.Tags = in.Tags
	}
	if err := CheckLine("org", r.Org, MaxName); err != nil {
		return bad("org", err.Error())
	}
	if r.Date != "" && !dateRe.MatchString(r.Date) {
		return bad("date", fmt.Sprintf("date %s: use YYYY-MM-DD", textcheck.Quote(r.Date)))
	}
	r.StartedAt, r.EndedAt = utc(r.StartedAt), utc(r.EndedAt)
	if r.StartedAt != nil && r.EndedAt != nil && r.EndedAt.Before(*r.StartedAt) {
		return bad("ended_at", "ended_at is before started_at")
	}
	if r.Cluster != "" {
		if err := ValidateClusterName(r.Cluster); err != nil {
			return bad("cluster", err.Error())
		}
	}
	if err := r.checkNotes(causeKinds); err != nil {
		return bad("notes", err.Error())
	}
	for _, s := range r.Symptoms {
		if !contains(symptomKinds, s) {
			return bad("symptoms", fmt.Sprintf("symptom %s is not a symptom kind", textcheck.Quote(s)))
		}
	}
	for _, c := range r.Causes {
		if !contains(causeKinds, c) {
			return bad("causes", fmt.Sprintf("cause %s is not a cause kind", textcheck.Quote(c)))
		}
	}
	if r.RootCause != "" && !contains(causeKinds, r.RootCause) {
		return bad("root_cause", fmt.Sprintf("root_cause %s is not a cause kind", textcheck.Quote(r.RootCause)))
	}
	if r.RootCause == "" && len(r.Causes) > 0 {
		r.RootCause = r.Causes[0] // the report format: without root_cause, the first cause is the root
	}
	if r.RootCause != "" && !contains(r.Causes, r.RootCause) {
		r.Causes = append([]string{r.RootCause}, r.Causes...)
	}
	for _, c := range r.Components {
		if p := componentProblem(c); p != "" {
			return bad("components", p)
		}
	}
	r.Components = WorkloadNames(r.Components)
	if r.Edited != nil {
		if err := r.Edited.Check(symptomKinds, causeKinds); err != nil {
			return bad("edited", "edited: "+err.Error())
		}
	}
	return nil
}

// checkNotes validates a report's notes as notes people write are validated. A note without a
// time is dated by the report: when it started, else its date; a report with neither must
// give each note its time, so that importing it again finds the same notes.
func (r *Report) checkNotes(causeKinds []string) error {
	var at time.Time
	switch {
	case r.StartedAt != nil:
		at = *r.StartedAt
	case r.Date != "":
		at, _ = time.Parse(time.DateOnly, r.Date)
	}
	for i := range r.Notes {
		n := r.Notes[i].NoteOf(r.ID)
		if n.At.IsZero() {
			if at.IsZero() {
				return fmt.Errorf("note %d: at is required (RFC 3339) when the report has no date", i+1)
			}
			n.At = at
		}
		if err := n.Validate(at, causeKinds); err != nil {
			return fmt.Errorf("note %d: %w", i+1, err)
		}
		r.Notes[i] = ReportNoteOf(n)
	}
	return nil
}

func utc(t *time.Time) *time.Time {
	if t == nil || t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

// splitFrontMatter cuts "---\n<yaml>\n---\n<body>"; the closing line may also be "...".
func splitFrontMatter(text string) (front, body string, ok bool) {
	if !strings.HasPrefix(text, "---\n") {
		return "", text, false
	}
	rest := text[len("---\n"):]
	for _, end := range []string{"\n---\n", "\n...\n"} {
		if i := strings.Index(rest, end); i >= 0 {
			return rest[:i+1], rest[i+len(end):], true
		}
	}
	for _, end := range []string{"\n---", "\n..."} {
		if strings.HasSuffix(rest, end) {
			return rest[:len(rest)-len(end)+1], "", true
		}
	}
	return "", text, false
}

// lineOf is the file line of a front-matter field (the front matter starts on line 2).
func lineOf(front, field string) int {
	for i, l := range strings.Split(front, "\n") {
		if field != "" && strings.HasPrefix(l, field+":") {
			return i + 2
		}
	}
	return 2
}

// fieldOf names the field of a JSON type error, when it says.
func fieldOf(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		f, _, _ := strings.Cut(te.Field, ".")
		return f
	}
	return ""
}

func firstHeading(body, fallback string) string {
	for _, l := range strings.Split(body, "\n") {
		if h, ok := strings.CutPrefix(l, "# "); ok && strings.TrimSpace(h) != "" {
			return strings.TrimSpace(h)
		}
	}
	return fallback
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
