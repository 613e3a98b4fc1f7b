package server

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/textcheck"
	"github.com/rootline-dev/rootline/templates/incidents"
)

// A symptom group or a merged cause stands for many members; the analysis keeps them all, and
// these answers page through them: GET /api/v1/incidents/{id}/symptoms/{sid}/members and
// …/causes/{cid}/members as JSON, /incidents/{id}/symptoms/{sid} and …/causes/{cid} as pages.
// A group of one fact (89 pods of one Deployment waiting together) pages through its objects.

// Members per page: the default and the most one page may hold.
const (
	defaultMembers = 100
	maxMembers     = 1000
)

// membersResponse is a page of a group's members.
type membersResponse struct {
	ID      string               `json:"id"`
	Kind    string               `json:"kind"`
	Total   int                  `json:"total"`
	Offset  int                  `json:"offset"`
	Limit   int                  `json:"limit"`
	Members any                  `json:"members,omitempty"`
	Objects []analysis.ObjectRef `json:"objects,omitempty"`
}

// membersPage reads offset and limit: 400 for what is not a number in range.
func membersPage(c *gin.Context) (offset, limit int, err error) {
	limit = defaultMembers
	for _, q := range []struct {
		name string
		to   *int
		max  int
	}{{"offset", &offset, 1 << 30}, {"limit", &limit, maxMembers}} {
		v := c.Query(q.name)
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > q.max || q.name == "limit" && n == 0 {
			return 0, 0, errStatus(http.StatusBadRequest, fmt.Sprintf("%s=%q: use a whole number from %d to %d", q.name, v, map[bool]int{true: 1, false: 0}[q.name == "limit"], q.max))
		}
		*q.to = n
	}
	return offset, limit, nil
}

// window is the part of n items a page holds.
func window(n, offset, limit int) (from, to int) {
	from = min(offset, n)
	return from, min(from+limit, n)
}

// symptomGroup finds a symptom of the incident's analysis: 404 naming it when there is none.
func (s *Server) symptomGroup(c *gin.Context) (*incidentState, analysis.Symptom, error) {
	st, err := s.loadIncident(c.Request.Context(), c.Param("id"))
	if err != nil {
		return nil, analysis.Symptom{}, err
	}
	for _, sy := range st.report.Symptoms {
		if sy.ID == c.Param("sid") {
			return st, sy, nil
		}
	}
	return nil, analysis.Symptom{}, errStatus(http.StatusNotFound, fmt.Sprintf("incident %s has no symptom %s", st.incident.ID, textcheck.Quote(c.Param("sid"))))
}

// causeGroup finds a cause of the incident's analysis: 404 naming it when there is none.
func (s *Server) causeGroup(c *gin.Context) (*incidentState, analysis.Cause, error) {
	st, err := s.loadIncident(c.Request.Context(), c.Param("id"))
	if err != nil {
		return nil, analysis.Cause{}, err
	}
	for _, ca := range st.report.Causes {
		if ca.ID == c.Param("cid") {
			return st, ca, nil
		}
	}
	return nil, analysis.Cause{}, errStatus(http.StatusNotFound, fmt.Sprintf("incident %s has no cause %s", st.incident.ID, textcheck.Quote(c.Param("cid"))))
}

// getSymptomMembers answers GET /api/v1/incidents/{id}/symptoms/{sid}/members.
func (s *Server) getSymptomMembers(c *gin.Context) error {
	offset, limit, err := membersPage(c)
	if err != nil {
		return err
	}
	_, sy, err := s.symptomGroup(c)
	if err != nil {
		return err
	}
	out := membersResponse{ID: sy.ID, Kind: sy.Kind, Offset: offset, Limit: limit}
	if len(sy.Members) > 0 {
		from, to := window(len(sy.Members), offset, limit)
		out.Total, out.Members = len(sy.Members), sy.Members[from:to]
	} else {
		from, to := window(len(sy.Objects), offset, limit)
		out.Total, out.Objects = len(sy.Objects), sy.Objects[from:to]
	}
	c.JSON(http.StatusOK, out)
	return nil
}

// getCauseMembers answers GET /api/v1/incidents/{id}/causes/{cid}/members.
func (s *Server) getCauseMembers(c *gin.Context) error {
	offset, limit, err := membersPage(c)
	if err != nil {
		return err
	}
	_, ca, err := s.causeGroup(c)
	if err != nil {
		return err
	}
	members := ca.Members
	if len(members) == 0 {
		members = []analysis.Cause{ca}
	}
	from, to := window(len(members), offset, limit)
	c.JSON(http.StatusOK, membersResponse{ID: ca.ID, Kind: ca.Kind, Total: len(members), Offset: offset, Limit: limit, Members: members[from:to]})
	return nil
}

// symptomPage renders /incidents/{id}/symptoms/{sid}: a page of the group's members with their
// evidence, or of its objects.
func (s *Server) symptomPage(c *gin.Context) error {
	offset, limit, err := membersPage(c)
	if err != nil {
		return err
	}
	st, sy, err := s.symptomGroup(c)
	if err != nil {
		return err
	}
	p := incidents.GroupPage{IncidentID: st.incident.ID, IncidentTitle: st.incident.Title, ID: sy.ID, Kind: sy.Kind, Summary: sy.Summary, Offset: offset, Limit: limit}
	if len(sy.Members) > 0 {
		p.Total = len(sy.Members)
		from, to := window(p.Total, offset, limit)
		for _, m := range sy.Members[from:to] {
			p.Members = append(p.Members, incidents.GroupMember{ID: m.ID, At: span(m), Summary: m.Summary, Evidence: evidenceViews(m.Evidence)})
		}
	} else {
		p.Total = len(sy.Objects)
		from, to := window(p.Total, offset, limit)
		for _, o := range sy.Objects[from:to] {
			p.Objects = append(p.Objects, objectText(o))
		}
		if offset == 0 {
			p.Members = []incidents.GroupMember{{ID: sy.ID, At: span(sy), Summary: sy.Summary, Evidence: evidenceViews(sy.Evidence)}}
		}
	}
	pager(c, &p)
	return render(c, http.StatusOK, sy.ID+" "+sy.Kind+" · "+st.incident.Title, incidents.GroupMembers(p))
}

// causePage renders /incidents/{id}/causes/{cid}: the causes a merged cause stands for.
func (s *Server) causePage(c *gin.Context) error {
	offset, limit, err := membersPage(c)
	if err != nil {
		return err
	}
	st, ca, err := s.causeGroup(c)
	if err != nil {
		return err
	}
	members := ca.Members
	if len(members) == 0 {
		members = []analysis.Cause{ca}
	}
	p := incidents.GroupPage{IncidentID: st.incident.ID, IncidentTitle: st.incident.Title, ID: ca.ID, Kind: ca.Kind, Summary: ca.Summary,
		Total: len(members), Offset: offset, Limit: limit}
	from, to := window(p.Total, offset, limit)
	for _, m := range members[from:to] {
		v := incidents.GroupMember{ID: m.ID, Summary: m.Summary, Evidence: evidenceViews(m.Evidence)}
		for _, sg := range m.Suggestions {
			v.Suggestions = append(v.Suggestions, incidents.Suggestion{Change: sg.Change, Evidence: evidenceViews(sg.Evidence)})
		}
		p.Members = append(p.Members, v)
	}
	pager(c, &p)
	return render(c, http.StatusOK, ca.ID+" "+ca.Kind+" · "+st.incident.Title, incidents.GroupMembers(p))
}

// pager sets the links to the pages before and after.
func pager(c *gin.Context, p *incidents.GroupPage) {
	link := func(offset int) string {
		q := url.Values{}
		q.Set("offset", strconv.Itoa(offset))
		q.Set("limit", strconv.Itoa(p.Limit))
		return c.Request.URL.Path + "?" + q.Encode()
	}
	if p.Offset > 0 {
		p.PrevURL = link(max(p.Offset-p.Limit, 0))
	}
	if p.Offset+p.Limit < p.Total {
		p.NextURL = link(p.Offset + p.Limit)
	}
}

// objectText names an object for people: "Pod prod/web-1", "Node n-1", and "prod/agent" for a
// controller the input names without its kind.
func objectText(o analysis.ObjectRef) string {
	name := o.Name
	if o.Namespace != "" {
		name = o.Namespace + "/" + o.Name
	}
	if o.Kind == "" {
		return name
	}
	return o.Kind + " " + name
}
