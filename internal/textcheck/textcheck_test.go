package textcheck

import (
	"strings"
	"testing"
)

func TestControlAt(t *testing.T) {
	for _, tc := range []struct {
		s         string
		multiline bool
		want      int
	}{
		{"plain name", false, -1},
		{"a\x00b", false, 1},
		{"tab\there", false, 3},
		{"tab\there\nline\r\n", true, -1},
		{"del\x7f", true, 3},
		{"é ok", false, -1},
		{"bad \xff utf8", true, 4},
		{"", false, -1},
	} {
		if got := ControlAt(tc.s, tc.multiline); got != tc.want {
			t.Errorf("ControlAt(%q, %v) = %d, want %d", tc.s, tc.multiline, got, tc.want)
		}
	}
}

func TestQuote(t *testing.T) {
	if got := Quote("short"); got != `"short"` {
		t.Errorf("Quote(short) = %s", got)
	}
	long := strings.Repeat("é", 100) // 200 bytes: the cut must not split a character
	got := Quote(long)
	if !strings.HasSuffix(got, "… (200 bytes)") || !strings.HasPrefix(got, `"`+strings.Repeat("é", 32)+`"`) {
		t.Errorf("Quote(long) = %s", got)
	}
}

// TestClean: control characters and invalid UTF-8 become U+FFFD, line ends and tabs stay where
// the value may span lines, and a clean value is returned as it is.
func TestClean(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in        string
		multiline bool
		want      string
	}{
		{"http://prom:9090/graph?g0.expr=up", false, "http://prom:9090/graph?g0.expr=up"},
		{"http://prom\x00:9090/", false, "http://prom\uFFFD:9090/"},
		{"a\tb\nc\x7f", true, "a\tb\nc\uFFFD"},
		{"a\tb\nc", false, "a\uFFFDb\uFFFDc"},
		{"caf\xe9 ok", false, "caf\uFFFD ok"},
		{"naïve", false, "naïve"},
	} {
		if got := Clean(tt.in, tt.multiline); got != tt.want {
			t.Errorf("Clean(%q, %v) = %q, want %q", tt.in, tt.multiline, got, tt.want)
		}
		if got := Clean(tt.in, tt.multiline); ControlAt(got, tt.multiline) >= 0 {
			t.Errorf("Clean(%q) = %q still holds a control character", tt.in, got)
		}
	}
}
