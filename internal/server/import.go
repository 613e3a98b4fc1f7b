package server

import (
	"context"
	"errors"
	"net/http"
	"os"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/crosscheck"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/templates/incidents"
)

// maxReportBytes bounds one report.
const maxReportBytes = 1 << 20

// importResponse is one imported incident.
type importResponse struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Created bool   `json:"created"`
}

// importReports answers POST /api/v1/incidents/import: one report as the body, or several as
// multipart. Every report is read first; one that does not parse refuses the whole request
// with its file and line, so that nothing is half imported.
func (s *Server) importReports(c *gin.Context) error {
	sp, err := receive(c.Writer, c.Request, s.spoolDir(), s.cfg.MaxUploadBytes, csrfLater(c))
	if err != nil {
		return err
	}
	defer sp.remove()
	if len(sp.files) == 0 {
		return errStatus(http.StatusUnprocessableEntity, "no report in the request")
	}
	for _, f := range sp.files {
		if f.size > maxReportBytes {
			return errStatus(http.StatusRequestEntityTooLarge, f.name+": a report larger than 1 MiB")
		}
	}
	release, err := s.budget.acquire(c.Request.Context(), sp.cost(maxReportBytes))
	if err != nil {
		return err
	}
	defer release()
	reports := make([]incident.Report, 0, len(sp.files))
	for _, f := range sp.files {
		if f.size > maxReportBytes {
			return errStatus(http.StatusRequestEntityTooLarge, f.name+": a report larger than 1 MiB")
		}
		data, err := os.ReadFile(f.path)
		if err != nil {
			return err
		}
		name := f.name
		if name == "upload" {
			name = "report.md"
		}
		r, err := incident.ParseReport(name, data, analysis.SymptomKinds, analysis.CauseKinds)
		var pe *incident.ParseError
		if errors.As(err, &pe) {
			return &httpError{Status: http.StatusUnprocessableEntity, Msg: pe.Error(), Extra: gin.H{"file": pe.File, "line": pe.Line}}
		}
		if err != nil {
			return err
		}
		reports = append(reports, r)
	}
	created, err := s.deps.Library.ImportReports(c.Request.Context(), reports, nil)
	if err != nil {
		return err
	}
	out := make([]importResponse, 0, len(reports))
	for i, r := range reports {
		out = append(out, importResponse{ID: r.ID, Title: r.Title, Created: created[i]})
	}
	c.JSON(http.StatusCreated, out)
	return nil
}

// reportView is the imported report of an incident for its page, nil when the incident was not
// imported from a report (no text, no front-matter fields, no signature from a report).
func (s *Server) reportView(ctx context.Context, id string, rep *analysis.Report) (*incidents.ReportView, error) {
	r, err := s.deps.Library.Report(ctx, id)
	if err != nil {
		return nil, err
	}
	sig := incident.SignatureOf(r)
	source, _ := r.ExtraString("source")
	if r.Body == "" && sig.Empty() && r.Org == "" && source == "" {
		return nil, nil
	}
	v := &incidents.ReportView{Org: r.Org, Date: r.Date, Source: source, Tags: r.Tags, RootCause: r.RootCause,
		Symptoms: r.Symptoms, Overridden: r.Edited != nil && !r.Edited.Empty()}
	for _, c := range r.Causes {
		if c != r.RootCause {
			v.Contributing = append(v.Contributing, c)
		}
	}
	for _, c := range r.Components {
		v.Components = append(v.Components, strings.TrimSpace(incident.ComponentWord(c.Kind)+" "+c.Name))
	}
	if v.HTML, err = s.markdown.HTML(r.Body); err != nil {
		return nil, err
	}
	if rep != nil {
		v.Check = checkView(crosscheck.Compare(r, *rep))
	}
	return v, nil
}
