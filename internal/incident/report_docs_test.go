package incident

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestDocsReportFormat keeps "The incident report format" of docs/report-format.md and the
// parser together: the table of "### Front matter" lists every field a report's front matter
// may hold (reportFields) and no other, the table of "### Notes" every field of a note
// (ReportNote's JSON) and no other, and each kind of note is named.
func TestDocsReportFormat(t *testing.T) {
	data, err := os.ReadFile("../../docs/report-format.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	part, ok := docPart(doc, "The incident report format")
	if !ok {
		t.Fatal(`docs/report-format.md has no part "## The incident report format"`)
	}
	var front []string
	for f := range reportFields {
		front = append(front, f)
	}
	var notes []string
	rt := reflect.TypeFor[ReportNote]()
	for i := range rt.NumField() {
		if name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			notes = append(notes, name)
		}
	}
	for heading, want := range map[string][]string{"Front matter": front, "Notes": notes} {
		rows, ok := tableNames(part, heading)
		if !ok {
			t.Errorf("docs/report-format.md has no section %q under \"The incident report format\"", heading)
			continue
		}
		for _, f := range want {
			if !slices.Contains(rows, f) {
				t.Errorf("docs/report-format.md: %s: field %q is not in its table", heading, f)
			}
		}
		for _, r := range rows {
			if !slices.Contains(want, r) {
				t.Errorf("docs/report-format.md: %s: the table lists %q, which a report does not have", heading, r)
			}
		}
	}
	for _, k := range NoteKinds {
		if !strings.Contains(part, "`"+k+"`") {
			t.Errorf("docs/report-format.md: the note kind %q is not named", k)
		}
	}
}

// docPart is the text of doc under the heading "## name", to the next heading of its level.
func docPart(doc, name string) (string, bool) {
	_, rest, ok := strings.Cut(doc, "\n## "+name+"\n")
	if !ok {
		return "", false
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	return rest, true
}

var backquoted = regexp.MustCompile("`([^`]+)`")

// tableNames are the names in backquotes in the first cell of the table rows of the section
// "### heading" of part.
func tableNames(part, heading string) ([]string, bool) {
	_, rest, ok := strings.Cut(part, "\n### "+heading+"\n")
	if !ok {
		return nil, false
	}
	if i := strings.Index(rest, "\n#"); i >= 0 {
		rest = rest[:i]
	}
	var out []string
	for _, line := range strings.Split(rest, "\n") {
		if !strings.HasPrefix(line, "| ") {
			continue
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " |")
		for _, m := range backquoted.FindAllStringSubmatch(first, -1) {
			out = append(out, m[1])
		}
	}
	return out, true
}
