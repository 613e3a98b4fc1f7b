package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/timeline"
)

// incidentState is what the pages and exports of one incident are made of: the incident, the
// model of what its snapshots hold, the analysis of that model, and the notes.
type incidentState struct {
	incident *incident.Incident
	model    *cluster.Model
	report   analysis.Report
	notes    []incident.Note
	changes  []timeline.Change // pod and node states the collector saw during the incident
}

// incident returns an incident; a missing one is a 404 naming it.
func (s *Server) incident(ctx context.Context, id string) (*incident.Incident, error) {
	in, err := s.deps.Incidents.Incident(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errStatus(http.StatusNotFound, fmt.Sprintf("incident %s not found", id))
	}
	return in, err
}

// loadIncident gathers an incident's state; a missing incident is a 404 naming it.
func (s *Server) loadIncident(ctx context.Context, id string) (*incidentState, error) {
	in, err := s.incident(ctx, id)
	if err != nil {
		return nil, err
	}
	files, objs, err := s.deps.Objects.IncidentObjects(ctx, id)
	if err != nil {
		return nil, err
	}
	notes, err := s.deps.Notes.Notes(ctx, id)
	if err != nil {
		return nil, err
	}
	states, err := s.deps.Objects.IncidentStates(ctx, id)
	if err != nil {
		return nil, err
	}
	changes := make([]timeline.Change, len(states))
	for i, c := range states {
		changes[i] = timeline.Change{At: c.At, Kind: c.Kind, Namespace: c.Namespace, Name: c.Name, State: c.State}
	}
	m := cluster.NewModel(files, objs)
	return &incidentState{incident: in, model: m, report: analysis.Run(m, analysis.Options{}), notes: notes, changes: changes}, nil
}
