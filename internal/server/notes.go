package server

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
)

// noteRequest is the body of POST /api/v1/incidents/{id}/notes.
type noteRequest struct {
	At     *time.Time `json:"at"`
	Author string     `json:"author"`
	Kind   string     `json:"kind"`
	Body   string     `json:"body"`
	Causes []string   `json:"causes"`
}

// noteResponse is a note as the API shows it.
type noteResponse struct {
	ID        int64     `json:"id"`
	Incident  string    `json:"incident"`
	At        time.Time `json:"at"`
	Author    string    `json:"author"`
	Kind      string    `json:"kind"`
	Body      string    `json:"body"`
	Causes    []string  `json:"causes"`
	CreatedAt time.Time `json:"created_at"`
}

func toNoteResponse(n incident.Note) noteResponse {
	causes := n.Causes
	if causes == nil {
		causes = []string{}
	}
	return noteResponse{ID: n.ID, Incident: n.IncidentID, At: n.At, Author: n.Author, Kind: n.Kind, Body: n.Body, Causes: causes, CreatedAt: n.CreatedAt}
}

func (s *Server) createNote(c *gin.Context) error {
	var req noteRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if err := notAnID(c.Param("id")); err != nil {
		return err
	}
	n := incident.Note{IncidentID: c.Param("id"), Author: req.Author, Kind: req.Kind, Body: req.Body, Causes: req.Causes}
	if n.Author == "" {
		n.Author = signedIn(c)
	}
	if req.At != nil {
		n.At = *req.At
	}
	if err := n.Validate(time.Now(), analysis.CauseKinds); err != nil {
		return errStatus(http.StatusUnprocessableEntity, err.Error())
	}
	if err := s.deps.Notes.CreateNote(c.Request.Context(), &n); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return errStatus(http.StatusNotFound, fmt.Sprintf("incident %s not found", n.IncidentID))
		}
		return err
	}
	c.JSON(http.StatusCreated, toNoteResponse(n))
	return nil
}

func (s *Server) listNotes(c *gin.Context) error {
	if err := notAnID(c.Param("id")); err != nil {
		return err
	}
	notes, err := s.deps.Notes.Notes(c.Request.Context(), c.Param("id"))
	if errors.Is(err, store.ErrNotFound) {
		return errStatus(http.StatusNotFound, fmt.Sprintf("incident %s not found", c.Param("id")))
	}
	if err != nil {
		return err
	}
	out := make([]noteResponse, len(notes))
	for i, n := range notes {
		out[i] = toNoteResponse(n)
	}
	c.JSON(http.StatusOK, out)
	return nil
}
