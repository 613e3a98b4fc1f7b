package server

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/timeline"
)

// Timeline pages: the default and largest number of entries one answer carries.
const (
	defaultTimelineLimit = 500
	maxTimelineLimit     = 5000
)

// getTimeline answers GET /api/v1/incidents/{id}/timeline: entries in time order, filtered by
// the query (from, to, namespace, node, type, kind, severity), events grouped by node or
// namespace (group), and paged (offset, limit), with
// the number of entries the filter selects in X-Total-Count.
func (s *Server) getTimeline(c *gin.Context) error {
	f, err := timelineFilter(c)
	if err != nil {
		return err
	}
	st, err := s.loadIncident(c.Request.Context(), c.Param("id"))
	if err != nil {
		return err
	}
	page, total := timeline.Apply(st.timeline(), f)
	c.Header("X-Total-Count", strconv.Itoa(total))
	c.JSON(http.StatusOK, page)
	return nil
}

// timelineFilter reads a timeline filter from the query; bad values are 400s naming the field.
func timelineFilter(c *gin.Context) (timeline.Filter, error) {
	f := timeline.Filter{Namespace: c.Query("namespace"), Node: c.Query("node"), Kind: c.Query("kind"), Limit: defaultTimelineLimit}
	for name, dst := range map[string]*time.Time{"from": &f.From, "to": &f.To} {
		if v := c.Query(name); v != "" {
			t, err := time.Parse(time.RFC3339, v)
			if err != nil {
				return f, errStatus(http.StatusBadRequest, fmt.Sprintf("%s=%q: use RFC 3339, e.g. 2023-02-01T17:00:00Z", name, v))
			}
			*dst = t
		}
	}
	if v := c.Query("type"); v != "" {
		for _, t := range strings.Split(v, ",") {
			switch t {
			case timeline.TypeEvent, timeline.TypeSymptom, timeline.TypeCause, timeline.TypeNote, timeline.TypeNode:
				f.Types = append(f.Types, t)
			default:
				return f, errStatus(http.StatusBadRequest, fmt.Sprintf("type=%q: use event, symptom, cause, note or node", t))
			}
		}
	}
	if v := c.Query("group"); v != "" {
		if v != "node" && v != "namespace" {
			return f, errStatus(http.StatusBadRequest, fmt.Sprintf("group=%q: use node or namespace", v))
		}
		f.GroupBy = v
	}
	if v := c.Query("severity"); v != "" {
		if v != timeline.SeverityInfo && v != timeline.SeverityWarning && v != timeline.SeverityCritical {
			return f, errStatus(http.StatusBadRequest, fmt.Sprintf("severity=%q: use info, warning or critical", v))
		}
		f.Severity = v
	}
	for name, dst := range map[string]*int{"offset": &f.Offset, "limit": &f.Limit} {
		if v := c.Query(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || (name == "limit" && (n < 1 || n > maxTimelineLimit)) {
				return f, errStatus(http.StatusBadRequest, fmt.Sprintf("%s=%q: a number (limit from 1 to %d)", name, v, maxTimelineLimit))
			}
			*dst = n
		}
	}
	return f, nil
}
