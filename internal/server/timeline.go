package server

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/textcheck"
	"github.com/rootline-dev/rootline/internal/timeline"
	"github.com/rootline-dev/rootline/templates/incidents"
)

// Timeline pages: the default and largest number of rows one answer carries. The page and the
// API page alike, so that a 20,000-pod incident's page stays small (docs/timeline.md).
const (
	defaultTimelineLimit = incidents.TimelinePageSize
	maxTimelineLimit     = 5000
	maxExpandRef         = 200
)

// getTimeline answers GET /api/v1/incidents/{id}/timeline: rows in time order, filtered by the
// query (from, to, namespace, node, type, kind, severity), events grouped by node or namespace
// (group), routine rows folded into bursts unless collapse=off, the members of one group or
// burst instead (expand), and paged (offset, limit), with the number of rows the filter selects
// in X-Total-Count. An expand naming nothing the view holds is a 404.
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
	if f.Expand != "" && total == 0 {
		return errStatus(http.StatusNotFound, fmt.Sprintf("expand=%s: no group, collapsed row or evidence of that name in this view", textcheck.Quote(f.Expand)))
	}
	c.Header("X-Total-Count", strconv.Itoa(total))
	c.JSON(http.StatusOK, page)
	return nil
}

// timelineFilter reads a timeline filter from the query; bad values are 400s naming the field.
// Routine rows are folded unless collapse=off.
func timelineFilter(c *gin.Context) (timeline.Filter, error) {
	f := timeline.Filter{Namespace: c.Query("namespace"), Node: c.Query("node"), Kind: c.Query("kind"), Limit: defaultTimelineLimit,
		Collapse: true, Expand: c.Query("expand")}
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
			case timeline.TypeEvent, timeline.TypeSymptom, timeline.TypeCause, timeline.TypeNote, timeline.TypeNode, timeline.TypeChange, timeline.TypeAlert:
				f.Types = append(f.Types, t)
			default:
				return f, errStatus(http.StatusBadRequest, fmt.Sprintf("type=%q: use event, symptom, cause, note, node, change or alert", t))
			}
		}
	}
	if v := c.Query("group"); v != "" {
		if v != "node" && v != "namespace" {
			return f, errStatus(http.StatusBadRequest, fmt.Sprintf("group=%q: use node or namespace", v))
		}
		f.GroupBy = v
	}
	switch v := c.Query("collapse"); v {
	case "", "on":
	case "off":
		f.Collapse = false
	default:
		return f, errStatus(http.StatusBadRequest, fmt.Sprintf("collapse=%q: use on or off", v))
	}
	if len(f.Expand) > maxExpandRef {
		return f, errStatus(http.StatusBadRequest, fmt.Sprintf("expand: at most %d characters", maxExpandRef))
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

// timelineRows are the page's rows for a page of the timeline (the API's rows for the same
// filter), each with its date and time (the page says the date once a day), a change's with its
// diff. The second argument, the whole timeline, is no longer read (a row's date was shown when
// it spanned days); it stays until incident_page.go, which another change owns, drops it.
func timelineRows(page, _ []timeline.Entry) []incidents.Entry {
	out := make([]incidents.Entry, len(page))
	for i, e := range page {
		out[i] = incidents.Entry{At: e.At.UTC().Format("2006-01-02 15:04:05"), Type: e.Type, Kind: e.Kind, Severity: e.Severity, Summary: e.Summary,
			Object: e.Object, Node: e.Node, Ref: e.Ref, Source: e.Source, Count: e.Count, Links: e.Links}
		if d := e.Diff; d != nil {
			var since, until time.Time
			if d.Since != nil {
				since = *d.Since
			}
			if d.Until != nil {
				until = *d.Until
			}
			out[i].Diff = diffView(d.Field, d.Before, d.After, since, until, d.Revision)
		}
	}
	return out
}

// timelineView is the page's view of the filter: what its links and form carry over.
func timelineView(c *gin.Context, f timeline.Filter) incidents.Filter {
	return incidents.Filter{Namespace: f.Namespace, Node: f.Node, Kind: f.Kind, Severity: f.Severity, From: c.Query("from"), To: c.Query("to"),
		Type: c.Query("type"), Group: f.GroupBy, Expand: f.Expand, All: !f.Collapse, Offset: f.Offset, Limit: f.Limit}
}
