package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/kinds"
	"github.com/rootline-dev/rootline/internal/store"
)

// exportIncident answers GET /api/v1/incidents/{id}/export?format=md|json: the incident as a
// report in the library's Markdown format (ExportReport: byte for byte what `rootline export
// --incident ID` writes), or that report with the whole analysis and the notes as JSON.
func (s *Server) exportIncident(c *gin.Context) error {
	ctx := c.Request.Context()
	format := c.DefaultQuery("format", "md")
	if format != "md" && format != "json" {
		return errStatus(http.StatusBadRequest, "format must be md or json")
	}
	in, err := s.incident(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	if err := s.Settle(ctx); err != nil {
		return err
	}
	r, err := ExportReport(ctx, exportSource{s.deps.Library, s.deps.Objects}, in.ID)
	if errors.Is(err, store.ErrNotFound) { // removed since
		return errStatus(http.StatusNotFound, fmt.Sprintf("incident %s not found", in.ID))
	}
	if err != nil {
		return err
	}
	if format == "md" {
		var b bytes.Buffer
		if err := r.WriteMarkdown(&b); err != nil {
			return err
		}
		c.Header("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.md"`, in.ID))
		c.Data(http.StatusOK, "text/markdown; charset=utf-8", b.Bytes())
		return nil
	}
	st, err := s.loadIncident(ctx, in.ID)
	if err != nil {
		return err
	}
	out := make([]noteResponse, len(st.notes))
	for i, n := range st.notes {
		out[i] = toNoteResponse(n)
	}
	c.JSON(http.StatusOK, gin.H{"report": r, "body": r.Body, "analysis": st.report, "notes": out, "alerts": alertsJSON(st.alerts)})
	return nil
}

// ReportSource is what an export reads: an incident's stored report and signatures, and what
// its snapshots hold, for an incident that has no report of its own.
type ReportSource interface {
	Report(ctx context.Context, id string) (incident.Report, error)
	Signatures(ctx context.Context, id string) (incident.Signatures, error)
	IncidentEvidence(ctx context.Context, incidentID string, prev *store.Evidence) (*store.Evidence, error)
}

// exportSource is the server's collaborators as a ReportSource.
type exportSource struct {
	LibraryStore
	ObjectStore
}

// ExportReport is incident id as a report of the library. GET /api/v1/incidents/{id}/export
// and `rootline export` both write it, so that they give the same bytes. It is what the
// incident is: its stored report (fields, date, time window, cluster, tags, text, the unknown
// front-matter fields kept, the report's signature and a person's under edited) and its notes,
// so that importing it gives the same incident back. An incident no report speaks for (one
// known from its snapshots) takes the signature of their analysis as its report's; one
// without a text of its own gets one written from that analysis. ErrNotFound (wrapped) when it
// does not exist.
func ExportReport(ctx context.Context, src ReportSource, id string) (incident.Report, error) {
	r, err := src.Report(ctx, id)
	if err != nil {
		return r, err
	}
	if r.Body != "" && !incident.SignatureOf(r).Empty() {
		return r, nil
	}
	ev, err := src.IncidentEvidence(ctx, id, nil)
	if err != nil {
		return r, err
	}
	if len(ev.Objects) == 0 && len(ev.Alerts) == 0 {
		return r, nil
	}
	rep := analysis.Run(cluster.NewModel(ev.Files, ev.Objects), analysisOptions(ev)) // as the incident's pages analyse it
	if incident.SignatureOf(r).Empty() {
		sig := analysisSignature(rep)
		r.Symptoms, r.RootCause, r.Causes, r.Components = sig.Symptoms, sig.RootCause, sig.Causes, sig.Components
	}
	if r.Body == "" {
		r.Body = analysisText(r.Title, rep, ev.Alerts)
	}
	return r, nil
}

// frontMatterOf is the signature an analysis gives, as a report's front matter: its symptom
// and cause kinds (each once, in the analysis' order), its first root cause, and the components
// its causes name (by kind and name).
func frontMatterOf(rep analysis.Report) incident.Report {
	var r incident.Report
	seen := map[string]bool{}
	for _, s := range rep.Symptoms {
		if !seen[s.Kind] {
			seen[s.Kind] = true
			r.Symptoms = append(r.Symptoms, s.Kind)
		}
	}
	comps := map[string]incident.Component{}
	for _, c := range rep.Causes {
		if !seen[c.Kind] {
			seen[c.Kind] = true
			r.Causes = append(r.Causes, c.Kind)
		}
		if c.Role == analysis.Root && r.RootCause == "" {
			r.RootCause = c.Kind
		}
		for _, comp := range c.Components {
			comps[comp.Kind+"/"+comp.Name] = incident.Component{Kind: comp.Kind, Name: comp.Name}
		}
	}
	keys := make([]string, 0, len(comps))
	for k := range comps {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		r.Components = append(r.Components, comps[k])
	}
	return r
}

// analysisText is the text of a report written from an analysis: the summary and the ranked
// changes, the causes, the symptoms, the
// alerts Alertmanager posted over the incident, the metrics read and the missing evidence. The
// notes are the report's own field.
func analysisText(title string, rep analysis.Report, alerts []alert.Alert) string {
	if len(rep.Causes) == 0 && len(rep.Symptoms) == 0 && len(alerts) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\nWritten by Rootline from the analysis of the incident's snapshots.\n\n", title)
	if sm := rep.Summary; sm != nil {
		fmt.Fprintf(&b, "## Summary\n\n**What happened.** %s\n\n**Why.** %s\n\n**How sure.** %s\n\n", sm.WhatHappened, sm.Why, sm.Sure)
		if len(sm.Changes) > 0 {
			b.WriteString("## What to change, the most preventive first\n\n")
			for i, c := range sm.Changes {
				fmt.Fprintf(&b, "%d. %s (answers %s", i+1, c.Change, strings.Join(c.Causes, ", "))
				if len(c.Prevents) > 0 {
					fmt.Fprintf(&b, "; would have prevented %s", strings.Join(c.Prevents, ", "))
				}
				b.WriteString(")\n")
			}
			b.WriteString("\n")
		}
		for _, c := range sm.Dropped {
			fmt.Fprintf(&b, "Not suggested: %s, because %s.\n\n", c.Change, c.Why)
		}
	}
	if len(rep.Causes) > 0 {
		b.WriteString("## Causes\n\n")
		for _, c := range rep.Causes {
			fmt.Fprintf(&b, "- %s **%s** (`%s`, %s, confidence %.2f): %s\n", c.ID, kinds.Name(c.Kind), c.Kind, c.Role, c.Confidence, c.Summary)
		}
		b.WriteString("\n")
	}
	if len(rep.Symptoms) > 0 {
		b.WriteString("## Symptoms\n\n")
		for _, s := range rep.Symptoms {
			at := ""
			if s.At != nil {
				at = s.At.UTC().Format("2006-01-02 15:04Z") + " "
			}
			fmt.Fprintf(&b, "- %s %s%s (`%s`): %s\n", s.ID, at, kinds.Name(s.Kind), s.Kind, s.Summary)
		}
		b.WriteString("\n")
	}
	if len(alerts) > 0 {
		b.WriteString("## Alerts\n\n")
		for _, a := range alerts {
			b.WriteString("- " + alertLine(a) + "\n")
		}
		b.WriteString("\n")
	}
	if len(rep.Inputs.Queries) > 0 {
		fmt.Fprintf(&b, "## Metrics read\n\n%d series of %s.\n\n", rep.Inputs.Series, strings.Join(rep.Inputs.Queries, ", "))
	}
	if len(rep.Gaps) > 0 {
		b.WriteString("## Missing evidence\n\n")
		for _, g := range rep.Gaps {
			fmt.Fprintf(&b, "- %s\n", g.Summary)
		}
	}
	return strings.TrimSpace(b.String())
}

// alertLine writes an alert for a report: when it fired (and until when), its name, the labels
// that say where, and its summary.
func alertLine(a alert.Alert) string {
	when := a.StartsAt.UTC().Format("2006-01-02 15:04Z")
	if a.Status == alert.Resolved && !a.EndsAt.IsZero() {
		when += " to " + a.EndsAt.UTC().Format("15:04Z")
	} else {
		when += ", still firing when last told"
	}
	var where []string
	for _, k := range []string{"severity", "namespace", "pod", "node", "instance"} {
		if v := a.Labels[k]; v != "" {
			where = append(where, k+" "+v)
		}
	}
	line := fmt.Sprintf("%s **%s**", when, orWord(a.Labels["alertname"], "alert "+a.Fingerprint))
	if len(where) > 0 {
		line += " (" + strings.Join(where, ", ") + ")"
	}
	if text := orWord(a.Annotations["summary"], a.Annotations["description"]); text != "" {
		line += ": " + strings.Join(strings.Fields(text), " ")
	}
	return line
}

// alertJSON is an alert in the JSON export.
type alertJSON struct {
	Fingerprint  string            `json:"fingerprint"`
	Status       string            `json:"status"`
	StartsAt     string            `json:"starts_at"`
	EndsAt       string            `json:"ends_at,omitempty"`
	Labels       map[string]string `json:"labels"`
	Annotations  map[string]string `json:"annotations"`
	GeneratorURL string            `json:"generator_url,omitempty"`
}

func alertsJSON(alerts []alert.Alert) []alertJSON {
	out := make([]alertJSON, len(alerts))
	for i, a := range alerts {
		out[i] = alertJSON{Fingerprint: a.Fingerprint, Status: a.Status, StartsAt: a.StartsAt.UTC().Format(time.RFC3339), Labels: a.Labels,
			Annotations: a.Annotations, GeneratorURL: a.GeneratorURL}
		if !a.EndsAt.IsZero() {
			out[i].EndsAt = a.EndsAt.UTC().Format(time.RFC3339)
		}
	}
	return out
}
