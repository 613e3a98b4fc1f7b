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
