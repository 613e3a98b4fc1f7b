package text

import (
	"bytes"
	"strings"

	"github.com/rootline-dev/rootline/internal/catalog"
)

// Sniff reports whether data (the first few KB of an input) looks like kubectl text output
// that Parse understands, so that format detection can route it here. JSON and YAML documents
// are left to the structured decoder even when their messages carry the same phrases.
func Sniff(head []byte) bool {
	lines := strings.Split(string(head), "\n")
	if len(head) > 0 && !bytes.HasSuffix(head, []byte("\n")) && len(lines) > 1 {
		lines = lines[:len(lines)-1] // the last line may be cut by the sniff window
	}
	first := true
	for _, raw := range lines {
		s, kind := clean(raw)
		if kind != kindText {
			continue
		}
		if first {
			first = false
			t := strings.TrimSpace(s)
			if strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") ||
				strings.HasPrefix(t, "apiVersion:") || strings.HasPrefix(t, "kind:") || t == "---" {
				return false
			}
		}
		if recognised(s) {
			return true
		}
	}
	return false
}

// recognised reports whether a cleaned line opens or is part of a format Parse reads.
func recognised(s string) bool {
	if newEventsTable(s) != nil || newPodsTable(s) != nil || newClaimsTable(s) != nil || headerlessEvents(s) != nil || newCSVEventsTable(s) != nil {
		return true
	}
	if strings.HasPrefix(s, "Name:") || fragmentRe.MatchString(s) || nodeCondRowRe.MatchString(s) {
		return true
	}
	if blockStartRe.MatchString(s) && !strings.HasPrefix(s, "Name:") {
		return true
	}
	for _, m := range catalog.Default().Find(s) {
		if !m.Entry.Word {
			return true
		}
	}
	return false
}
