package store

import (
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// An incident's window is the time over which what is stored of its cluster beyond its
// snapshots (collected events and states, the versions of workloads, alerts) is read for it.
// It is the incident's start and end when set; else it is the span of the times its
// snapshots record, so that an incident uploaded without a start still gets the alerts that
// fired while its evidence was recorded. Each snapshot keeps that span in its row
// (evidence_from, evidence_to), measured as it is written: the window costs no query.

// MaxEvidenceWindow bounds a window the evidence makes: it starts at most this long before
// the last time the evidence records. An event first seen days before (a BackOff that
// recurs), or pods started weeks apart, would otherwise make the incident read everything
// its cluster's collector sent over weeks, at each load.
const MaxEvidenceWindow = 24 * time.Hour

// evidenceSpan is the span of the times of a snapshot's evidence, as cluster.Model.TimeRange
// dates a model: its events' first and last sightings, else its pods' starts.
type evidenceSpan struct {
	events, pods timeSpan
}

// timeSpan is the span of the times seen; zero while none was.
type timeSpan struct {
	from, to time.Time
}

func (s *timeSpan) see(t time.Time) {
	if t.IsZero() {
		return
	}
	t = t.UTC().Truncate(time.Microsecond) // what PostgreSQL keeps
	if s.from.IsZero() || t.Before(s.from) {
		s.from = t
	}
	if t.After(s.to) {
		s.to = t
	}
}

// see takes in the times of an object written to the snapshot.
func (e *evidenceSpan) see(o *cluster.Object) {
	switch {
	case o.Event != nil:
		_, first, last := cluster.EventTimes(o.Event)
		e.events.see(first)
		e.events.see(last)
	case o.Pod != nil && o.Pod.Status.StartTime != nil:
		e.pods.see(o.Pod.Status.StartTime.Time)
	}
}

// bounds are the span's ends as stored (evidence_from, evidence_to): nil when the snapshot
// records no time.
func (e evidenceSpan) bounds() (from, to *time.Time) {
	s := e.events
	if s.from.IsZero() {
		s = e.pods
	}
	if s.from.IsZero() {
		return nil, nil
	}
	return &s.from, &s.to
}

// incidentWindow is the window of an incident (in: its cluster, start and end) whose
// snapshots are snaps, at now: none (cluster 0) without a cluster, or without a start and
// any time in its snapshots. An unset start is the first time its snapshots record (at most
// MaxEvidenceWindow before the last); an unset end is now for an incident started and not
// ended (the window is open: it grows with each load), else the last time its snapshots
// record.
func incidentWindow(in incidentRow, snaps []snapshotRow, now time.Time) loadPoint {
	var at loadPoint
	if in.ClusterID == nil {
		return at
	}
	var span timeSpan
	for _, s := range snaps {
		if s.EvidenceFrom != nil && s.EvidenceTo != nil {
			span.see(*s.EvidenceFrom)
			span.see(*s.EvidenceTo)
		}
	}
	switch {
	case in.StartedAt != nil:
		at.from = in.StartedAt.UTC()
	case !span.from.IsZero():
		at.from = span.from
		if earliest := span.to.Add(-MaxEvidenceWindow); at.from.Before(earliest) {
			at.from = earliest
		}
	default:
		return at
	}
	switch {
	case in.EndedAt != nil:
		at.to = in.EndedAt.UTC()
	case in.StartedAt != nil:
		at.to, at.open = now.UTC(), true
	case !span.to.IsZero():
		at.to = span.to
	}
	at.cluster = *in.ClusterID
	return at
}
