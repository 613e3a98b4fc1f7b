package incident

import (
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
	Body       string      `json:"-"`
}

// WriteMarkdown writes the report: YAML front matter between --- lines, then the body.
func (r Report) WriteMarkdown(w io.Writer) error {
	fm, err := yaml.Marshal(r)
	if err != nil {
		return fmt.Errorf("incident: report front matter: %w", err)
	}
	_, err = fmt.Fprintf(w, "---\n%s---\n%s\n", fm, strings.TrimSpace(r.Body))
	return err
}
