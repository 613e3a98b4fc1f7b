package server

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/ingest"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/templates/incidents"
)

// incidentRows are the incidents the upload page offers to upload to. It does not wait for
// the signature refreshes running (Settle): the list names incidents, and an upload through
// the form must not wait for the analysis of the one before.
func (s *Server) incidentRows(c *gin.Context) ([]incidents.Row, error) {
	f, err := incidentFilter(c)
	if err != nil {
		return nil, err
	}
	list, err := s.deps.Incidents.Incidents(c.Request.Context(), f)
	if err != nil {
		return nil, err
	}
	rows := make([]incidents.Row, len(list))
	for i, in := range list {
		rows[i] = incidents.Row{ID: in.ID, Title: in.Title, Org: in.Org, Date: in.Date, Cluster: in.Cluster, Tags: in.Tags, CreatedAt: in.CreatedAt}
	}
	return rows, nil
}

// createIncidentForm takes the library page's form: 303 to the new incident, or 422 with the
// page and the form as typed.
func (s *Server) createIncidentForm(c *gin.Context) error {
	form := incidents.NewIncidentForm{ID: strings.TrimSpace(c.PostForm("id")), Title: c.PostForm("title"),
		Cluster: strings.TrimSpace(c.PostForm("cluster")), Tags: c.PostForm("tags")}
	in := &incident.Incident{ID: form.ID, Title: form.Title, Cluster: form.Cluster}
	for _, t := range strings.Split(form.Tags, ",") {
		if t = strings.TrimSpace(t); t != "" {
			in.Tags = append(in.Tags, t)
		}
	}
	if in.ID == "" {
		in.ID = incident.NewID(time.Now())
	}
	err := in.Validate()
	if err == nil {
		err = s.deps.Incidents.CreateIncident(c.Request.Context(), in)
		if errors.Is(err, store.ErrExists) {
			err = fmt.Errorf("incident %s already exists", in.ID)
		} else if err != nil {
			return err
		}
	}
	if err != nil {
		form.Error = err.Error()
		return s.renderLibrary(c, http.StatusUnprocessableEntity, form)
	}
	c.Redirect(http.StatusSeeOther, "/incidents/"+in.ID)
	return nil
}

// uploadPage shows the upload form.
func (s *Server) uploadPage(c *gin.Context) error {
	rows, err := s.incidentRows(c)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, "Upload", incidents.UploadPage(incidents.Upload{Incidents: rows, Selected: c.Query("incident")}))
}

// uploadForm stores each file of the form as a snapshot of its own and shows what each one
// contributed: a file that does not parse is reported with its position and costs nothing of
// the others, nor of the incident.
func (s *Server) uploadForm(c *gin.Context) error {
	ctx := c.Request.Context()
	rows, err := s.incidentRows(c)
	if err != nil {
		return err
	}
	sp, err := receive(c.Writer, c.Request, s.spoolDir(), s.cfg.MaxUploadBytes, csrfLater(c))
	if err != nil {
		he := s.classify(err)
		return render(c, he.Status, "Upload", incidents.UploadPage(incidents.Upload{Incidents: rows, Error: he.Msg}))
	}
	defer sp.remove()
	u := incidents.Upload{Incidents: rows, Selected: sp.fields["incident"], Cluster: sp.fields["cluster"]}
	if _, err := s.deps.Incidents.Incident(ctx, u.Selected); err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		u.Error = fmt.Sprintf("incident %q not found: pick one, or create it on the incidents page first", u.Selected)
		return render(c, http.StatusUnprocessableEntity, "Upload", incidents.UploadPage(u))
	}
	if len(sp.files) == 0 {
		u.Error = "no file chosen, or only empty files"
		return render(c, http.StatusUnprocessableEntity, "Upload", incidents.UploadPage(u))
	}
	status := http.StatusOK
	for _, f := range sp.files {
		one := &spool{files: []spooledFile{f}}
		resp, code, add, err := s.storeSnapshotAdding(ctx, u.Selected, u.Cluster, nil, one, true)
		r := incidents.FileResult{Name: f.name}
		switch {
		case add != nil:
			s.refreshSignature(ctx, u.Selected, add)
		case err == nil: // stored before: the incident may never have been analysed with it
			s.refreshSignature(ctx, u.Selected, nil)
		}
		switch {
		case err != nil:
			he := s.classify(err)
			if he.Status >= 500 {
				s.log.ErrorContext(ctx, "upload page: storing a file failed", "file", f.name, "error", err)
			}
			r.Status, r.Error = "refused", he.Msg
			status = http.StatusUnprocessableEntity
		case code == http.StatusOK:
			r.Status = "already stored"
		default:
			r.Status = "stored"
		}
		if err == nil {
			r.Objects = countsLine(resp.Objects)
			r.Skipped = skippedLines(resp.Skipped)
		}
		u.Results = append(u.Results, r)
	}
	return render(c, status, "Upload", incidents.UploadPage(u))
}

func countsLine(counts map[string]int) string {
	kinds := make([]string, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%d %s", counts[k], k)
	}
	return strings.Join(parts, ", ")
}

// skippedLines describes the skipped objects of an answer.
func skippedLines(list []ingest.Skipped) []string {
	out := make([]string, len(list))
	for i, s := range list {
		switch {
		case s.Kind == ingest.FileKind && s.Line > 0:
			out[i] = fmt.Sprintf("%s:%d: %s", s.File, s.Line, s.Reason) // a whole file, skipped or cut
		case s.Kind == ingest.FileKind:
			out[i] = fmt.Sprintf("%s: %s", s.File, s.Reason)
		case s.Namespace == "":
			out[i] = fmt.Sprintf("%s %s: %s", s.Kind, s.Name, s.Reason)
		default:
			out[i] = fmt.Sprintf("%s %s/%s: %s", s.Kind, s.Namespace, s.Name, s.Reason)
		}
	}
	return out
}
