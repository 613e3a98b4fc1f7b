package ingest

import (
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
)

// fromEventsV1 maps an events.k8s.io/v1 Event onto core/v1 the way kubectl prints it: regarding
// is the involved object, note the message, and the series (when there is one) gives the count
// and the last time seen.
func fromEventsV1(e *eventsv1.Event) *corev1.Event {
	ev := &corev1.Event{
		ObjectMeta:          e.ObjectMeta,
		InvolvedObject:      e.Regarding,
		Related:             e.Related,
		Reason:              e.Reason,
		Message:             e.Note,
		Type:                e.Type,
		Action:              e.Action,
		Count:               e.DeprecatedCount,
		FirstTimestamp:      e.DeprecatedFirstTimestamp,
		LastTimestamp:       e.DeprecatedLastTimestamp,
		Source:              e.DeprecatedSource,
		EventTime:           e.EventTime,
		ReportingController: e.ReportingController,
		ReportingInstance:   e.ReportingInstance,
	}
	ev.Kind, ev.APIVersion = "Event", "v1"
	if e.Series != nil {
		ev.Series = &corev1.EventSeries{Count: e.Series.Count, LastObservedTime: e.Series.LastObservedTime}
	}
	return ev
}
