package markdown

import (
	"strings"
	"testing"
)

func TestHTML(t *testing.T) {
	r := New()
	tests := []struct {
		src     string
		want    []string
		notWant []string
	}{
		{"**bold** and `code`", []string{"<strong>bold</strong>", "<code>code</code>"}, nil},
		{"<script>alert(1)</script>", nil, []string{"<script", "alert(1)</script>"}},
		{"[x](javascript:alert(1))", nil, []string{"javascript:"}},
		{`<a href="javascript:alert(1)" onclick="x()">y</a>`, nil, []string{"javascript:", "onclick"}},
		{"<img src=x onerror=alert(1)>", nil, []string{"onerror"}},
		{"see https://example.com/grafana", []string{`href="https://example.com/grafana"`, `rel="nofollow`}, nil},
		{"| a | b |\n|---|---|\n| 1 | 2 |", []string{"<table>", "<td>1</td>"}, nil},
	}
	for _, tt := range tests {
		got, err := r.HTML(tt.src)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("HTML(%q) = %q, lacks %q", tt.src, got, w)
			}
		}
		for _, w := range tt.notWant {
			if strings.Contains(got, w) {
				t.Errorf("HTML(%q) = %q, contains %q", tt.src, got, w)
			}
		}
	}
}
