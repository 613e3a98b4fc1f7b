package server

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/templates/incidents"
)

// relatedResponse is a related incident as the API shows it.
type relatedResponse struct {
	incident.Relation
	Reason string `json:"reason"`
}

// getRelated answers GET /api/v1/incidents/{id}/related: the incidents that share the root
// cause, ranked by what else they share, then those that share only components. The
// incident's signature is its report's, or, for an incident known only from snapshots, its
// analysis.
func (s *Server) getRelated(c *gin.Context) error {
	_, rel, err := s.related(c)
	if err != nil {
		return err
	}
	out := make([]relatedResponse, len(rel))
	for i, x := range rel {
		out[i] = relatedResponse{Relation: x, Reason: x.Reason()}
	}
	c.JSON(http.StatusOK, out)
	return nil
}

// analysisSignature is the signature an analysis gives: its symptom and cause kinds, its root
// cause and the components its causes name.
func analysisSignature(rep analysis.Report) incident.Signature {
	r := reportOf(&incident.Incident{}, rep, nil)
	return incident.SignatureOf(r)
}

// refreshSignature records the signature of an incident's analysis after its snapshots
// changed, so that it takes part in related-incident search. A failure is logged, not
// returned: the upload that triggered it has been stored.
func (s *Server) refreshSignature(ctx context.Context, id string) {
	st, err := s.loadIncident(ctx, id)
	if err == nil {
		err = s.deps.Library.SetAnalysisSignature(ctx, id, analysisSignature(st.report))
	}
	if err != nil {
		s.log.WarnContext(ctx, "analysis signature not updated", "incident_id", id, "error", err)
	}
}

// related finds the incidents related to the one of the request.
func (s *Server) related(c *gin.Context) (*incidentState, []incident.Relation, error) {
	ctx := c.Request.Context()
	st, err := s.loadIncident(ctx, c.Param("id"))
	if err != nil {
		return nil, nil, err
	}
	r, err := s.deps.Library.Report(ctx, st.incident.ID)
	if err != nil {
		return nil, nil, err
	}
	sig := incident.SignatureOf(r)
	if len(sig.Causes) == 0 && len(sig.Symptoms) == 0 {
		sig = analysisSignature(st.report)
	}
	candidates, err := s.deps.Library.Candidates(ctx)
	if err != nil {
		return nil, nil, err
	}
	return st, incident.Related(st.incident.ID, sig, candidates), nil
}

// relatedPage renders /incidents/{id}/related.
func (s *Server) relatedPage(c *gin.Context) error {
	st, rel, err := s.related(c)
	if err != nil {
		return err
	}
	rows := make([]incidents.RelatedRow, len(rel))
	for i, r := range rel {
		rows[i] = incidents.RelatedRow{ID: r.ID, Title: r.Title, Reason: r.Reason(), Why: r.Why, Score: r.Score}
	}
	return render(c, http.StatusOK, "Related to "+st.incident.Title, incidents.RelatedPage(st.incident.ID, st.incident.Title, rows))
}
