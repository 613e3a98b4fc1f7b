package server

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/templates/incidents"
)

// updateIncident answers PUT /api/v1/incidents/{id}: the body replaces title, time window,
// cluster and tags (the id stays).
func (s *Server) updateIncident(c *gin.Context) error {
	var req incidentRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	in := &incident.Incident{ID: c.Param("id"), Title: req.Title, Cluster: req.Cluster, StartedAt: req.StartedAt, EndedAt: req.EndedAt, Tags: req.Tags}
	if req.ID != "" && req.ID != in.ID {
		return errStatus(http.StatusUnprocessableEntity, "the id of an incident cannot change")
	}
	return s.saveIncident(c, in, func(err error) error { return errStatus(http.StatusUnprocessableEntity, err.Error()) }, func() {
		got, err := s.deps.Incidents.Incident(c.Request.Context(), in.ID)
		if err != nil {
			c.JSON(http.StatusOK, toIncidentResponse(in))
			return
		}
		c.JSON(http.StatusOK, toIncidentResponse(got))
	})
}

// editIncidentForm takes the edit form of the incident page: 303 back to the page, or 422 with
// the page and the form's message.
func (s *Server) editIncidentForm(c *gin.Context) error {
	c.Set(editFormKey, incidents.EditForm{Title: c.PostForm("title"), Cluster: c.PostForm("cluster"), Tags: c.PostForm("tags"),
		StartedAt: c.PostForm("started_at"), EndedAt: c.PostForm("ended_at")})
	in := &incident.Incident{ID: c.Param("id"), Title: c.PostForm("title"), Cluster: strings.TrimSpace(c.PostForm("cluster"))}
	for _, t := range strings.Split(c.PostForm("tags"), ",") {
		if t = strings.TrimSpace(t); t != "" {
			in.Tags = append(in.Tags, t)
		}
	}
	for name, dst := range map[string]**time.Time{"started_at": &in.StartedAt, "ended_at": &in.EndedAt} {
		if v := strings.TrimSpace(c.PostForm(name)); v != "" {
			t, err := time.Parse(time.RFC3339, v)
			if err != nil {
				return s.renderIncidentWithEditError(c, fmt.Sprintf("%s: use RFC 3339, e.g. 2023-02-01T16:59:00Z", name))
			}
			*dst = &t
		}
	}
	return s.saveIncident(c, in, func(err error) error { return s.renderIncidentWithEditError(c, err.Error()) }, func() {
		c.Redirect(http.StatusSeeOther, "/incidents/"+in.ID)
	})
}

// saveIncident validates and stores an edited incident; invalid answers through refuse.
func (s *Server) saveIncident(c *gin.Context, in *incident.Incident, refuse func(error) error, done func()) error {
	if err := in.Validate(); err != nil {
		return refuse(err)
	}
	if err := s.deps.Incidents.UpdateIncident(c.Request.Context(), in); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return errStatus(http.StatusNotFound, fmt.Sprintf("incident %s not found", in.ID))
		}
		return err
	}
	done()
	return nil
}
