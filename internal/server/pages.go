package server

import (
	"context"
	"net/http"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/kinds"
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

// libraryPage lists the incidents, with the form that creates one.
func (s *Server) libraryPage(c *gin.Context) error {
	return s.renderLibrary(c, http.StatusOK, incidents.NewIncidentForm{})
}

// renderLibrary shows the library's search: how many incidents it finds, the counts per cause
// among them (each a link that narrows the search to that cause, and finds as many), and the
// incidents, each with its root cause and, for a search by words, why it matched.
func (s *Server) renderLibrary(c *gin.Context, status int, form incidents.NewIncidentForm) error {
	f, list, counts, matches, err := s.searchLibrary(c)
	if err != nil {
		return err
	}
	rows := make([]incidents.Row, len(list))
	for i, in := range list {
		rows[i] = incidents.Row{ID: in.ID, Title: in.Title, Org: in.Org, Date: in.Date, Cluster: in.Cluster, Tags: in.Tags, CreatedAt: in.CreatedAt,
			RootCause: in.RootCause}
		if m, ok := matches[in.ID]; ok {
			rows[i].Match = &incidents.Snippet{In: m.In}
			for _, p := range m.Parts {
				rows[i].Match.Parts = append(rows[i].Match.Parts, incidents.Fragment{Text: p.Text, Mark: p.Mark})
			}
		}
	}
	search := incidents.Search{Q: c.Query("q"), Symptom: c.Query("symptom"), Cause: c.Query("cause"), Tag: c.Query("tag"),
		Component: c.Query("component"), Org: c.Query("org"), From: c.Query("from"), To: c.Query("to"), Root: c.Query("root"),
		Symptoms: analysis.SymptomKinds, Causes: analysis.CauseKinds, Components: kinds.Components, Total: counts.Total, Searched: f != (store.IncidentFilter{Limit: f.Limit})}
	for _, cc := range counts.Causes {
		q := c.Request.URL.Query()
		q.Set("cause", cc.Cause)
		search.Counts = append(search.Counts, incidents.CauseCount{Cause: cc.Cause, Incidents: cc.Incidents, Href: "/?" + q.Encode(),
			Active: cc.Cause == f.Cause})
	}
	return render(c, status, "Incidents", incidents.List(rows, form, search, s.publicBase(c.Request)))
}

// searchLibrary runs the library search of a request (the page's and the API's): the
// incidents it selects, the counts per cause among all it finds, and why each matched.
func (s *Server) searchLibrary(c *gin.Context) (store.IncidentFilter, []*incident.Incident, store.Counts, map[string]store.Match, error) {
	ctx := c.Request.Context()
	f, err := incidentFilter(c)
	if err != nil {
		return f, nil, store.Counts{}, nil, err
	}
	if err := s.Settle(ctx); err != nil { // the signatures and dates the list selects and orders by
		return f, nil, store.Counts{}, nil, err
	}
	list, err := s.deps.Incidents.Incidents(ctx, f)
	if err != nil {
		return f, nil, store.Counts{}, nil, err
	}
	counts, err := s.deps.Library.LibraryCounts(ctx, f)
	if err != nil {
		return f, nil, store.Counts{}, nil, err
	}
	matches, err := s.matches(ctx, list, f.Query)
	return f, list, counts, matches, err
}

// matches says why each incident of a search by words matched; nothing without words.
func (s *Server) matches(ctx context.Context, list []*incident.Incident, query string) (map[string]store.Match, error) {
	if query == "" || len(list) == 0 {
		return nil, nil
	}
	ids := make([]string, len(list))
	for i, in := range list {
		ids[i] = in.ID
	}
	return s.deps.Library.SearchMatches(ctx, ids, query)
}
