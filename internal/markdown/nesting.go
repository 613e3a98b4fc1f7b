package markdown

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// MaxDepth is how deep lists and block quotes nest. Markdown nests a container for every
// marker at the start of a line ("- - - x" is three lists), and goldmark's parser takes time
// quadratic in the markers of a line: issue 15's note of 60 KB of "- - - …" took 2 s to render
// and made 660 KB of HTML. Nobody writes a list 17 deep.
const MaxDepth = 16

// capNesting escapes, on each line of src, the container markers beyond the first max (the
// 17th "-" becomes "\-"), so that the parser never opens more than max containers on one line;
// the markers stay in the text as what they are. Lines in fenced code are left alone, and so
// is a line that is a thematic break ("- - - -").
func capNesting(src string, max int) string {
	var b strings.Builder
	copied := 0 // src[:copied] is in b
	fence := "" // the run of ` or ~ that opened the fenced code the line is in; "" outside
	for start := 0; start < len(src); {
		end := strings.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		line := src[start:end]
		pos, cut := containers(line, max)
		rest := strings.TrimLeft(line[pos:], " \t")
		switch {
		case fence != "":
			if strings.HasPrefix(rest, fence) && strings.Trim(rest, fence[:1]+" \t") == "" {
				fence = ""
			}
		case strings.HasPrefix(rest, "```") || strings.HasPrefix(rest, "~~~"):
			fence = rest[:len(rest)-len(strings.TrimLeft(rest, rest[:1]))]
		case cut >= 0:
			b.WriteString(src[copied : start+cut])
			b.WriteByte('\\')
			copied = start + cut
		}
		start = end + 1
	}
	if copied == 0 {
		return src
	}
	b.WriteString(src[copied:])
	return b.String()
}

// containers reads the container markers at the start of a line, as CommonMark opens them:
// block quotes (">"), bullets ("-", "+", "*") and numbers ("1.", "2)"), each followed by a
// space. It returns the offset after them and, when there are more than max, the offset of
// the delimiter of the first one beyond (where a backslash makes it text); else -1.
func containers(line string, max int) (end, cut int) {
	i := skip(line, 0, 3)
	for n := 0; i < len(line); n++ {
		if thematicBreak(line[i:]) {
			break
		}
		m := marker(line[i:])
		if m == 0 {
			break
		}
		if n == max {
			return i, i + m - 1
		}
		i = skip(line, i+m, 4) // the space after the marker, and up to 3 before the next
	}
	return i, -1
}

// skip passes up to n spaces or tabs of line from i.
func skip(line string, i, n int) int {
	for j := 0; j < n && i < len(line) && (line[i] == ' ' || line[i] == '\t'); j++ {
		i++
	}
	return i
}

// marker is the length of the container marker s starts with, 0 when it starts with none.
func marker(s string) int {
	spaced := func(i int) bool { return i == len(s) || s[i] == ' ' || s[i] == '\t' }
	switch {
	case s[0] == '>':
		return 1
	case strings.IndexByte("-+*", s[0]) >= 0 && spaced(1):
		return 1
	}
	i := 0
	for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i < len(s) && (s[i] == '.' || s[i] == ')') && spaced(i+1) {
		return i + 1
	}
	return 0
}

// thematicBreak reports whether s is a thematic break: three or more of one of - * _, and
// spaces or tabs.
func thematicBreak(s string) bool {
	var c byte
	n := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == ' ' || s[i] == '\t':
		case c == 0 && (s[i] == '-' || s[i] == '*' || s[i] == '_'):
			c, n = s[i], 1
		case s[i] == c:
			n++
		default:
			return false
		}
	}
	return n >= 3
}

// flatten is a parser step that keeps lists and block quotes at most max deep however they
// were nested (line by line, "  - " deeper each time, nests as deep as the text's length
// allows): a container that would be deeper gives its place to the blocks it holds.
type flatten struct{ max int }

// Transform implements parser.ASTTransformer.
func (f flatten) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	flattenDeep(doc, 0, f.max)
}

func isContainer(n ast.Node) bool {
	return n.Kind() == ast.KindList || n.Kind() == ast.KindBlockquote
}

// flattenDeep flattens the containers under parent, which is inside depth containers.
func flattenDeep(parent ast.Node, depth, max int) {
	for c := parent.FirstChild(); c != nil; {
		switch {
		case c.Type() != ast.TypeBlock: // inlines hold no blocks
		case !isContainer(c):
			flattenDeep(c, depth, max)
		case depth < max:
			flattenDeep(c, depth+1, max)
		default:
			var blocks []ast.Node // a quote's blocks; a list's items' blocks
			holders := []ast.Node{c}
			if c.Kind() == ast.KindList {
				holders = holders[:0]
				for li := c.FirstChild(); li != nil; li = li.NextSibling() {
					holders = append(holders, li)
				}
			}
			for _, h := range holders {
				for b := h.FirstChild(); b != nil; b = b.NextSibling() {
					blocks = append(blocks, b)
				}
			}
			for _, b := range blocks {
				b.Parent().RemoveChild(b.Parent(), b)
				parent.InsertBefore(parent, c, b)
			}
			next := c.NextSibling()
			parent.RemoveChild(parent, c)
			c = next
			if len(blocks) > 0 {
				c = blocks[0] // the blocks now here are read at this depth, a container among them too
			}
			continue
		}
		c = c.NextSibling()
	}
}
