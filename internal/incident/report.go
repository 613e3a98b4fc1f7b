package incident

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"sigs.k8s.io/yaml"
)

// Component is a part of the platform an incident involved.
type Component struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
}

// Report is an incident as the library keeps it: front matter (CONTRACT.md's report format)
// and free Markdown text.
type Report struct {
	ID         string      `json:"id"`
	Title      string      `json:"title"`
	Org        string      `json:"org,omitempty"`
	Date       string      `json:"date,omitempty"` // YYYY-MM-DD
	Tags       []string    `json:"tags,omitempty"`
	Symptoms   []string    `json:"symptoms,omitempty"`
	RootCause  string      `json:"root_cause,omitempty"`
	Causes     []string    `json:"causes,omitempty"`
	Components []Component `json:"components,omitempty"`
	// Edited is the signature people set in Rootline, which wins over the report's; an export
	// writes it so that an import restores it as theirs.
	Edited *Signature `json:"edited,omitempty"`
	// Extra keeps front-matter fields Rootline does not know, so that they survive a round trip.
	Extra map[string]json.RawMessage `json:"-"`
	Body  string                     `json:"-"`
}

// WriteMarkdown writes the report: YAML front matter between --- lines (the known fields and
// the kept unknown ones), then the body.
func (r Report) WriteMarkdown(w io.Writer) error {
	js, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("incident: report front matter: %w", err)
	}
	if len(r.Extra) > 0 {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(js, &fields); err != nil {
			return fmt.Errorf("incident: report front matter: %w", err)
		}
		for k, v := range r.Extra {
			fields[k] = v
		}
		if js, err = json.Marshal(fields); err != nil {
			return fmt.Errorf("incident: report front matter: %w", err)
		}
	}
	fm, err := yaml.JSONToYAML(js)
	if err != nil {
		return fmt.Errorf("incident: report front matter: %w", err)
	}
	_, err = fmt.Fprintf(w, "---\n%s---\n%s\n", fm, strings.TrimSpace(r.Body))
	return err
}

// ExtraString is an unknown front-matter field that holds a string ("source"), and whether
// the report has it.
func (r Report) ExtraString(field string) (string, bool) {
	raw, ok := r.Extra[field]
	if !ok {
		return "", false
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}
