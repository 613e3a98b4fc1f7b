package server

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/textcheck"
	"github.com/rootline-dev/rootline/internal/timeline"
	"github.com/rootline-dev/rootline/templates/incidents"
)

// incidentPage renders /incidents/{id}: causes, symptoms, gaps, notes and the timeline, the
// timeline filtered by the same query as the API so that a view can be shared as a link.
func (s *Server) incidentPage(c *gin.Context) error {
	return s.renderIncident(c, http.StatusOK, incidents.NoteForm{Kind: incident.Observation}, "")
}

// renderIncidentWithEditError answers a refused edit: 422, the page, and the reason.
func (s *Server) renderIncidentWithEditError(c *gin.Context, msg string) error {
	c.Set(editErrorKey, msg)
	return s.renderIncident(c, http.StatusUnprocessableEntity, incidents.NoteForm{Kind: incident.Observation}, "")
}

// editErrorKey and editFormKey carry a refused edit's message and input to the page.
const (
	editErrorKey = "edit_error"
	editFormKey  = "edit_form"
)

func (s *Server) renderIncident(c *gin.Context, status int, form incidents.NoteForm, formErr string) error {
	f, err := timelineFilter(c)
	if err != nil {
		return err
	}
	st, err := s.loadIncident(c.Request.Context(), c.Param("id"))
	if err != nil {
		return err
	}
	in, m, rep, notes := st.incident, st.model, st.report, st.notes
	all := st.timeline()
	entries, total := timeline.Apply(all, f)
	p := incidents.Page{ID: in.ID, Title: in.Title, Cluster: in.Cluster, Inputs: inputsLine(rep.Inputs), Total: total,
		Edit: incidents.EditForm{Title: in.Title, Cluster: in.Cluster, Tags: strings.Join(in.Tags, ", "), StartedAt: timeText(in.StartedAt),
			EndedAt: timeText(in.EndedAt), Error: c.GetString(editErrorKey)},
		NoteKinds: incident.NoteKinds, CauseKinds: analysis.CauseKinds, Form: form, FormError: formErr,
		Filter: incidents.Filter{Namespace: f.Namespace, Node: f.Node, Kind: f.Kind, Severity: f.Severity, From: c.Query("from"), To: c.Query("to"), Type: c.Query("type"), Group: f.GroupBy}}
	p.Causes, p.Symptoms, p.Gaps = analysisViews(in.ID, rep)
	p.Summary = summaryView(rep)
	if p.Chain, err = s.chains.Chain(c.Request.Context(), rep); err != nil {
		s.log.Warn("incident page without its causal chain", "incident_id", in.ID, "error", err)
	}
	p.Analysed = rep.Inputs.Pods+rep.Inputs.Nodes+rep.Inputs.Events > 0
	for _, c := range rep.Context {
		p.Context = append(p.Context, c.Summary)
	}
	for _, c := range rep.Claims {
		loc := path.Base(c.File)
		if c.Line > 0 {
			loc = fmt.Sprintf("%s:%d", loc, c.Line)
		}
		p.Claims = append(p.Claims, incidents.Claim{Loc: loc, Text: c.Text, Causes: strings.Join(c.Causes, ", "),
			Symptoms: strings.Join(c.Symptoms, ", ")})
	}
	p.Entries, p.Filter = timelineRows(entries, all), timelineView(c, f)
	historyLinks(in.ID, entries, p.Entries)
	shown, err := notesPage(c, in.ID, notes, &p)
	if err != nil {
		return err
	}
	for _, n := range shown {
		html, err := s.markdown.HTML(n.Body)
		if err != nil {
			return err
		}
		v := incidents.Note{At: n.At.Format("2006-01-02 15:04Z"), Author: n.Author, Kind: n.Kind, HTML: html, Causes: n.Causes}
		v.For, v.Against, v.Missing = weigh(n.Causes, rep)
		p.Notes = append(p.Notes, v)
	}
	if typed, ok := c.Get(editFormKey); ok && p.Edit.Error != "" {
		p.Edit = typed.(incidents.EditForm)
		p.Edit.Error = c.GetString(editErrorKey)
	}
	p.Pictures = pictures(m, rep, all, st.metrics)
	if address := s.prometheus.For(in.Cluster); address != "" {
		p.Prometheus = shownAddress(address)
	}
	p.MetricsError = c.GetString(prometheusErrorKey)
	if len(rep.Inputs.Queries) > 0 {
		p.Metrics = fmt.Sprintf("%d series of %s", rep.Inputs.Series, strings.Join(rep.Inputs.Queries, ", "))
	}
	var analysed *analysis.Report // the report is set against the analysis when there is evidence
	if p.Analysed {
		analysed = &rep
	}
	if p.Report, err = s.reportView(c.Request.Context(), in.ID, analysed); err != nil {
		return err
	}
	return render(c, status, in.Title, incidents.IncidentPage(p))
}

// weigh sets a hypothesis against the analysis: the causes found of the kinds it names (for),
// the kinds not found and the causes that compete for the same symptoms (against), and what
// the analysis says is missing to decide.
func weigh(kinds []string, rep analysis.Report) (forIt, against, missing []string) {
	explained := map[string]bool{}
	for _, k := range kinds {
		found := false
		for _, c := range rep.Causes {
			if c.Kind != k {
				continue
			}
			found = true
			forIt = append(forIt, fmt.Sprintf("%s %s (%s, confidence %.2f): %s", c.ID, c.Kind, c.Role, c.Confidence, c.Summary))
			missing = append(missing, c.Missing...)
			for _, id := range c.Explains {
				explained[id] = true
			}
		}
		if !found {
			against = append(against, fmt.Sprintf("the analysis found no evidence of %s in what was uploaded", k))
		}
	}
	for _, c := range rep.Causes {
		if slices.Contains(kinds, c.Kind) {
			continue
		}
		for _, id := range c.Explains {
			if explained[id] {
				against = append(against, fmt.Sprintf("%s %s also explains %s", c.ID, c.Kind, id))
				break
			}
		}
	}
	for _, g := range rep.Gaps {
		if g.MissingEvidence() {
			missing = append(missing, g.Summary)
		}
	}
	return forIt, against, missing
}

// createNoteForm takes the note form of the incident page: on success it goes back to the
// page (post/redirect/get); a refused note answers 422 with the page and the form as typed.
func (s *Server) createNoteForm(c *gin.Context) error {
	if err := c.Request.ParseForm(); err != nil {
		return errStatus(http.StatusBadRequest, "bad form: "+err.Error())
	}
	form := incidents.NoteForm{At: strings.TrimSpace(c.PostForm("at")), Author: c.PostForm("author"), Kind: c.PostForm("kind"),
		Body: c.PostForm("body"), Causes: c.PostFormArray("causes")}
	n := incident.Note{IncidentID: c.Param("id"), Author: strings.TrimSpace(form.Author), Kind: form.Kind, Body: form.Body, Causes: form.Causes}
	if n.Author == "" {
		n.Author = signedIn(c) // who wrote it, when the field was cleared
	}
	if form.At != "" && form.At != "now" {
		t, err := time.Parse(time.RFC3339, form.At)
		if err != nil {
			return s.renderIncident(c, http.StatusUnprocessableEntity, form, "time: use RFC 3339, e.g. 2023-02-01T17:20:00Z, or leave it empty for now")
		}
		n.At = t
	}
	if err := n.Validate(time.Now(), analysis.CauseKinds); err != nil {
		return s.renderIncident(c, http.StatusUnprocessableEntity, form, err.Error())
	}
	if err := s.deps.Notes.CreateNote(c.Request.Context(), &n); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return errStatus(http.StatusNotFound, fmt.Sprintf("incident %s not found", n.IncidentID))
		}
		return err
	}
	c.Redirect(http.StatusSeeOther, "/incidents/"+n.IncidentID+"#notes")
	return nil
}

// kindsByID is the kind of each symptom and cause of a report, by id, for the links between
// them.
func kindsByID(rep analysis.Report) map[string]string {
	kinds := make(map[string]string, len(rep.Symptoms)+len(rep.Causes))
	for _, sy := range rep.Symptoms {
		kinds[sy.ID] = sy.Kind
	}
	for _, ca := range rep.Causes {
		kinds[ca.ID] = ca.Kind
	}
	return kinds
}

// notFeltSides say what the symptom kinds users did not feel are to the incident: the scale-up
// is the trigger of a chain, an evicted pod left behind a leftover (analysis.Felt).
var notFeltSides = map[string]string{analysis.ScaleUp: "trigger, not felt", analysis.EvictedPodsLingering: "leftover, not felt"}

// shownMembers is how many members a symptom card lists; its page lists them all.
const shownMembers = 5

// analysisViews are the cards of the analysis, in its order (worst first): the causes with
// the links of the chain and the changes to make, the symptom groups with their first
// members, the missing evidence.
func analysisViews(id string, rep analysis.Report) ([]incidents.Cause, []incidents.Symptom, []incidents.Gap) {
	kinds := kindsByID(rep)
	base := "/incidents/" + url.PathEscape(id)
	var causes []incidents.Cause
	causesOf := map[string][]incidents.Link{}
	for _, ca := range rep.Causes {
		v := incidents.Cause{ID: ca.ID, Kind: ca.Kind, Role: ca.Role, Confidence: fmt.Sprintf("%.2f", ca.Confidence), Summary: ca.Summary,
			Count: ca.Count, Evidence: evidenceViews(ca.Evidence), Missing: ca.Missing, Against: evidenceViews(ca.Against)}
		for _, l := range ca.Links {
			v.Links = append(v.Links, incidents.Why{ID: l.To, Kind: kinds[l.To], Why: l.Why})
		}
		for _, sid := range ca.Explains {
			v.Explains = append(v.Explains, incidents.Link{ID: sid, Kind: kinds[sid]})
			causesOf[sid] = append(causesOf[sid], incidents.Link{ID: ca.ID, Kind: ca.Kind})
		}
		v.ChangeRanks = changeRanks(rep.Summary, ca.ID)
		v.MembersURL = base + "/causes/" + ca.ID
		v.Changes = causeChanges(id, ca, rep.Changes)
		causes = append(causes, v)
	}
	var symptoms []incidents.Symptom
	for _, sy := range rep.Symptoms {
		v := incidents.Symptom{ID: sy.ID, Kind: sy.Kind, At: span(sy), Summary: sy.Summary, Count: sy.Count, Critical: sy.Critical && analysis.Felt(sy.Kind),
			Where: where(sy), Causes: causesOf[sy.ID], Evidence: evidenceViews(sy.Evidence)}
		v.AtFrom = sy.Details.AtFrom
		v.Side = notFeltSides[sy.Kind]
		if n := len(sy.Members); n > 0 || len(sy.Objects) > 1 {
			v.MembersTotal, v.MembersURL = max(n, len(sy.Objects)), base+"/symptoms/"+sy.ID
			for i, m := range sy.Members {
				if i == shownMembers {
					break
				}
				v.Members = append(v.Members, incidents.Member{ID: m.ID, At: span(m), Summary: m.Summary})
			}
		}
		symptoms = append(symptoms, v)
	}
	var gaps []incidents.Gap
	for _, g := range rep.Gaps {
		v := incidents.Gap{Summary: g.Summary}
		for _, m := range g.Members {
			v.Members = append(v.Members, m.Summary)
		}
		gaps = append(gaps, v)
	}
	return causes, symptoms, gaps
}

// span is a symptom's time, or the span of a group's members, dated.
func span(s analysis.Symptom) string {
	switch {
	case s.At == nil:
		return ""
	case s.Until == nil:
		return s.At.UTC().Format("2006-01-02 15:04:05Z")
	case s.Until.UTC().Format(time.DateOnly) == s.At.UTC().Format(time.DateOnly):
		return s.At.UTC().Format("2006-01-02 15:04:05") + "–" + s.Until.UTC().Format("15:04:05Z")
	}
	return s.At.UTC().Format("2006-01-02 15:04:05Z") + " – " + s.Until.UTC().Format("2006-01-02 15:04:05Z")
}

// where says which workloads and pools a group's members belong to.
func where(s analysis.Symptom) string {
	shares := func(noun string, ss []analysis.Share) string {
		switch len(ss) {
		case 0:
			return ""
		case 1:
			return noun + " " + ss[0].Name
		}
		var parts []string
		for i, sh := range ss {
			if i == 3 {
				parts = append(parts, fmt.Sprintf("%d more", len(ss)-i))
				break
			}
			parts = append(parts, fmt.Sprintf("%s ×%d", sh.Name, sh.Count))
		}
		return fmt.Sprintf("%d %ss: %s", len(ss), noun, strings.Join(parts, ", "))
	}
	var out []string
	for _, part := range []string{shares("workload", s.Workloads), shares("pool", s.Pools)} {
		if part != "" {
			out = append(out, part)
		}
	}
	return strings.Join(out, " · ")
}

// shownEvidence is how many evidence items a card shows; the API has them all.
const shownEvidence = 3

func evidenceViews(es []analysis.Evidence) []incidents.Evidence {
	out := make([]incidents.Evidence, 0, min(len(es), shownEvidence+1))
	for i, e := range es {
		if i == shownEvidence {
			out = append(out, incidents.Evidence{Loc: fmt.Sprintf("… and %d more", len(es)-shownEvidence)})
			break
		}
		loc := e.File
		if e.Line > 0 {
			loc = fmt.Sprintf("%s:%d", e.File, e.Line)
		}
		out = append(out, incidents.Evidence{Loc: loc, Ref: e.Ref, Field: e.Field, Value: e.Value})
	}
	return out
}

func inputsLine(in analysis.Inputs) string {
	if in.Files == 0 && in.Nodes+in.Pods+in.Events == 0 {
		return "no evidence uploaded yet"
	}
	s := fmt.Sprintf("%d file(s): %d nodes, %d pods, %d events", in.Files, in.Nodes, in.Pods, in.Events)
	if in.From != nil {
		s += fmt.Sprintf(", %s to %s", in.From.Format("2006-01-02 15:04Z"), in.To.Format("15:04Z"))
	}
	return s
}

func timeText(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// notesPerPage is how many notes the incident page shows at once: the latest first page, older
// pages linked, so that an incident of thousands of notes gives a page of bounded size, and
// renders only the notes shown.
const notesPerPage = 50

// notesPage is the page of notes notes_page asks for (1, the default, the latest notesPerPage;
// 2 those before, …), in time order, with p's paging set; 400 for a page that is no number, 404
// for one past the last.
func notesPage(c *gin.Context, id string, notes []incident.Note, p *incidents.Page) ([]incident.Note, error) {
	page := 1
	if v := c.Query("notes_page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return nil, errStatus(http.StatusBadRequest, fmt.Sprintf("notes_page=%s: use a page number, 1 for the latest notes", textcheck.Quote(v)))
		}
		page = n
	}
	pages := max(1, (len(notes)+notesPerPage-1)/notesPerPage)
	if page > pages {
		return nil, errStatus(http.StatusNotFound, fmt.Sprintf("incident %s has %d page(s) of notes, not %d", id, pages, page))
	}
	end := len(notes) - (page-1)*notesPerPage
	start := max(0, end-notesPerPage)
	p.NotesTotal, p.NotesFrom, p.NotesTo = len(notes), start+1, end
	link := func(n int) string {
		return "/incidents/" + url.PathEscape(id) + "?notes_page=" + strconv.Itoa(n) + "#notes"
	}
	if page < pages {
		p.NotesOlder = link(page + 1)
	}
	if page > 1 {
		p.NotesNewer = link(page - 1)
	}
	return notes[start:end], nil
}
