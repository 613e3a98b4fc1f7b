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

// depth is the deepest nesting of lists and block quotes in html.
func depth(html string) int {
	d, deepest := 0, 0
	for i := 0; i < len(html); i++ {
		if html[i] != '<' {
			continue
		}
		rest := html[i+1:]
		switch {
		case strings.HasPrefix(rest, "ul>"), strings.HasPrefix(rest, "ol>"), strings.HasPrefix(rest, "ol "), strings.HasPrefix(rest, "blockquote>"):
			d++
			deepest = max(deepest, d)
		case strings.HasPrefix(rest, "/ul>"), strings.HasPrefix(rest, "/ol>"), strings.HasPrefix(rest, "/blockquote>"):
			d--
		}
	}
	return deepest
}

// TestNestingBounded (issue 15, item 5): list markers and quote markers nested thousands
// deep (60 KB of "- - - …", once 2 s to render and 660 KB of HTML) nest at most MaxDepth
// deep, keep their text, and make HTML of a bounded size.
func TestNestingBounded(t *testing.T) {
	var indented, quoted strings.Builder
	for i := 0; indented.Len() < 60_000; i++ {
		indented.WriteString(strings.Repeat("  ", i) + "- x\n")
	}
	for i := 1; quoted.Len() < 60_000; i++ {
		quoted.WriteString(strings.Repeat(">", i) + " x\n")
	}
	tests := []struct {
		name, src string
		lists     int // at most this many lists and quotes in all; 0: no bound but the depth
	}{
		{"dashes on one line", strings.Repeat("- ", 30_000) + "x", MaxDepth},
		{"stars on one line", strings.Repeat("* ", 30_000) + "x", MaxDepth},
		{"numbers on one line", strings.Repeat("1. ", 20_000) + "x", MaxDepth},
		{"quotes on one line", strings.Repeat("> ", 30_000) + "x", MaxDepth},
		{"quotes without spaces", strings.Repeat(">", 60_000) + "x", MaxDepth},
		{"mixed on one line", strings.Repeat("- > 2) ", 8_000) + "x", MaxDepth},
		{"deeper line by line", indented.String(), 0},
		{"quotes deeper line by line", quoted.String(), 0},
		{"many lines 17 deep", strings.Repeat(strings.Repeat("- ", 17)+"x\n", 1800), 0},
	}
	r := New()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := r.HTML(tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if d := depth(got); d > MaxDepth {
				t.Errorf("nested %d deep, want at most %d", d, MaxDepth)
			}
			if n := strings.Count(got, "<ul>") + strings.Count(got, "<ol") + strings.Count(got, "<blockquote>"); tt.lists > 0 && n > tt.lists {
				t.Errorf("%d lists and quotes, want at most %d", n, tt.lists)
			}
			if limit := MaxHTML(len(tt.src)); len(got) > limit {
				t.Errorf("%d bytes of HTML for %d of Markdown, want at most %d", len(got), len(tt.src), limit)
			}
			if !strings.Contains(got, "x") {
				t.Errorf("the text is lost: %.200s", got)
			}
		})
	}
	// What is not deep renders as it did.
	for src, want := range map[string]string{
		"- - -":        "<hr>",
		"- a\n  - b\n": "<ul>\n<li>a\n<ul>\n<li>b</li>\n</ul>\n</li>\n</ul>",
		"> - 1. x":     "<blockquote>\n<ul>\n<li>\n<ol>\n<li>x</li>\n</ol>\n</li>\n</ul>\n</blockquote>",
		"```\n" + strings.Repeat("- ", 40) + "\n```": "<pre><code>" + strings.Repeat("- ", 40) + "\n</code></pre>",
	} {
		if got, _ := r.HTML(src); strings.TrimSpace(got) != want {
			t.Errorf("HTML(%q) = %q, want %q", src, got, want)
		}
	}
}

// TestHTMLCached: a text is converted once; the same text again is the cached HTML.
func TestHTMLCached(t *testing.T) {
	r := New()
	for range 3 {
		if _, err := r.HTML("**a** note"); err != nil {
			t.Fatal(err)
		}
	}
	if n := r.Renders(); n != 1 {
		t.Errorf("%d renders of one text, want 1", n)
	}
	if _, err := r.HTML("another note"); err != nil || r.Renders() != 2 {
		t.Errorf("another text: %d renders, %v", r.Renders(), err)
	}
}
