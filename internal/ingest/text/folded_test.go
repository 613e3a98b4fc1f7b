package text

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFolded checks that a quoted YAML string folded onto the lines below its key is read as
// one line, and that lines that do not close the string are read as they were.
func TestFolded(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"single quotes over three lines", "  message: 'a b:\n    c didn''t d\n    e.'\n  reason: X\n",
			[]string{"  message: 'a b: c didn't d e.'", "  reason: X"}},
		{"double quotes, an escaped line break", "  message: \"abc\\\n    def\"\nnext\n",
			[]string{`  message: "abcdef"`, "next"}},
		{"closed on its line", "  message: 'a b.'\n    more\n", []string{"  message: 'a b.'", "    more"}},
		{"never closed: the lines as they were", "  message: 'a b\n    c\nreason: X\n    d\n",
			[]string{"  message: 'a b", "    c", "reason: X", "    d"}},
		{"cut by the end of the input", "  message: 'a b\n    c\n", []string{"  message: 'a b", "    c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lr := newLineReader(strings.NewReader(tt.in))
			var got []string
			for {
				ln, ok, err := lr.next()
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					break
				}
				got = append(got, ln.text)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
		})
	}
}
