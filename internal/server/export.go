package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/report/export"
	"github.com/rootline-dev/rootline/internal/store"
)

// exportIncident answers GET /api/v1/incidents/{id}/export?format=md|json: the incident as a
// report in the library's Markdown format (export.Report: byte for byte what `rootline export
// --incident ID` writes), or that report with the whole analysis and the notes as JSON.
func (s *Server) exportIncident(c *gin.Context) error {
	ctx := c.Request.Context()
	format := c.DefaultQuery("format", "md")
	if format != "md" && format != "json" {
		return errStatus(http.StatusBadRequest, "format must be md or json")
	}
	in, err := s.incident(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	if err := s.Settle(ctx); err != nil {
		return err
	}
	// The incident's analysis is its cached state's, made (or kept) as its pages make it: an
	// export never analyses a large incident again beside it.
	analysed := func(ctx context.Context) (analysis.Report, []alert.Alert, bool, error) {
		st, err := s.loadIncident(ctx, in.ID)
		if err != nil {
			return analysis.Report{}, nil, false, err
		}
		m := st.model
		held := len(m.Pods)+len(m.Nodes)+len(m.Events)+len(m.Others) > 0 || len(st.alerts) > 0
		return st.report, st.alerts, held, nil
	}
	r, err := export.Report(ctx, exportSource{s.deps.Library, s.deps.Objects}, in.ID, analysed)
	if errors.Is(err, store.ErrNotFound) { // removed since
		return errStatus(http.StatusNotFound, fmt.Sprintf("incident %s not found", in.ID))
	}
	if err != nil {
		return err
	}
	if format == "md" {
		var b bytes.Buffer
		if err := r.WriteMarkdown(&b); err != nil {
			return err
		}
		c.Header("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.md"`, in.ID))
		c.Data(http.StatusOK, "text/markdown; charset=utf-8", b.Bytes())
		return nil
	}
	st, err := s.loadIncident(ctx, in.ID)
	if err != nil {
		return err
	}
	out := make([]noteResponse, len(st.notes))
	for i, n := range st.notes {
		out[i] = toNoteResponse(n)
	}
	c.JSON(http.StatusOK, gin.H{"report": r, "body": r.Body, "analysis": st.report, "notes": out, "alerts": alertsJSON(st.alerts)})
	return nil
}

// exportSource is the server's collaborators as an export.Source.
type exportSource struct {
	LibraryStore
	ObjectStore
}

// alertJSON is an alert in the JSON export.
type alertJSON struct {
	Fingerprint  string            `json:"fingerprint"`
	Status       string            `json:"status"`
	StartsAt     string            `json:"starts_at"`
	EndsAt       string            `json:"ends_at,omitempty"`
	Labels       map[string]string `json:"labels"`
	Annotations  map[string]string `json:"annotations"`
	GeneratorURL string            `json:"generator_url,omitempty"`
}

func alertsJSON(alerts []alert.Alert) []alertJSON {
	out := make([]alertJSON, len(alerts))
	for i, a := range alerts {
		out[i] = alertJSON{Fingerprint: a.Fingerprint, Status: a.Status, StartsAt: a.StartsAt.UTC().Format(time.RFC3339), Labels: a.Labels,
			Annotations: a.Annotations, GeneratorURL: a.GeneratorURL}
		if !a.EndsAt.IsZero() {
			out[i].EndsAt = a.EndsAt.UTC().Format(time.RFC3339)
		}
	}
	return out
}
