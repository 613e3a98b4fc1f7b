package analysis

import (
	"fmt"
	"strings"
)

// clip shortens s to n runes, its runs of white space made one space, marking the cut with "…".
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len([]rune(s)) > n {
		return string([]rune(s)[:n-1]) + "…"
	}
	return s
}

// summaryParts is the parts of a cause's summary, the first summaryItems of them and how many
// more: a cause found on a thousand pods says a few of them, and its evidence and members say
// all.
func summaryParts(parts []string, sep string) string {
	if len(parts) <= summaryItems {
		return strings.Join(parts, sep)
	}
	return strings.Join(parts[:summaryItems], sep) + fmt.Sprintf("%sand %s more", sep, thousands(len(parts)-summaryItems))
}

// summaryItems is how many items a cause's summary lists.
const summaryItems = 3
