package server

import (
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/history"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/picture"
	"github.com/rootline-dev/rootline/internal/timeline"
	"github.com/rootline-dev/rootline/templates/incidents"
)

// The history of one object over an incident, Sloop's swimlanes drawn as SVG:
// /incidents/{id}/history?kind=Pod&namespace=prod&name=hub-7c9 as a page, and
// /api/v1/incidents/{id}/history with the same query as JSON (internal/history).

// historyObject reads the object asked for from the query: 400 naming what is wrong.
func historyObject(c *gin.Context) (history.Object, error) {
	o := history.Object{Kind: c.Query("kind"), Namespace: c.Query("namespace"), Name: c.Query("name")}
	for name, v := range map[string]string{"kind": o.Kind, "namespace": o.Namespace, "name": o.Name} {
		if err := incident.CheckLine(name, v, incident.MaxName); err != nil {
			return o, errStatus(http.StatusBadRequest, err.Error())
		}
	}
	if err := o.Validate(); err != nil {
		return o, errStatus(http.StatusBadRequest, err.Error())
	}
	return o, nil
}

// objectHistory is the history of the object the request names, of the incident it names:
// 400 for a bad name, 404 for an incident that is not, or one that holds nothing about it.
func (s *Server) objectHistory(c *gin.Context) (*incidentState, history.History, error) {
	o, err := historyObject(c)
	if err != nil {
		return nil, history.History{}, err
	}
	st, err := s.loadIncident(c.Request.Context(), c.Param("id"))
	if err != nil {
		return nil, history.History{}, err
	}
	h, ok := history.Build(history.Input{Model: st.model, Report: st.report, States: st.changes}, o)
	if !ok {
		return nil, history.History{}, errStatus(http.StatusNotFound, fmt.Sprintf("incident %s holds nothing about %s", st.incident.ID, o))
	}
	return st, h, nil
}

// getHistory answers GET /api/v1/incidents/{id}/history.
func (s *Server) getHistory(c *gin.Context) error {
	_, h, err := s.objectHistory(c)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, h)
	return nil
}

// historyPage renders /incidents/{id}/history: the swimlanes, the changes of the object with
// their diffs, the symptoms marked (each a link to its card), what was left out, and the
// histories that go with it (a pod's workload and node, a workload's pods).
func (s *Server) historyPage(c *gin.Context) error {
	st, h, err := s.objectHistory(c)
	if err != nil {
		return err
	}
	id := st.incident.ID
	p := incidents.HistoryPage{IncidentID: id, IncidentTitle: st.incident.Title, Object: h.Object.String(), SVG: picture.History(h),
		Notes: h.Notes, JSONURL: "/api/v1/incidents/" + url.PathEscape(id) + "/history?" + historyQuery(h.Object).Encode(),
		Window: "nothing of it is dated"}
	if !h.From.IsZero() {
		p.Window = h.From.Format("2006-01-02 15:04:05Z") + " – " + h.To.Format("2006-01-02 15:04:05Z")
	}
	for _, ch := range st.report.Changes {
		if ch.Kind == h.Object.Kind && ch.Namespace == h.Object.Namespace && ch.Name == h.Object.Name ||
			h.Object.Kind == "ReplicaSet" && ch.Namespace == h.Object.Namespace && ch.ReplicaSet == h.Object.Name {
			p.Changes = append(p.Changes, incidents.HistoryChange{ID: ch.ID, Diff: diffView(ch.Field, ch.Before, ch.After, ch.Since, ch.Until, ch.Revision)})
		}
	}
	seen := map[string]bool{}
	for _, g := range h.Groups {
		for _, l := range g.Lanes {
			for _, m := range l.Marks {
				if m.Kind == history.MarkSymptom && !seen[m.Ref] {
					seen[m.Ref] = true
					p.Symptoms = append(p.Symptoms, incidents.HistoryLink{Label: m.Ref + " " + m.Label, URL: "/incidents/" + url.PathEscape(id) + "#" + url.PathEscape(m.Ref)})
				}
			}
		}
	}
	for _, g := range h.Groups[1:] {
		p.Related = append(p.Related, incidents.HistoryLink{Label: g.Object.String(), URL: historyURL(id, g.Object)})
	}
	for _, r := range history.Related(st.model, h.Object) {
		p.Related = append(p.Related, incidents.HistoryLink{Label: r.String(), URL: historyURL(id, r)})
	}
	return render(c, http.StatusOK, "History of "+h.Object.String(), incidents.History(p))
}

// historyQuery is the query naming an object.
func historyQuery(o history.Object) url.Values {
	q := url.Values{"kind": {o.Kind}, "name": {o.Name}}
	if o.Namespace != "" {
		q.Set("namespace", o.Namespace)
	}
	return q
}

// historyURL is the page of an object's history in an incident.
func historyURL(id string, o history.Object) string {
	return "/incidents/" + url.PathEscape(id) + "/history?" + historyQuery(o).Encode()
}

// historyLinks sets the history link of each row that is about one object a history can be
// made of (a group of rows is about "12 objects", and none); rows are the page's entries as
// timelineRows made them, one for one.
func historyLinks(id string, page []timeline.Entry, rows []incidents.Entry) {
	for i, e := range page {
		o := history.Object{Kind: e.Of.Kind, Namespace: e.Of.Namespace, Name: e.Of.Name}
		if o.Validate() == nil {
			rows[i].HistoryURL = historyURL(id, o)
		}
	}
}

// diffView is a change's diff as the pages show it.
func diffView(field, before, after string, since, until time.Time, revision int) *incidents.Diff {
	d := &incidents.Diff{Field: field, Before: before, After: after}
	switch {
	case !since.IsZero() && !until.IsZero() && !since.Equal(until):
		d.When = "between " + since.UTC().Format("2006-01-02 15:04:05Z") + " and " + until.UTC().Format("2006-01-02 15:04:05Z")
	case !until.IsZero():
		d.When = "by " + until.UTC().Format("2006-01-02 15:04:05Z")
	case !since.IsZero():
		d.When = "after " + since.UTC().Format("2006-01-02 15:04:05Z")
	}
	if revision > 0 {
		d.When = fmt.Sprintf("revision %d, %s", revision, d.When)
	}
	return d
}

// causeChanges are the changes a cause stands on, for its card: each with its diff and the
// link to the changed object's history.
func causeChanges(id string, ca analysis.Cause, changes []analysis.Change) []incidents.CauseChange {
	var out []incidents.CauseChange
	for _, x := range ca.Changes {
		for _, ch := range changes {
			if ch.ID != x {
				continue
			}
			o := history.Object{Kind: ch.Kind, Namespace: ch.Namespace, Name: ch.Name}
			v := incidents.CauseChange{ID: ch.ID, Object: o.String(), Diff: diffView(ch.Field, ch.Before, ch.After, ch.Since, ch.Until, ch.Revision)}
			if o.Validate() == nil {
				v.URL = historyURL(id, o)
			}
			out = append(out, v)
		}
	}
	return out
}
