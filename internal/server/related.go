package server

import (
	"context"
	"net/http"
	"strconv"

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
	_, _, rel, err := s.related(c)
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

// relatedLimit is how many related incidents of each relation a lookup returns by default.
const relatedLimit = 50

// related finds the incidents related to the one of the request, by the signature that speaks
// for it; for an incident whose analysis signature is not stored, by its analysis now.
func (s *Server) related(c *gin.Context) (*incident.Incident, incident.Signatures, []incident.Relation, error) {
	ctx := c.Request.Context()
	var sigs incident.Signatures
	in, err := s.incident(ctx, c.Param("id"))
	if err != nil {
		return nil, sigs, nil, err
	}
	limit := relatedLimit
	if v := c.Query("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 1 || limit > 500 {
			return nil, sigs, nil, errStatus(http.StatusBadRequest, "limit must be a number from 1 to 500")
		}
	}
	if sigs, err = s.deps.Library.Signatures(ctx, in.ID); err != nil {
		return nil, sigs, nil, err
	}
	sig := sigs.Effective
	if sig.Empty() {
		st, err := s.loadIncident(ctx, in.ID)
		if err != nil {
			return nil, sigs, nil, err
		}
		sig = analysisSignature(st.report)
	}
	candidates, err := s.deps.Library.RelatedCandidates(ctx, in.ID, sig, limit)
	if err != nil {
		return nil, sigs, nil, err
	}
	return in, sigs, incident.Related(in.ID, sig, candidates), nil
}

// relatedPage renders /incidents/{id}/related: the incident's signature, where it comes from,
// a form to set it, and the related incidents.
func (s *Server) relatedPage(c *gin.Context) error {
	return s.renderRelated(c, http.StatusOK, nil, "")
}

func (s *Server) renderRelated(c *gin.Context, status int, form *incidents.SignatureForm, formErr string) error {
	in, sigs, rel, err := s.related(c)
	if err != nil {
		return err
	}
	rows := make([]incidents.RelatedRow, len(rel))
	for i, r := range rel {
		rows[i] = incidents.RelatedRow{ID: r.ID, Title: r.Title, Reason: r.Reason(), Why: r.Why, Score: r.Score}
	}
	view := signatureView(sigs)
	if form != nil {
		view.Form = *form
	}
	view.Error = formErr
	return render(c, status, "Related to "+in.Title, incidents.RelatedPage(in.ID, in.Title, view, rows))
}
