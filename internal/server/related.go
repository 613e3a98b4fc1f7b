package server

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/rules"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/metrics"
	"github.com/rootline-dev/rootline/internal/report"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/templates/incidents"
)

// relatedResponse is a related incident as the API shows it: the contract's fields, the
// parts of its score, how node pools are shared, and the reason in words.
type relatedResponse struct {
	incident.Relation
	Reason string `json:"reason"`
}

// getRelated answers GET /api/v1/incidents/{id}/related: every incident that shares the root
// cause, ranked by what else it shares, then the best of those that share only components.
// The incident's signature is the one that speaks for it (a person's, its report's, its
// analysis').
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

// analysisSignature is the signature an analysis gives (report.Signature).
func analysisSignature(rep analysis.Report) incident.Signature { return report.Signature(rep) }

// refreshOnce refreshes the signature of an incident once, within --upload-timeout.
func (s *Server) refreshOnce(ctx context.Context, id string) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.UploadTimeout)
	defer cancel()
	var (
		st  *incidentState
		err error
	)
	if s.states.has(id) {
		st, err = s.loadIncident(ctx, id)
	} else {
		// Made outside the cache: the budget is held until the state is dropped, so that the
		// memory handed back when nothing runs includes it.
		var release func()
		if release, err = s.acquireAnalysis(ctx, id); err != nil {
			s.log.WarnContext(ctx, "analysis signature not updated", "incident_id", id, "error", err)
			return
		}
		defer release()
		var in *incident.Incident
		if in, err = s.incident(ctx, id); err == nil {
			st, err = s.buildIncidentState(ctx, in, id)
		}
	}
	if err == nil {
		err = s.deps.Library.SetAnalysisSignature(ctx, id, analysisSignature(st.report))
	}
	if err == nil {
		err = s.deps.Library.SetEvidenceTime(ctx, id, st.report.Inputs.From)
	}
	switch {
	case errors.Is(err, store.ErrNotFound): // removed since the upload
		s.log.DebugContext(ctx, "analysis signature not updated: the incident is gone", "incident_id", id)
	case err != nil:
		s.log.WarnContext(ctx, "analysis signature not updated", "incident_id", id, "error", err)
	}
}

// refreshAdded refreshes the signature of an incident from what uploads added to it, within
// --upload-timeout: the additions are analysed together, on their own, and what the analysis
// shows is added to the incident's analysis signature (incident.Signature.Merge; the first
// time of their evidence dates the incident when it is earlier). A cause found in part of the
// evidence is found in the whole: the signature grows as uploads come, and is made again whole
// when the incident's analysis runs for a page or the API (related stores what it says).
func (s *Server) refreshAdded(ctx context.Context, id string, adds []*addition) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.UploadTimeout)
	defer cancel()
	rep := analyseAdditions(adds)
	for _, a := range adds {
		a.done()
	}
	err := s.deps.Library.MergeAnalysisSignature(ctx, id, analysisSignature(rep), rep.Inputs.From)
	switch {
	case errors.Is(err, store.ErrNotFound): // removed since the upload
		s.log.DebugContext(ctx, "analysis signature not updated: the incident is gone", "incident_id", id)
	case err != nil:
		s.log.WarnContext(ctx, "analysis signature not updated", "incident_id", id, "error", err)
	}
}

// analyseAdditions analyses what uploads added, on its own, as an incident made of it alone
// would be: their objects, and the series of the Prometheus answers among them.
func analyseAdditions(adds []*addition) analysis.Report {
	var (
		files []string
		objs  []*cluster.Object
	)
	for _, a := range adds {
		files = append(files, a.files...)
		objs = append(objs, a.objects...)
	}
	m := cluster.NewModel(files, objs)
	var opts analysis.Options
	opts.Metrics, _ = metrics.FromObjects(m.Others)
	return rules.Run(m, opts)
}

// relatedLimit is how many incidents that share only components a lookup returns by default;
// every incident that shares the root cause is returned.
const relatedLimit = 50

// related finds the incidents related to the one of the request, by the signature that speaks
// for it. When that is its analysis' (or it has none), the analysis is made now, and stored
// when it says something else than the stored one (evidence the collector streamed changes the
// analysis without an upload), so that the incident is found by the others too.
func (s *Server) related(c *gin.Context) (*incident.Incident, incident.Signatures, []incident.Relation, error) {
	ctx := c.Request.Context()
	var sigs incident.Signatures
	in, err := s.incident(ctx, c.Param("id"))
	if err != nil {
		return nil, sigs, nil, err
	}
	if err := s.Settle(ctx); err != nil { // the candidates' signatures, as the uploads answered left them
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
	if sigs.Origin == "" || sigs.Origin == incident.OriginAnalysis {
		st, err := s.loadIncident(ctx, in.ID)
		if err != nil {
			return nil, sigs, nil, err
		}
		if now := analysisSignature(st.report); !now.Equal(sigs.ByOrigin[incident.OriginAnalysis]) {
			if err := s.deps.Library.SetAnalysisSignature(ctx, in.ID, now); err != nil {
				return nil, sigs, nil, err
			}
			if sigs, err = s.deps.Library.Signatures(ctx, in.ID); err != nil {
				return nil, sigs, nil, err
			}
			sig = now
		}
	}
	target := incident.Candidate{ID: in.ID, Title: in.Title, Cluster: in.Cluster, Signature: sig}
	candidates, err := s.deps.Library.RelatedCandidates(ctx, target, store.RelatedLimits{SameRoot: 0, Shared: limit})
	if err != nil {
		return nil, sigs, nil, err
	}
	return in, sigs, incident.Related(target, candidates), nil
}

// relatedPage renders /incidents/{id}/related: the incident's signature, where it comes from,
// a form to set it, and the related incidents.
func (s *Server) relatedPage(c *gin.Context) error {
	return s.renderRelated(c, http.StatusOK, nil, "")
}

// relatedPageRows is how many related incidents a page of /incidents/{id}/related shows; the
// others are on the next pages (?offset=), so that a root cause shared by thousands of
// incidents makes no page of megabytes.
const relatedPageRows = 100

func (s *Server) renderRelated(c *gin.Context, status int, form *incidents.SignatureForm, formErr string) error {
	in, sigs, rel, err := s.related(c)
	if err != nil {
		return err
	}
	offset, _ := strconv.Atoi(c.Query("offset"))
	offset = max(0, min(offset, len(rel)))
	pager := incidents.RelatedPager{Offset: offset, Total: len(rel), SameRoot: countRelation(rel, incident.SameRootCause),
		Shared: countRelation(rel, incident.SharedComponent)}
	if offset > 0 {
		pager.Prev = relatedURL(in.ID, max(0, offset-relatedPageRows))
	}
	if offset+relatedPageRows < len(rel) {
		pager.Next = relatedURL(in.ID, offset+relatedPageRows)
	}
	page := rel[offset:min(len(rel), offset+relatedPageRows)]
	rows := make([]incidents.RelatedRow, len(page))
	for i, r := range page {
		p := r.Parts
		rows[i] = incidents.RelatedRow{ID: r.ID, Title: r.Title, Relation: r.Relation, Reason: r.Reason(), Why: r.Why, Score: r.Score,
			Parts: incidents.ScoreParts{Base: p.Base, Weight: p.Weight, Causes: p.Causes, Symptoms: p.Symptoms, Components: p.Components}}
	}
	view := signatureView(sigs)
	if form != nil {
		view.Form = *form
	}
	view.Error = formErr
	return render(c, status, "Related to "+in.Title, incidents.RelatedPage(in.ID, in.Title, view, rows, pager))
}

func countRelation(rel []incident.Relation, relation string) int {
	n := 0
	for _, r := range rel {
		if r.Relation == relation {
			n++
		}
	}
	return n
}

func relatedURL(id string, offset int) string {
	return "/incidents/" + url.PathEscape(id) + "/related?offset=" + strconv.Itoa(offset) + "#related"
}
