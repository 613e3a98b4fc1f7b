package server

import (
	"bytes"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/incident"
)

// exportIncident answers GET /api/v1/incidents/{id}/export?format=md|json: the incident as a
// report in the Markdown format of CONTRACT.md (front matter from the analysis, a body with
// the causes, the symptoms, the missing evidence and the notes), or the same with the whole
// analysis and the notes as JSON.
func (s *Server) exportIncident(c *gin.Context) error {
	st, err := s.loadIncident(c.Request.Context(), c.Param("id"))
	if err != nil {
		return err
	}
	in, rep, notes := st.incident, st.report, st.notes
	r := reportOf(in, rep, notes)
	switch c.DefaultQuery("format", "md") {
	case "md":
		var b bytes.Buffer
		if err := r.WriteMarkdown(&b); err != nil {
			return err
		}
		c.Header("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.md"`, in.ID))
		c.Data(http.StatusOK, "text/markdown; charset=utf-8", b.Bytes())
	case "json":
		out := make([]noteResponse, len(notes))
		for i, n := range notes {
			out[i] = toNoteResponse(n)
		}
		c.JSON(http.StatusOK, gin.H{"report": r, "body": r.Body, "analysis": rep, "notes": out})
	default:
		return errStatus(http.StatusBadRequest, "format must be md or json")
	}
	return nil
}

// reportOf makes the library entry of an incident from its analysis and notes.
func reportOf(in *incident.Incident, rep analysis.Report, notes []incident.Note) incident.Report {
	r := incident.Report{ID: in.ID, Title: in.Title, Tags: in.Tags}
	switch {
	case in.StartedAt != nil:
		r.Date = in.StartedAt.Format("2006-01-02")
	case rep.Inputs.From != nil:
		r.Date = rep.Inputs.From.Format("2006-01-02")
	}
	seen := map[string]bool{}
	for _, s := range rep.Symptoms {
		if !seen[s.Kind] {
			seen[s.Kind] = true
			r.Symptoms = append(r.Symptoms, s.Kind)
		}
	}
	comps := map[string]incident.Component{}
	for _, c := range rep.Causes {
		if !seen[c.Kind] {
			seen[c.Kind] = true
			r.Causes = append(r.Causes, c.Kind)
		}
		if c.Role == analysis.Root && r.RootCause == "" {
			r.RootCause = c.Kind
		}
		for _, comp := range c.Components {
			comps[comp.Kind+"/"+comp.Name] = incident.Component{Kind: comp.Kind, Name: comp.Name}
		}
	}
	keys := make([]string, 0, len(comps))
	for k := range comps {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		r.Components = append(r.Components, comps[k])
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", in.Title)
	if len(rep.Causes) > 0 {
		b.WriteString("## Causes\n\n")
		for _, c := range rep.Causes {
			fmt.Fprintf(&b, "- **%s** (%s, confidence %.2f): %s\n", c.Kind, c.Role, c.Confidence, c.Summary)
		}
		b.WriteString("\n")
	}
	if len(rep.Symptoms) > 0 {
		b.WriteString("## Symptoms\n\n")
		for _, s := range rep.Symptoms {
			at := ""
			if s.At != nil {
				at = s.At.Format("15:04Z") + " "
			}
			fmt.Fprintf(&b, "- %s%s: %s\n", at, s.Kind, s.Summary)
		}
		b.WriteString("\n")
	}
	if len(rep.Gaps) > 0 {
		b.WriteString("## Missing evidence\n\n")
		for _, g := range rep.Gaps {
			fmt.Fprintf(&b, "- %s\n", g.Summary)
		}
		b.WriteString("\n")
	}
	if len(notes) > 0 {
		b.WriteString("## Notes\n\n")
		for _, n := range notes {
			fmt.Fprintf(&b, "### %s, %s", n.At.Format("2006-01-02 15:04Z"), n.Kind)
			if n.Author != "" {
				fmt.Fprintf(&b, ", %s", n.Author)
			}
			fmt.Fprintf(&b, "\n\n%s\n\n", n.Body)
		}
	}
	r.Body = b.String()
	return r
}
