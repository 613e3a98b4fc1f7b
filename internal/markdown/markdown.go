// Package markdown renders the Markdown people write in notes as safe HTML: CommonMark with
// GitHub's tables and strikethrough, raw HTML dropped by the renderer, and the result passed
// through a sanitiser that allows only ordinary formatting and http(s) links.
package markdown

import (
	"bytes"
	"fmt"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// Renderer turns Markdown into sanitised HTML. It is safe for concurrent use.
type Renderer struct {
	md     goldmark.Markdown
	policy *bluemonday.Policy
}

// New returns a Renderer.
func New() *Renderer {
	p := bluemonday.UGCPolicy()
	p.AllowURLSchemes("http", "https", "mailto")
	p.RequireNoFollowOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	return &Renderer{md: goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify)), policy: p}
}

// HTML renders src. Raw HTML in the source is not rendered, and what the Markdown makes of it
// is sanitised again, so script, event handlers and javascript: links cannot come through.
func (r *Renderer) HTML(src string) (string, error) {
	var b bytes.Buffer
	if err := r.md.Convert([]byte(src), &b); err != nil {
		return "", fmt.Errorf("markdown: %w", err)
	}
	return r.policy.Sanitize(b.String()), nil
}
