package text

import "strings"

// A terminal's screen copied where its line ends were lost keeps each line padded with spaces
// to the terminal's width: a describe pasted so reads as one long line, its fields at fixed
// intervals ("Name:   web-0        …        Namespace:   prod        …"). padded finds that
// width and cuts the line back into the terminal's lines, each with its indentation, so that
// they are read as they were printed.

const (
	// minPadWidth and maxPadWidth bound the terminal widths looked for.
	minPadWidth = 60
	maxPadWidth = 400
	// minPadRecords is how many lines a padded line must hold to be cut: fewer could be a
	// long line's spaces falling where a width would put them by chance.
	minPadRecords = 4
	// maxPadLine is the longest line looked at: a screen of 400 columns and 600 lines.
	maxPadLine = 400 * 600
	// minPadding is the fewest spaces that must pad each cut line but the last.
	minPadding = 2
	// maxIndent is the deepest indentation a cut line may start with: kubectl indents a
	// describe's sections by two spaces a level, a few levels deep.
	maxIndent = 16
)

// padded returns the lines of a line made of lines padded to one width, or nil when s is not
// one. Every piece but the last must end in at least minPadding spaces, hold something, and
// most pieces must start as a describe's or a table's lines do.
func padded(s string) []string {
	if len(s) < minPadRecords*minPadWidth || len(s) > maxPadLine || strings.ContainsAny(s, "\t\n") || !isASCII(s) {
		return nil
	}
	end := len(strings.TrimRight(s, " \r"))
	var best []string
	bestIndent := 0.0
	for w := minPadWidth; w <= maxPadWidth && w*(minPadRecords-1) < end; w++ {
		if s[w-1] != ' ' || s[w-2] != ' ' {
			continue // the first line is not padded to w
		}
		out := padCut(s[:end], w)
		if out == nil {
			continue
		}
		// Of the widths that cut s into padded lines, the terminal's is the one whose lines
		// start where kubectl starts them: a width a few columns off indents each line more
		// than the one before, and a multiple of it leaves lines run together (fewer lines,
		// the same indentation each).
		indent := 0
		for _, l := range out {
			indent += len(l) - len(strings.TrimLeft(l, " "))
		}
		avg := float64(indent) / float64(len(out))
		if best == nil || avg < bestIndent || avg == bestIndent && len(out) > len(best) {
			best, bestIndent = out, avg
		}
	}
	return best
}

// padCut cuts s into lines of width w, or returns nil when s is not made of such lines.
func padCut(s string, w int) []string {
	n := (len(s) + w - 1) / w
	if n < minPadRecords {
		return nil
	}
	keyed := 0
	var out []string
	for i := 0; i < n; i++ {
		rec := s[i*w : min((i+1)*w, len(s))]
		body := strings.TrimRight(rec, " ")
		if i < n-1 && (len(rec)-len(body) < minPadding || strings.TrimSpace(body) == "") || len(body)-len(strings.TrimLeft(body, " ")) > maxIndent {
			return nil
		}
		if startsLine(body) {
			keyed++
		}
		out = append(out, body)
	}
	if keyed*3 < n*2 {
		return nil
	}
	return out
}

// startsLine reports whether a piece starts as a line of kubectl's output does: a describe's
// field ("Name:", "  Ready:"), or a row of cells apart by two spaces or more.
func startsLine(s string) bool {
	t := strings.TrimLeft(s, " ")
	if t == "" {
		return false
	}
	if k, _, ok := strings.Cut(t, ":"); ok && k != "" && len(k) <= 40 && !strings.Contains(k, "  ") {
		return true
	}
	return strings.Contains(t, "  ")
}

// isASCII reports whether s holds ASCII only: a width counted in bytes is one in columns.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
