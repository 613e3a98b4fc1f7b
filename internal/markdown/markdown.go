// Package markdown renders the Markdown people write in notes as safe HTML: CommonMark with
// GitHub's tables and strikethrough, raw HTML dropped by the renderer, and the result passed
// through a sanitiser that allows only ordinary formatting and http(s) links. What it renders
// is bounded (MaxDepth, MaxHTML) and kept, so that a page renders a text once.
package markdown

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"html"
	"sync/atomic"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/util"
)

// cacheBytes bounds the HTML a Renderer keeps.
const cacheBytes = 32 << 20

// MaxHTML bounds the HTML of n bytes of Markdown: 5n + 64 KiB. Markdown whose HTML would be
// larger (nested lists of one-letter items, MaxDepth deep on every line, are ten times their
// text) is shown as its escaped text, which is at most 5n.
func MaxHTML(n int) int { return 5*n + 64<<10 }

// Renderer turns Markdown into sanitised HTML. It is safe for concurrent use.
type Renderer struct {
	md      goldmark.Markdown
	policy  *bluemonday.Policy
	cache   *cache
	renders atomic.Int64 // texts converted, not found in the cache
}

// New returns a Renderer.
func New() *Renderer {
	p := bluemonday.UGCPolicy()
	p.AllowURLSchemes("http", "https", "mailto")
	p.RequireNoFollowOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	md := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify),
		goldmark.WithParserOptions(parser.WithASTTransformers(util.Prioritized(flatten{MaxDepth}, 1000))))
	return &Renderer{md: md, policy: p, cache: newCache(cacheBytes)}
}

// HTML renders src. Raw HTML in the source is not rendered, and what the Markdown makes of it
// is sanitised again, so script, event handlers and javascript: links cannot come through.
// Lists and quotes nest at most MaxDepth deep, and the HTML is at most MaxHTML(len(src)).
// The HTML of a text rendered before is the one kept then.
func (r *Renderer) HTML(src string) (string, error) {
	key := sha256.Sum256([]byte(src))
	if h, ok := r.cache.get(key); ok {
		return h, nil
	}
	r.renders.Add(1)
	var b bytes.Buffer
	if err := r.md.Convert([]byte(capNesting(src, MaxDepth)), &b); err != nil {
		return "", fmt.Errorf("markdown: %w", err)
	}
	out := r.policy.Sanitize(b.String())
	if len(out) > MaxHTML(len(src)) {
		out = "<pre>" + html.EscapeString(src) + "</pre>"
	}
	r.cache.put(key, out)
	return out, nil
}

// Renders is how many texts the Renderer has converted: what a page cost in rendering.
func (r *Renderer) Renders() int64 { return r.renders.Load() }
