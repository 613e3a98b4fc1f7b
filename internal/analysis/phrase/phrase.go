// Package phrase words what a report says in its sentences: counts with thousands separators,
// lists cut to their first items, clipped quotes and rounded durations. The engine (package
// analysis) and the rules (package rules) word their summaries with it, so that a list of pods
// reads the same in a symptom, a cause and a note.
package phrase

import (
	"fmt"
	"strings"
)

// Clip shortens s to n runes, its runs of white space made one space, marking the cut with "…".
func Clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len([]rune(s)) > n {
		return string([]rune(s)[:n-1]) + "…"
	}
	return s
}

// PartsShown is how many items Parts lists.
const PartsShown = 3

// Parts is the parts of a summary, the first PartsShown of them and how many more: a cause
// found on a thousand pods says a few of them, and its evidence and members say all.
func Parts(parts []string, sep string) string {
	if len(parts) <= PartsShown {
		return strings.Join(parts, sep)
	}
	return strings.Join(parts[:PartsShown], sep) + fmt.Sprintf("%sand %s more", sep, Thousands(len(parts)-PartsShown))
}

// First lists the first n items, joined by commas, and says how many more there are.
func First(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}

// Thousands writes n with a comma between each group of three digits: 20,000.
func Thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + Thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Duration words a number of seconds: in seconds below two minutes, in whole minutes above.
func Duration(seconds int) string {
	if seconds < 120 {
		return fmt.Sprintf("%d s", seconds)
	}
	return fmt.Sprintf("%d min", (seconds+30)/60)
}
