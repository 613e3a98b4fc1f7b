package text

import (
	"regexp"
	"strings"
)

// lineKind is what cleaning made of a line.
type lineKind int

const (
	kindText  lineKind = iota // content to recognise
	kindBlank                 // empty after cleaning: ends describe blocks and tables
	kindSep                   // a code fence or a shell prompt: ends blocks and tables, says nothing
	kindSkip                  // markup with no content (a markdown table rule): ignored entirely
)

var (
	// promptRe matches a shell prompt line: "$ kubectl …", "user@host:~$ kubectl …",
	// "[root@host ~]# kubectl …", "# kubectl …", "» kubectl …", "PS C:\> kubectl …", and an empty
	// prompt. A markdown heading ("# Events") matches too, which is harmless: it carries no data.
	promptRe = regexp.MustCompile(`^(?:(?:\[[^\]]*\]|[\w.-]+@[\w.:~/-]*)\s?[$#%]|[$#%»❯➜]|PS(?: [A-Za-z]:[^>]*)?>)(?:\s|$)`)
	// tableRuleRe matches a markdown table's separator row: "|---|:--:|".
	tableRuleRe = regexp.MustCompile(`^\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?$`)
)

// clean strips the markup people wrap kubectl output in, keeping the indentation that
// describe blocks depend on: trailing space and CR, markdown quote markers, bullets, code
// fences, shell prompts; tabs become spaces at 8-column stops and markdown pipe tables become
// space-separated rows.
func clean(s string) (string, lineKind) {
	s = strings.TrimRight(s, " \t\r\n")
	if strings.Contains(s, "\t") {
		s = expandTabs(s)
	}
	s = stripQuote(s)
	t := strings.TrimSpace(s)
	switch {
	case t == "":
		return "", kindBlank
	case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
		return "", kindSep
	case promptRe.MatchString(t):
		return "", kindSep
	case strings.HasPrefix(t, "|") && strings.HasSuffix(t, "|") && len(t) > 1:
		if tableRuleRe.MatchString(t) {
			return "", kindSkip
		}
		return pipeRow(t), kindText
	}
	return stripBullet(s), kindText
}

// stripQuote removes markdown quote markers ("> ", ">", nested "> > ") and up to three
// spaces before them.
func stripQuote(s string) string {
	for {
		t := strings.TrimLeft(s, " ")
		if len(s)-len(t) > 3 || !strings.HasPrefix(t, ">") {
			return s
		}
		t = t[1:]
		if strings.HasPrefix(t, " ") {
			t = t[1:]
		}
		s = t
	}
}

// stripBullet removes a list bullet ("- ", "* ", "• ") at the start of a line. Indented
// dashes are left alone: describe blocks print container args as "      -conf".
func stripBullet(s string) string {
	for _, b := range []string{"- ", "* ", "• "} {
		if rest, ok := strings.CutPrefix(s, b); ok && strings.TrimSpace(rest) != "" {
			return strings.TrimLeft(rest, " ")
		}
	}
	return s
}

// pipeRow turns "| NAME | READY |" into "NAME   READY".
func pipeRow(t string) string {
	cells := strings.Split(strings.Trim(t, "|"), "|")
	for i, c := range cells {
		cells[i] = strings.TrimSpace(c)
	}
	return strings.Join(cells, "   ")
}

// expandTabs replaces tabs with spaces up to the next multiple of eight columns.
func expandTabs(s string) string {
	var b strings.Builder
	col := 0
	for _, r := range s {
		if r == '\t' {
			n := 8 - col%8
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}
