package cluster

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// ObjectMeta is what Rootline keeps of a pod's metadata: its names and id, its version, when it
// was made and deleted, its labels, annotations and owners.
type ObjectMeta struct {
	Name              string       `json:"name,omitempty"`
	Namespace         string       `json:"namespace,omitempty"`
	UID               types.UID    `json:"uid,omitempty"`
	ResourceVersion   string       `json:"resourceVersion,omitempty"`
	CreationTimestamp metav1.Time  `json:"creationTimestamp,omitzero"`
	DeletionTimestamp *metav1.Time `json:"deletionTimestamp,omitempty"`
	// DeletionGracePeriodSeconds is how long a pod being deleted was given to stop.
	DeletionGracePeriodSeconds *int64            `json:"deletionGracePeriodSeconds,omitempty"`
	Labels                     map[string]string `json:"labels,omitempty"`
	Annotations                map[string]string `json:"annotations,omitempty"`
	// OwnerReferences are a pod's owners (its ReplicaSet, Job, StatefulSet…).
	OwnerReferences []metav1.OwnerReference `json:"ownerReferences,omitempty"`
}

// EventMeta is what Rootline keeps of an event's metadata: its names and id, when it was made,
// and its annotations (an eviction's offending containers, a log line's source). An event has
// no labels, owners or deletion that anything reads.
type EventMeta struct {
	Name              string            `json:"name,omitempty"`
	Namespace         string            `json:"namespace,omitempty"`
	UID               types.UID         `json:"uid,omitempty"`
	CreationTimestamp Instant           `json:"creationTimestamp,omitzero"`
	Annotations       map[string]string `json:"annotations,omitempty"`
}

// ObjectReference is what Rootline keeps of the object an event is about: a core/v1
// ObjectReference without its resource version, which nothing reads.
type ObjectReference struct {
	Kind       string    `json:"kind,omitempty"`
	Namespace  string    `json:"namespace,omitempty"`
	Name       string    `json:"name,omitempty"`
	UID        types.UID `json:"uid,omitempty"`
	APIVersion string    `json:"apiVersion,omitempty"`
	FieldPath  string    `json:"fieldPath,omitempty"`
}

// Event is an event as Rootline holds it: the fields of a core/v1 Event that the model, the
// rules, the timeline and the pictures read, and the server's rows are made of (0.8 KB of
// memory an event of the scale snapshot with its Object, against 1.1 KB as a core/v1 Event).
// Its times are Instants, eight bytes each where a metav1.Time is twenty-four.
// It is made from a decoded core/v1 Event (EventOf), which is then dropped, or decoded
// straight: its JSON names are core/v1's.
type Event struct {
	EventMeta      `json:"metadata"`
	InvolvedObject ObjectReference    `json:"involvedObject"`
	Reason         string             `json:"reason,omitempty"`
	Message        string             `json:"message,omitempty"`
	Source         corev1.EventSource `json:"source,omitzero"`
	FirstTimestamp Instant            `json:"firstTimestamp,omitzero"`
	LastTimestamp  Instant            `json:"lastTimestamp,omitzero"`
	Count          int32              `json:"count,omitempty"`
	Type           string             `json:"type,omitempty"`
	EventTime      MicroInstant       `json:"eventTime,omitzero"`
	*EventsAPI
	ReportingController string `json:"reportingComponent,omitempty"`
	ReportingInstance   string `json:"reportingInstance,omitempty"`
}

// EventsAPI is what only an event written through events.k8s.io (the newer recorder: the
// scheduler's, a controller's) holds besides what a core/v1 one does: its series and its
// action. Behind one pointer, nil for the events of kubelets and of most controllers, so that
// an Event is 312 bytes, in the 320-byte size class rather than the 352 (issue 30). Read
// through Event.Series and Event.Action, which shadow the fields so that no reader can reach
// them through a nil EventsAPI.
type EventsAPI struct {
	Series *corev1.EventSeries `json:"series,omitempty"`
	Action string              `json:"action,omitempty"`
}

// eventsAPIOf is series and action as an Event holds them: nil when it has neither.
func eventsAPIOf(series *corev1.EventSeries, action string) *EventsAPI {
	if series == nil && action == "" {
		return nil
	}
	return &EventsAPI{Series: series, Action: action}
}

// Series is how often and when last an event written through events.k8s.io recurred; nil for
// an event that did not, or was written through core/v1.
func (e *Event) Series() *corev1.EventSeries {
	if e.EventsAPI == nil {
		return nil
	}
	return e.EventsAPI.Series
}

// Action is what an event written through events.k8s.io says was done (or failed) about its
// object: "Scheduling", "Binding"; empty for most events.
func (e *Event) Action() string {
	if e.EventsAPI == nil {
		return ""
	}
	return e.EventsAPI.Action
}

// EventOf is what Rootline keeps of a core/v1 Event: the fields the model, the rules, the
// timeline and the pictures read. It shares e's strings, maps and pointers.
func EventOf(e *corev1.Event) *Event {
	if e == nil {
		return nil
	}
	ev := &Event{
		EventMeta: EventMeta{Name: e.Name, Namespace: e.Namespace, UID: e.UID,
			CreationTimestamp: InstantOf(e.CreationTimestamp.Time), Annotations: e.Annotations},
		InvolvedObject: ObjectReference{Kind: e.InvolvedObject.Kind, Namespace: e.InvolvedObject.Namespace,
			Name: e.InvolvedObject.Name, UID: e.InvolvedObject.UID, APIVersion: e.InvolvedObject.APIVersion,
			FieldPath: e.InvolvedObject.FieldPath},
		Reason:              e.Reason,
		Message:             e.Message,
		Source:              e.Source,
		FirstTimestamp:      InstantOf(e.FirstTimestamp.Time),
		LastTimestamp:       InstantOf(e.LastTimestamp.Time),
		Count:               e.Count,
		Type:                e.Type,
		EventTime:           MicroInstantOf(e.EventTime.Time),
		EventsAPI:           eventsAPIOf(e.Series, e.Action),
		ReportingController: e.ReportingController,
		ReportingInstance:   e.ReportingInstance,
	}
	return ev
}

func metaOf(m *metav1.ObjectMeta) ObjectMeta {
	return ObjectMeta{Name: m.Name, Namespace: m.Namespace, UID: m.UID, ResourceVersion: m.ResourceVersion,
		CreationTimestamp: m.CreationTimestamp, DeletionTimestamp: m.DeletionTimestamp,
		DeletionGracePeriodSeconds: m.DeletionGracePeriodSeconds, Labels: m.Labels,
		Annotations: m.Annotations, OwnerReferences: m.OwnerReferences}
}

// Core is the metav1.ObjectMeta m holds the fields of, for the checks and helpers written
// for Kubernetes' types.
func (m *ObjectMeta) Core() metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: m.Name, Namespace: m.Namespace, UID: m.UID, ResourceVersion: m.ResourceVersion,
		CreationTimestamp: m.CreationTimestamp, DeletionTimestamp: m.DeletionTimestamp,
		DeletionGracePeriodSeconds: m.DeletionGracePeriodSeconds, Labels: m.Labels,
		Annotations: m.Annotations, OwnerReferences: m.OwnerReferences}
}

// Core is the core/v1 Event e holds the fields of (an events.k8s.io Event is kept as the
// core/v1 Event kubectl shows): what its JSON is when its object has no Stored JSON. It shares
// e's strings, maps and pointers.
func (e *Event) Core() *corev1.Event {
	ev := &corev1.Event{
		ObjectMeta: metav1.ObjectMeta{Name: e.Name, Namespace: e.Namespace, UID: e.UID,
			CreationTimestamp: e.CreationTimestamp.Meta(), Annotations: e.Annotations},
		InvolvedObject:      e.InvolvedObject.Core(),
		Reason:              e.Reason,
		Message:             e.Message,
		Source:              e.Source,
		FirstTimestamp:      e.FirstTimestamp.Meta(),
		LastTimestamp:       e.LastTimestamp.Meta(),
		Count:               e.Count,
		Type:                e.Type,
		EventTime:           e.EventTime.Meta(),
		Series:              e.Series(),
		Action:              e.Action(),
		ReportingController: e.ReportingController,
		ReportingInstance:   e.ReportingInstance,
	}
	ev.Kind, ev.APIVersion = KindEvent, "v1"
	return ev
}

// Core is the core/v1 ObjectReference r holds the fields of.
func (r ObjectReference) Core() corev1.ObjectReference {
	return corev1.ObjectReference{Kind: r.Kind, Namespace: r.Namespace, Name: r.Name, UID: r.UID,
		APIVersion: r.APIVersion, FieldPath: r.FieldPath}
}
