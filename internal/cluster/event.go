package cluster

import (
	"time"
)

// EventTimes gives an event's occurrence count and the first and last times it was seen,
// whichever fields its writer filled: the deprecated timestamps of core/v1, the eventTime and
// series of events.k8s.io, or, failing all of them, the creation time.
func EventTimes(e *Event) (count int32, first, last time.Time) {
	count = e.Count
	first = e.FirstTimestamp.Time()
	last = e.LastTimestamp.Time()
	if first.IsZero() {
		first = e.EventTime.Time()
	}
	if first.IsZero() {
		first = e.CreationTimestamp.Time()
	}
	if series := e.Series(); series != nil {
		count = max(count, series.Count)
		if t := series.LastObservedTime.Time; t.After(last) {
			last = t
		}
	}
	if last.IsZero() || last.Before(first) {
		last = first
	}
	return max(count, 1), first.UTC(), last.UTC()
}
