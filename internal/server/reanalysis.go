package server

import (
	"context"
	"slices"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/rules"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/evidence"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/metrics"
	"github.com/rootline-dev/rootline/internal/report/export"
	"github.com/rootline-dev/rootline/internal/timeline"
)

// reanalyse loads and analyses an incident, within a budget share its caller holds. prev, when
// not nil, is the state made last: the load keeps the objects whose stored rows did not change,
// and when nothing the analysis is made of changed (a collector's batch outside the incident's
// window, or an event of its cluster that none of its snapshots carried), the analysis is kept
// too, and the timeline with it when the notes are the same.
func (s *Server) reanalyse(ctx context.Context, in *incident.Incident, notes []incident.Note, prev *incidentState) (*incidentState, error) {
	var before *evidence.Evidence
	if prev != nil {
		before = prev.evidence
	}
	ev, err := evidence.Load(ctx, s.deps.Objects, in.ID, before)
	if err != nil {
		return nil, err
	}
	s.log.Debug("incident evidence loaded", "incident_id", in.ID, "objects", len(ev.Objects), "incremental", ev.Incremental())
	if before != nil && ev.Same(before) {
		return prev.with(in, notes, ev), nil
	}
	return s.analyse(in, notes, ev), nil
}

// analyse models and analyses what an incident is made of, ev.
func (s *Server) analyse(in *incident.Incident, notes []incident.Note, ev *evidence.Evidence) *incidentState {
	changes := make([]timeline.Change, len(ev.States))
	for i, c := range ev.States {
		changes[i] = timeline.Change{At: c.At, Kind: c.Kind, Namespace: c.Namespace, Name: c.Name, State: c.State}
	}
	m := cluster.NewModel(ev.Files, ev.Objects)
	opts := analysisOptions(ev)
	// The series are read once for the analysis and the pictures of every page view; a long
	// series weighs in the cache as the objects its points cost (about 400 to an object's 12 KiB).
	opts.Metrics, _ = metrics.FromObjects(m.Others)
	points := 0
	for _, a := range opts.Metrics {
		for _, sr := range a.Series {
			points += len(sr.Points)
		}
	}
	// An alert weighs an object: its labels and annotations, on its timeline row.
	s.states.note(in.ID, len(m.Pods)+len(m.Nodes)+len(m.Events)+len(m.Others)+points/400+len(ev.Alerts))
	s.metrics.analyses.Inc()
	return &incidentState{incident: in, model: m, report: rules.Run(m, opts), notes: notes, changes: changes,
		alerts: ev.Alerts, metrics: opts.Metrics, evidence: ev, tl: &madeTimeline{}}
}

// analysisOptions are the options of an incident's analysis (export.Options).
func analysisOptions(ev *evidence.Evidence) analysis.Options { return export.Options(ev) }

// with is the state of the same model and analysis for the incident's row and notes as they are
// now, made of ev. The timeline is shared when the notes are the same, as nothing else it is made
// of changed.
func (st *incidentState) with(in *incident.Incident, notes []incident.Note, ev *evidence.Evidence) *incidentState {
	tl := st.tl
	if !slices.EqualFunc(notes, st.notes, sameNote) {
		tl = &madeTimeline{}
	}
	return &incidentState{incident: in, model: st.model, report: st.report, notes: notes, changes: st.changes, alerts: st.alerts,
		metrics: st.metrics, evidence: ev, tl: tl}
}

// sameNote reports whether two notes show the same on the timeline, and everywhere else.
func sameNote(a, b incident.Note) bool {
	return a.ID == b.ID && a.IncidentID == b.IncidentID && a.At.Equal(b.At) && a.Author == b.Author && a.Kind == b.Kind &&
		a.Body == b.Body && slices.Equal(a.Causes, b.Causes) && a.CreatedAt.Equal(b.CreatedAt)
}
