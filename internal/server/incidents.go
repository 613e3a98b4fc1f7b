package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
)

// incidentRequest is the body of POST /api/v1/incidents.
type incidentRequest struct {
	ID        string     `json:"id"`
	Title     string     `json:"title"`
	StartedAt *time.Time `json:"started_at"`
	EndedAt   *time.Time `json:"ended_at"`
	Cluster   string     `json:"cluster"`
	Tags      []string   `json:"tags"`
}

// incidentResponse is an incident as the API shows it.
type incidentResponse struct {
	ID        string     `json:"id"`
	Title     string     `json:"title"`
	Cluster   string     `json:"cluster,omitempty"`
	Org       string     `json:"org,omitempty"`
	Date      string     `json:"date,omitempty"`
	StartedAt *time.Time `json:"started_at,omitempty"`
	EndedAt   *time.Time `json:"ended_at,omitempty"`
	Tags      []string   `json:"tags"`
	RootCause string     `json:"root_cause,omitempty"` // of the signature that speaks for it
	CreatedAt time.Time  `json:"created_at"`
	UpdatedAt time.Time  `json:"updated_at"`
	// Match says, in a search by words, why the incident matched.
	Match *matchResponse `json:"match,omitempty"`
}

// matchResponse is why an incident matched a search: the part of it that holds the words
// (title, report, note or signature) and a snippet of it as HTML, the text escaped and the
// words that matched in <mark>.
type matchResponse struct {
	In      string `json:"in"`
	Snippet string `json:"snippet"`
}

func toMatchResponse(m store.Match) *matchResponse {
	var b strings.Builder
	for _, p := range m.Parts {
		if p.Mark {
			b.WriteString("<mark>" + html.EscapeString(p.Text) + "</mark>")
		} else {
			b.WriteString(html.EscapeString(p.Text))
		}
	}
	return &matchResponse{In: m.In, Snippet: b.String()}
}

func toIncidentResponse(in *incident.Incident) incidentResponse {
	return incidentResponse{ID: in.ID, Title: in.Title, Cluster: in.Cluster, Org: in.Org, Date: in.Date, StartedAt: in.StartedAt, EndedAt: in.EndedAt,
		Tags: in.Tags, RootCause: in.RootCause, CreatedAt: in.CreatedAt, UpdatedAt: in.UpdatedAt}
}

// maxJSONBody bounds small JSON request bodies.
const maxJSONBody = 1 << 20

// decodeJSON reads a JSON body strictly: unknown fields and trailing data are errors.
func decodeJSON(c *gin.Context, dst any) error {
	body, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, maxJSONBody))
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return &httpError{Status: http.StatusUnprocessableEntity, Msg: "invalid JSON body: " + err.Error()}
	}
	if dec.More() {
		return errStatus(http.StatusUnprocessableEntity, "invalid JSON body: data after the object")
	}
	return nil
}

func (s *Server) createIncident(c *gin.Context) error {
	var req incidentRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	in := &incident.Incident{ID: req.ID, Title: req.Title, Cluster: req.Cluster, StartedAt: req.StartedAt, EndedAt: req.EndedAt, Tags: req.Tags}
	if in.ID == "" {
		in.ID = incident.NewID(time.Now())
	}
	if err := in.Validate(); err != nil {
		return &httpError{Status: http.StatusUnprocessableEntity, Msg: err.Error()}
	}
	if err := s.deps.Incidents.CreateIncident(c.Request.Context(), in); err != nil {
		if errors.Is(err, store.ErrExists) {
			return errStatus(http.StatusConflict, fmt.Sprintf("incident %s already exists", in.ID))
		}
		return err
	}
	c.Header("Location", "/api/v1/incidents/"+in.ID)
	c.JSON(http.StatusCreated, toIncidentResponse(in))
	return nil
}

// incidentFilter reads a library search from the query: q (words), symptom, cause, root,
// component, tag, org, from and to (YYYY-MM-DD), limit.
func incidentFilter(c *gin.Context) (store.IncidentFilter, error) {
	if err := checkFilterParams(c); err != nil {
		return store.IncidentFilter{}, err
	}
	f := store.IncidentFilter{Tag: c.Query("tag"), Symptom: c.Query("symptom"), Cause: c.Query("cause"), Root: c.Query("root"),
		Component: c.Query("component"), Org: strings.TrimSpace(c.Query("org")), From: c.Query("from"), To: c.Query("to"), Query: c.Query("q")}
	for name, v := range map[string]string{"from": f.From, "to": f.To} {
		if _, err := time.Parse(time.DateOnly, v); v != "" && err != nil {
			return f, errStatus(http.StatusBadRequest, fmt.Sprintf("%s %q: use a date as YYYY-MM-DD", name, v))
		}
	}
	if v := c.Query("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			return f, errStatus(http.StatusBadRequest, "limit must be a number from 1 to 1000")
		}
		f.Limit = n
	}
	return f, nil
}

// listIncidents answers GET /api/v1/incidents: the incidents the search selects, the best
// matches first for words, else by the day they happened, newest first. X-Total-Count says
// how many it selects beyond the limit; a search by words says why each matched.
func (s *Server) listIncidents(c *gin.Context) error {
	_, list, counts, matches, err := s.searchLibrary(c)
	if err != nil {
		return err
	}
	out := make([]incidentResponse, len(list))
	for i, in := range list {
		out[i] = toIncidentResponse(in)
		if m, ok := matches[in.ID]; ok {
			out[i].Match = toMatchResponse(m)
		}
	}
	c.Header("X-Total-Count", strconv.Itoa(counts.Total))
	c.JSON(http.StatusOK, out)
	return nil
}

func (s *Server) getIncident(c *gin.Context) error {
	in, err := s.incident(c.Request.Context(), c.Param("id"))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, toIncidentResponse(in))
	return nil
}
