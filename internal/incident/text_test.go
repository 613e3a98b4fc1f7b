package incident

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckText(t *testing.T) {
	tests := []struct {
		name      string
		s         string
		multiline bool
		err       string // "" when the text is fine
	}{
		{"plain", "Hub restart — ünïcode", false, ""},
		{"NUL", "a\x00b", false, "title holds the control character U+0000 at byte 1"},
		{"escape", "a\x1b[31m", false, "U+001B"},
		{"DEL", "a\x7f", false, "U+007F"},
		{"tab in a line", "a\tb", false, "U+0009"},
		{"newline in a line", "a\nb", false, "U+000A"},
		{"invalid UTF-8", "a\xffb", false, "title holds invalid UTF-8 at byte 1"},
		{"too long", strings.Repeat("x", 301), false, "title is longer than 300 bytes"},
		{"tabs and line ends", "a\tb\r\nc\rd\n", true, ""},
		{"NUL in lines", "a\nb\x00", true, "U+0000 at byte 3"},
		{"bell in lines", "\a", true, "U+0007"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check := CheckLine
			if tt.multiline {
				check = CheckMultiline
			}
			err := check("title", tt.s, MaxTitle)
			if tt.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("err = %v, want ErrInvalid saying %q", err, tt.err)
			}
		})
	}
}

// TestParseReportText: a report's control characters are refused with their line, raw or
// escaped in a front-matter string; a refused value of kilobytes is not echoed whole.
func TestParseReportText(t *testing.T) {
	big := strings.Repeat("o", 4096)
	tests := []struct {
		name, data string
		line       int
		says       string
	}{
		{"NUL in the text", "---\nid: r\ntitle: t\n---\nfine\nnot\x00 fine\n", 6, "U+0000 at column 4"},
		{"NUL in the front matter", "---\nid: r\ntitle: t\x00\n---\n", 3, "U+0000"},
		{"invalid UTF-8", "# Title\n\n\xff\n", 3, "invalid UTF-8"},
		{"escaped NUL in the title", "---\nid: r\ntitle: \"a\\0\"\n---\n", 3, "title holds the control character U+0000"},
		{"escaped NUL in the org", "---\nid: r\ntitle: t\norg: \"a\\0\"\n---\n", 4, "org holds"},
		{"org of 4 KB", "---\nid: r\ntitle: t\norg: " + big + "\n---\n", 4, "org is longer than 253 bytes"},
		{"component name of 4 KB", "---\nid: r\ntitle: t\ncomponents: [{kind: NodePool, name: " + big + "}]\n---\n", 4, "component name is longer than 253 bytes"},
		{"escaped escape in a note", "---\nid: r\ntitle: t\ndate: 2023-02-01\nnotes: [{kind: observation, body: \"\\e[31m\"}]\n---\n", 5, "note 1: invalid incident: body holds the control character U+001B"},
		{"id of 4 KB", "---\nid: " + big + "\ntitle: t\n---\n", 2, "(4096 bytes)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseReport("r.md", []byte(tt.data), nil, nil)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a ParseError", err)
			}
			if pe.Line != tt.line || !strings.Contains(pe.Msg, tt.says) {
				t.Errorf("%v, want line %d saying %q", pe, tt.line, tt.says)
			}
			if len(pe.Msg) > 512 {
				t.Errorf("a message of %d bytes", len(pe.Msg))
			}
		})
	}
}
