package server

import (
	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/templates"
)

// render writes a page: the component inside the layout, or alone for an htmx request.
func render(c *gin.Context, status int, title string, content templ.Component) error {
	c.Status(status)
	c.Header("Content-Type", "text/html; charset=utf-8")
	page := content
	if c.GetHeader("HX-Request") == "" {
		page = templates.Layout(title, content)
	}
	return page.Render(c.Request.Context(), c.Writer)
}
