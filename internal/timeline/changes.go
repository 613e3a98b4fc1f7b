package timeline

import (
	"fmt"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/change"
)

// Diff is what a change row changed: the field, before and after, and the window in which it
// happened (Since zero when only its end is known; Until zero when only its start is).
type Diff struct {
	Field    string     `json:"field"`
	Before   string     `json:"before"`
	After    string     `json:"after"`
	Since    *time.Time `json:"since,omitempty"`
	Until    *time.Time `json:"until,omitempty"`
	Revision int        `json:"revision,omitempty"`
	// ReplicaSet runs the changed template, when the Deployment's ReplicaSets tell it.
	ReplicaSet string `json:"replica_set,omitempty"`
}

// changeEntries are the rows of the changes the analysis read (Report.Changes), one each, at
// the time the change was made by (the end of its window, else its start); a change of no known
// time is left out. A row links to the recent_change causes that stand on it and to the
// symptoms they explain; it is a warning when a cause stands on it. Change rows are never
// folded (collapse.go folds only events and node rows).
func changeEntries(rep analysis.Report) []Entry {
	if len(rep.Changes) == 0 {
		return nil
	}
	citedBy := map[string][]string{} // change id → causes, then the symptoms they explain
	for _, c := range rep.Causes {
		for _, x := range c.Changes {
			citedBy[x] = union(citedBy[x], []string{c.ID})
		}
	}
	for _, c := range rep.Causes {
		for _, x := range c.Changes {
			citedBy[x] = union(citedBy[x], c.Explains)
		}
	}
	out := make([]Entry, 0, len(rep.Changes))
	for _, c := range rep.Changes {
		at := c.Until
		if at.IsZero() {
			at = c.Since
		}
		if at.IsZero() {
			continue
		}
		d := &Diff{Field: c.Field, Before: c.Before, After: c.After, Revision: c.Revision, ReplicaSet: c.ReplicaSet}
		if !c.Since.IsZero() {
			t := c.Since.UTC()
			d.Since = &t
		}
		if !c.Until.IsZero() {
			t := c.Until.UTC()
			d.Until = &t
		}
		sev := SeverityInfo
		if len(citedBy[c.ID]) > 0 {
			sev = SeverityWarning
		}
		e := Entry{At: at.UTC(), Type: TypeChange, Kind: ChangeKind(c.Change), Severity: sev, Summary: clip(changeSummary(c.Change)),
			Namespace: c.Namespace, Ref: c.ID, Links: citedBy[c.ID], Diff: d}
		e.setObject(c.Kind, c.Namespace, c.Name)
		if c.Kind == "Node" {
			e.Node = c.Name
		}
		if c.Source.File != "" {
			e.Source = c.Source.String()
		}
		out = append(out, e)
	}
	return out
}

// ChangeKind is the kind of a change row: what changed, shortly, whichever container it is of
// ("image", "limits.memory", "nodeSelector", "data[app.conf]"), or "created", "deleted" or
// "changed" for the object itself.
func ChangeKind(c change.Change) string {
	switch {
	case !c.Path.Object():
		return c.Path.Short()
	case c.Was.Absent:
		return "created"
	case c.Is.Absent:
		return "deleted"
	}
	return "changed"
}

// changeSummary says a change in words: "Deployment prod/hub spec…image: a → b (revision 2,
// between 16:40 and 16:50 UTC)".
func changeSummary(c change.Change) string {
	s := objectName(c.Kind, c.Namespace, c.Name) + " "
	if c.Field != "" {
		s += c.Field + ": "
	}
	s += c.Before + " → " + c.After
	var when []string
	if c.Revision > 0 {
		when = append(when, fmt.Sprintf("revision %d", c.Revision))
	}
	if !c.Since.IsZero() && !c.Until.IsZero() && !c.Since.Equal(c.Until) {
		when = append(when, "between "+c.Since.UTC().Format(time.RFC3339)+" and "+c.Until.UTC().Format(time.RFC3339))
	} else if c.Until.IsZero() {
		when = append(when, "after "+c.Since.UTC().Format(time.RFC3339)+", end unknown")
	}
	if len(when) > 0 {
		s += " (" + strings.Join(when, ", ") + ")"
	}
	return s
}

// causeChanges adds to a cause row's links the changes it stands on, so that the row leads to
// them as they lead to it.
func causeChanges(rows []Entry, c analysis.Cause) []Entry {
	if len(c.Changes) == 0 || len(rows) == 0 {
		return rows
	}
	rows[0].Links = union(append([]string(nil), rows[0].Links...), c.Changes)
	return rows
}
