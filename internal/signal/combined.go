package signal

import (
	"strings"
)

// CombinedPrefix starts the message of an event that client-go's EventCorrelator aggregated
// from 10 or more similar events within 10 minutes (tools/record/events_cache.go).
const CombinedPrefix = "(combined from similar events): "

// StripCombined removes CombinedPrefix and reports whether it was there, that is whether the
// message stands for several events aggregated by client-go's EventCorrelator. Every parser
// in this package calls it, so callers only need it to learn about the aggregation.
func StripCombined(msg string) (string, bool) {
	return strings.CutPrefix(msg, CombinedPrefix)
}
