package server

import (
	"net/http"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/templates"
	"github.com/rootline-dev/rootline/templates/incidents"
)

// render writes a page: the component inside the layout, or alone for an htmx request.
func render(c *gin.Context, status int, title string, content templ.Component) error {
	c.Status(status)
	c.Header("Content-Type", "text/html; charset=utf-8")
	page := content
	if c.GetHeader("HX-Request") == "" {
		page = templates.Layout(title, content)
	}
	return page.Render(c.Request.Context(), c.Writer)
}

func (s *Server) libraryPage(c *gin.Context) error {
	list, err := s.deps.Incidents.Incidents(c.Request.Context(), store.IncidentFilter{Tag: c.Query("tag")})
	if err != nil {
		return err
	}
	rows := make([]incidents.Row, len(list))
	for i, in := range list {
		rows[i] = incidents.Row{ID: in.ID, Title: in.Title, Cluster: in.Cluster, Tags: in.Tags, CreatedAt: in.CreatedAt}
	}
	return render(c, http.StatusOK, "Incidents", incidents.List(rows))
}
