package report

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/kinds"
)

// Signature is the signature an analysis gives: its symptom and cause kinds, its root
// cause and the components its causes name, by workload.
//
// The symptoms the input's authors report (ClaimRef.Symptoms) count too: a postmortem that
// says the hub was OOM-killed is related to incidents where it was, though it shows no output.
func Signature(rep analysis.Report) incident.Signature {
	sig := incident.SignatureOf(frontMatterOf(rep))
	sig.Components = incident.WorkloadNames(sig.Components)
	for _, c := range rep.Claims {
		for _, k := range c.Symptoms {
			if !slices.Contains(sig.Symptoms, k) {
				sig.Symptoms = append(sig.Symptoms, k)
			}
		}
	}
	return sig
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

// Markdown is the text of a report written from an analysis: the summary and the ranked
// changes, the causes, the symptoms, the
// alerts Alertmanager posted over the incident, the metrics read and the missing evidence. The
// notes are the report's own field.
func Markdown(title string, rep analysis.Report, alerts []alert.Alert) string {
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
			where = append(where, k+" "+literal(v))
		}
	}
	line := fmt.Sprintf("%s **%s**", when, literal(orWord(a.Labels["alertname"], "alert "+a.Fingerprint)))
	if len(where) > 0 {
		line += " (" + strings.Join(where, ", ") + ")"
	}
	if text := orWord(a.Annotations["summary"], a.Annotations["description"]); text != "" {
		line += ": " + literal(text)
	}
	return line
}

// markdownSpecial are the characters Markdown (CommonMark, GFM) gives a meaning within a line:
// each is written escaped in what a sender chose (an alert's labels and annotations), so that it
// reads as the text it is, never a link, an image, emphasis, code, a table cell, an entity or
// HTML in the report. (What means something only at a line's start, # - + 1., never starts
// one here: the line starts with the alert's time.)
const markdownSpecial = "\\`*_[]<>!|~&"

// literal is s on one line with every Markdown special character escaped.
func literal(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(markdownSpecial, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// orWord is s, or word when s is empty.
func orWord(s, word string) string {
	if s == "" {
		return word
	}
	return s
}
